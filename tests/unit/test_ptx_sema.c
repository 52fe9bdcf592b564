/* test_ptx_sema.c: instruction classification: per-instruction checks of defaults and modifier order, and every
 * memory and synchronization instruction of the stress-set corpus against tests/ptx/sema_expect.txt. */
#include "ptx/ptx.h"
#include "ptx/ptx_sema.h"
#include "sc_test.h"

#include <ctype.h>

#define EXPECT_FILE "tests/ptx/sema_expect.txt"

/* ---- helpers --------------------------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 65536 > cap) {
            cap = cap ? cap * 2 : 1 << 20;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* A module around one or more body statements, so instructions are built by
 * the real parser. Returns the module; *first is its first instruction. */
static ScPtxModule *parse_body(const char *body, const ScPtxStmt **first)
{
    char text[4096];
    snprintf(text, sizeof text,
             ".version 9.0\n.target sm_90a\n.address_size 64\n"
             ".visible .entry k(.param .u64 k_p)\n{\n%s\n}\n",
             body);
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse(text, strlen(text), "unit.ptx", &err);
    if (!m) {
        printf("parse of \"%s\" failed: %s\n", body, err.msg);
        return NULL;
    }
    *first = NULL;
    for (const ScPtxStmt *s = m->first->u.func->first; s; s = s->next)
        if (s->kind == SC_PTX_STMT_INSTR) {
            *first = s;
            break;
        }
    return m;
}

/* Classifies the single instruction `instr` (with its ';'). */
static ScPtxSema classify(const char *instr)
{
    ScPtxSema sema;
    memset(&sema, 0, sizeof sema);
    sema.family = SC_PTX_FAM_UNKNOWN;
    snprintf(sema.why, sizeof sema.why, "test: no instruction parsed");
    const ScPtxStmt *s = NULL;
    ScPtxModule *m = parse_body(instr, &s);
    if (m && s)
        sc_ptx_classify(&s->u.instr, &sema);
    if (m)
        sc_ptx_module_free(m);
    return sema;
}

static void mnemonic_of(const ScPtxInstr *in, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "%s", in->opcode);
    for (uint32_t i = 0; i < in->n_mods && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, ".%s", in->mods[i]);
}

static const char *opnd(int i)
{
    static char buf[8][16];
    static int next;
    char *b = buf[next++ % 8];
    if (i < 0)
        snprintf(b, 16, "-");
    else
        snprintf(b, 16, "%d", i);
    return b;
}

static const char *bar_kind_name(const ScPtxBarrier *b)
{
    switch (b->kind) {
    case SC_PTX_BAR_SYNC: return "sync";
    case SC_PTX_BAR_ARRIVE: return "arrive";
    case SC_PTX_BAR_RED:
        switch (b->red_op) {
        case SC_PTX_BARRED_POPC: return "red.popc";
        case SC_PTX_BARRED_AND: return "red.and";
        case SC_PTX_BARRED_OR: return "red.or";
        case SC_PTX_BARRED_NONE: return "red.?";
        }
    }
    return "?";
}

static const char *fence_what(const ScPtxFence *f)
{
    switch (f->kind) {
    case SC_PTX_FENCE_MEMORY: return "memory";
    case SC_PTX_FENCE_MBARRIER_INIT: return "mbarrier_init";
    case SC_PTX_FENCE_PROXY:
        switch (f->proxy) {
        case SC_PTX_PROXY_NONE: return "proxy.?";
        case SC_PTX_PROXY_ALIAS: return "proxy.alias";
        case SC_PTX_PROXY_ASYNC: return "proxy.async";
        case SC_PTX_PROXY_ASYNC_GLOBAL: return "proxy.async.global";
        case SC_PTX_PROXY_ASYNC_SHARED_CTA: return "proxy.async.shared::cta";
        case SC_PTX_PROXY_ASYNC_SHARED_CLUSTER: return "proxy.async.shared::cluster";
        case SC_PTX_PROXY_TENSORMAP: return "proxy.tensormap";
        case SC_PTX_PROXY_ASYNC_GENERIC: return "proxy.async_generic";
        }
    }
    return "?";
}

static const char *mbar_op_name(ScPtxMbarOp op)
{
    switch (op) {
    case SC_PTX_MBAR_INIT: return "init";
    case SC_PTX_MBAR_INVAL: return "inval";
    case SC_PTX_MBAR_ARRIVE: return "arrive";
    case SC_PTX_MBAR_ARRIVE_DROP: return "arrive_drop";
    case SC_PTX_MBAR_EXPECT_TX: return "expect_tx";
    case SC_PTX_MBAR_COMPLETE_TX: return "complete_tx";
    case SC_PTX_MBAR_TEST_WAIT: return "test_wait";
    case SC_PTX_MBAR_TRY_WAIT: return "try_wait";
    case SC_PTX_MBAR_PENDING_COUNT: return "pending_count";
    case SC_PTX_MBAR_CP_ASYNC_ARRIVE: return "cp_async_arrive";
    }
    return "?";
}

static const char *copy_kind_name(ScPtxCopyKind k)
{
    switch (k) {
    case SC_PTX_COPY_CP_ASYNC: return "cp_async";
    case SC_PTX_COPY_BULK: return "bulk";
    case SC_PTX_COPY_BULK_TENSOR: return "bulk_tensor";
    case SC_PTX_COPY_REDUCE_BULK: return "reduce_bulk";
    case SC_PTX_COPY_REDUCE_BULK_TENSOR: return "reduce_bulk_tensor";
    case SC_PTX_COPY_TENSORMAP: return "tensormap";
    }
    return "?";
}

static const char *completion_name(ScPtxCompletion c)
{
    switch (c) {
    case SC_PTX_COMPLETE_NONE: return "sync";
    case SC_PTX_COMPLETE_GROUP: return "group";
    case SC_PTX_COMPLETE_BULK_GROUP: return "bulk_group";
    case SC_PTX_COMPLETE_MBARRIER: return "mbarrier";
    }
    return "?";
}

static const char *group_op_name(ScPtxGroupOp op)
{
    switch (op) {
    case SC_PTX_GROUP_CP_ASYNC_COMMIT: return "cp_async_commit";
    case SC_PTX_GROUP_CP_ASYNC_WAIT: return "cp_async_wait";
    case SC_PTX_GROUP_CP_ASYNC_WAIT_ALL: return "cp_async_wait_all";
    case SC_PTX_GROUP_BULK_COMMIT: return "bulk_commit";
    case SC_PTX_GROUP_BULK_WAIT: return "bulk_wait";
    case SC_PTX_GROUP_WGMMA_FENCE: return "wgmma_fence";
    case SC_PTX_GROUP_WGMMA_COMMIT: return "wgmma_commit";
    case SC_PTX_GROUP_WGMMA_WAIT: return "wgmma_wait";
    }
    return "?";
}

/* The classification as the expectation file spells it (see its header). */
static void describe(const ScPtxSema *s, char *out, size_t size)
{
    const char *fam = sc_ptx_family_name(s->family);
    switch (s->family) {
    case SC_PTX_FAM_MEM:
    case SC_PTX_FAM_MATRIX:
    case SC_PTX_FAM_TEXSURF: {
        const ScPtxMem *m = &s->u.mem;
        snprintf(out, size, "%s %s %s %u %s %s%s%s%s", fam, sc_ptx_access_name(m->kind),
                 sc_ptx_space_name(m->space), m->size, sc_ptx_sem_name(m->sem), sc_ptx_scope_name(m->scope),
                 m->non_coherent ? " nc" : "", m->async ? " async" : "", m->multimem ? " multimem" : "");
        return;
    }
    case SC_PTX_FAM_BARRIER: {
        const ScPtxBarrier *b = &s->u.bar;
        snprintf(out, size, "%s %s %s id=%s count=%s", fam, bar_kind_name(b), b->aligned ? "aligned" : "unaligned",
                 opnd(b->id_op), opnd(b->count_op));
        return;
    }
    case SC_PTX_FAM_WARP_SYNC:
        snprintf(out, size, "%s mask=%s", fam, opnd(s->u.warp_sync_mask_op));
        return;
    case SC_PTX_FAM_CLUSTER_BARRIER:
        snprintf(out, size, "%s %s %s %s", fam, s->u.cluster.wait ? "wait" : "arrive",
                 sc_ptx_sem_name(s->u.cluster.sem), s->u.cluster.aligned ? "aligned" : "unaligned");
        return;
    case SC_PTX_FAM_FENCE: {
        const ScPtxFence *f = &s->u.fence;
        snprintf(out, size, "%s %s %s %s%s", fam, fence_what(f), sc_ptx_sem_name(f->sem), sc_ptx_scope_name(f->scope),
                 f->membar ? " membar" : "");
        return;
    }
    case SC_PTX_FAM_MBARRIER: {
        const ScPtxMbar *b = &s->u.mbar;
        snprintf(out, size, "%s %s %s %s %s%s%s%s%s", fam, mbar_op_name(b->op), sc_ptx_sem_name(b->sem),
                 sc_ptx_scope_name(b->scope), sc_ptx_space_name(b->space), b->expect_tx ? " expect_tx" : "",
                 b->no_complete ? " noComplete" : "", b->parity ? " parity" : "", b->noinc ? " noinc" : "");
        return;
    }
    case SC_PTX_FAM_COPY: {
        const ScPtxCopy *c = &s->u.copy;
        char sz[24];
        if (c->size)
            snprintf(sz, sizeof sz, "%u", c->size);
        else
            snprintf(sz, sizeof sz, "op%s", opnd(c->size_op));
        snprintf(out, size, "%s %s %s<-%s size=%s %s%s%s", fam, copy_kind_name(c->kind), sc_ptx_space_name(c->dst_space),
                 sc_ptx_space_name(c->src_space), sz, completion_name(c->completion),
                 c->red_op ? " " : "", c->red_op ? sc_ptx_atom_op_name(c->red_op) : "");
        return;
    }
    case SC_PTX_FAM_ASYNC_GROUP:
        snprintf(out, size, "%s %s%s", fam, group_op_name(s->u.group.op), s->u.group.read_only ? " read" : "");
        return;
    case SC_PTX_FAM_GRIDDEP:
        snprintf(out, size, "%s %s", fam, s->u.griddep_wait ? "wait" : "launch_dependents");
        return;
    case SC_PTX_FAM_UNKNOWN:
        snprintf(out, size, "%s (%s)", fam, s->why);
        return;
    case SC_PTX_FAM_HARMLESS:
    case SC_PTX_FAM_CACHE:
    case SC_PTX_FAM_WARP:
    case SC_PTX_FAM_CONTROL:
    case SC_PTX_FAM_ADDR:
    case SC_PTX_FAM_RESOURCE:
        snprintf(out, size, "%s", fam);
        return;
    }
}

/* ---- the expectation file ------------------------------------------------------ */

typedef struct Expect {
    char key[160];      /* mnemonic, or mnemonic/N for an N-operand form */
    char want[200];     /* the classification, fields separated by one space */
    int line;
    int hits;
} Expect;

typedef struct ByOpcode {
    char opcode[32];
    char family[24];
    int hits;
} ByOpcode;

static Expect *expects;
static int n_expects;
static ByOpcode *by_opcode;
static int n_by_opcode;

/* Copies s into out with runs of blanks collapsed to one space, no trailing blank. */
static void squeeze(const char *s, char *out, size_t size)
{
    size_t n = 0;
    bool space = false;
    for (; *s && n + 1 < size; s++) {
        if (isspace((unsigned char)*s)) {
            space = n > 0;
            continue;
        }
        if (space && n + 2 < size)
            out[n++] = ' ';
        space = false;
        out[n++] = *s;
    }
    out[n] = '\0';
}

static bool load_expectations(void)
{
    size_t len;
    char *text = read_file(EXPECT_FILE, &len);
    if (!text) {
        printf("cannot read %s (run the tests from the repository root)\n", EXPECT_FILE);
        return false;
    }
    int cap = 1024, line_no = 0;
    expects = calloc((size_t)cap, sizeof *expects);
    by_opcode = calloc(256, sizeof *by_opcode);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        line_no++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char key[160], rest[400];
        if (sscanf(line, " %159s %399[^\n]", key, rest) < 1)
            continue;
        if (strcmp(key, "=") == 0) {
            /* "= FAMILY opcode opcode ...": every instruction with one of these opcodes is of FAMILY. */
            char fam[24];
            int off = 0;
            const char *p = rest;
            if (sscanf(p, "%23s%n", fam, &off) != 1)
                continue;
            p += off;
            char op[32];
            while (sscanf(p, "%31s%n", op, &off) == 1 && n_by_opcode < 256) {
                snprintf(by_opcode[n_by_opcode].opcode, 32, "%s", op);
                snprintf(by_opcode[n_by_opcode].family, 24, "%s", fam);
                n_by_opcode++;
                p += off;
            }
            continue;
        }
        if (n_expects == cap) {
            cap *= 2;
            expects = realloc(expects, (size_t)cap * sizeof *expects);
        }
        Expect *e = &expects[n_expects++];
        memset(e, 0, sizeof *e);
        snprintf(e->key, sizeof e->key, "%s", key);
        squeeze(rest, e->want, sizeof e->want);
        e->line = line_no;
    }
    free(text);
    printf("%s: %d instruction forms, %d opcodes by family\n", EXPECT_FILE, n_expects, n_by_opcode);
    return n_expects > 0;
}

/* want is one classification or several separated by " | " (a form whose
 * immediate operand varies, such as cp.async's byte count). */
static bool matches(const char *want, const char *got)
{
    size_t n = strlen(got);
    for (const char *p = want;;) {
        const char *bar = strstr(p, " | ");
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, got, n) == 0)
            return true;
        if (!bar)
            return false;
        p = bar + 3;
    }
}

static Expect *find_expect(const char *mnemonic, uint32_t n_ops)
{
    char with_n[200];
    snprintf(with_n, sizeof with_n, "%s/%u", mnemonic, n_ops);
    for (int i = 0; i < n_expects; i++)
        if (strcmp(expects[i].key, with_n) == 0)
            return &expects[i];
    for (int i = 0; i < n_expects; i++)
        if (strcmp(expects[i].key, mnemonic) == 0)
            return &expects[i];
    return NULL;
}

static ByOpcode *find_by_opcode(const char *opcode)
{
    for (int i = 0; i < n_by_opcode; i++)
        if (strcmp(by_opcode[i].opcode, opcode) == 0)
            return &by_opcode[i];
    return NULL;
}

/* ---- the corpus ------------------------------------------------------------------ */

typedef struct CorpusStats {
    int files, instrs, checked, mismatches, unknown;
} CorpusStats;

/* Reports each distinct (mnemonic, problem) once. */
static char reported[512][200];
static int n_reported;

static bool first_report(const char *what)
{
    for (int i = 0; i < n_reported; i++)
        if (strcmp(reported[i], what) == 0)
            return false;
    if (n_reported < 512)
        snprintf(reported[n_reported++], 200, "%s", what);
    return true;
}

static void check_module(const ScPtxModule *m, const char *path, bool stress, CorpusStats *st)
{
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind != SC_PTX_ITEM_FUNC || !it->u.func->has_body)
            continue;
        for (const ScPtxStmt *s = it->u.func->first; s; s = s->next) {
            if (s->kind != SC_PTX_STMT_INSTR)
                continue;
            const ScPtxInstr *in = &s->u.instr;
            ScPtxSema sema;
            char mn[160], got[300], tag[200];
            sc_ptx_classify(in, &sema);
            mnemonic_of(in, mn, sizeof mn);
            describe(&sema, got, sizeof got);
            st->instrs++;
            if (sema.family == SC_PTX_FAM_UNKNOWN) {
                st->unknown++;
                snprintf(tag, sizeof tag, "unknown %s", mn);
                if (first_report(tag)) {
                    printf("%s:%u:%u: %s/%u is %s\n", path, s->pos.line, s->pos.col, mn, in->n_ops, got);
                    CHECK(sema.family != SC_PTX_FAM_UNKNOWN);
                }
                continue;
            }
            if (!stress)
                continue;
            ByOpcode *bo = find_by_opcode(in->opcode);
            Expect *e = find_expect(mn, in->n_ops);
            st->checked++;
            if (e) {
                e->hits++;
                if (!matches(e->want, got)) {
                    st->mismatches++;
                    snprintf(tag, sizeof tag, "mismatch %s", mn);
                    if (first_report(tag)) {
                        printf("%s:%d: %s/%u: got \"%s\", expected \"%s\" (%s:%u)\n", EXPECT_FILE, e->line, mn,
                               in->n_ops, got, e->want, path, s->pos.line);
                        CHECK(matches(e->want, got));
                    }
                }
            } else if (bo) {
                bo->hits++;
                if (strcmp(bo->family, got) != 0) {
                    st->mismatches++;
                    snprintf(tag, sizeof tag, "family %s", mn);
                    if (first_report(tag)) {
                        printf("%s: %s/%u: got \"%s\", expected family %s (%s:%u)\n", EXPECT_FILE, mn, in->n_ops,
                               got, bo->family, path, s->pos.line);
                        CHECK(strcmp(bo->family, got) == 0);
                    }
                }
            } else {
                st->mismatches++;
                snprintf(tag, sizeof tag, "missing %s", mn);
                if (first_report(tag)) {
                    printf("%s: no expectation for %s/%u (classified \"%s\", %s:%u)\n", EXPECT_FILE, mn, in->n_ops,
                           got, path, s->pos.line);
                    CHECK(e != NULL || bo != NULL);
                }
            }
        }
    }
}

static bool is_stress(const char *name) { return strncmp(name, "tests-ptx-stress-", 17) == 0; }

/* Every instruction of the corpus is known; the stress set's match the expectations. */
TEST(corpus_matches_expectations)
{
    char list_path[700], dir[600];
    snprintf(dir, sizeof dir, "%s/ptx-corpus", sc_test_build_dir());
    snprintf(list_path, sizeof list_path, "%s/corpus.list", dir);
    size_t len;
    char *list = read_file(list_path, &len);
    if (!list) {
        printf("cannot read %s: tests/ptx/corpus.mk builds it (make unit)\n", list_path);
        CHECK(list != NULL);
        return;
    }
    if (!load_expectations()) {
        CHECK(n_expects > 0);
        free(list);
        return;
    }
    CorpusStats st = {0};
    int stress_files = 0;
    char *save = NULL;
    for (char *name = strtok_r(list, "\n", &save); name; name = strtok_r(NULL, "\n", &save)) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        size_t n;
        char *text = read_file(path, &n);
        if (!text) {
            printf("cannot read %s\n", path);
            CHECK(text != NULL);
            continue;
        }
        ScErr err = {0};
        ScPtxModule *m = sc_ptx_parse(text, n, path, &err);
        if (!m) {
            printf("parse failed: %s\n", err.msg);
            CHECK(m != NULL);
            free(text);
            continue;
        }
        st.files++;
        stress_files += is_stress(name);
        check_module(m, path, is_stress(name), &st);
        sc_ptx_module_free(m);
        free(text);
    }
    free(list);
    for (int i = 0; i < n_expects; i++)
        if (expects[i].hits == 0) {
            printf("%s:%d: %s matches no instruction of the stress set\n", EXPECT_FILE, expects[i].line,
                   expects[i].key);
            CHECK(expects[i].hits > 0);
        }
    printf("%d files (%d of the stress set), %d instructions, %d stress-set instructions checked, "
           "%d mismatches, %d unknown\n",
           st.files, stress_files, st.instrs, st.checked, st.mismatches, st.unknown);
    CHECK(stress_files >= 9 * 12);
    CHECK(st.checked > 10000);
    CHECK_INT(0, st.unknown);
    free(expects);
    free(by_opcode);
}

/* ---- per-instruction checks --------------------------------------------------------- */

#define CHECK_DESC(want, instr)                                                                    \
    do {                                                                                           \
        ScPtxSema s_ = classify(instr);                                                            \
        char d_[300];                                                                              \
        describe(&s_, d_, sizeof d_);                                                              \
        CHECK_STR(want, d_);                                                                       \
    } while (0)

TEST(modifier_order_does_not_matter)
{
    const char *atoms[] = {
        "atom.global.cta.add.u32 %r1, [%rd1], 1;",        /* nvcc's order */
        "atom.cta.global.add.u32 %r1, [%rd1], 1;",        /* the ISA's order */
        "atom.add.cta.global.u32 %r1, [%rd1], 1;",        /* op first, as CCCL writes it */
        "atom.global.add.cta.u32 %r1, [%rd1], 1;",
        "atom.relaxed.cta.global.add.u32 %r1, [%rd1], 1;",
        "atom.global.cta.relaxed.add.u32 %r1, [%rd1], 1;",
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(atoms); i++)
        CHECK_DESC("mem rmw global 4 relaxed cta", atoms[i]);
    CHECK_DESC("mem read global 4 relaxed gpu", "ld.global.relaxed.gpu.u32 %r1, [%rd1];");
    CHECK_DESC("mem read global 4 relaxed gpu", "ld.relaxed.gpu.global.u32 %r1, [%rd1];");
    CHECK_DESC("mem read global 4 relaxed gpu", "ld.gpu.global.relaxed.u32 %r1, [%rd1];");
    CHECK_DESC("mem read shared::cta 4 acquire gpu", "ld.shared.acquire.gpu.u32 %r1, [%r2];");
    CHECK_DESC("mem write global 8 release sys", "st.global.sys.release.b64 [%rd1], %rd2;");
    CHECK_DESC("mem red global 4 relaxed cluster", "red.global.cluster.relaxed.add.u32 [%rd1], 1;");
    CHECK_DESC("mem red global 4 relaxed cluster", "red.relaxed.cluster.global.add.u32 [%rd1], 1;");
    CHECK_DESC("mem rmw generic 4 acq_rel cta", "atom.add.acq_rel.cta.s32 %r1, [%rd1], %r2;");
    CHECK_DESC("mem rmw generic 4 acq_rel cta", "atom.acq_rel.cta.add.s32 %r1, [%rd1], %r2;");
    CHECK_DESC("mbarrier arrive relaxed cluster shared::cta", "mbarrier.arrive.cluster.relaxed.shared::cta.b64 %rd1, [%r1];");
    CHECK_DESC("mbarrier arrive relaxed cluster shared::cta", "mbarrier.arrive.shared::cta.relaxed.cluster.b64 %rd1, [%r1];");
    CHECK_DESC("fence memory acq_rel gpu", "fence.gpu.acq_rel;");
    CHECK_DESC("cluster_barrier arrive relaxed aligned", "barrier.cluster.arrive.aligned.relaxed;");
}

TEST(isa_defaults)
{
    /* atom/red: .relaxed and .gpu when not written */
    CHECK_DESC("mem rmw generic 4 relaxed gpu", "atom.add.u32 %r1, [%rd1], 1;");
    CHECK_DESC("mem rmw global 4 acquire gpu", "atom.acquire.global.add.u32 %r1, [%rd1], 1;");
    CHECK_DESC("mem rmw global 4 relaxed sys", "atom.sys.global.add.u32 %r1, [%rd1], 1;");
    CHECK_DESC("mem red global 8 relaxed gpu", "red.global.add.u64 [%rd1], %rd2;");
    CHECK_DESC("mem red global 4 release gpu", "red.release.global.add.u32 [%rd1], 1;");
    /* plain ld/st are weak with no scope; .volatile is relaxed at .sys; .mmio is .relaxed.sys */
    CHECK_DESC("mem read generic 4 weak -", "ld.u32 %r1, [%rd1];");
    CHECK_DESC("mem read global 4 weak -", "ld.weak.global.u32 %r1, [%rd1];");
    CHECK_DESC("mem write local 1 weak -", "st.local.u8 [%rd1], %rs1;");
    CHECK_DESC("mem read global 4 volatile sys", "ld.volatile.global.u32 %r1, [%rd1];");
    CHECK_DESC("mem write shared::cta 2 volatile sys", "st.volatile.shared.u16 [%r1], %rs1;");
    CHECK_DESC("mem read global 4 mmio sys", "ld.mmio.relaxed.sys.global.u32 %r1, [%rd1];");
    /* read-only paths are outside the model */
    CHECK_DESC("mem read global 16 weak - nc", "ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];");
    CHECK_DESC("mem read generic 4 weak - nc", "ldu.u32 %r1, [%rd1];");
    /* .shared alone is .shared::cta; no space is generic */
    CHECK_DESC("mem read shared::cta 4 weak -", "ld.shared.u32 %r1, [%r2];");
    CHECK_DESC("mem rmw shared::cluster 4 relaxed gpu", "atom.shared::cluster.add.u32 %r1, [%r2], 1;");
    CHECK_DESC("mem read param 8 weak -", "ld.param.u64 %rd1, [k_p];");
    CHECK_DESC("mem read const 4 weak -", "ld.const.u32 %r1, [c_table+4];");
    /* fences: no .sem is acq_rel; membar.{cta,gl,sys} are fence.sc.{cta,gpu,sys} */
    CHECK_DESC("fence memory acq_rel cta", "fence.cta;");
    CHECK_DESC("fence memory sc cta membar", "membar.cta;");
    CHECK_DESC("fence memory sc gpu membar", "membar.gl;");
    CHECK_DESC("fence memory sc sys membar", "membar.sys;");
    CHECK_DESC("fence proxy.alias - -", "fence.proxy.alias;");
    CHECK_DESC("fence proxy.async.shared::cta - -", "fence.proxy.async.shared::cta;");
    CHECK_DESC("fence mbarrier_init release cluster", "fence.mbarrier_init.release.cluster;");
    CHECK_DESC("fence memory acquire cluster", "fence.acquire.sync_restrict::shared::cluster.cluster;");
    CHECK_DESC("fence proxy.async_generic release cluster",
               "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;");
    CHECK_DESC("fence proxy.tensormap acquire gpu", "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;");
    CHECK_DESC("fence proxy.alias - - membar", "membar.proxy.alias;");
    ScPtxSema f = classify("fence.release.sync_restrict::shared::cta.cluster;");
    CHECK_INT(SC_PTX_SPACE_SHARED_CTA, f.u.fence.restrict_space);
    /* mbarrier: arrive is release.cta, waits are acquire.cta, tx counts relaxed.cta */
    CHECK_DESC("mbarrier arrive release cta generic", "mbarrier.arrive.b64 %rd1, [%rd2];");
    CHECK_DESC("mbarrier try_wait acquire cta shared::cta parity", "mbarrier.try_wait.parity.shared.b64 %p1, [%r1], %r2;");
    CHECK_DESC("mbarrier expect_tx relaxed cta shared::cta", "mbarrier.expect_tx.shared::cta.b64 [%r1], 16;");
    CHECK_DESC("mbarrier init - - shared::cta", "mbarrier.init.shared.b64 [%r1], 32;");
    /* cluster barriers: arrive is release, wait is acquire */
    CHECK_DESC("cluster_barrier arrive release unaligned", "barrier.cluster.arrive;");
    CHECK_DESC("cluster_barrier wait acquire aligned", "barrier.cluster.wait.aligned;");
    /* multimem: ld_reduce/st weak, red relaxed at .sys */
    CHECK_DESC("mem red generic 4 relaxed sys multimem", "multimem.red.add.u32 [%rd1], %r1;");
    CHECK_DESC("mem read global 4 weak - multimem", "multimem.ld_reduce.global.add.u32 %r1, [%rd1];");
}

TEST(access_sizes)
{
    CHECK_DESC("mem read global 1 weak -", "ld.global.s8 %rs1, [%rd1];");
    CHECK_DESC("mem read global 16 weak -", "ld.global.v4.u32 {%r1, _, %r2, %r3}, [%rd1+16];");
    CHECK_DESC("mem write global 16 weak -", "st.global.v2.f64 [%rd1], {%fd1, %fd2};");
    ScPtxSema v = classify("ld.global.v4.u32 {%r1, _, %r2, _}, [%rd1];");
    CHECK_INT(0xa, v.u.mem.sink_mask);
    CHECK_INT(4, v.u.mem.elem_size);
    CHECK_INT(4, v.u.mem.n_elems);
    CHECK_DESC("mem read global 16 weak -", "ld.global.b128 %rq1, [%rd1];");
    CHECK_DESC("mem rmw global 4 relaxed gpu", "atom.global.add.noftz.f16x2 %r1, [%rd1], %r2;");
    CHECK_DESC("mem rmw global 2 relaxed gpu", "atom.global.cas.b16 %rs1, [%rd1], %rs2, %rs3;");
    CHECK_DESC("mem rmw global 16 relaxed gpu", "atom.global.cas.b128 %rq1, [%rd1], %rq2, %rq3;");
    CHECK_DESC("mem rmw global 16 relaxed gpu",
               "atom.global.v8.f16.add.noftz {%h0, %h1, %h2, %h3, %h4, %h5, %h6, %h7}, [%rd1], {%h0, %h0, %h0, %h0, %h0, %h0, %h0, %h0};");
    CHECK_DESC("mem rmw global 8 relaxed gpu", "atom.global.v2.bf16x2.max.noftz {%r1, %r2}, [%rd1], {%r3, %r3};");
    CHECK_DESC("mem red global 8 relaxed gpu", "red.global.add.v2.f32 [%rd1], {%f1, %f2};");
    CHECK_DESC("mem write global 128 weak -", "discard.global.L2 [%rd1], 128;");
    CHECK_DESC("matrix read shared::cta 16 weak -", "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r5];");
    CHECK_DESC("matrix write generic 16 weak -", "stmatrix.sync.aligned.m8n8.x2.b16 [%rd1], {%r1, %r2};");
    CHECK_DESC("matrix read global 0 weak -",
               "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], 16;");
    CHECK_DESC("mem write shared::cluster 16 weak - async",
               "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%r1], {%r2, %r2, %r2, %r2}, [%r3];");
    CHECK_DESC("mem red shared::cluster 4 relaxed cluster async",
               "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], %r2, [%r3];");
}

TEST(unknown_is_refused)
{
    const char *unknown[] = {
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;", /* opcode not known */
        "frobnicate.u32 %r1, %r2;",
        "ld.global.sparkle.u32 %r1, [%rd1];",            /* unknown modifier */
        "ld.relaxed.global.u32 %r1, [%rd1];",            /* .relaxed without a scope */
        "ld.release.gpu.global.u32 %r1, [%rd1];",        /* no release loads */
        "st.acquire.gpu.global.u32 [%rd1], %r1;",        /* no acquire stores */
        "red.acquire.gpu.global.add.u32 [%rd1], 1;",     /* red has relaxed/release only */
        "ld.relaxed.acquire.gpu.u32 %r1, [%rd1];",       /* two semantics */
        "ld.global.shared.u32 %r1, [%rd1];",             /* two spaces */
        "atom.global.u32 %r1, [%rd1], 1;",               /* no operation */
        "atom.local.add.u32 %r1, [%rd1], 1;",            /* atomics need global/shared */
        "add.u32 %r1, [%rd1], 1;",                       /* arithmetic with a memory operand */
        "ld.global.u32 %r1, %rd1;",                      /* no address */
        "fence.sc;",                                     /* no scope */
        "fence.release.sync_restrict::shared::cluster.cluster;", /* ::cluster goes with .acquire */
        "fence.acquire.sync_restrict::shared::cluster.gpu;",     /* restricted fences are .cluster */
        "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 64;", /* the size is always 128 */
        "membar.warp;",
        "bar.sync;",                                     /* no barrier id */
        "bar.arrive 1;",                                 /* arrive needs a count */
        "bar.red.popc.pred %p1, 0, %p2;",                /* popc is .u32 */
        "mbarrier.arrive.acquire.shared.b64 %rd1, [%r1];",
        "mbarrier.try_wait.release.shared.b64 %p1, [%r1], %rd1;",
        "barrier.cluster.wait.release;",
        "cp.async.ca.global.shared [%rd1], [%r1], 4;",   /* wrong direction */
        "griddepcontrol.sleep;",
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(unknown); i++) {
        ScPtxSema s = classify(unknown[i]);
        if (s.family != SC_PTX_FAM_UNKNOWN)
            printf("not refused: %s\n", unknown[i]);
        CHECK_INT(SC_PTX_FAM_UNKNOWN, s.family);
        CHECK(s.why[0] != '\0');
    }
    ScPtxSema s = classify("ld.global.sparkle.u32 %r1, [%rd1];");
    CHECK_STR("modifier '.sparkle' of ld is not known", s.why);
    s = classify("frobnicate.u32 %r1, %r2;");
    CHECK_STR("opcode 'frobnicate' is not known", s.why);
}

TEST(barrier_operands)
{
    CHECK_DESC("barrier sync aligned id=0 count=-", "bar.sync 0;");
    CHECK_DESC("barrier sync aligned id=0 count=1", "bar.sync 1, 128;");
    CHECK_DESC("barrier sync unaligned id=0 count=-", "barrier.sync 0;");
    CHECK_DESC("barrier sync aligned id=0 count=1", "barrier.cta.sync.aligned %r1, %r2;");
    CHECK_DESC("barrier arrive aligned id=0 count=1", "bar.arrive 1, 64;");
    CHECK_DESC("barrier arrive unaligned id=0 count=1", "barrier.arrive 1, 64;");
    CHECK_DESC("barrier red.popc aligned id=1 count=-", "bar.red.popc.u32 %r1, 0, %p1;");
    CHECK_DESC("barrier red.and unaligned id=1 count=2", "barrier.red.and.pred %p2, 3, 96, !%p1;");
    ScPtxSema s = classify("barrier.red.or.aligned.pred %p2, 3, 96, !%p1;");
    CHECK_INT(SC_PTX_FAM_BARRIER, s.family);
    CHECK_INT(0, s.u.bar.dst_op);
    CHECK_INT(3, s.u.bar.pred_op);
    CHECK_INT(SC_PTX_BARRED_OR, s.u.bar.red_op);
    CHECK(s.u.bar.aligned);
    CHECK_DESC("warp_sync mask=0", "bar.warp.sync -1;");
    s = classify("shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, %r3;");
    CHECK_INT(SC_PTX_FAM_WARP, s.family);
    CHECK_INT(SC_PTX_WARP_SHFL, s.u.warp.op);
    CHECK_INT(4, s.u.warp.mask_op);
    s = classify("elect.sync %r1|%p1, -1;");
    CHECK_INT(SC_PTX_WARP_ELECT, s.u.warp.op);
    CHECK_INT(1, s.u.warp.mask_op);
    s = classify("activemask.b32 %r1;");
    CHECK_INT(-1, s.u.warp.mask_op);
}

TEST(mbarrier_operands)
{
    ScPtxSema s = classify("mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 %rd1, [%r1], 32;");
    CHECK_INT(SC_PTX_FAM_MBARRIER, s.family);
    CHECK(s.u.mbar.expect_tx);
    CHECK_INT(1, s.u.mbar.addr_op);
    CHECK_INT(2, s.u.mbar.count_op);
    CHECK_INT(0, s.u.mbar.state_op);
    s = classify("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [%r1], %r2, 1000;");
    CHECK_INT(SC_PTX_MBAR_TRY_WAIT, s.u.mbar.op);
    CHECK_INT(0, s.u.mbar.result_op);
    CHECK_INT(2, s.u.mbar.state_op);
    CHECK_INT(SC_SCOPE_CLUSTER, s.u.mbar.scope);
    s = classify("mbarrier.pending_count.b64 %r1, %rd1;");
    CHECK_INT(SC_PTX_MBAR_PENDING_COUNT, s.u.mbar.op);
    CHECK_INT(-1, s.u.mbar.addr_op);
    CHECK_INT(SC_PTX_SPACE_NONE, s.u.mbar.space);
    CHECK_DESC("mbarrier cp_async_arrive - - shared::cta noinc", "cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];");
}

TEST(copy_operands)
{
    ScPtxSema s = classify("cp.async.ca.shared.global [%r1], [%rd1], 8, 4;");
    CHECK_INT(SC_PTX_FAM_COPY, s.family);
    CHECK_INT(8, s.u.copy.size);
    CHECK_INT(3, s.u.copy.src_size_op);
    CHECK_INT(SC_PTX_SPACE_SHARED_CTA, s.u.copy.dst_space);
    CHECK_INT(SC_PTX_SPACE_GLOBAL, s.u.copy.src_space);
    s = classify("cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, %rd2;");
    CHECK_INT(16, s.u.copy.size);
    CHECK_INT(-1, s.u.copy.src_size_op);
    CHECK_DESC("copy bulk shared::cluster<-global size=op2 mbarrier",
               "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3];");
    CHECK_DESC("copy bulk global<-shared::cta size=4096 bulk_group",
               "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 4096;");
    CHECK_DESC("copy reduce_bulk shared::cluster<-shared::cta size=256 mbarrier add",
               "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%r1], [%r2], 256, [%r3];");
    s = classify("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];");
    CHECK_INT(SC_PTX_COPY_BULK_TENSOR, s.u.copy.kind);
    CHECK_INT(2, s.u.copy.tensor_dims);
    CHECK_INT(2, s.u.copy.mbar_op);
    CHECK_INT(-1, s.u.copy.size_op);
    CHECK_DESC("async_group cp_async_wait", "cp.async.wait_group 1;");
    CHECK_DESC("async_group bulk_wait read", "cp.async.bulk.wait_group.read 0;");
    CHECK_DESC("cache", "cp.async.bulk.prefetch.L2.global [%rd1], 4096;");
    CHECK_DESC("griddep wait", "griddepcontrol.wait;");
}

TEST(control_and_special_registers)
{
    ScPtxSema s = classify("call.uni (retval0), vprintf, (param0, param1);");
    CHECK_INT(SC_PTX_FAM_CONTROL, s.family);
    CHECK_INT(SC_PTX_CTL_CALL, s.u.ctl.op);
    CHECK_INT(1, s.u.ctl.target_op);
    CHECK(!s.u.ctl.indirect);
    CHECK(s.u.ctl.uni);
    s = classify("call (retval0), %rd5, (param0), prototype_0;");
    CHECK(s.u.ctl.indirect);
    CHECK_INT(1, s.u.ctl.target_op);
    s = classify("call _Z4leafi, (param0);");
    CHECK_INT(0, s.u.ctl.target_op);
    s = classify("L1: bra.uni L1;");
    CHECK_INT(SC_PTX_CTL_BRA, s.u.ctl.op);
    CHECK_INT(0, s.u.ctl.target_op);
    s = classify("exit;");
    CHECK_INT(SC_PTX_CTL_EXIT, s.u.ctl.op);
    s = classify("mov.u32 %r1, %tid.x;");
    CHECK_INT(SC_PTX_FAM_HARMLESS, s.family);
    CHECK(s.sregs == SC_PTX_SREG_BIT(SC_PTX_SREG_TID));
    s = classify("mad.lo.s32 %r1, %ctaid.x, %ntid.x, %tid.x;");
    CHECK(s.sregs == (SC_PTX_SREG_BIT(SC_PTX_SREG_TID) | SC_PTX_SREG_BIT(SC_PTX_SREG_NTID) |
                      SC_PTX_SREG_BIT(SC_PTX_SREG_CTAID)));
    s = classify("mov.u64 %rd1, %clock64;");
    CHECK(s.sregs == SC_PTX_SREG_BIT(SC_PTX_SREG_CLOCK));
    s = classify("ld.global.u32 %r1, [%rd1];");
    CHECK(s.sregs == 0);
    CHECK_INT(SC_PTX_SREG_LANEID, sc_ptx_sreg_lookup("%laneid"));
    CHECK_INT(SC_PTX_SREG_PM, sc_ptx_sreg_lookup("%pm3_64"));
    CHECK_INT(SC_PTX_SREG_ENVREG, sc_ptx_sreg_lookup("%envreg31"));
    CHECK_INT(SC_PTX_SREG_SMEM_SIZE, sc_ptx_sreg_lookup("%dynamic_smem_size"));
    CHECK_INT(-1, sc_ptx_sreg_lookup("%r1"));
    CHECK_INT(-1, sc_ptx_sreg_lookup("%pm"));
}

TEST(strong_semantics)
{
    CHECK(!sc_ptx_sem_is_strong(SC_SEM_WEAK));
    CHECK(!sc_ptx_sem_is_strong(SC_SEM_NONE));
    CHECK(sc_ptx_sem_is_strong(SC_SEM_RELAXED));
    CHECK(sc_ptx_sem_is_strong(SC_SEM_VOLATILE));
    CHECK(sc_ptx_sem_is_strong(SC_SEM_MMIO));
    CHECK(sc_ptx_sem_is_strong(SC_SEM_SC));
}

TEST(check_known_points_at_the_instruction)
{
    const char *text = ".version 9.0\n.target sm_90\n.address_size 64\n"
                       ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tadd.u32 %r1, %r1, 1;\n"
                       "\ttcgen05.fence::before_thread_sync;\n\tret;\n}\n";
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse(text, strlen(text), "mod.ptx", &err);
    CHECK(m != NULL);
    if (!m)
        return;
    CHECK(!sc_ptx_check_known(m, &err));
    CHECK_CONTAINS(err.msg, "mod.ptx:8:2: error: instruction 'tcgen05.fence::before_thread_sync' in k");
    CHECK_CONTAINS(err.msg, "opcode 'tcgen05' is not known");
    sc_ptx_module_free(m);
    const char *ok = ".version 9.0\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k()\n{\n\tbar.sync 0;\n\tret;\n}\n";
    m = sc_ptx_parse(ok, strlen(ok), "ok.ptx", &err);
    CHECK(m != NULL);
    if (!m)
        return;
    ScErr err2 = {0};
    CHECK(sc_ptx_check_known(m, &err2));
    CHECK(!err2.set);
    sc_ptx_module_free(m);
}

int main(void)
{
    RUN(modifier_order_does_not_matter);
    RUN(isa_defaults);
    RUN(access_sizes);
    RUN(unknown_is_refused);
    RUN(barrier_operands);
    RUN(mbarrier_operands);
    RUN(copy_operands);
    RUN(control_and_special_registers);
    RUN(strong_semantics);
    RUN(check_known_points_at_the_instruction);
    RUN(corpus_matches_expectations);
    return TEST_REPORT();
}
