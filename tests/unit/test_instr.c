/* test_instr.c: the instrumentation pass: golden PTX, refusals, runtime linking, site tables of nvcc -lineinfo
 * builds, and every module of the PTX corpus instrumented, linked and assembled with ptxas for sm_75 and sm_90. */
#include "devrt/devrt.h"
#include "devrt/devrt_abi.h"
#include "instr/instr.h"
#include "ptx/ptx_sema.h"
#include "ptx_core/ptx_test_util.h"
#include "ptx_core/ptxas_pool.h"
#include "sc_golden.h"
#include "sc_test.h"

#include <dirent.h>

#define GOLDEN_DIR "tests/instr/golden"
#define STUB_RUNTIME "tests/instr/runtime_stub.ptx"
#define CUDA_DIR "tests/instr/cuda"

/* ---- helpers ----------------------------------------------------------------- */

static char *stub_runtime(void)
{
    static char *text;
    size_t len;
    if (!text)
        text = ptxt_read_file(STUB_RUNTIME, &len);
    if (!text)
        printf("cannot read %s\n", STUB_RUNTIME);
    return text;
}

static ScPtxModule *parse_text(const char *text, const char *name)
{
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse(text, strlen(text), name, &err);
    if (!m)
        printf("%s does not parse: %s\n", name, err.msg);
    return m;
}

static char *print_module(const ScPtxModule *m)
{
    ScBuf b = {0};
    if (!sc_ptx_print(m, &b))
        printf("printing ran out of memory\n");
    return sc_buf_take(&b);
}

/* The module `text` instrumented with opts and printed; NULL (a failed check) when it
 * does not parse or is refused. */
static char *instrumented_text(const char *text, const char *name, const ScInstrOpts *opts)
{
    ScPtxModule *m = parse_text(text, name);
    CHECK(m != NULL);
    if (!m)
        return NULL;
    ScInstrResult res;
    ScErr err = {0};
    bool ok = sc_instr_module(m, opts, &res, &err);
    CHECK(ok);
    char *out = ok ? print_module(m) : NULL;
    if (ok)
        sc_instr_result_free(&res);
    sc_ptx_module_free(m);
    return out;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static const char *kind_name(unsigned k)
{
    static const char *const names[] = {"?", "read", "write", "rmw", "red"};
    return k < SC_ARRAY_LEN(names) ? names[k] : "?";
}

static const char *sem_name(unsigned s)
{
    static const char *const names[] = {"?", "weak", "relaxed", "acquire", "release", "acq_rel", "?", "volatile", "mmio"};
    return s < SC_ARRAY_LEN(names) ? names[s] : "?";
}

static const char *scope_name(unsigned s)
{
    static const char *const names[] = {"-", "cta", "cluster", "gpu", "sys"};
    return s < SC_ARRAY_LEN(names) ? names[s] : "?";
}

static const char *space_name(unsigned s)
{
    static const char *const names[] = {"?", "generic", "global", "shared", "shared::cluster"};
    return s < SC_ARRAY_LEN(names) ? names[s] : "?";
}

/* The site and kernel tables as PTX comments, for the golden files. */
static void dump_result(const ScInstrResult *r, ScBuf *out)
{
    sc_buf_printf(out,
                  "// calls: %u access, %u barrier, %u syncwarp, %u fence, %u mbarrier, %u async, %u entry, %u exit; "
                  "%u unchecked sites",
                  r->n_access, r->n_barrier, r->n_syncwarp, r->n_fence, r->n_mbarrier, r->n_async, r->n_entry,
                  r->n_exit, r->n_unchecked);
    if (r->n_pruned)
        sc_buf_printf(out, ", %u pruned", r->n_pruned);
    sc_buf_puts(out, "\n");
    for (uint32_t i = 0; i < r->n_kernels; i++) {
        sc_buf_printf(out, "// kernel %u %s unchecked:", i, r->kernels[i].name);
        if (!r->kernels[i].unchecked)
            sc_buf_puts(out, " -");
        for (unsigned u = 1; u < 32; u++)
            if (r->kernels[i].unchecked & SC_INSTR_UNCHECKED_BIT(u))
                sc_buf_printf(out, " %s;", sc_instr_unchecked_name((ScInstrUnchecked)u));
        if (r->kernels[i].triggers_dependents)
            sc_buf_puts(out, " triggers dependents");
        sc_buf_puts(out, "\n");
    }
    for (uint32_t i = 0; i < r->n_sites; i++) {
        const ScInstrSite *s = &r->sites[i];
        sc_buf_printf(out, "// site %u %s", s->id, sc_instr_site_kind_name(s->kind));
        if (s->kind == SC_INSTR_SITE_UNCHECKED)
            sc_buf_printf(out, " (%s)", sc_instr_unchecked_name(s->unchecked));
        sc_buf_printf(out, " %s:%u:%u '%s'", s->function, s->ptx_line, s->ptx_col, s->instr);
        if (s->kind == SC_INSTR_SITE_FENCE)
            sc_buf_printf(out, " [%s scope %s]", sem_name(SC_ABI_INFO_SEM(s->info)),
                          scope_name(SC_ABI_INFO_SCOPE(s->info)));
        else if (s->info)
            sc_buf_printf(out, " [%s %s size %u %s scope %s%s]", kind_name(SC_ABI_INFO_KIND(s->info)),
                          space_name(SC_ABI_INFO_SPACE(s->info)), SC_ABI_INFO_SIZE(s->info),
                          sem_name(SC_ABI_INFO_SEM(s->info)), scope_name(SC_ABI_INFO_SCOPE(s->info)),
                          s->info & SC_ABI_INFO_LOCK ? " cas/exch" : "");
        sc_buf_puts(out, "\n");
        for (uint32_t f = 0; f < s->n_frames; f++) {
            const ScInstrFrame *fr = &s->frames[f];
            sc_buf_printf(out, "//   %s file %u \"%s\" %u:%u in %s\n", f ? "inlined at" : "at", fr->file,
                          fr->path ? fr->path : "?", fr->line, fr->col, fr->function ? fr->function : "-");
        }
    }
}

static bool write_text(const char *path, const char *data, size_t len)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        ptxt_mkdirs(dir);
    }
    return ptxt_write_file(path, data, len) == 0;
}

/* Writes the module and assembles it for its own target and, where that
 * target runs there, for sm_90 too. Returns the number of ptxas runs started. */
static int assemble(const ScPtxModule *m, const char *path)
{
    char *text = print_module(m);
    CHECK(text != NULL);
    if (!text || !write_text(path, text, strlen(text))) {
        printf("cannot write %s\n", path);
        CHECK(0);
        free(text);
        return 0;
    }
    free(text);
    char own[16] = "sm_75";
    for (uint32_t i = 0; i < m->n_targets; i++) {
        const char *t = m->targets[i];
        if (strncmp(t, "sm_", 3) == 0 || strncmp(t, "compute_", 8) == 0) {
            snprintf(own, sizeof own, "sm_%s", strchr(t, '_') + 1);
            break;
        }
    }
    bool rdc = ptxas_has_extern_refs(m);
    ptxas_start(path, own, rdc);
    unsigned sm = sc_ptx_target_sm(m);
    bool arch_specific = own[strlen(own) - 1] == 'a';
    if (sm < 90 && !arch_specific) {
        ptxas_start(path, "sm_90", rdc);
        return 2;
    }
    return 1;
}

/* ---- golden files ---------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names NAME of DIR/NAME.SUFFIX, sorted. */
static int list_files(const char *dir, const char *suffix, char **names, int max)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    size_t sl = strlen(suffix);
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] != '.' && len > sl && strcmp(e->d_name + len - sl, suffix) == 0)
            names[n++] = strndup(e->d_name, len - sl);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    return n;
}

static void run_golden(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, GOLDEN_DIR "/%s.ptx", name);
    size_t len;
    char *text = ptxt_read_file(path, &len);
    CHECK(text != NULL);
    if (!text)
        return;
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse(text, len, path, &err);
    if (!m) {
        printf("%s: %s\n", path, err.msg);
        CHECK(m != NULL);
        free(text);
        return;
    }
    ScInstrResult res;
    /* Pruning only where the golden file is about it: elsewhere every access shows. */
    ScInstrOpts opts = {.prune = strncmp(name, "prune", 5) == 0};
    if (!sc_instr_module(m, &opts, &res, &err)) {
        printf("%s refused: %s\n", path, err.msg);
        CHECK(0);
    } else {
        ScBuf out = {0};
        char *printed = print_module(m);
        sc_buf_puts(&out, printed ? printed : "");
        dump_result(&res, &out);
        char expected[512];
        snprintf(expected, sizeof expected, GOLDEN_DIR "/%s.expected", name);
        sc_golden_compare(expected, out.data, out.len);
        /* What was printed reads back as the module that was edited. */
        ScPtxModule *again = printed ? parse_text(printed, "instrumented") : NULL;
        CHECK(again != NULL);
        if (again) {
            ScBuf why = {0};
            if (!sc_ptx_module_equal(m, again, &why)) {
                printf("%s: the printed instrumented module reads back differently: %s\n", name, why.data);
                CHECK(0);
            }
            sc_buf_free(&why);
            sc_ptx_module_free(again);
        }
        CHECK(sc_instr_declare_runtime(m, stub_runtime(), &err));
        char declared[768];
        snprintf(declared, sizeof declared, "%s/tests/instr/golden/%s.declared.ptx", sc_test_build_dir(), name);
        assemble(m, declared);
        free(printed);
        sc_buf_free(&out);
        sc_instr_result_free(&res);
    }
    sc_ptx_module_free(m);
    free(text);
}

TEST(golden_modules)
{
    char *names[128];
    int n = list_files(GOLDEN_DIR, ".ptx", names, 128);
    CHECK(n >= 10);
    for (int i = 0; i < n; i++) {
        run_golden(names[i]);
        free(names[i]);
    }
    ptxas_wait_all();
}

/* ---- refusals ------------------------------------------------------------------- */

/* Instruments text that must be refused: err says why, the module is left as
 * it was and the result empty. */
static void check_refused(const char *text, const char *needle1, const char *needle2)
{
    ScPtxModule *m = parse_text(text, "refused.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    char *before = print_module(m);
    ScInstrResult res;
    ScErr err = {0};
    ScInstrOpts opts = {0};
    CHECK(!sc_instr_module(m, &opts, &res, &err));
    CHECK_CONTAINS(err.msg, needle1);
    CHECK_CONTAINS(err.msg, needle2);
    CHECK_INT(0, res.n_sites);
    CHECK(res.sites == NULL && res.kernels == NULL);
    char *after = print_module(m);
    CHECK_STR(before, after);
    free(before);
    free(after);
    sc_instr_result_free(&res);
    sc_ptx_module_free(m);
}

#define HEADER ".version 8.0\n.target sm_75\n.address_size 64\n"

TEST(refuses_unknown_instruction)
{
    check_refused(HEADER ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n"
                         "st.global.u32 [%rd1], 1;\nfrobnicate.sync.b32 %rd1;\nret;\n}\n",
                  "refused.ptx:9:1: error: instruction 'frobnicate.sync.b32'", "runs unchecked");
}

TEST(refuses_32bit_modules)
{
    check_refused(".version 8.0\n.target sm_75\n.address_size 32\n.visible .entry k()\n{\nret;\n}\n",
                  ".address_size is 32", "64-bit modules only");
}

TEST(refuses_modules_using_the_prefix)
{
    check_refused(HEADER ".visible .global .u32 __scord_mine;\n.visible .entry k()\n{\nret;\n}\n", "__scord_mine",
                  "instrumented already");
}

TEST(refuses_undeclared_address_registers)
{
    check_refused(HEADER ".visible .entry k()\n{\n.reg .b32 %r<2>;\nld.global.u32 %r1, [%rd7];\nret;\n}\n",
                  "refused.ptx:7:1", "register %rd7 is not declared");
}

/* Whether instrumenting `body` (a kernel with a .u64 address in %rd1 and a .u32 and
 * a .u16 register) defines `marker`, a module marker of sub-word accesses. */
static bool marks(const char *marker, const char *body)
{
    char text[1024];
    snprintf(text, sizeof text,
             HEADER ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %%rd<2>;\n.reg .b32 %%r<2>;\n"
                    ".reg .b16 %%rs<2>;\nld.param.u64 %%rd1, [p];\n%s\nret;\n}\n",
             body);
    ScInstrOpts opts = {0};
    char *out = instrumented_text(text, "subword.ptx", &opts);
    bool marked = out && strstr(out, marker) != NULL;
    free(out);
    return marked;
}

/* The module of a kernel that may split words of global or shared memory says so:
 * its launches get a split pool for every word of full shadow, or split groups for
 * every word of each slot's own shared memory (docs/devrt.md, "Accesses" item 6). */
TEST(marks_subword_accesses)
{
    const char *global = SC_ABI_SUBWORD_GLOBAL_MARKER, *shared = SC_ABI_SUBWORD_SHARED_MARKER;
    CHECK(marks(global, "ld.global.u8 %rs1, [%rd1];"));
    CHECK(!marks(shared, "ld.global.u8 %rs1, [%rd1];"));
    CHECK(marks(global, "st.u16 [%rd1], %rs1;"));
    CHECK(marks(shared, "st.u16 [%rd1], %rs1;"));
    CHECK(marks(global, "atom.global.cas.b16 %rs1, [%rd1], %rs1, %rs1;"));
    CHECK(marks(shared, "ld.shared.u8 %rs1, [%rd1];"));
    CHECK(!marks(global, "ld.shared.u8 %rs1, [%rd1];"));
    CHECK(!marks(global, "ld.global.u32 %r1, [%rd1];"));
    CHECK(!marks(shared, "ld.u32 %r1, [%rd1];"));
    CHECK(!marks(global, "ld.global.v4.u8 {%rs1, %rs1, %rs1, %rs1}, [%rd1];"));
}

/* A kernel may let its programmatic dependents begin early when it, or a function it
 * calls, executes griddepcontrol.launch_dependents, or it calls a function another
 * unit defines; printf does not count. */
TEST(kernels_that_may_trigger_their_dependents)
{
    ScPtxModule *m = parse_text(HEADER ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
                                       ".extern .func other();\n"
                                       ".func trigger()\n{\ngriddepcontrol.launch_dependents;\nret;\n}\n"
                                       ".visible .entry direct()\n{\ngriddepcontrol.launch_dependents;\nret;\n}\n"
                                       ".visible .entry through_func()\n{\ncall trigger, ();\nret;\n}\n"
                                       ".visible .entry waits_only()\n{\ngriddepcontrol.wait;\nret;\n}\n"
                                       ".visible .entry prints()\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
                                       "mov.u64 %rd1, 0;\n{\n.param .b64 f;\n.param .b64 a;\n.param .b32 r;\n"
                                       "st.param.b64 [f], %rd1;\nst.param.b64 [a], %rd1;\n"
                                       "call (r), vprintf, (f, a);\nld.param.b32 %r1, [r];\n}\nret;\n}\n"
                                       ".visible .entry calls_other()\n{\ncall other, ();\nret;\n}\n",
                                "triggers.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    ScInstrResult res;
    ScErr err = {0};
    ScInstrOpts opts = {0};
    CHECK(sc_instr_module(m, &opts, &res, &err));
    if (err.set)
        printf("%s\n", err.msg);
    static const struct {
        const char *name;
        bool triggers;
    } want[] = {{"direct", true}, {"through_func", true}, {"waits_only", false}, {"prints", false},
                {"calls_other", true}};
    CHECK_INT(SC_ARRAY_LEN(want), res.n_kernels);
    for (uint32_t i = 0; i < res.n_kernels && i < SC_ARRAY_LEN(want); i++) {
        CHECK_STR(want[i].name, res.kernels[i].name);
        CHECK(res.kernels[i].triggers_dependents == want[i].triggers);
    }
    sc_instr_result_free(&res);
    sc_ptx_module_free(m);
}

/* With ScInstrOpts.quick, a weak ld or st of 4 bytes calls the quick hook; wider,
 * strong and atomic accesses call __scord_access as without it, and so does every
 * access of a function with a fence. */
TEST(quick_hook_only_for_weak_words)
{
    static const char *const kinds =
        HEADER ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n"
               "ld.param.u64 %rd1, [p];\nld.global.u32 %r1, [%rd1];\nst.global.u32 [%rd1+4], %r1;\n"
               "ld.global.u64 %rd2, [%rd1+8];\nld.relaxed.gpu.global.u32 %r2, [%rd1+16];\n"
               "atom.global.add.u32 %r2, [%rd1+20], 1;\nret;\n}\n";
    static const char *const fenced =
        HEADER ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\n.reg .b32 %r<2>;\n"
               "ld.param.u64 %rd1, [p];\nld.global.u32 %r1, [%rd1];\nfence.acq_rel.gpu;\n"
               "st.global.u32 [%rd1+4], %r1;\nret;\n}\n";
    static const struct {
        const char *text;
        bool quick;
        int n_quick, n_full;
    } cases[] = {{kinds, false, 0, 5}, {kinds, true, 2, 3}, {fenced, true, 0, 2}};
    for (size_t i = 0; i < SC_ARRAY_LEN(cases); i++) {
        ScInstrOpts opts = {.quick = cases[i].quick};
        char *out = instrumented_text(cases[i].text, "quick.ptx", &opts);
        CHECK_INT(cases[i].n_quick, out ? count(out, "call \t__scord_access_quick,") : -1);
        CHECK_INT(cases[i].n_full, out ? count(out, "call \t__scord_access,") : -1);
        free(out);
    }
}

/* Which modules' mbarriers may be block barriers (__scord_mbar) and which stay release
 * chains (__scord_sync): an arrive_and_wait of the block's own object qualifies, with
 * its accesses on the quick hook; an access between the arrive and its wait, an arrive
 * in a function other than a kernel (its caller's next steps are unknown), a
 * transaction count or a relaxed wait do not. */
TEST(block_mbarriers_only_where_a_barrier_orders_the_same)
{
#define MBAR_KERNEL(between, arrive, wait)                                                             \
    HEADER ".shared .align 8 .b64 bar;\n.visible .entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n"        \
           ".reg .b32 %r<3>;\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, bar;\n"        \
           "ld.global.u32 %r2, [%rd1];\nmbarrier.init.shared.b64 [%r1], 64;\n" arrive between           \
           "$w:\n" wait "@!%p1 bra $w;\nst.global.u32 [%rd1+4], %r2;\nret;\n}\n"
#define ARRIVE "mbarrier.arrive.shared::cta.b64 %rd2, [%r1];\n"
#define WAIT "mbarrier.try_wait.shared.b64 %p1, [%r1], %rd2;\n"
    static const char *const in_func =
        HEADER ".shared .align 8 .b64 bar;\n.func (.reg .b64 t) arrive()\n{\n.reg .b32 %r<2>;\n"
               "mov.u32 %r1, bar;\nmbarrier.arrive.shared::cta.b64 t, [%r1];\nret;\n}\n"
               ".visible .entry k()\n{\n.reg .b64 %rd<2>;\n{\n.param .b64 r;\ncall (r), arrive, ();\n"
               "ld.param.b64 %rd1, [r];\n}\nret;\n}\n";
    static const struct {
        const char *text;
        bool block;
    } cases[] = {
        {MBAR_KERNEL("", ARRIVE, WAIT), true},
        {MBAR_KERNEL("add.s32 %r2, %r2, 1;\n", ARRIVE, WAIT), true},
        {MBAR_KERNEL("st.shared.u32 [%r1+8], %r2;\n", ARRIVE, WAIT), false},
        {MBAR_KERNEL("", "mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r1], 16;\n", WAIT), false},
        {MBAR_KERNEL("", ARRIVE, "mbarrier.try_wait.relaxed.cta.shared.b64 %p1, [%r1], %rd2;\n"), false},
        {in_func, false},
    };
#undef MBAR_KERNEL
#undef ARRIVE
#undef WAIT
    for (size_t i = 0; i < SC_ARRAY_LEN(cases); i++) {
        ScInstrOpts opts = {.quick = true};
        char *out = instrumented_text(cases[i].text, "mbar.ptx", &opts);
        bool block = out && count(out, "call \t__scord_mbar,") > 0;
        CHECK(block == cases[i].block);
        CHECK(!out || count(out, "call \t__scord_sync,") == (block ? 0 : (i == 5 ? 1 : 2)));
        if (cases[i].block)
            CHECK(out && count(out, "call \t__scord_access_quick,") == 2);
        free(out);
    }
}

TEST(site_ids_start_at_the_base)
{
    ScPtxModule *m = parse_text(HEADER ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\n"
                                       "ld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], 1;\nbar.sync 0;\nret;\n}\n",
                                "base.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    ScInstrResult res;
    ScErr err = {0};
    ScInstrOpts opts = {.site_base = 1000};
    CHECK(sc_instr_module(m, &opts, &res, &err));
    CHECK_INT(2, res.n_sites);
    CHECK_INT(1000, res.sites[0].id);
    CHECK_INT(1001, res.sites[1].id);
    CHECK_INT(SC_INSTR_SITE_ACCESS, res.sites[0].kind);
    CHECK_INT(SC_INSTR_SITE_BARRIER, res.sites[1].kind);
    CHECK_INT(SC_ABI_INFO(4, SC_ABI_KIND_WRITE, SC_SEM_WEAK, SC_SCOPE_NONE, SC_ABI_SPACE_GLOBAL),
              res.sites[0].info);
    char *text = print_module(m);
    CHECK_CONTAINS(text, "st.param.b32 \t[__scord_a2], 1000;");
    CHECK_CONTAINS(text, "st.param.b32 \t[__scord_a0], 1001;");
    free(text);
    sc_instr_result_free(&res);
    sc_instr_result_free(&res); /* freeing an empty result is harmless */
    sc_ptx_module_free(m);

    /* The last id is UINT32_MAX - 1: UINT32_MAX means "no site" in race records. */
    m = parse_text(HEADER ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\n"
                          "st.global.u32 [%rd1], 1;\nst.global.u32 [%rd1], 2;\nret;\n}\n",
                   "base.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    opts.site_base = UINT32_MAX - 1;
    CHECK(!sc_instr_module(m, &opts, &res, &err));
    CHECK_CONTAINS(err.msg, "site ids would pass");
    sc_ptx_module_free(m);
}

/* ---- reads a launch may leave out (instr_roots.c) ---------------------------------- */

/* Instruments `body` (declarations and code of `.entry k(.param .u64 a, .param .u64 b,
 * .param .align 8 .b8 s[16])`) with pruning on, and checks the kernel's roots: n_roots
 * of them, `written` those it writes through, and `guards` reads branching around
 * their call on them. */
static void check_roots(const char *what, const char *body, uint32_t n_roots, uint64_t written, int guards)
{
    char text[4096];
    snprintf(text, sizeof text,
             HEADER ".global .u32 g;\n.visible .entry k(.param .u64 a, .param .u64 b, .param .align 8 .b8 s[16])\n{\n"
                    ".reg .pred %%p<4>;\n.reg .b32 %%r<16>;\n.reg .b64 %%rd<16>;\n.reg .f64 %%fd<4>;\n%sret;\n}\n",
             body);
    ScPtxModule *m = parse_text(text, "roots.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    ScInstrResult res;
    ScErr err = {0};
    ScInstrOpts opts = {.prune = true};
    bool ok = sc_instr_module(m, &opts, &res, &err);
    CHECK(ok);
    if (ok) {
        char *printed = print_module(m);
        int n = printed ? count(printed, "bra.uni \t$__scL") : -1;
        const ScInstrRoots *got = &res.kernels[0].roots;
        if (got->n != n_roots || got->written != written || n != guards)
            printf("FAIL roots of %s: %u roots, written 0x%llx, %d guards; expected %u, 0x%llx, %d\n", what, got->n,
                   (unsigned long long)got->written, n, n_roots, (unsigned long long)written, guards);
        CHECK_INT(n_roots, got->n);
        CHECK(got->written == written);
        CHECK_INT(guards, n);
        if (guards)
            CHECK_CONTAINS(printed, "call \t(__scord_r), __scord_roots, ();");
        free(printed);
        sc_instr_result_free(&res);
    }
    sc_ptx_module_free(m);
}

TEST(reads_of_unwritten_roots_branch_around_their_check)
{
    /* Reads through a and through s's second word, a write through b. */
    const char *copy = "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\nld.param.u64 %rd3, [s+8];\n"
                       "cvta.to.global.u64 %rd4, %rd1;\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd5, %r1, 4;\n"
                       "add.s64 %rd6, %rd4, %rd5;\nld.global.u32 %r2, [%rd6];\nld.u32 %r3, [%rd3+4];\n"
                       "add.s64 %rd7, %rd2, %rd5;\nst.global.u32 [%rd7], %r2;\n";
    check_roots("a copy", copy, 3, 0x2, 2);
    /* The roots survive a loop that steps the pointer. */
    check_roots("a loop",
                "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\nmov.u64 %rd3, %rd1;\n$L1:\n"
                "ld.global.u32 %r1, [%rd3];\nadd.s64 %rd3, %rd3, 4;\nsetp.ne.s64 %p1, %rd3, %rd2;\n@%p1 bra $L1;\n"
                "st.global.u32 [%rd2], %r1;\n",
                2, 0x2, 1);
    /* A write through a pointer loaded from memory may go anywhere: nothing is left out. */
    check_roots("a loaded pointer",
                "ld.param.u64 %rd1, [a];\nld.global.u64 %rd2, [%rd1];\nld.global.u32 %r1, [%rd1+8];\n"
                "st.global.u32 [%rd2], %r1;\n",
                0, 0, 0);
    /* Nor with a write to a module variable, */
    check_roots("a module variable", "ld.param.u64 %rd1, [a];\nld.global.u32 %r1, [%rd1];\nst.global.u32 [g], %r1;\n",
                0, 0, 0);
    /* a pointer packed from two halves, */
    check_roots("a packed pointer",
                "ld.param.u64 %rd1, [a];\nld.global.v2.u32 {%r1, %r2}, [%rd1];\nmov.b64 %rd2, {%r1, %r2};\n"
                "ld.global.u32 %r3, [%rd1+8];\nst.global.u32 [%rd2], %r3;\n",
                0, 0, 0);
    /* a pointer loaded as a double's bits, */
    check_roots("a pointer in a double",
                "ld.param.u64 %rd1, [a];\nld.global.f64 %fd1, [%rd1];\nmov.b64 %rd2, %fd1;\n"
                "ld.global.u32 %r1, [%rd1+8];\nst.global.u32 [%rd2], %r1;\n",
                0, 0, 0);
    /* or an atomic whose address came from nowhere the kernel knows. */
    check_roots("a constant address", "ld.param.u64 %rd1, [a];\nld.global.u32 %r1, [%rd1];\nmov.u64 %rd2, 4096;\n"
                                      "atom.global.add.u32 %r2, [%rd2], %r1;\n",
                0, 0, 0);
    /* A read through a loaded pointer is checked; the other one is left out. */
    check_roots("a read through a loaded pointer",
                "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\nld.global.u64 %rd3, [%rd1];\n"
                "ld.global.u32 %r1, [%rd3];\nst.global.u32 [%rd2], %r1;\n",
                2, 0x2, 1);
    /* Stores to shared and local memory, generic or not, reach no global allocation;
     * strong reads keep their check. */
    check_roots("shared and local stores",
                ".shared .align 4 .b8 t[64];\n.local .align 4 .b8 d[16];\nld.param.u64 %rd1, [a];\n"
                "ld.global.u32 %r1, [%rd1];\nst.shared.u32 [t], %r1;\nmov.u64 %rd2, d;\ncvta.local.u64 %rd3, %rd2;\n"
                "st.u32 [%rd3], %r1;\nmov.u64 %rd4, t;\ncvta.shared.u64 %rd5, %rd4;\nst.u32 [%rd5], %r1;\n"
                "ld.relaxed.gpu.global.u32 %r2, [%rd1+4];\n",
                1, 0, 1);
}

/* ---- declaring the runtime ------------------------------------------------------- */

typedef bool (*AddRuntime)(ScPtxModule *, const char *, ScErr *);

/* The user module printed after `add` (sc_instr_declare_runtime or
 * sc_instr_link_runtime) gave it the runtime; *ok says whether it did. */
static char *with_runtime(const char *user, const char *runtime, AddRuntime add, bool *ok, ScErr *err)
{
    ScPtxModule *m = parse_text(user, "user.ptx");
    if (!m) {
        *ok = false;
        return NULL;
    }
    char *before = print_module(m);
    *ok = add(m, runtime, err);
    char *after = print_module(m);
    if (!*ok) /* a refusal leaves the module as it was */
        CHECK_STR(before, after);
    free(before);
    sc_ptx_module_free(m);
    return after;
}

static char *declare_text(const char *user, const char *runtime, bool *ok, ScErr *err)
{
    return with_runtime(user, runtime, sc_instr_declare_runtime, ok, err);
}

/* The fallback that compiles a module whole: the runtime appended. */
TEST(link_merges_the_runtime)
{
    bool ok;
    ScErr err = {0};
    /* The user module declares vprintf itself: the runtime's prototype is not added again. */
    char *out = with_runtime(".version 7.0\n.target sm_70\n.address_size 64\n"
                             ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
                             ".visible .entry k()\n{\nret;\n}\n",
                             stub_runtime(), sc_instr_link_runtime, &ok, &err);
    CHECK(ok);
    CHECK_CONTAINS(out, ".version 8.0\n.target sm_75\n");
    CHECK_INT(1, count(out, "vprintf("));
    CHECK_INT(2, count(out, ".visible .func __scord_access("));  /* prototype and definition */
    CHECK_INT(1, count(out, ".visible .global .align 8 .u64 __scord_state;"));
    /* Variables come before the function bodies that read them. */
    CHECK(strstr(out, "__scord_state;") < strstr(out, "ld.global.u64 \t%rd1, [__scord_state];"));
    free(out);
}

TEST(declare_the_runtime)
{
    bool ok;
    ScErr err = {0};
    /* The user module declares vprintf itself: the runtime's prototype is not added again. */
    char *out = declare_text(".version 7.0\n.target sm_70\n.address_size 64\n"
                             ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
                             ".visible .entry k()\n{\nret;\n}\n",
                             stub_runtime(), &ok, &err);
    CHECK(ok);
    CHECK_CONTAINS(out, ".version 8.0\n.target sm_75\n");
    CHECK_INT(1, count(out, "vprintf("));
    CHECK_INT(1, count(out, ".extern .func __scord_access("));
    CHECK_INT(0, count(out, ".visible .func __scord_"));
    CHECK_INT(1, count(out, ".extern .global .align 8 .u64 __scord_state;"));
    /* The declarations come before the kernel that calls them. */
    CHECK(strstr(out, "__scord_access(") < strstr(out, ".entry k("));
    free(out);

    /* Newer modules are not lowered: sm_90a and 8.5 stay. */
    out = declare_text(".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n",
                       stub_runtime(), &ok, &err);
    CHECK(ok);
    CHECK_CONTAINS(out, ".version 8.5\n.target sm_90a\n");
    CHECK_INT(1, count(out, "vprintf("));
    free(out);
}

TEST(declare_refuses_what_it_cannot_declare)
{
    static const char *const user = HEADER ".visible .entry k()\n{\nret;\n}\n";
    static const char *const rt_head = HEADER ".visible .func __scord_exit()\n{\nret;\n}\n";
    bool ok;
    ScErr err = {0};
    char rt[512];

    char *out = declare_text(HEADER ".global .u32 __scord_state;\n", stub_runtime(), &ok, &err);
    CHECK(!ok);
    CHECK_CONTAINS(err.msg, "'__scord_state'");
    free(out);

    snprintf(rt, sizeof rt, "%s.file 1 \"devrt.cu\"\n", rt_head);
    err = (ScErr){0};
    free(declare_text(user, rt, &ok, &err));
    CHECK(!ok);
    CHECK_CONTAINS(err.msg, "without -lineinfo and -G");

    snprintf(rt, sizeof rt, "%s.global .align 1 .b8 $str[4];\n", rt_head);
    err = (ScErr){0};
    free(declare_text(user, rt, &ok, &err));
    CHECK(!ok);
    CHECK_CONTAINS(err.msg, "scord device runtime:8:1: error: a runtime variable's name");
    CHECK_CONTAINS(err.msg, "'$str'");

    snprintf(rt, sizeof rt, "%s.visible .func helper()\n{\nret;\n}\n", rt_head);
    err = (ScErr){0};
    free(declare_text(user, rt, &ok, &err));
    CHECK(!ok);
    CHECK_CONTAINS(err.msg, "'helper'");

    snprintf(rt, sizeof rt, "%s.visible .entry __scord_kernel()\n{\nret;\n}\n", rt_head);
    err = (ScErr){0};
    free(declare_text(user, rt, &ok, &err));
    CHECK(!ok);
    CHECK_CONTAINS(err.msg, "defines a kernel");

    err = (ScErr){0};
    free(declare_text(user, ".version 8.0\n.target sm_75\n.address_size 32\n", &ok, &err));
    CHECK(!ok);
    CHECK_CONTAINS(err.msg, "64-bit");

    err = (ScErr){0};
    free(declare_text(user, "not ptx", &ok, &err));
    CHECK(!ok);
    CHECK_CONTAINS(err.msg, "scord device runtime:1:1: error");
}

/* ---- translation units linked with the runtime (-rdc) ------------------------------ */

/* One unit instrumented with the runtime declared, written to dir/name.ptx and
 * assembled relocatable (ptxas -c) to dir/name.o. */
static bool declared_unit(const char *text, const char *dir, const char *name, uint32_t base)
{
    ScErr err = {0};
    ScInstrResult res = {0};
    ScInstrOpts opts = {.site_base = base};
    ScPtxModule *m = parse_text(text, name);
    bool ok = m && sc_instr_module(m, &opts, &res, &err) &&
              sc_instr_declare_runtime(m, sc_devrt_ptx, &err);
    if (!ok)
        printf("%s: %s\n", name, err.msg);
    CHECK(ok);
    char *out = ok ? print_module(m) : NULL;
    if (out) {
        CHECK_INT(1, count(out, ".extern .func __scord_access("));
        CHECK_INT(1, count(out, ".extern .shared .align 4 .u32 __scord_slot;"));
        CHECK_INT(1, count(out, ".extern .global .align 8 .u64 __scord_state;"));
        CHECK_INT(0, count(out, ".visible .func __scord_"));
        CHECK(res.n_sites > 0);
    }
    char ptx[PATH_MAX], obj[PATH_MAX], log[PATH_MAX];
    snprintf(ptx, sizeof ptx, "%s/%s.ptx", dir, name);
    snprintf(obj, sizeof obj, "%s/%s.o", dir, name);
    snprintf(log, sizeof log, "%s/%s.log", dir, name);
    ok = out && write_text(ptx, out, strlen(out));
    char *argv[] = {(char *)ptxt_ptxas(), "-c", "-arch=sm_90", ptx, "-o", obj, NULL};
    int rc = ok ? ptxt_run(argv, log) : -1;
    if (rc != 0) {
        printf("ptxas -c %s exited %d\n", ptx, rc);
        ptxt_print_log(log);
    }
    CHECK_INT(0, rc);
    free(out);
    sc_instr_result_free(&res);
    if (m)
        sc_ptx_module_free(m);
    return rc == 0;
}

/* Two units of an -rdc program (a kernel and the function it calls in another unit),
 * each instrumented with the runtime only declared, link with the runtime's own PTX:
 * one definition of the launch state and of the block's slot for both. */
TEST(declared_units_link_with_the_runtime)
{
    const char *kernel_unit =
        ".version 8.0\n.target sm_75\n.address_size 64\n"
        ".extern .func bump(.param .b64 bump_param_0);\n"
        ".visible .entry k(.param .u64 k_param_0)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n"
        "ld.param.u64 %rd1, [k_param_0];\ncvta.to.global.u64 %rd2, %rd1;\n"
        "mov.u32 %r1, 1;\nst.global.u32 [%rd2+4], %r1;\n"
        "{\n.param .b64 param0;\nst.param.b64 [param0], %rd2;\ncall.uni bump, (param0);\n}\n"
        "ret;\n}\n";
    const char *callee_unit =
        ".version 8.0\n.target sm_75\n.address_size 64\n"
        ".visible .func bump(.param .b64 bump_param_0)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n"
        "ld.param.u64 %rd1, [bump_param_0];\nld.global.u32 %r1, [%rd1];\n"
        "add.s32 %r2, %r1, 1;\nst.global.u32 [%rd1], %r2;\nret;\n}\n";
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/testdata/instr-rdc", sc_test_build_dir());
    ptxt_mkdirs(dir);
    bool ok = declared_unit(kernel_unit, dir, "kernel_unit", 0) &&
              declared_unit(callee_unit, dir, "callee_unit", 100);
    char rt_ptx[PATH_MAX], rt_obj[PATH_MAX], log[PATH_MAX], a[PATH_MAX], b[PATH_MAX], out[PATH_MAX];
    snprintf(rt_ptx, sizeof rt_ptx, "%s/runtime.ptx", dir);
    snprintf(rt_obj, sizeof rt_obj, "%s/runtime.o", dir);
    snprintf(log, sizeof log, "%s/link.log", dir);
    snprintf(a, sizeof a, "%s/kernel_unit.o", dir);
    snprintf(b, sizeof b, "%s/callee_unit.o", dir);
    snprintf(out, sizeof out, "%s/linked.cubin", dir);
    ok = ok && write_text(rt_ptx, sc_devrt_ptx, strlen(sc_devrt_ptx));
    char *ptxas[] = {(char *)ptxt_ptxas(), "-c", "-arch=sm_90", rt_ptx, "-o", rt_obj, NULL};
    char *nvlink[] = {(char *)ptxt_nvlink(), "-arch=sm_90", a, b, rt_obj, "-o", out, NULL};
    int rc = ok ? ptxt_run(ptxas, log) : -1;
    CHECK_INT(0, rc);
    rc = rc == 0 ? ptxt_run(nvlink, log) : -1;
    if (rc != 0)
        ptxt_print_log(log);
    CHECK_INT(0, rc);
}

/* ---- the corpus -------------------------------------------------------------------- */

/* Every statement of every body, printed one a line; with only_original,
 * those the parser read (inserted ones are at 0:0). */
/* A CTA barrier (barrier{.cta}.sync/.arrive/.red, not barrier.cluster). */
static bool cta_barrier(const ScPtxInstr *in)
{
    if (strcmp(in->opcode, "barrier") != 0)
        return false;
    for (uint32_t i = 0; i < in->n_mods; i++)
        if (strcmp(in->mods[i], "cluster") == 0)
            return false;
    return true;
}

/* The program's statements, one a line; a CTA barrier without its .aligned, which the
 * instrumentation adds (instr_plan.c, aligned_position). */
static char *statements(const ScPtxModule *m, bool only_original)
{
    ScBuf b = {0};
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind != SC_PTX_ITEM_FUNC)
            continue;
        for (const ScPtxStmt *s = it->u.func->first; s; s = s->next) {
            if (only_original && s->pos.line == 0)
                continue;
            if (s->kind == SC_PTX_STMT_INSTR && cta_barrier(&s->u.instr)) {
                ScPtxStmt copy = *s;
                const char *mods[16];
                uint32_t n = 0;
                for (uint32_t i = 0; i < s->u.instr.n_mods && n < 16; i++)
                    if (strcmp(s->u.instr.mods[i], "aligned") != 0)
                        mods[n++] = s->u.instr.mods[i];
                copy.u.instr.mods = mods;
                copy.u.instr.n_mods = n;
                sc_ptx_print_stmt(&copy, &b);
            } else {
                sc_ptx_print_stmt(s, &b);
            }
            sc_buf_puts(&b, "\n");
        }
    }
    return sc_buf_take(&b);
}

/* Every CTA barrier of the instrumented module is .aligned. */
static bool barriers_aligned(const ScPtxModule *m)
{
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind != SC_PTX_ITEM_FUNC)
            continue;
        for (const ScPtxStmt *s = it->u.func->first; s; s = s->next) {
            if (s->kind != SC_PTX_STMT_INSTR || !cta_barrier(&s->u.instr))
                continue;
            bool aligned = false;
            for (uint32_t i = 0; i < s->u.instr.n_mods; i++)
                aligned = aligned || strcmp(s->u.instr.mods[i], "aligned") == 0;
            if (!aligned)
                return false;
        }
    }
    return true;
}

static bool writes_fresh(const ScPtxOperand *o)
{
    if (o->kind == SC_PTX_OPND_VEC) { /* mov.b128 {lo, hi}, %q */
        for (uint32_t i = 0; i < o->u.list.n; i++)
            if (!writes_fresh(&o->u.list.items[i]))
                return false;
        return o->u.list.n > 0;
    }
    return o->kind == SC_PTX_OPND_REG && strncmp(o->text, "%__sc", 5) == 0;
}

/* Inserted code writes nothing but fresh registers and the call's own .param
 * variables, and branches only over itself. */
static bool inserted_code_ok(const ScPtxModule *m, ScBuf *why)
{
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind != SC_PTX_ITEM_FUNC)
            continue;
        for (const ScPtxStmt *s = it->u.func->first; s; s = s->next) {
            if (s->pos.line != 0 || s->kind != SC_PTX_STMT_INSTR)
                continue;
            const ScPtxInstr *in = &s->u.instr;
            const char *op = in->opcode;
            bool ok;
            if (strcmp(op, "call") == 0) {
                /* A result goes to the call's own .param variable (__scord_roots). */
                const ScPtxOperand *fn =
                    in->n_ops >= 2 && in->ops[0].kind == SC_PTX_OPND_LIST ? &in->ops[1] : &in->ops[0];
                ok = in->n_ops >= 1 && fn->kind == SC_PTX_OPND_SYMBOL && strncmp(fn->text, "__scord_", 8) == 0;
            }
            else if (strcmp(op, "st") == 0)
                ok = sc_ptx_instr_has_mod(s, "param") && in->ops[0].u.addr.base->kind == SC_PTX_OPND_SYMBOL &&
                     strncmp(in->ops[0].u.addr.base->text, "__scord_a", 9) == 0;
            else if (strcmp(op, "bra") == 0)
                ok = in->n_ops == 1 && strncmp(in->ops[0].text, "$__scL", 6) == 0;
            else
                ok = in->n_ops >= 1 && writes_fresh(&in->ops[0]);
            if (!ok) {
                sc_ptx_print_stmt(s, why);
                return false;
            }
        }
    }
    return true;
}

typedef struct Totals {
    int modules, refused;
    unsigned sites, access, barrier, syncwarp, entry, exit, unchecked, pruned;
} Totals;

/* Instruments one corpus module, links the runtime and starts ptxas on it. */
static int check_corpus_module(const char *path, const char *out, const char *runtime, Totals *t)
{
    size_t len;
    char *text = ptxt_read_file(path, &len);
    if (!text) {
        printf("cannot read %s\n", path);
        CHECK(0);
        return 0;
    }
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse(text, len, path, &err);
    free(text);
    if (!m) {
        printf("%s\n", err.msg);
        CHECK(0);
        return 0;
    }
    t->modules++;
    char *original = statements(m, false);
    ScInstrResult res;
    ScInstrOpts opts = {.prune = true, .quick = true}; /* as scord runs it */
    int runs = 0;
    if (!sc_instr_module(m, &opts, &res, &err)) {
        t->refused++;
        printf("FAIL %s refused: %s\n", path, err.msg);
        CHECK(0);
    } else {
        t->sites += res.n_sites;
        t->access += res.n_access;
        t->barrier += res.n_barrier;
        t->syncwarp += res.n_syncwarp;
        t->entry += res.n_entry;
        t->exit += res.n_exit;
        t->unchecked += res.n_unchecked;
        t->pruned += res.n_pruned;
        char *kept = statements(m, true);
        if (strcmp(original, kept) != 0) {
            printf("FAIL %s: instrumentation changed or dropped statements of the program\n", path);
            CHECK(0);
        }
        if (!barriers_aligned(m)) {
            printf("FAIL %s: a CTA barrier of the instrumented module is not .aligned\n", path);
            CHECK(0);
        }
        free(kept);
        ScBuf why = {0};
        if (!inserted_code_ok(m, &why)) {
            printf("FAIL %s: inserted '%s' touches more than its own registers\n", path, why.data);
            CHECK(0);
        }
        sc_buf_free(&why);
        if (!sc_instr_declare_runtime(m, runtime, &err)) {
            printf("FAIL %s: %s\n", path, err.msg);
            CHECK(0);
        } else {
            runs = assemble(m, out);
        }
        sc_instr_result_free(&res);
    }
    free(original);
    sc_ptx_module_free(m);
    return runs;
}

TEST(corpus_instruments_and_assembles)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/ptx-corpus", sc_test_build_dir());
    static char *names[4096];
    int n = list_files(dir, ".ptx", names, 4096);
    if (n == 0)
        printf("no PTX corpus in %s (make BUILD=%s ptx-corpus builds it)\n", dir, sc_test_build_dir());
    CHECK(n > 0);
    Totals t = {0};
    int expected_runs = 0;
    ptxas_runs = ptxas_failures = 0;
    for (int i = 0; i < n; i++) {
        char path[1024], out[1024];
        snprintf(path, sizeof path, "%s/%s.ptx", dir, names[i]);
        snprintf(out, sizeof out, "%s/tests/instr/corpus/%s.ptx", sc_test_build_dir(), names[i]);
        int before = sc_test_checks_failed;
        expected_runs += check_corpus_module(path, out, stub_runtime(), &t);
        printf("%s %s\n", sc_test_checks_failed == before ? "ok" : "FAILED", names[i]);
        free(names[i]);
    }
    ptxas_wait_all();
    printf("corpus: %d modules, %d refused; %u sites (%u access, %u barrier, %u syncwarp calls; %u unchecked; "
           "%u pruned); %u entry and %u exit calls; ptxas ran %d times, %d failed\n",
           t.modules, t.refused, t.sites, t.access, t.barrier, t.syncwarp, t.unchecked, t.pruned, t.entry, t.exit,
           ptxas_runs, ptxas_failures);
    CHECK_INT(expected_runs, ptxas_runs);
    CHECK_INT(0, t.refused);
}

/* ---- realistic kernels: site tables of -lineinfo builds, the real runtime -------- */

static const char *const cuda_names[] = {"asm_sync", "cub_reduce", "histogram", "matmul", "printf_exit", "reduce", "warp"};

/* The line of `// SITE: marker` in tests/instr/cuda/NAME.cu, 0 if none. */
static uint32_t marker_line(const char *name, const char *marker)
{
    char path[512], needle[128];
    snprintf(path, sizeof path, CUDA_DIR "/%s.cu", name);
    snprintf(needle, sizeof needle, "// SITE: %s\n", marker);
    size_t len;
    char *text = ptxt_read_file(path, &len);
    uint32_t line = 0;
    const char *hit = text ? strstr(text, needle) : NULL;
    if (hit) {
        line = 1;
        for (const char *c = text; c < hit; c++)
            line += *c == '\n';
    }
    free(text);
    if (!line)
        printf("no '// SITE: %s' in %s\n", marker, path);
    return line;
}

/* quick: ScInstrOpts.quick. */
static ScPtxModule *instrument_cuda(const char *name, const char *variant, bool quick, ScInstrResult *res)
{
    char path[700];
    snprintf(path, sizeof path, "%s/testdata/instr/%s.sm_75.%s.ptx", sc_test_build_dir(), name, variant);
    size_t len;
    char *text = ptxt_read_file(path, &len);
    if (!text) {
        printf("cannot read %s (tests/instr/instr.mk builds it)\n", path);
        return NULL;
    }
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse(text, len, path, &err);
    free(text);
    ScInstrOpts opts = {.quick = quick};
    if (m && !sc_instr_module(m, &opts, res, &err)) {
        sc_ptx_module_free(m);
        m = NULL;
    }
    if (!m)
        printf("%s: %s\n", path, err.msg);
    return m;
}

static bool path_is(const ScInstrFrame *f, const char *name)
{
    char suffix[128];
    snprintf(suffix, sizeof suffix, "/" CUDA_DIR "/%s.cu", name);
    size_t n = f->path ? strlen(f->path) : 0, k = strlen(suffix);
    return n >= k && strcmp(f->path + n - k, suffix) == 0;
}

/* A site of kind (and, for accesses, ABI kind and space) one of whose frames
 * is NAME.cu:line; *depth is that frame's index. */
static const ScInstrSite *site_at(const ScInstrResult *r, ScInstrSiteKind kind, unsigned abi_kind, unsigned abi_space,
                                  const char *name, uint32_t line, uint32_t *depth)
{
    for (uint32_t i = 0; i < r->n_sites; i++) {
        const ScInstrSite *s = &r->sites[i];
        if (s->kind != kind || (abi_kind && SC_ABI_INFO_KIND(s->info) != abi_kind) ||
            (abi_space && SC_ABI_INFO_SPACE(s->info) != abi_space))
            continue;
        for (uint32_t f = 0; f < s->n_frames; f++)
            if (s->frames[f].line == line && path_is(&s->frames[f], name)) {
                *depth = f;
                return s;
            }
    }
    printf("no %s site (kind %u, space %u) at %s.cu:%u\n", sc_instr_site_kind_name(kind), abi_kind, abi_space, name,
           line);
    return NULL;
}

TEST(lineinfo_sites_name_their_source_lines)
{
    ScInstrResult r;
    uint32_t d;
    ScPtxModule *m = instrument_cuda("matmul", "lineinfo", false, &r);
    CHECK(m != NULL);
    if (m) {
        CHECK_INT(1, r.n_kernels);
        CHECK_STR("matmul", r.kernels[0].name);
        CHECK(site_at(&r, SC_INSTR_SITE_ACCESS, SC_ABI_KIND_READ, SC_ABI_SPACE_GLOBAL, "matmul",
                      marker_line("matmul", "load_a"), &d));
        CHECK(site_at(&r, SC_INSTR_SITE_ACCESS, SC_ABI_KIND_WRITE, SC_ABI_SPACE_SHARED, "matmul",
                      marker_line("matmul", "load_a"), &d));
        CHECK(site_at(&r, SC_INSTR_SITE_BARRIER, 0, 0, "matmul", marker_line("matmul", "sync_loaded"), &d));
        CHECK(site_at(&r, SC_INSTR_SITE_ACCESS, SC_ABI_KIND_READ, SC_ABI_SPACE_SHARED, "matmul",
                      marker_line("matmul", "use_tiles"), &d));
        CHECK(site_at(&r, SC_INSTR_SITE_BARRIER, 0, 0, "matmul", marker_line("matmul", "sync_used"), &d));
        const ScInstrSite *s = site_at(&r, SC_INSTR_SITE_ACCESS, SC_ABI_KIND_WRITE, SC_ABI_SPACE_GLOBAL, "matmul",
                                       marker_line("matmul", "store_c"), &d);
        CHECK(s && d == 0 && s->n_frames == 1 && s->frames[0].function == NULL);
        CHECK(s && strcmp(s->function, "matmul") == 0 && s->ptx_line > 0);
        CHECK_INT(2, r.n_barrier);
        sc_instr_result_free(&r);
        sc_ptx_module_free(m);
    }

    /* atomicAdd is inlined from CUDA's headers: the site's own frame is in
     * the header, with the function's name, and the chain reaches our line. */
    m = instrument_cuda("histogram", "lineinfo", false, &r);
    CHECK(m != NULL);
    if (m) {
        const ScInstrSite *s = site_at(&r, SC_INSTR_SITE_ACCESS, SC_ABI_KIND_RMW, SC_ABI_SPACE_SHARED, "histogram",
                                       marker_line("histogram", "count"), &d);
        CHECK(s && d >= 1 && !path_is(&s->frames[0], "histogram"));
        CHECK(s && s->frames[0].function && strstr(s->frames[0].function, "atomicAdd"));
        CHECK(s && SC_ABI_INFO_SCOPE(s->info) == SC_SCOPE_GPU && SC_ABI_INFO_SEM(s->info) == SC_SEM_RELAXED);
        s = site_at(&r, SC_INSTR_SITE_ACCESS, SC_ABI_KIND_RMW, SC_ABI_SPACE_GLOBAL, "histogram",
                    marker_line("histogram", "merge"), &d);
        CHECK(s != NULL);
        bool cta = false, sys = false;
        for (uint32_t i = 0; i < r.n_sites; i++) {
            cta |= SC_ABI_INFO_KIND(r.sites[i].info) == SC_ABI_KIND_RMW &&
                   SC_ABI_INFO_SCOPE(r.sites[i].info) == SC_SCOPE_CTA;
            sys |= SC_ABI_INFO_KIND(r.sites[i].info) == SC_ABI_KIND_RMW &&
                   SC_ABI_INFO_SCOPE(r.sites[i].info) == SC_SCOPE_SYS;
        }
        CHECK(cta && sys); /* atomicAdd_block, atomicAdd_system */
        sc_instr_result_free(&r);
        sc_ptx_module_free(m);
    }

    m = instrument_cuda("reduce", "lineinfo", false, &r);
    CHECK(m != NULL);
    if (m) {
        CHECK(site_at(&r, SC_INSTR_SITE_BARRIER, 0, 0, "reduce", marker_line("reduce", "count"), &d));
        CHECK(site_at(&r, SC_INSTR_SITE_ACCESS, SC_ABI_KIND_WRITE, SC_ABI_SPACE_SHARED, "reduce",
                      marker_line("reduce", "fill"), &d));
        char *text = print_module(m);
        CHECK_CONTAINS(text, "bar.red.popc.u32");
        free(text);
        sc_instr_result_free(&r);
        sc_ptx_module_free(m);
    }

    m = instrument_cuda("warp", "lineinfo", false, &r);
    CHECK(m != NULL);
    if (m) {
        CHECK(site_at(&r, SC_INSTR_SITE_SYNCWARP, 0, 0, "warp", marker_line("warp", "syncwarp_full"), &d));
        CHECK(site_at(&r, SC_INSTR_SITE_SYNCWARP, 0, 0, "warp", marker_line("warp", "syncwarp_half"), &d));
        sc_instr_result_free(&r);
        sc_ptx_module_free(m);
    }

    /* The exit in a .func gets __scord_exit before it, as the kernel's ret does. */
    m = instrument_cuda("printf_exit", "lineinfo", false, &r);
    CHECK(m != NULL);
    if (m) {
        char *text = print_module(m);
        CHECK_CONTAINS(text, "call \t__scord_exit, ();\n\t}\n\t// begin inline asm\n\texit;");
        CHECK(r.n_exit >= 2);
        free(text);
        sc_instr_result_free(&r);
        sc_ptx_module_free(m);
    }
}

/* Every test module as scord compiles it: instrumented, the runtime declared,
 * assembled relocatable and linked with the runtime's prebuilt cubin, as the driver
 * links them: for sm_80 from the sm_75 text, for sm_90 from the sm_90 one (which
 * raises the module to .target sm_90, .version 8.3). */
TEST(real_runtime_links_and_assembles)
{
    static const char *const variants[] = {"lineinfo", "G"};
    static const struct {
        int sm;
        const char *text;
    } runtimes[] = {{80, sc_devrt_ptx}, {90, sc_devrt_ptx_sm90}};
    char dir[600];
    snprintf(dir, sizeof dir, "%s/tests/instr/devrt", sc_test_build_dir());
    ptxt_mkdirs(dir);
    int links = 0, quick_links = 0;
    for (size_t k = 0; k < SC_ARRAY_LEN(runtimes); k++) {
        int sm = runtimes[k].sm;
        const ScDevrtCubin *c = sc_devrt_cubin_for(sm);
        CHECK(c != NULL); /* devrt.mk's DEVRT_CUBIN_SMS, which every toolkit of CUDA 12 and 13 knows */
        char rt[700], arch[16];
        snprintf(rt, sizeof rt, "%s/runtime_sm%d.cubin", dir, sm);
        snprintf(arch, sizeof arch, "-arch=sm_%d", sm);
        if (!c || !write_text(rt, (const char *)c->data, (size_t)(c->end - c->data)))
            continue;
        for (size_t i = 0; i < SC_ARRAY_LEN(cuda_names); i++)
            for (size_t v = 0; v < SC_ARRAY_LEN(variants); v++) {
                ScInstrResult r;
                /* The lineinfo variant as scord ships it (the quick hook), the -G one
                 * with --quick=false: both forms of the access hooks link. */
                ScPtxModule *m = instrument_cuda(cuda_names[i], variants[v], v == 0, &r);
                CHECK(m != NULL);
                if (!m)
                    continue;
                ScErr err = {0};
                CHECK(sc_instr_declare_runtime(m, runtimes[k].text, &err));
                if (err.set)
                    printf("%s.%s: %s\n", cuda_names[i], variants[v], err.msg);
                if (sm == 90)
                    CHECK_INT(90, sc_ptx_target_sm(m));
                char ptx[800], obj[800], out[800], log[800];
                snprintf(ptx, sizeof ptx, "%s/%s.sm%d.%s.ptx", dir, cuda_names[i], sm, variants[v]);
                snprintf(obj, sizeof obj, "%s/%s.sm%d.%s.o", dir, cuda_names[i], sm, variants[v]);
                snprintf(out, sizeof out, "%s/%s.sm%d.%s.cubin", dir, cuda_names[i], sm, variants[v]);
                snprintf(log, sizeof log, "%s/%s.sm%d.%s.log", dir, cuda_names[i], sm, variants[v]);
                char *text = print_module(m);
                quick_links += text && strstr(text, "call \t__scord_access_quick,") != NULL;
                char *ptxas[] = {(char *)ptxt_ptxas(), "-c", arch, ptx, "-o", obj, NULL};
                char *nvlink[] = {(char *)ptxt_nvlink(), arch, obj, rt, "-o", out, NULL};
                int rc = text && write_text(ptx, text, strlen(text)) ? ptxt_run(ptxas, log) : -1;
                rc = rc == 0 ? ptxt_run(nvlink, log) : rc;
                if (rc != 0) {
                    printf("FAIL %s: ptxas -c and nvlink %s with the runtime exited %d\n", ptx, arch, rc);
                    ptxt_print_log(log);
                }
                CHECK_INT(0, rc);
                links += rc == 0;
                free(text);
                sc_instr_result_free(&r);
                sc_ptx_module_free(m);
            }
    }
    CHECK(quick_links > 0);
    printf("linked with the prebuilt device runtime: %d modules (%d calling the quick hook)\n", links, quick_links);
}

/* Why a module's compile caps registers at its kernels' limit (intercept_load.c,
 * runtime_for): a kernel whose register limit is below the prebuilt runtime's 64 (here
 * `.maxnreg 32`; `__launch_bounds__` with a minimum of blocks per SM gives one too)
 * calls runtime functions that use more, and nvlink refuses the link with the cubin;
 * compiled apart as the JIT does (ptxas -c), within the limit sc_instr_register_limit
 * finds, the runtime's PTX links. */
TEST(register_limited_kernels_compile_the_runtime_within_their_limit)
{
    const char *text = ".version 8.0\n.target sm_90\n.address_size 64\n"
                       ".visible .entry k(.param .u64 k_param_0)\n.maxnreg 32\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n"
                       "ld.param.u64 %rd1, [k_param_0];\ncvta.to.global.u64 %rd2, %rd1;\n"
                       "mov.u32 %r1, 1;\nst.global.u32 [%rd2], %r1;\nret;\n}\n";
    static const struct {
        const char *dirs;
        unsigned limit;
    } limits[] = {
        {"", 64},
        {".maxnreg 32\n", 32},
        {".maxnreg 43\n", 43},  /* ptxas keeps it */
        {".maxnreg 128\n", 64},
        {".maxnreg 4\n", SC_INSTR_MIN_REGISTERS},
        {".maxntid 256, 1, 1\n.minnctapersm 8\n", 32},
        {".maxntid 256, 1, 1\n.minnctapersm 4\n", 64},
        {".reqntid 128, 2, 1\n.minnctapersm 8\n", 32},
        {".minnctapersm 2\n", 32},                       /* 1,024 threads */
        {".maxntid 200, 1, 1\n.minnctapersm 5\n", 56},  /* 7 warps each: 58.5, in eights */
        {".maxntid 256, 1, 1\n.minnctapersm 8\n.maxnreg 40\n", 32},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(limits); i++) {
        char k[256];
        snprintf(k, sizeof k, ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n%s{\nret;\n}\n",
                 limits[i].dirs);
        ScPtxModule *m = parse_text(k, "limits.ptx");
        CHECK(m != NULL);
        unsigned got = m ? sc_instr_register_limit(m, SC_DEVRT_CUBIN_REGS) : 0;
        if (got != limits[i].limit)
            printf("FAIL register limit of a kernel with %s: %u, expected %u\n",
                   limits[i].dirs[0] ? limits[i].dirs : "no directive", got, limits[i].limit);
        CHECK_INT(limits[i].limit, got);
        if (m)
            sc_ptx_module_free(m);
    }
    const ScDevrtCubin *c = sc_devrt_cubin_for(90);
    CHECK(c != NULL);
    char dir[600], rt[700], rt_ptx[700], rt_obj[700], ptx[700], obj[700], out[700], log[700];
    snprintf(dir, sizeof dir, "%s/tests/instr/limited", sc_test_build_dir());
    ptxt_mkdirs(dir);
    snprintf(rt, sizeof rt, "%s/runtime_sm90.cubin", dir);
    snprintf(rt_ptx, sizeof rt_ptx, "%s/runtime.ptx", dir);
    snprintf(rt_obj, sizeof rt_obj, "%s/runtime.o", dir);
    snprintf(ptx, sizeof ptx, "%s/declared.ptx", dir);
    snprintf(obj, sizeof obj, "%s/declared.o", dir);
    snprintf(out, sizeof out, "%s/linked.cubin", dir);
    snprintf(log, sizeof log, "%s/link.log", dir);
    ScErr err = {0};
    ScInstrResult r;
    ScInstrOpts opts = {0};
    ScPtxModule *m = parse_text(text, "limited.ptx");
    bool ok = m && sc_instr_module(m, &opts, &r, &err) && sc_instr_declare_runtime(m, sc_devrt_ptx_sm90, &err);
    CHECK(ok);
    char *printed = ok ? print_module(m) : NULL;
    if (printed && c) {
        char *ptxas[] = {(char *)ptxt_ptxas(), "-c", "-arch=sm_90", "--maxrregcount", "32", ptx, "-o", obj, NULL};
        char *ptxas_rt[] = {(char *)ptxt_ptxas(), "-c",    "-arch=sm_90", "--maxrregcount", "32",
                            rt_ptx,              "-o",    rt_obj,        NULL};
        char *with_cubin[] = {(char *)ptxt_nvlink(), "-arch=sm_90", obj, rt, "-o", out, NULL};
        char *with_ptx[] = {(char *)ptxt_nvlink(), "-arch=sm_90", obj, rt_obj, "-o", out, NULL};
        CHECK(write_text(rt, (const char *)c->data, (size_t)(c->end - c->data)) &&
              write_text(ptx, printed, strlen(printed)) &&
              write_text(rt_ptx, sc_devrt_ptx_sm90, strlen(sc_devrt_ptx_sm90)));
        CHECK_INT(0, ptxt_run(ptxas, log));
        CHECK(ptxt_run(with_cubin, log) != 0);
        size_t n;
        char *said = ptxt_read_file(log, &n);
        CHECK(said && strstr(said, "regcount") != NULL);
        free(said);
        CHECK_INT(0, ptxt_run(ptxas_rt, log));
        CHECK_INT(0, ptxt_run(with_ptx, log));
    }
    free(printed);
    if (ok)
        sc_instr_result_free(&r);
    if (m)
        sc_ptx_module_free(m);
}

int main(void)
{
    RUN(golden_modules);
    RUN(refuses_unknown_instruction);
    RUN(refuses_32bit_modules);
    RUN(refuses_modules_using_the_prefix);
    RUN(refuses_undeclared_address_registers);
    RUN(marks_subword_accesses);
    RUN(kernels_that_may_trigger_their_dependents);
    RUN(block_mbarriers_only_where_a_barrier_orders_the_same);
    RUN(site_ids_start_at_the_base);
    RUN(quick_hook_only_for_weak_words);
    RUN(reads_of_unwritten_roots_branch_around_their_check);
    RUN(link_merges_the_runtime);
    RUN(declare_the_runtime);
    RUN(declare_refuses_what_it_cannot_declare);
    RUN(declared_units_link_with_the_runtime);
    RUN(lineinfo_sites_name_their_source_lines);
    RUN(real_runtime_links_and_assembles);
    RUN(register_limited_kernels_compile_the_runtime_within_their_limit);
    RUN(corpus_instruments_and_assembles);
    return TEST_REPORT();
}
