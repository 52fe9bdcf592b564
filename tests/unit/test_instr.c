/* test_instr.c: the instrumentation pass: golden PTX, refusals, runtime linking, site tables of nvcc -lineinfo
 * builds, and every module of the PTX corpus instrumented, linked and assembled with ptxas for sm_75 and sm_90. */
#include "devrt/devrt.h"
#include "devrt/devrt_abi.h"
#include "instr/instr.h"
#include "ptx/ptx_sema.h"
#include "ptx_core/ptx_test_util.h"
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
    sc_buf_printf(out, "// calls: %u access, %u barrier, %u syncwarp, %u entry, %u exit; %u unchecked sites\n",
                  r->n_access, r->n_barrier, r->n_syncwarp, r->n_entry, r->n_exit, r->n_unchecked);
    for (uint32_t i = 0; i < r->n_kernels; i++) {
        sc_buf_printf(out, "// kernel %u %s unchecked:", i, r->kernels[i].name);
        if (!r->kernels[i].unchecked)
            sc_buf_puts(out, " -");
        for (unsigned u = 1; u < 32; u++)
            if (r->kernels[i].unchecked & SC_INSTR_UNCHECKED_BIT(u))
                sc_buf_printf(out, " %s;", sc_instr_unchecked_name((ScInstrUnchecked)u));
        sc_buf_puts(out, "\n");
    }
    for (uint32_t i = 0; i < r->n_sites; i++) {
        const ScInstrSite *s = &r->sites[i];
        sc_buf_printf(out, "// site %u %s", s->id, sc_instr_site_kind_name(s->kind));
        if (s->kind == SC_INSTR_SITE_UNCHECKED)
            sc_buf_printf(out, " (%s)", sc_instr_unchecked_name(s->unchecked));
        sc_buf_printf(out, " %s:%u:%u '%s'", s->function, s->ptx_line, s->ptx_col, s->instr);
        if (s->info)
            sc_buf_printf(out, " [%s %s size %u %s scope %s]", kind_name(SC_ABI_INFO_KIND(s->info)),
                          space_name(SC_ABI_INFO_SPACE(s->info)), SC_ABI_INFO_SIZE(s->info),
                          sem_name(SC_ABI_INFO_SEM(s->info)), scope_name(SC_ABI_INFO_SCOPE(s->info)));
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

/* Compares out with GOLDEN_DIR/NAME.expected; on a difference leaves NAME.out
 * and NAME.diff in the build tree and prints the diff. SC_UPDATE_GOLDEN=1
 * rewrites the expectation instead (review it in git diff). */
static void compare_golden(const char *name, const char *out, size_t len)
{
    char expected_path[512], out_path[768], diff_path[768], cmd[4096];
    snprintf(expected_path, sizeof expected_path, GOLDEN_DIR "/%s.expected", name);
    snprintf(out_path, sizeof out_path, "%s/" GOLDEN_DIR "/%s.out", sc_test_build_dir(), name);
    snprintf(diff_path, sizeof diff_path, "%s/" GOLDEN_DIR "/%s.diff", sc_test_build_dir(), name);
    if (getenv("SC_UPDATE_GOLDEN")) {
        CHECK(ptxt_write_file(expected_path, out, len) == 0);
        printf("updated %s\n", expected_path);
        return;
    }
    size_t elen = 0;
    char *expected = ptxt_read_file(expected_path, &elen);
    if (expected && elen == len && memcmp(expected, out, len) == 0) {
        printf("ok golden %s\n", name);
        free(expected);
        remove(out_path);
        remove(diff_path);
        return;
    }
    free(expected);
    sc_test_checks_failed++;
    if (!write_text(out_path, out, len)) {
        printf("golden %s differs; cannot write %s\n", name, out_path);
        return;
    }
    printf("FAIL golden %s differs from %s (output: %s)\n", name, expected_path, out_path);
    snprintf(cmd, sizeof cmd, "diff -u '%s' '%s' > '%s'; head -n 80 '%s'", expected_path, out_path, diff_path,
             diff_path);
    fflush(stdout);
    if (system(cmd) == -1)
        printf("cannot run diff\n");
}

/* ---- ptxas, two at a time ------------------------------------------------------ */

#define MAX_JOBS 2

typedef struct Job {
    pid_t pid;
    char path[900], log[920], arch[16];
} Job;

static Job jobs[MAX_JOBS];
static int n_jobs, ptxas_runs, ptxas_failures;

static void reap_one(void)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, 0)) < 0)
        if (errno != EINTR)
            return;
    for (int i = 0; i < n_jobs; i++) {
        if (jobs[i].pid != pid)
            continue;
        int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        ptxas_runs++;
        if (rc != 0) {
            ptxas_failures++;
            printf("FAIL ptxas -arch=%s %s exited %d:\n", jobs[i].arch, jobs[i].path, rc);
            ptxt_print_log(jobs[i].log);
            CHECK_INT(0, rc);
        }
        jobs[i] = jobs[--n_jobs];
        return;
    }
}

static void wait_all(void)
{
    while (n_jobs)
        reap_one();
}

static void start_ptxas(const char *path, const char *arch, bool compile_only)
{
    while (n_jobs == MAX_JOBS)
        reap_one();
    Job *j = &jobs[n_jobs];
    snprintf(j->path, sizeof j->path, "%s", path);
    snprintf(j->log, sizeof j->log, "%s.%s.log", path, arch);
    snprintf(j->arch, sizeof j->arch, "%s", arch);
    char archarg[64];
    snprintf(archarg, sizeof archarg, "-arch=%s", arch);
    char *argv[8];
    int n = 0;
    argv[n++] = (char *)ptxt_ptxas();
    if (compile_only) /* -rdc code calls what other modules define */
        argv[n++] = "-c";
    argv[n++] = archarg;
    argv[n++] = j->path;
    argv[n++] = "-o";
    argv[n++] = "/dev/null";
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, j->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    int rc = posix_spawnp(&j->pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        printf("cannot run %s: %s\n", argv[0], strerror(rc));
        CHECK(rc == 0);
        return;
    }
    n_jobs++;
}

/* Modules that use what another module defines (nvcc -rdc) assemble with ptxas -c only. */
static bool has_extern_refs(const ScPtxModule *m)
{
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind == SC_PTX_ITEM_FUNC && it->u.func->linkage == SC_PTX_LINK_EXTERN &&
            strcmp(it->u.func->name, "vprintf") != 0)
            return true;
        if (it->kind == SC_PTX_ITEM_VAR && it->u.var.linkage == SC_PTX_LINK_EXTERN &&
            strcmp(it->u.var.space, "shared") != 0)
            return true;
    }
    return false;
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
    bool rdc = has_extern_refs(m);
    start_ptxas(path, own, rdc);
    unsigned sm = sc_ptx_target_sm(m);
    bool arch_specific = own[strlen(own) - 1] == 'a';
    if (sm < 90 && !arch_specific) {
        start_ptxas(path, "sm_90", rdc);
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
    ScInstrOpts opts = {0};
    if (!sc_instr_module(m, &opts, &res, &err)) {
        printf("%s refused: %s\n", path, err.msg);
        CHECK(0);
    } else {
        ScBuf out = {0};
        char *printed = print_module(m);
        sc_buf_puts(&out, printed ? printed : "");
        dump_result(&res, &out);
        compare_golden(name, out.data, out.len);
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
        CHECK(sc_instr_link_runtime(m, stub_runtime(), &err));
        char linked[768];
        snprintf(linked, sizeof linked, "%s/tests/instr/golden/%s.linked.ptx", sc_test_build_dir(), name);
        assemble(m, linked);
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
    wait_all();
}

int main(void)
{
    RUN(golden_modules);
    return TEST_REPORT();
}
