/* test_instr_cfg.c: the control dependences the instrumenter records per site (src/instr/instr_cfg.c), and the
 * ifs whose checks move to their join, on hand-written PTX (if/else, if alone, nesting, loops, early returns, shared
 * joins, brx.idx, scoped labels) and on the race suite's same-warp programs as nvcc builds them. */
#include "devrt/devrt_abi.h"
#include "instr/instr.h"
#include "ptx_core/ptx_test_util.h"
#include "sc_test.h"

#include <dirent.h>

#define HEADER ".version 7.0\n.target sm_75\n.address_size 64\n"
/* A kernel whose accesses are `st.shared.u32 [sm+N], %r1;`: N names the site. */
#define KERNEL_TOP                                                                                                    \
    ".visible .entry k()\n{\n.reg .pred %p<8>;\n.reg .b32 %r<8>;\n.shared .align 4 .b8 sm[32768];\n"                 \
    "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 16;\nsetp.lt.u32 %p2, %r1, 8;\nsetp.lt.u32 %p3, %r1, 4;\n"

/* Instruments text; false (and a message) when the module is refused. */
static bool instrument(const char *text, ScInstrResult *res)
{
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse(text, strlen(text), "cfg.ptx", &err);
    if (!m) {
        printf("does not parse: %s\n", err.msg);
        return false;
    }
    ScInstrOpts opts = {.site_base = 100};
    bool ok = sc_instr_module(m, &opts, res, &err);
    if (!ok)
        printf("refused: %s\n", err.msg);
    sc_ptx_module_free(m);
    return ok;
}

static bool kernel(const char *body, ScInstrResult *res)
{
    size_t n = strlen(HEADER KERNEL_TOP) + strlen(body) + 8;
    char *text = malloc(n);
    snprintf(text, n, "%s%s}\n", HEADER KERNEL_TOP, body);
    bool ok = instrument(text, res);
    free(text);
    return ok;
}

/* The access site whose address is [sm+offset]. */
static const ScInstrSite *at(const ScInstrResult *res, unsigned offset)
{
    char needle[32];
    snprintf(needle, sizeof needle, "[sm+%u]", offset);
    for (uint32_t i = 0; i < res->n_sites; i++)
        if (res->sites[i].kind == SC_INSTR_SITE_ACCESS && strstr(res->sites[i].instr, needle))
            return &res->sites[i];
    printf("no site at [sm+%u]\n", offset);
    exit(1);
}

/* The definition the report applies, written again independently: some branch
 * both sites depend on, through arms that have nothing in common. */
static bool opposite(const ScInstrSite *a, const ScInstrSite *b)
{
    if (a->function_id != b->function_id)
        return false;
    for (uint32_t i = 0; i < a->n_deps; i++) {
        bool shared_branch = false, shared_arm = false;
        for (uint32_t k = 0; k < a->n_deps; k++) {
            if (a->deps[k].branch != a->deps[i].branch)
                continue;
            for (uint32_t j = 0; j < b->n_deps; j++) {
                if (b->deps[j].branch != a->deps[i].branch)
                    continue;
                shared_branch = true;
                shared_arm |= b->deps[j].arm == a->deps[k].arm;
            }
        }
        if (shared_branch && !shared_arm)
            return true;
    }
    return false;
}

static bool depends_on(const ScInstrSite *s, uint32_t branch, uint32_t arm)
{
    for (uint32_t i = 0; i < s->n_deps; i++)
        if (s->deps[i].branch == branch && s->deps[i].arm == arm)
            return true;
    return false;
}

static bool sorted(const ScInstrSite *s)
{
    for (uint32_t i = 1; i < s->n_deps; i++) {
        const ScInstrControlDep *p = &s->deps[i - 1], *q = &s->deps[i];
        if (p->branch > q->branch || (p->branch == q->branch && p->arm >= q->arm))
            return false;
    }
    return true;
}

/* ---- tests ------------------------------------------------------------------------ */

TEST(if_else_arms_are_opposite)
{
    /* nvcc's shape (shared_divergent_branch_race.cu at -O2): the else arm is
     * reached through a block that only holds `bra.uni`. */
    ScInstrResult res;
    CHECK(kernel("st.shared.u32 [sm+4], %r1;\n"
                 "@%p1 bra $L__BB0_2;\n"
                 "bra.uni $L__BB0_1;\n"
                 "$L__BB0_2:\n"
                 "st.shared.u32 [sm+8], %r1;\n"
                 "bra.uni $L__BB0_3;\n"
                 "$L__BB0_1:\n"
                 "ld.shared.u32 %r2, [sm+12];\n"
                 "$L__BB0_3:\n"
                 "st.shared.u32 [sm+16], %r2;\n"
                 "ret;\n",
                 &res));
    const ScInstrSite *before = at(&res, 4), *then = at(&res, 8), *other = at(&res, 12), *after = at(&res, 16);
    CHECK_INT(0, before->n_deps);
    CHECK_INT(0, after->n_deps);
    CHECK_INT(1, then->n_deps);
    CHECK_INT(1, other->n_deps);
    CHECK_INT(then->deps[0].branch, other->deps[0].branch);
    /* The branch is the module's 6th instruction (mov, three setp, st, @p bra). */
    CHECK_INT(5, then->deps[0].branch);
    CHECK_INT(0, then->deps[0].arm);  /* taken */
    CHECK_INT(1, other->deps[0].arm); /* fall-through */
    CHECK(opposite(then, other));
    CHECK(!opposite(then, after));
    CHECK(!opposite(before, other));
    CHECK(!opposite(then, then));
    sc_instr_result_free(&res);
}

TEST(if_without_else_is_one_arm)
{
    ScInstrResult res;
    CHECK(kernel("@%p1 bra SKIP;\n"
                 "st.shared.u32 [sm+4], %r1;\n"
                 "ld.shared.u32 %r2, [sm+8];\n"
                 "SKIP:\n"
                 "st.shared.u32 [sm+12], %r1;\n"
                 "ret;\n",
                 &res));
    const ScInstrSite *in1 = at(&res, 4), *in2 = at(&res, 8), *after = at(&res, 12);
    CHECK_INT(1, in1->n_deps);
    CHECK_INT(1, in1->deps[0].arm);
    CHECK_INT(1, in2->n_deps);
    CHECK_INT(0, after->n_deps);
    CHECK(!opposite(in1, in2)); /* straight-line code under one arm: missing_syncwarp */
    CHECK(!opposite(in1, after));
    sc_instr_result_free(&res);
}

TEST(nested_ifs_lie_on_the_outer_arm)
{
    ScInstrResult res;
    CHECK(kernel("@%p1 bra ELSE;\n"
                 "st.shared.u32 [sm+4], %r1;\n"
                 "@%p2 bra INNER_END;\n"
                 "st.shared.u32 [sm+8], %r1;\n"
                 "INNER_END:\n"
                 "bra.uni JOIN;\n"
                 "ELSE:\n"
                 "@%p3 bra JOIN;\n"
                 "st.shared.u32 [sm+12], %r1;\n"
                 "JOIN:\n"
                 "st.shared.u32 [sm+16], %r1;\n"
                 "ret;\n",
                 &res));
    const ScInstrSite *outer_then = at(&res, 4), *inner = at(&res, 8), *else_inner = at(&res, 12),
                      *join = at(&res, 16);
    CHECK_INT(1, outer_then->n_deps);
    CHECK_INT(2, inner->n_deps);      /* the inner branch, and through it the outer one */
    CHECK_INT(2, else_inner->n_deps);
    CHECK_INT(0, join->n_deps);
    CHECK(sorted(inner) && sorted(else_inner));
    CHECK(depends_on(inner, outer_then->deps[0].branch, outer_then->deps[0].arm));
    CHECK(opposite(inner, else_inner)); /* nested on opposite arms of the outer branch */
    CHECK(opposite(outer_then, else_inner));
    CHECK(!opposite(outer_then, inner));
    CHECK(!opposite(inner, join));
    sc_instr_result_free(&res);
}

TEST(if_else_in_a_loop_stays_opposite)
{
    ScInstrResult res;
    CHECK(kernel("mov.u32 %r2, 0;\n"
                 "LOOP:\n"
                 "ld.shared.u32 %r3, [sm+4];\n"
                 "@%p1 bra THEN;\n"
                 "st.shared.u32 [sm+8], %r1;\n"
                 "bra.uni JOIN;\n"
                 "THEN:\n"
                 "st.shared.u32 [sm+12], %r1;\n"
                 "JOIN:\n"
                 "add.u32 %r2, %r2, 1;\n"
                 "setp.lt.u32 %p4, %r2, %r1;\n"
                 "@%p4 bra LOOP;\n"
                 "st.shared.u32 [sm+16], %r1;\n"
                 "ret;\n",
                 &res));
    const ScInstrSite *head = at(&res, 4), *els = at(&res, 8), *then = at(&res, 12), *after = at(&res, 16);
    /* Every block of the body runs again only when the latch loops back. */
    CHECK_INT(1, head->n_deps);
    CHECK_INT(0, head->deps[0].arm);
    CHECK_INT(2, els->n_deps);
    CHECK_INT(2, then->n_deps);
    CHECK(depends_on(els, head->deps[0].branch, 0) && depends_on(then, head->deps[0].branch, 0));
    CHECK_INT(0, after->n_deps);
    CHECK(opposite(els, then));
    CHECK(!opposite(head, then));
    CHECK(!opposite(head, els));
    CHECK(!opposite(then, after));
    sc_instr_result_free(&res);
}

TEST(early_returns_split_the_rest)
{
    ScInstrResult res;
    CHECK(kernel("st.shared.u32 [sm+4], %r1;\n"
                 "@%p1 bra REST;\n"
                 "st.shared.u32 [sm+8], %r1;\n"
                 "ret;\n"
                 "REST:\n"
                 "ld.shared.u32 %r2, [sm+12];\n"
                 "@%p2 ret;\n"
                 "ld.shared.u32 %r2, [sm+16];\n"
                 "@%p3 exit;\n"
                 "st.shared.u32 [sm+20], %r2;\n"
                 "ret;\n",
                 &res));
    const ScInstrSite *first = at(&res, 4), *returning = at(&res, 8), *rest = at(&res, 12),
                      *after_ret = at(&res, 16), *after_exit = at(&res, 20);
    CHECK_INT(0, first->n_deps);
    CHECK_INT(1, returning->n_deps);
    CHECK_INT(1, rest->n_deps);
    CHECK(opposite(returning, rest)); /* `if (c) { ...; return; } ...`: the two sides of one branch */
    CHECK(opposite(returning, after_exit));
    /* After a guarded ret: on its staying arm (1), as is everything below it. */
    CHECK_INT(2, after_ret->n_deps);
    CHECK(depends_on(after_ret, rest->deps[0].branch, rest->deps[0].arm));
    CHECK_INT(3, after_exit->n_deps);
    CHECK(!opposite(rest, after_ret));
    CHECK(!opposite(after_ret, after_exit));
    CHECK(!opposite(first, after_exit));
    sc_instr_result_free(&res);
}

TEST(branches_to_a_shared_join_are_one_arm)
{
    ScInstrResult res;
    CHECK(kernel("@%p1 bra JOIN;\n"
                 "st.shared.u32 [sm+4], %r1;\n"
                 "@%p2 bra JOIN;\n"
                 "st.shared.u32 [sm+8], %r1;\n"
                 "JOIN:\n"
                 "st.shared.u32 [sm+12], %r1;\n"
                 "@%p3 bra NEXT;\n"
                 "NEXT:\n"
                 "st.shared.u32 [sm+16], %r1;\n"
                 "ret;\n",
                 &res));
    const ScInstrSite *a = at(&res, 4), *b = at(&res, 8), *join = at(&res, 12), *next = at(&res, 16);
    CHECK_INT(1, a->n_deps);
    CHECK_INT(2, b->n_deps);
    CHECK(depends_on(b, a->deps[0].branch, a->deps[0].arm));
    CHECK_INT(0, join->n_deps);
    CHECK_INT(0, next->n_deps); /* a branch whose two edges meet at once decides nothing */
    CHECK(!opposite(a, b));
    CHECK(!opposite(a, join));
    CHECK(!opposite(b, join));
    sc_instr_result_free(&res);
}

TEST(uniform_branches_are_not_divergent)
{
    ScInstrResult res;
    CHECK(kernel("@%p1 bra.uni THEN;\n"
                 "st.shared.u32 [sm+4], %r1;\n"
                 "bra.uni JOIN;\n"
                 "THEN:\n"
                 "@%p2 bra JOIN;\n"
                 "st.shared.u32 [sm+8], %r1;\n"
                 "JOIN:\n"
                 "ret;\n",
                 &res));
    const ScInstrSite *els = at(&res, 4), *then = at(&res, 8);
    CHECK_INT(0, els->n_deps);
    CHECK_INT(1, then->n_deps); /* the divergent inner branch only, found through the uniform one */
    CHECK(!opposite(els, then));
    sc_instr_result_free(&res);
}

/* The instrumented text of a kernel body. */
static char *instrumented(const char *body)
{
    size_t n = strlen(HEADER KERNEL_TOP) + strlen(body) + 8;
    char *text = malloc(n);
    snprintf(text, n, "%s%s}\n", HEADER KERNEL_TOP, body);
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse(text, strlen(text), "cfg.ptx", &err);
    ScInstrResult res;
    ScInstrOpts opts = {0};
    ScBuf out = {0};
    if (!m || !sc_instr_module(m, &opts, &res, &err) || !sc_ptx_print(m, &out))
        printf("cannot instrument: %s\n", err.msg);
    else
        sc_instr_result_free(&res);
    if (m)
        sc_ptx_module_free(m);
    free(text);
    return out.data ? out.data : strdup("");
}

static int count_text(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* Which ifs have their checks made at the join (instr_plan.c, mark_joins): the
 * then-block of an if without else whose join no other block enters, whose edits are
 * all plain accesses, and that calls nothing; `selp.b32` is the join's call choosing
 * SC_ABI_INFO_NOT_TAKEN. */
TEST(checks_move_to_the_join_of_an_if_without_else)
{
    char *t = instrumented("@%p1 bra J;\nst.shared.u32 [sm+4], %r1;\nld.shared.u32 %r2, [sm+8];\n"
                           "J:\nst.shared.u32 [sm+12], %r1;\nret;\n");
    CHECK_INT(2, count_text(t, "selp.b32"));
    /* Both calls come before the join's own access, which is checked in place. */
    const char *join = strstr(t, "J:"), *own = strstr(t, "st.shared.u32 \t[sm+12]");
    CHECK(join && own && count_text(join, "selp.b32") == 2 && strstr(join, "selp.b32") < own);
    free(t);

    /* A join three blocks enter: neither if's body moves. */
    t = instrumented("@%p1 bra J;\nst.shared.u32 [sm+4], %r1;\n@%p2 bra J;\nst.shared.u32 [sm+8], %r1;\n"
                     "J:\nret;\n");
    CHECK_INT(0, count_text(t, "selp.b32"));
    free(t);

    /* An if with an else, a uniform branch, a fence in the body, a guarded access. */
    t = instrumented("@%p1 bra E;\nst.shared.u32 [sm+4], %r1;\nbra.uni J;\nE:\nst.shared.u32 [sm+8], %r1;\n"
                     "J:\n@%p2 bra.uni K;\nst.shared.u32 [sm+12], %r1;\nK:\n"
                     "@%p3 bra L;\nst.shared.u32 [sm+16], %r1;\nmembar.cta;\nL:\n"
                     "@%p1 bra M;\n@%p2 st.shared.u32 [sm+20], %r1;\nM:\nret;\n");
    CHECK_INT(0, count_text(t, "selp.b32"));
    free(t);

    /* An acquire load stays in place; a relaxed atomic moves. */
    t = instrumented("@%p1 bra J;\nld.acquire.cta.shared.u32 %r2, [sm+4];\nJ:\n"
                     "@%p2 bra K;\natom.relaxed.cta.shared.add.u32 %r3, [sm+8], 1;\nK:\nret;\n");
    CHECK_INT(1, count_text(t, "selp.b32"));
    free(t);
}

TEST(brx_idx_targets_are_arms)
{
    ScInstrResult res;
    CHECK(kernel("and.b32 %r2, %r1, 3;\n"
                 "ts: .branchtargets C0, C1, C2, C0;\n"
                 "brx.idx %r2, ts;\n"
                 "C0:\n"
                 "st.shared.u32 [sm+4], %r1;\n"
                 "bra.uni J;\n"
                 "C1:\n"
                 "st.shared.u32 [sm+8], %r1;\n"
                 "bra.uni J;\n"
                 "C2:\n"
                 "st.shared.u32 [sm+12], %r1;\n"
                 "J:\n"
                 "st.shared.u32 [sm+16], %r1;\n"
                 "ret;\n",
                 &res));
    const ScInstrSite *c0 = at(&res, 4), *c1 = at(&res, 8), *c2 = at(&res, 12), *j = at(&res, 16);
    CHECK_INT(2, c0->n_deps); /* listed twice: arms 0 and 3 */
    CHECK_INT(0, c0->deps[0].arm);
    CHECK_INT(3, c0->deps[1].arm);
    CHECK_INT(1, c1->n_deps);
    CHECK_INT(1, c1->deps[0].arm);
    CHECK_INT(2, c2->deps[0].arm);
    CHECK_INT(0, j->n_deps);
    CHECK(opposite(c0, c1) && opposite(c1, c2) && opposite(c0, c2));
    CHECK(!opposite(c0, j));
    sc_instr_result_free(&res);
}

TEST(labels_resolve_in_their_scope)
{
    /* Two inline-asm blocks declare the same label; each branch means its own. */
    ScInstrResult res;
    CHECK(kernel("{\n@%p1 bra L1;\nst.shared.u32 [sm+4], %r1;\nL1:\n}\n"
                 "{\n@%p2 bra L1;\nst.shared.u32 [sm+8], %r1;\nL1:\n}\n"
                 "st.shared.u32 [sm+12], %r1;\n"
                 "ret;\n",
                 &res));
    const ScInstrSite *a = at(&res, 4), *b = at(&res, 8), *after = at(&res, 12);
    CHECK_INT(1, a->n_deps);
    CHECK_INT(1, b->n_deps);
    CHECK(a->deps[0].branch != b->deps[0].branch);
    CHECK_INT(1, a->deps[0].arm);
    CHECK_INT(1, b->deps[0].arm);
    CHECK_INT(0, after->n_deps);
    CHECK(!opposite(a, b));
    sc_instr_result_free(&res);
}

TEST(what_is_not_understood_gets_nothing)
{
    ScInstrResult res;
    /* A block that never reaches the end: no post-dominators, no dependences. */
    CHECK(kernel("@%p1 bra THEN;\n"
                 "st.shared.u32 [sm+4], %r1;\n"
                 "bra.uni JOIN;\n"
                 "THEN:\n"
                 "st.shared.u32 [sm+8], %r1;\n"
                 "JOIN:\n"
                 "@%p2 bra HANG;\n"
                 "ret;\n"
                 "HANG:\n"
                 "bra.uni HANG;\n",
                 &res));
    CHECK_INT(0, at(&res, 4)->n_deps);
    CHECK_INT(0, at(&res, 8)->n_deps);
    sc_instr_result_free(&res);

    /* A branch table that is not declared (the front end leaves that to ptxas). */
    CHECK(kernel("@%p1 bra THEN;\n"
                 "st.shared.u32 [sm+4], %r1;\n"
                 "bra.uni JOIN;\n"
                 "THEN:\n"
                 "st.shared.u32 [sm+8], %r1;\n"
                 "JOIN:\n"
                 "@%p2 brx.idx %r1, nowhere;\n"
                 "ret;\n",
                 &res));
    CHECK_INT(0, at(&res, 4)->n_deps);
    CHECK_INT(0, at(&res, 8)->n_deps);
    sc_instr_result_free(&res);
}

TEST(functions_have_their_own_ids_and_branches)
{
    ScInstrResult res;
    CHECK(instrument(HEADER ".shared .align 4 .b8 sm[64];\n"
                            ".func f(.param .b32 x)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<2>;\n"
                            "ld.param.b32 %r1, [x];\nsetp.lt.u32 %p1, %r1, 16;\n"
                            "@%p1 bra T;\nst.shared.u32 [sm+4], %r1;\nret;\nT:\nst.shared.u32 [sm+8], %r1;\nret;\n}\n"
                            ".visible .entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<2>;\n"
                            "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 16;\n"
                            "@%p1 bra T;\nst.shared.u32 [sm+12], %r1;\nret;\nT:\nst.shared.u32 [sm+16], %r1;\n"
                            "ret;\n}\n",
                     &res));
    const ScInstrSite *f_else = at(&res, 4), *f_then = at(&res, 8), *k_else = at(&res, 12), *k_then = at(&res, 16);
    CHECK_INT(100, f_else->function_id); /* the first site of f */
    CHECK_INT(100, f_then->function_id);
    CHECK_INT(k_else->id, k_else->function_id);
    CHECK_INT(k_else->id, k_then->function_id);
    CHECK(opposite(f_else, f_then));
    CHECK(opposite(k_else, k_then));
    CHECK(!opposite(f_else, k_then));
    CHECK_INT(2, f_else->deps[0].branch); /* instructions are numbered across the module */
    CHECK_INT(9, k_else->deps[0].branch);
    sc_instr_result_free(&res);
}

TEST(deep_nesting_keeps_the_nearest_branches)
{
    enum { DEPTH = SC_INSTR_MAX_CONTROL_DEPS + 8 };
    ScBuf b = {0};
    for (int i = 0; i < DEPTH; i++)
        sc_buf_printf(&b, "@%%p1 bra E%d;\n", i);
    sc_buf_puts(&b, "st.shared.u32 [sm+4], %r1;\n");
    for (int i = DEPTH; i-- > 0;)
        sc_buf_printf(&b, "E%d:\n", i);
    sc_buf_puts(&b, "ret;\n");
    ScInstrResult res;
    CHECK(!b.oom && kernel(b.data, &res));
    const ScInstrSite *s = at(&res, 4);
    CHECK_INT(SC_INSTR_MAX_CONTROL_DEPS, s->n_deps);
    CHECK(sorted(s));
    /* The innermost branch (the module's instruction 4 + DEPTH - 1) is kept, the outermost is not. */
    CHECK(depends_on(s, 4 + DEPTH - 1, 1));
    CHECK(!depends_on(s, 4, 1));
    sc_instr_result_free(&res);
    sc_buf_free(&b);
}

TEST(thousands_of_blocks)
{
    /* A long body of sequential if/elses, as unrolled kernels have. */
    enum { N = 3000 };
    ScBuf b = {0};
    for (int i = 0; i < N; i++)
        sc_buf_printf(&b,
                      "@%%p1 bra T%d;\nst.shared.u32 [sm+%d], %%r1;\nbra.uni J%d;\nT%d:\n"
                      "st.shared.u32 [sm+%d], %%r1;\nJ%d:\n",
                      i, 4 + 8 * i, i, i, 8 + 8 * i, i);
    sc_buf_puts(&b, "ret;\n");
    ScInstrResult res;
    CHECK(!b.oom && kernel(b.data, &res));
    CHECK_INT(2 * N, res.n_sites);
    for (int i = 0; i < N; i += 499) {
        const ScInstrSite *e = at(&res, 4 + 8 * i), *t = at(&res, 8 + 8 * i);
        CHECK_INT(1, e->n_deps);
        CHECK_INT(1, t->n_deps);
        CHECK(opposite(e, t));
        if (i)
            CHECK(!opposite(t, at(&res, 4)));
    }
    sc_instr_result_free(&res);
    sc_buf_free(&b);
}

/* ---- the race suite ------------------------------------------------------------- */

/* One end of a tagged race: `// race(A) write shared` at line `line`. */
typedef struct End {
    unsigned line;
    unsigned kind;   /* SC_ABI_KIND_* */
    unsigned space;  /* SC_ABI_SPACE_GLOBAL or SC_ABI_SPACE_SHARED */
} End;

/* The ends of race `id` in the program's text; at most 2 lines, each kind of a
 * `read,write` tag counted. */
static int race_ends(const char *text, const char *id, End *ends, int max)
{
    char tag[32];
    snprintf(tag, sizeof tag, "race(%s) ", id);
    int n = 0;
    unsigned line = 1;
    for (const char *p = text; *p; line++) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        for (const char *t = p; (t = strstr(t, tag)) && t < p + len; t += strlen(tag)) {
            const char *k = t + strlen(tag);
            const char *sp = strchr(k, ' ');
            if (!sp || sp > p + len)
                break;
            unsigned space = strncmp(sp + 1, "shared", 6) == 0 ? SC_ABI_SPACE_SHARED : SC_ABI_SPACE_GLOBAL;
            for (const char *w = k; w < sp && n < max;) {
                size_t wl = strcspn(w, ", ");
                unsigned kind = wl == 4 && strncmp(w, "read", 4) == 0    ? SC_ABI_KIND_READ
                                : wl == 5 && strncmp(w, "write", 5) == 0 ? SC_ABI_KIND_WRITE
                                                                         : SC_ABI_KIND_RMW;
                ends[n++] = (End){line, kind, space};
                w += wl + (w[wl] == ',');
            }
        }
        p = eol ? eol + 1 : p + len;
    }
    return n;
}

/* Whether site s is an access of end e: a frame at its line of file `base`
 * (the innermost frame may be an inlined helper), of its kind and space
 * (or generic). */
static bool site_is(const ScInstrSite *s, const char *base, const End *e)
{
    if (s->kind != SC_INSTR_SITE_ACCESS)
        return false;
    unsigned kind = SC_ABI_INFO_KIND(s->info), space = SC_ABI_INFO_SPACE(s->info);
    if (kind == SC_ABI_KIND_RED)
        kind = SC_ABI_KIND_RMW;
    if (kind != e->kind || (space != e->space && space != SC_ABI_SPACE_GENERIC))
        return false;
    for (uint32_t f = 0; f < s->n_frames; f++) {
        const char *path = s->frames[f].path;
        size_t pl = path ? strlen(path) : 0, bl = strlen(base);
        if (s->frames[f].line == e->line && pl >= bl && strcmp(path + pl - bl, base) == 0)
            return true;
    }
    return false;
}

/* Checks the races of one program whose cause is same-warp; returns how many. */
static int check_program(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "tests/races/%s", name);
    size_t len;
    char *src = ptxt_read_file(path, &len);
    CHECK(src != NULL);
    if (!src)
        return 0;
    int checked = 0;
    for (const char *c = src; (c = strstr(c, "// SCORD-CAUSE: ")); c++) {
        char id[16], cause[64];
        if (sscanf(c, "// SCORD-CAUSE: %15s %63s", id, cause) != 2)
            continue;
        bool divergent = strcmp(cause, "divergent_branch") == 0;
        if (!divergent && strcmp(cause, "missing_syncwarp") != 0)
            continue;
        End ends[4];
        int n_ends = race_ends(src, id, ends, 4);
        CHECK_INT(2, n_ends);
        if (n_ends != 2)
            continue;
        char ptx_path[512];
        snprintf(ptx_path, sizeof ptx_path, "%s/ptx-corpus/tests-races-%.*s.sm_90.lineinfo.ptx", sc_test_build_dir(),
                 (int)(strlen(name) - 3), name);
        size_t ptx_len;
        char *ptx = ptxt_read_file(ptx_path, &ptx_len);
        if (!ptx) {
            printf("%s: not built\n", ptx_path);
            CHECK(ptx != NULL);
            continue;
        }
        ScInstrResult res;
        CHECK(instrument(ptx, &res));
        free(ptx);
        int pairs = 0, opposite_pairs = 0;
        for (uint32_t i = 0; i < res.n_sites; i++)
            for (uint32_t j = 0; j < res.n_sites; j++)
                if (site_is(&res.sites[i], name, &ends[0]) && site_is(&res.sites[j], name, &ends[1])) {
                    pairs++;
                    opposite_pairs += opposite(&res.sites[i], &res.sites[j]);
                }
        if (!pairs || (divergent ? opposite_pairs == 0 : opposite_pairs != 0)) {
            printf("%s race %s (%s, lines %u/%u): %d site pairs, %d on opposite arms\n", name, id, cause,
                   ends[0].line, ends[1].line, pairs, opposite_pairs);
            CHECK(false);
        }
        sc_instr_result_free(&res);
        checked++;
    }
    free(src);
    return checked;
}

TEST(race_suite_same_warp_races)
{
    DIR *d = opendir("tests/races");
    CHECK(d != NULL);
    if (!d)
        return;
    int divergent = 0, races = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 8 && strcmp(e->d_name + n - 8, "_race.cu") == 0) {
            races += check_program(e->d_name);
            divergent += strstr(e->d_name, "divergent_branch") != NULL;
        }
    }
    closedir(d);
    CHECK(divergent >= 2); /* shared_ and global_divergent_branch_race.cu */
    CHECK(races >= 8);
}

int main(void)
{
    RUN(if_else_arms_are_opposite);
    RUN(if_without_else_is_one_arm);
    RUN(nested_ifs_lie_on_the_outer_arm);
    RUN(if_else_in_a_loop_stays_opposite);
    RUN(early_returns_split_the_rest);
    RUN(branches_to_a_shared_join_are_one_arm);
    RUN(uniform_branches_are_not_divergent);
    RUN(checks_move_to_the_join_of_an_if_without_else);
    RUN(brx_idx_targets_are_arms);
    RUN(labels_resolve_in_their_scope);
    RUN(what_is_not_understood_gets_nothing);
    RUN(functions_have_their_own_ids_and_branches);
    RUN(deep_nesting_keeps_the_nearest_branches);
    RUN(thousands_of_blocks);
    RUN(race_suite_same_warp_races);
    return TEST_REPORT();
}
