/* instr_prune.c: static pruning: the reads of shared memory that no other thread's write can meet are not checked. */
#include "devrt/devrt_abi.h"
#include "instr/instr_int.h"

#include <stdlib.h>
#include <string.h>

/*
 * A block-wide aligned barrier (bar.sync, bar.red, barrier.sync.aligned with no
 * thread count, unguarded) is executed by every thread of the block that has not
 * exited, each time at the same instruction: the PTX ISA makes that the program's
 * promise for .aligned barriers (bar.sync is barrier.sync.aligned). So the threads of
 * a block run from one such barrier (or from the kernel's entry) to the next as a
 * group: within one barrier interval every thread executes only instructions
 * reachable from the interval's opening barrier without crossing another one, and
 * every access of another interval is ordered with them by a barrier. A read of
 * shared memory therefore races with nothing when no interval it may lie in holds an
 * instruction that may write shared memory: no other thread of the block writes it
 * meanwhile, and no thread of another block reaches it. Such reads are not
 * instrumented: a tile that a block loads, synchronizes and then only reads
 * (`sgemm_tiled`'s inner loop) costs nothing to check. Nothing is pruned in a module
 * where shared memory may be written outside the intervals: by another block
 * (distributed shared memory) or asynchronously (copies, asynchronous stores).
 *
 * What may write shared memory in an interval, conservatively: a store, atomic or
 * reduction to shared or generic addresses; matrix instructions on them; every
 * mbarrier instruction (its object is a shared word); every call (the callee may
 * write, or hold a barrier). In a .func the interval its entry lies in, and any
 * interval that reaches its ret, continue in callers the graph does not show: they
 * count as writing.
 */

typedef enum Role {
    ROLE_OTHER,
    ROLE_BARRIER,  /* a block-wide aligned barrier: intervals end and begin here */
    ROLE_WRITES,   /* may write shared memory, or leads out of the function */
} Role;

static bool shared_or_generic(ScPtxSpace space)
{
    return space == SC_PTX_SPACE_GENERIC || space == SC_PTX_SPACE_SHARED_CTA ||
           space == SC_PTX_SPACE_SHARED_CLUSTER;
}

static Role role(const ScPtxStmt *s, bool is_entry)
{
    const ScPtxInstr *in = &s->u.instr;
    ScPtxSema se;
    sc_ptx_classify(in, &se);
    switch (se.family) {
    case SC_PTX_FAM_BARRIER:
        return se.u.bar.kind != SC_PTX_BAR_ARRIVE && se.u.bar.aligned && se.u.bar.count_op < 0 && !in->guard
                   ? ROLE_BARRIER
                   : ROLE_OTHER;
    case SC_PTX_FAM_MEM:
        return se.u.mem.kind != SC_PTX_ACCESS_READ && se.u.mem.kind != SC_PTX_ACCESS_NONE &&
                       shared_or_generic(se.u.mem.space)
                   ? ROLE_WRITES
                   : ROLE_OTHER;
    case SC_PTX_FAM_MATRIX:
        return shared_or_generic(se.u.mem.space) ? ROLE_WRITES : ROLE_OTHER;
    case SC_PTX_FAM_MBARRIER:
        return ROLE_WRITES;
    case SC_PTX_FAM_CONTROL:
        if (strcmp(in->opcode, "call") == 0)
            return ROLE_WRITES;
        return !is_entry && strcmp(in->opcode, "ret") == 0 ? ROLE_WRITES : ROLE_OTHER;
    default:
        return ROLE_OTHER;
    }
}

/* Whether shared memory may be written outside the intervals the walk sees: by
 * another block (an access through the cluster's shared window, or an address mapped
 * into it), or asynchronously (a copy or an asynchronous store lands at any time
 * before the wait that completes it, which may lie intervals later, or nowhere). */
static bool writes_outside_intervals(const ScPtxStmt *s)
{
    if (strcmp(s->u.instr.opcode, "mapa") == 0 || sc_ptx_instr_has_mod(s, "shared::cluster"))
        return true;
    ScPtxSema se;
    sc_ptx_classify(&s->u.instr, &se);
    switch (se.family) {
    case SC_PTX_FAM_COPY:
    case SC_PTX_FAM_ASYNC_GROUP:
        return true;
    case SC_PTX_FAM_MEM:
    case SC_PTX_FAM_MATRIX:
        return se.u.mem.async || se.u.mem.space == SC_PTX_SPACE_SHARED_CLUSTER;
    default:
        return false;
    }
}

bool sc_instr_prune_allowed(const ScPtxModule *m)
{
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind != SC_PTX_ITEM_FUNC || !it->u.func->has_body)
            continue;
        for (const ScPtxStmt *s = it->u.func->first; s; s = s->next)
            if (s->kind == SC_PTX_STMT_INSTR && writes_outside_intervals(s))
                return false;
    }
    return true;
}

/* The function's instructions by block, with their roles, and the state of a walk. */
typedef struct Intervals {
    const ScInstrCfg *cfg;
    uint32_t n_blocks;
    uint32_t *block_start;     /* index of each block's first instruction in `roles` */
    uint8_t *roles;            /* Role of every instruction, block by block */
    uint8_t *in_dirty;         /* lies in an interval that may write shared memory */
    uint32_t *seen;            /* per block: the walk that entered it at its top */
    uint32_t *stack;
    uint32_t walk;
} Intervals;

static uint32_t block_len(const Intervals *iv, uint32_t b)
{
    return iv->block_start[b + 1] - iv->block_start[b];
}

/* Walks the interval that opens at instruction `pos` of block b: to the end of every
 * block reached without crossing a barrier. mark: set in_dirty on the way; returns
 * whether the interval holds a writing instruction. */
static bool walk(Intervals *iv, uint32_t b, uint32_t pos, bool mark)
{
    bool writes = false;
    uint32_t top = 0;
    iv->walk++;
    for (;;) {
        uint32_t k = iv->block_start[b] + pos, end = iv->block_start[b] + block_len(iv, b);
        for (; k < end && iv->roles[k] != ROLE_BARRIER; k++) {
            writes |= iv->roles[k] == ROLE_WRITES;
            if (mark)
                iv->in_dirty[k] = 1;
        }
        if (k == end) {
            for (uint32_t i = 0; i < sc_instr_cfg_n_succs(iv->cfg, b); i++) {
                uint32_t to = sc_instr_cfg_succ(iv->cfg, b, i);
                if (to != SC_INSTR_NO_BLOCK && iv->seen[to] != iv->walk) {
                    iv->seen[to] = iv->walk;
                    iv->stack[top++] = to;
                }
            }
        }
        if (!top)
            return writes;
        b = iv->stack[--top];
        pos = 0;
    }
}

/* The interval openings: the function's entry, and after every barrier. */
static void mark_dirty(Intervals *iv, bool is_entry)
{
    if (!is_entry || walk(iv, 0, 0, false))
        walk(iv, 0, 0, true);
    for (uint32_t b = 0; b < iv->n_blocks; b++)
        for (uint32_t i = 0; i < block_len(iv, b); i++)
            if (iv->roles[iv->block_start[b] + i] == ROLE_BARRIER && walk(iv, b, i + 1, false))
                walk(iv, b, i + 1, true);
}

/* The index in `roles` of an edit's instruction, UINT32_MAX when it is in no block. */
static uint32_t instr_index(const Intervals *iv, const ScPtxStmt *stmt)
{
    uint32_t b = sc_instr_cfg_block(iv->cfg, stmt);
    if (b == SC_INSTR_NO_BLOCK)
        return UINT32_MAX;
    uint32_t k = iv->block_start[b];
    for (const ScPtxStmt *s = sc_instr_cfg_first(iv->cfg, b); s; s = sc_instr_cfg_next(iv->cfg, b, s), k++)
        if (s == stmt)
            return k;
    return UINT32_MAX;
}

static bool prunable(const ScInstrEdit *e)
{
    return e->kind == SC_INSTR_EDIT_ACCESS && SC_ABI_INFO_KIND(e->info) == SC_ABI_KIND_READ &&
           SC_ABI_INFO_SEM(e->info) == SC_SEM_WEAK && SC_ABI_INFO_SPACE(e->info) == SC_ABI_SPACE_SHARED;
}

bool sc_instr_prune(ScInstrFuncPlan *fp, const ScInstrCfg *cfg, ScInstrSites *st, ScErr *err)
{
    uint32_t n_blocks = sc_instr_cfg_n_blocks(cfg), n = 0, pruned = 0;
    bool any = false;
    for (uint32_t i = 0; i < fp->n_edits && !any; i++)
        any = prunable(&fp->edits[i]);
    if (!n_blocks || !any)
        return true;
    Intervals iv = {.cfg = cfg, .n_blocks = n_blocks};
    iv.block_start = calloc(n_blocks + 1, sizeof *iv.block_start);
    iv.seen = calloc(n_blocks, sizeof *iv.seen);
    iv.stack = calloc(n_blocks, sizeof *iv.stack);
    for (uint32_t b = 0; iv.block_start && b < n_blocks; b++) {
        iv.block_start[b] = n;
        for (const ScPtxStmt *s = sc_instr_cfg_first(cfg, b); s; s = sc_instr_cfg_next(cfg, b, s))
            n++;
    }
    if (iv.block_start)
        iv.block_start[n_blocks] = n;
    iv.roles = malloc(n + 1);
    iv.in_dirty = calloc(n + 1, 1);
    bool ok = iv.block_start && iv.seen && iv.stack && iv.roles && iv.in_dirty;
    if (ok) {
        bool is_entry = fp->func->is_entry;
        for (uint32_t b = 0, k = 0; b < n_blocks; b++)
            for (const ScPtxStmt *s = sc_instr_cfg_first(cfg, b); s; s = sc_instr_cfg_next(cfg, b, s))
                iv.roles[k++] = (uint8_t)role(s, is_entry);
        mark_dirty(&iv, is_entry);
        uint32_t kept = 0;
        for (uint32_t i = 0; i < fp->n_edits; i++) {
            ScInstrEdit *e = &fp->edits[i];
            uint32_t k = prunable(e) ? instr_index(&iv, e->stmt) : UINT32_MAX;
            if (k != UINT32_MAX && !iv.in_dirty[k]) {
                st->res->sites[e->site - st->site_base].kind = SC_INSTR_SITE_PRUNED;
                pruned++;
                continue;
            }
            fp->edits[kept++] = *e;
        }
        fp->n_edits = kept;
        st->res->n_pruned += pruned;
    }
    free(iv.block_start);
    free(iv.seen);
    free(iv.stack);
    free(iv.roles);
    free(iv.in_dirty);
    return ok || sc_err_set(err, "out of memory");
}
