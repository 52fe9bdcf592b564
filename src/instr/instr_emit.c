/* instr_emit.c: turns one function's planned edits into PTX call sequences and inserts them. */
#include "devrt/devrt_abi.h"
#include "instr/instr_int.h"

#include <string.h>

/*
 * Every call is a nvcc-style call sequence in its own { } scope, so that its
 * .param variables may reuse one set of names. The values it passes are
 * computed into fresh registers declared at the top of the function (shared
 * by every sequence of the function: each sequence is straight-line code that
 * dies at its call). A guarded instruction's calls are skipped with a branch
 * on the guard, because st.param cannot be predicated; the instruction itself
 * keeps its guard.
 */

typedef struct Emitter {
    ScPtxModule *m;
    ScPtxFunc *f;
    /* Fresh registers, declared when first needed. */
    const char *addr, *addr2, *value, *hi, *b32, *b16, *id, *count, *pred;
    /* The roots whose reads this launch leaves out (__scord_roots, fetched at entry),
     * and the registers that test them; NULL when no read of the kernel has roots. */
    const char *ro, *ro_test, *ro_pred;
    /* The if whose checks move to its join, and its flag: this lane ran its body. */
    const ScPtxStmt *join_branch;
    const char *took;
    /* Weak 4-byte accesses call __scord_access_quick (ScInstrOpts.quick, in a function
     * that takes no release). */
    bool quick;
    ScBuf code, text;
    ScBuf arg[10]; /* the text of each argument of the call being built */
    ScErr *err;
} Emitter;

static const char *fresh(Emitter *e, const char **slot, const char *type)
{
    if (!*slot)
        *slot = sc_ptx_fresh_reg(e->m, e->f, type, e->err);
    return *slot;
}

static void opnd(ScBuf *b, const ScPtxOperand *o)
{
    sc_ptx_print_operand(o, b);
}

/* The generic address of the access, as the text of argument i: the base register
 * itself when it already is one, else the fresh register *slot. */
static bool emit_addr_into(Emitter *e, const ScInstrAddr *a, int i, const char **slot)
{
    ScBuf *arg = &e->arg[i], *c = &e->code;
    arg->len = 0;
    bool in_reg = a->base == SC_INSTR_BASE_REG && a->reg.bits == 64 && a->offset == 0;
    if (in_reg && a->window == SC_PTX_SPACE_GENERIC) {
        opnd(arg, a->reg.op);
        return true;
    }
    const char *t = fresh(e, slot, "b64");
    if (!t)
        return false;
    if (!in_reg) {
        const char *from = t;
        switch (a->base) {
        case SC_INSTR_BASE_REG:
            if (a->reg.bits == 64) {
                from = NULL; /* the add below reads the register itself */
                break;
            }
            sc_buf_printf(c, "cvt.u64.u32 %s, ", t);
            opnd(c, a->reg.op);
            sc_buf_puts(c, ";\n");
            break;
        case SC_INSTR_BASE_SYMBOL:
            sc_buf_printf(c, "mov.u64 %s, ", t);
            opnd(c, a->symbol);
            sc_buf_puts(c, ";\n");
            break;
        }
        if (a->offset) {
            sc_buf_printf(c, "add.s64 %s, ", t);
            if (from)
                sc_buf_puts(c, from);
            else
                opnd(c, a->reg.op);
            sc_buf_printf(c, ", %lld;\n", (long long)a->offset);
        }
    }
    const char *cvta = NULL;
    switch (a->window) {
    case SC_PTX_SPACE_GLOBAL:
        cvta = "cvta.global.u64";
        break;
    case SC_PTX_SPACE_SHARED_CTA:
        cvta = "cvta.shared.u64";
        break;
    case SC_PTX_SPACE_SHARED_CLUSTER:
        cvta = "cvta.shared::cluster.u64";
        break;
    case SC_PTX_SPACE_GENERIC:
    case SC_PTX_SPACE_NONE:
    case SC_PTX_SPACE_LOCAL:
    case SC_PTX_SPACE_PARAM:
    case SC_PTX_SPACE_CONST:
    case SC_PTX_SPACE_TEXSURF:
        break;
    }
    if (cvta) {
        sc_buf_printf(c, "%s %s, ", cvta, t);
        if (in_reg)
            opnd(c, a->reg.op);
        else
            sc_buf_puts(c, t);
        sc_buf_puts(c, ";\n");
    }
    sc_buf_puts(arg, t);
    return true;
}

static bool emit_addr(Emitter *e, const ScInstrAddr *a)
{
    return emit_addr_into(e, a, 0, &e->addr);
}

/* The stored value, zero-extended to 64 bits, as the text of the argument. */
static bool emit_value(Emitter *e, const ScInstrValue *v)
{
    ScBuf *arg = &e->arg[3];
    arg->len = 0;
    switch (v->kind) {
    case SC_INSTR_VALUE_ZERO:
        sc_buf_puts(arg, "0");
        return true;
    case SC_INSTR_VALUE_IMM:
        sc_buf_printf(arg, "0x%llx", (unsigned long long)v->imm);
        return true;
    case SC_INSTR_VALUE_REG:
        break;
    }
    const ScInstrReg *r = &v->reg;
    uint32_t have = r->bits > 64 ? 64 : r->bits;
    if (r->bits == 64 && !r->is_float && v->keep_bits >= 64) {
        opnd(arg, r->op);
        return true;
    }
    const char *t = fresh(e, &e->value, "b64");
    if (!t)
        return false;
    ScBuf *c = &e->code;
    /* Floating-point registers are moved as bits into an integer one first. */
    const char *bits = NULL;
    if (r->is_float && (r->bits == 16 || r->bits == 32)) {
        if (!(bits = r->bits == 16 ? fresh(e, &e->b16, "b16") : fresh(e, &e->b32, "b32")))
            return false;
        sc_buf_printf(c, "mov.b%u %s, ", r->bits, bits);
        opnd(c, r->op);
        sc_buf_puts(c, ";\n");
    }
    switch (r->bits) {
    case 128: {
        const char *hi = fresh(e, &e->hi, "b64");
        if (!hi)
            return false;
        sc_buf_printf(c, "mov.b128 {%s, %s}, ", t, hi);
        break;
    }
    case 64:
        sc_buf_printf(c, "mov.b64 %s, ", t);
        break;
    default: /* 8, 16, 32 */
        sc_buf_printf(c, "cvt.u64.u%u %s, ", r->bits, t);
        break;
    }
    if (bits)
        sc_buf_puts(c, bits);
    else
        opnd(c, r->op);
    sc_buf_puts(c, ";\n");
    if (v->keep_bits < have)
        sc_buf_printf(c, "and.b64 %s, %s, 0x%llx;\n", t, t,
                      (unsigned long long)((UINT64_C(1) << v->keep_bits) - 1));
    sc_buf_puts(arg, t);
    return true;
}

/* A .b32 argument. copy: the value is needed after the instruction, which may
 * overwrite the register (bar.red's destination), so take it into a fresh one. */
static bool emit_arg32(Emitter *e, const ScInstrArg32 *a, const char **slot, bool copy, int i)
{
    ScBuf *arg = &e->arg[i];
    arg->len = 0;
    if (a->is_imm) {
        sc_buf_printf(arg, a->imm > 0xffff ? "0x%x" : "%u", a->imm);
        return true;
    }
    if (!copy) {
        opnd(arg, a->reg.op);
        return true;
    }
    const char *t = fresh(e, slot, "b32");
    if (!t)
        return false;
    sc_buf_printf(&e->code, "mov.b32 %s, ", t);
    opnd(&e->code, a->reg.op);
    sc_buf_puts(&e->code, ";\n");
    sc_buf_puts(arg, t);
    return true;
}

/* Appends `{ .param ...; st.param ...; call fn, (...); }` with args[0..n). */
static void call_seq(Emitter *e, const char *fn, const unsigned *bits, int n)
{
    ScBuf *c = &e->code;
    sc_buf_puts(c, "{\n");
    for (int i = 0; i < n; i++)
        sc_buf_printf(c, ".param .b%u __scord_a%d;\nst.param.b%u [__scord_a%d], %s;\n", bits[i], i, bits[i], i,
                      e->arg[i].data ? e->arg[i].data : "");
    sc_buf_printf(c, "call %s, (", fn);
    for (int i = 0; i < n; i++)
        sc_buf_printf(c, "%s__scord_a%d", i ? ", " : "", i);
    sc_buf_puts(c, ");\n}\n");
}

/* Inserts e->code before or after s; with a guard, behind a branch that skips
 * it exactly when s does not execute. */
static bool insert(Emitter *e, ScPtxStmt *s, bool after, const char *guard, bool negated)
{
    const char *text = e->code.data;
    if (guard) {
        const char *label = sc_ptx_fresh_label(e->m, e->err);
        if (!label)
            return false;
        e->text.len = 0;
        sc_buf_printf(&e->text, "@%s%s bra %s;\n%s%s:\n", negated ? "" : "!", guard, label, e->code.data, label);
        text = e->text.data;
    }
    if (e->code.oom || e->text.oom)
        return sc_err_set(e->err, "out of memory");
    return (after ? sc_ptx_insert_after(e->m, s, text, e->err) : sc_ptx_insert_before(e->m, s, text, e->err)) != NULL;
}

/* Starts e->code with a branch past the access's call (to *label, which the caller
 * places after it) when every root of its address points into memory the launch does
 * not write (instr_roots.c): the same for every thread of the launch. *label stays
 * NULL for an access without roots. */
static bool skip_unwritten(Emitter *e, const ScInstrEdit *ed, const char **label)
{
    if (!ed->roots || !e->ro)
        return true;
    if (!fresh(e, &e->ro_test, "b64") || !fresh(e, &e->ro_pred, "pred") ||
        !(*label = sc_ptx_fresh_label(e->m, e->err)))
        return false;
    sc_buf_printf(&e->code, "and.b64 %s, %s, 0x%llx;\nsetp.eq.b64 %s, %s, 0x%llx;\n@%s bra.uni %s;\n", e->ro_test,
                  e->ro, (unsigned long long)ed->roots, e->ro_pred, e->ro_test, (unsigned long long)ed->roots,
                  e->ro_pred, *label);
    return true;
}

/* The hook an access calls: the quick one, when asked for, where its path may decide it. */
static const char *access_hook(const Emitter *e, const ScInstrEdit *ed)
{
    return e->quick && SC_ABI_INFO_QUICK(ed->info) ? "__scord_access_quick" : "__scord_access";
}

/* An access checked at the join of its if (instr_plan.c, mark_joins). Every lane
 * clears the if's flag and this access's registers at the branch; the body's first
 * access sets the flag, and each keeps its address and value; at the join, every
 * lane of the if calls __scord_access, those that skipped the body marked
 * SC_ABI_INFO_NOT_TAKEN. */
static bool emit_joined_access(Emitter *e, const ScInstrEdit *ed)
{
    static const unsigned bits[] = {64, 32, 32, 64};
    bool first = ed->join_branch != e->join_branch;
    if (first) {
        e->join_branch = ed->join_branch;
        if (!(e->took = sc_ptx_fresh_reg(e->m, e->f, "b32", e->err)))
            return false;
    }
    const char *addr = sc_ptx_fresh_reg(e->m, e->f, "b64", e->err);
    const char *value = addr ? sc_ptx_fresh_reg(e->m, e->f, "b64", e->err) : NULL;
    const char *taken = value ? sc_ptx_fresh_reg(e->m, e->f, "pred", e->err) : NULL;
    const char *info = taken ? sc_ptx_fresh_reg(e->m, e->f, "b32", e->err) : NULL;
    if (!info)
        return false;
    e->code.len = 0;
    sc_buf_printf(&e->code, "mov.b64 %s, 0;\nmov.b64 %s, 0;\n", addr, value);
    if (first)
        sc_buf_printf(&e->code, "mov.b32 %s, 0;\n", e->took);
    if (!insert(e, ed->join_branch, false, NULL, false))
        return false;
    e->code.len = 0;
    if (!emit_addr(e, &ed->addr) || !emit_value(e, &ed->value))
        return false;
    sc_buf_printf(&e->code, "mov.b64 %s, %s;\nmov.b64 %s, %s;\n", addr, e->arg[0].data, value, e->arg[3].data);
    if (first)
        sc_buf_printf(&e->code, "mov.b32 %s, 1;\n", e->took);
    if (!insert(e, ed->stmt, false, NULL, false))
        return false;
    e->code.len = 0;
    const char *skip = NULL;
    if (!skip_unwritten(e, ed, &skip))
        return false;
    sc_buf_printf(&e->code, "setp.ne.b32 %s, %s, 0;\nselp.b32 %s, 0x%x, 0x%x, %s;\n", taken, e->took, info, ed->info,
                  ed->info | SC_ABI_INFO_NOT_TAKEN, taken);
    for (int i = 0; i < 4; i++)
        e->arg[i].len = 0;
    sc_buf_puts(&e->arg[0], addr);
    sc_buf_puts(&e->arg[1], info);
    sc_buf_printf(&e->arg[2], "%u", ed->site);
    sc_buf_puts(&e->arg[3], value);
    call_seq(e, access_hook(e, ed), bits, 4);
    if (skip)
        sc_buf_printf(&e->code, "%s:\n", skip);
    return insert(e, ed->join_at, false, NULL, false);
}

static bool emit_access(Emitter *e, const ScInstrEdit *ed)
{
    static const unsigned bits[] = {64, 32, 32, 64};
    if (ed->join_at)
        return emit_joined_access(e, ed);
    e->code.len = 0;
    const char *skip = NULL;
    if (!skip_unwritten(e, ed, &skip) || !emit_addr(e, &ed->addr) || !emit_value(e, &ed->value))
        return false;
    e->arg[1].len = e->arg[2].len = 0;
    sc_buf_printf(&e->arg[1], "0x%x", ed->info);
    sc_buf_printf(&e->arg[2], "%u", ed->site);
    call_seq(e, access_hook(e, ed), bits, 4);
    if (skip)
        sc_buf_printf(&e->code, "%s:\n", skip);
    const ScPtxInstr *in = &ed->stmt->u.instr;
    return insert(e, ed->stmt, false, in->guard, in->guard_negated);
}

static bool emit_barrier(Emitter *e, const ScInstrEdit *ed)
{
    static const unsigned bits[] = {32, 32, 32};
    const ScPtxInstr *in = &ed->stmt->u.instr;
    const char *guard = in->guard;
    if (ed->align_at >= 0 && !sc_ptx_insert_mod(e->m, ed->stmt, (uint32_t)ed->align_at, "aligned", e->err))
        return false;
    if (ed->save_guard) {
        /* bar.red writes its own guard: keep the value that decided whether it ran. */
        const char *saved = fresh(e, &e->pred, "pred");
        if (!saved)
            return false;
        e->code.len = 0;
        sc_buf_printf(&e->code, "mov.pred %s, %s;\n", saved, in->guard);
        if (!insert(e, ed->stmt, false, NULL, false))
            return false;
        guard = saved;
    }
    e->code.len = 0;
    e->arg[0].len = 0;
    sc_buf_printf(&e->arg[0], "%u", ed->site);
    if (!emit_arg32(e, &ed->id, &e->id, !ed->arrive_only, 1) ||
        !emit_arg32(e, &ed->count, &e->count, !ed->arrive_only, 2))
        return false;
    call_seq(e, "__scord_bar_arrive", bits, 3);
    if (!insert(e, ed->stmt, false, in->guard, in->guard_negated))
        return false;
    if (ed->arrive_only)
        return true;
    e->code.len = 0;
    call_seq(e, "__scord_bar_pass", bits, 3);
    return insert(e, ed->stmt, true, guard, in->guard_negated);
}

static bool emit_syncwarp(Emitter *e, const ScInstrEdit *ed)
{
    static const unsigned bits[] = {32, 32};
    e->code.len = 0;
    e->arg[0].len = 0;
    sc_buf_printf(&e->arg[0], "%u", ed->site);
    if (!emit_arg32(e, &ed->mask, &e->b32, false, 1))
        return false;
    call_seq(e, "__scord_syncwarp", bits, 2);
    const ScPtxInstr *in = &ed->stmt->u.instr;
    return insert(e, ed->stmt, true, in->guard, in->guard_negated);
}

/* `fn(addr, info, site)` before the instruction: __scord_sync before an mbarrier arrive
 * or wait, __scord_async_copy before a cp.async. */
static bool emit_addr_call(Emitter *e, const ScInstrEdit *ed, const char *fn)
{
    static const unsigned bits[] = {64, 32, 32};
    e->code.len = 0;
    if (!emit_addr(e, &ed->addr))
        return false;
    e->arg[1].len = e->arg[2].len = 0;
    sc_buf_printf(&e->arg[1], "0x%x", ed->info);
    sc_buf_printf(&e->arg[2], "%u", ed->site);
    call_seq(e, fn, bits, 3);
    const ScPtxInstr *in = &ed->stmt->u.instr;
    return insert(e, ed->stmt, false, in->guard, in->guard_negated);
}

/* For an edit made only when ed->when holds (a wait that returned true): appends the
 * branch past the call to e->code and gives its label in *skip (NULL: no condition). */
static bool skip_unless_when(Emitter *e, const ScInstrEdit *ed, const char **skip)
{
    *skip = NULL;
    if (!ed->when)
        return true;
    if (!(*skip = sc_ptx_fresh_label(e->m, e->err)))
        return false;
    sc_buf_puts(&e->code, "@!");
    opnd(&e->code, ed->when);
    sc_buf_printf(&e->code, " bra %s;\n", *skip);
    return true;
}

/* __scord_mbar(addr, op, info, count): before an init, arrive or inval, where the
 * object is as the program leaves it for the instruction; after a wait that returned
 * true, whose acquire came before the call. */
static bool emit_mbar(Emitter *e, const ScInstrEdit *ed)
{
    static const unsigned bits[] = {64, 32, 32, 32};
    e->code.len = 0;
    const char *skip;
    if (!skip_unless_when(e, ed, &skip) || !emit_addr(e, &ed->addr))
        return false;
    e->arg[1].len = e->arg[2].len = 0;
    sc_buf_printf(&e->arg[1], "%u", ed->mbar_op);
    sc_buf_printf(&e->arg[2], "0x%x", ed->info);
    if (!emit_arg32(e, &ed->count, &e->count, false, 3))
        return false;
    call_seq(e, "__scord_mbar", bits, 4);
    if (skip)
        sc_buf_printf(&e->code, "%s:\n", skip);
    const ScPtxInstr *in = &ed->stmt->u.instr;
    return insert(e, ed->stmt, ed->mbar_op == SC_ABI_MBAR_WAIT, in->guard, in->guard_negated);
}

/* A new call sequence whose arguments are (site, info). */
static void start_site_info(Emitter *e, const ScInstrEdit *ed)
{
    e->code.len = 0;
    e->arg[0].len = e->arg[1].len = 0;
    sc_buf_printf(&e->arg[0], "%u", ed->site);
    sc_buf_printf(&e->arg[1], "0x%x", ed->info);
}

/* After the instruction: a fence orders, and an acquiring access has read, by then. */
static bool emit_fence(Emitter *e, const ScInstrEdit *ed)
{
    static const unsigned bits[] = {32, 32};
    start_site_info(e, ed);
    const char *skip;
    if (!skip_unless_when(e, ed, &skip))
        return false;
    call_seq(e, "__scord_fence", bits, 2);
    if (skip)
        sc_buf_printf(&e->code, "%s:\n", skip);
    const ScPtxInstr *in = &ed->stmt->u.instr;
    return insert(e, ed->stmt, true, in->guard, in->guard_negated);
}

/* After a commit or wait (the copies it waited for are complete then); before a
 * cp.async.mbarrier.arrive, whose release must come after the copies' writes. */
static bool emit_async_group(Emitter *e, const ScInstrEdit *ed)
{
    static const unsigned bits[] = {32};
    e->code.len = 0;
    e->arg[0].len = 0;
    sc_buf_printf(&e->arg[0], "0x%x", ed->info);
    call_seq(e, "__scord_async_group", bits, 1);
    const ScPtxInstr *in = &ed->stmt->u.instr;
    return insert(e, ed->stmt, ed->info != SC_ABI_ASYNC_ARRIVE, in->guard, in->guard_negated);
}

/* Before barrier.cluster.arrive, whose release must be in place before any thread of
 * the cluster can pass its wait; after barrier.cluster.wait. */
static bool emit_cluster_barrier(Emitter *e, const ScInstrEdit *ed)
{
    static const unsigned bits[] = {32, 32};
    start_site_info(e, ed);
    call_seq(e, "__scord_cluster_barrier", bits, 2);
    const ScPtxInstr *in = &ed->stmt->u.instr;
    bool after = SC_ABI_INFO_KIND(ed->info) == SC_ABI_KIND_READ;
    return insert(e, ed->stmt, after, in->guard, in->guard_negated);
}

/* Before a bulk copy: its destination and source as of the instruction. */
static bool emit_bulk_copy(Emitter *e, const ScInstrEdit *ed)
{
    static const unsigned bits[] = {64, 32, 64, 32, 32};
    e->code.len = 0;
    if (!emit_addr_into(e, &ed->addr, 0, &e->addr) || !emit_addr_into(e, &ed->src, 2, &e->addr2) ||
        !emit_arg32(e, &ed->count, &e->count, false, 4))
        return false;
    e->arg[1].len = e->arg[3].len = 0;
    sc_buf_printf(&e->arg[1], "%u", ed->site);
    sc_buf_printf(&e->arg[3], "%u", ed->src_site);
    call_seq(e, "__scord_bulk_copy", bits, 5);
    const ScPtxInstr *in = &ed->stmt->u.instr;
    return insert(e, ed->stmt, false, in->guard, in->guard_negated);
}

/* Before a tensor copy: its box, as of the instruction. The coordinates are passed as
 * they are (registers or immediates). */
static bool emit_tensor_copy(Emitter *e, const ScInstrEdit *ed)
{
    static const unsigned bits[] = {64, 32, 64, 32, 32, 32, 32, 32, 32, 32};
    e->code.len = 0;
    if (!emit_addr_into(e, &ed->addr, 0, &e->addr) || !emit_addr_into(e, &ed->src, 2, &e->addr2))
        return false;
    for (int d = 0; d < 5; d++)
        if (!emit_arg32(e, &ed->coords[d], NULL, false, 5 + d))
            return false;
    e->arg[1].len = e->arg[3].len = e->arg[4].len = 0;
    sc_buf_printf(&e->arg[1], "%u", ed->site);
    sc_buf_printf(&e->arg[3], "%u", ed->src_site);
    sc_buf_printf(&e->arg[4], "%u", ed->to_global ? 1u : 0u);
    call_seq(e, "__scord_tensor_copy", bits, 10);
    const ScPtxInstr *in = &ed->stmt->u.instr;
    return insert(e, ed->stmt, false, in->guard, in->guard_negated);
}

static bool emit_exit(Emitter *e, const ScInstrEdit *ed)
{
    e->code.len = 0;
    call_seq(e, "__scord_exit", NULL, 0);
    const ScPtxInstr *in = &ed->stmt->u.instr;
    return insert(e, ed->stmt, false, in->guard, in->guard_negated);
}

/* The kernel's entry call, and where a read has roots, the fetch of the roots this
 * launch leaves out. */
static bool emit_entry(Emitter *e, const ScInstrFuncPlan *fp)
{
    static const unsigned bits[] = {32};
    e->code.len = 0;
    e->arg[0].len = 0;
    sc_buf_printf(&e->arg[0], "%u", (uint32_t)fp->kernel);
    call_seq(e, "__scord_entry", bits, 1);
    bool roots = false;
    for (uint32_t i = 0; i < fp->n_edits && !roots; i++)
        roots = fp->edits[i].roots != 0;
    if (roots) {
        if (!fresh(e, &e->ro, "b64"))
            return false;
        sc_buf_printf(&e->code, "{\n.param .b64 __scord_r;\ncall (__scord_r), __scord_roots, ();\n"
                                "ld.param.b64 %s, [__scord_r];\n}\n",
                      e->ro);
    }
    if (e->code.oom)
        return sc_err_set(e->err, "out of memory");
    return sc_ptx_insert_at_entry(e->m, e->f, e->code.data, e->err) != NULL;
}

static bool emit_edit(Emitter *e, const ScInstrEdit *ed)
{
    switch (ed->kind) {
    case SC_INSTR_EDIT_ACCESS:
        return emit_access(e, ed);
    case SC_INSTR_EDIT_BARRIER:
        return emit_barrier(e, ed);
    case SC_INSTR_EDIT_SYNCWARP:
        return emit_syncwarp(e, ed);
    case SC_INSTR_EDIT_FENCE:
        return emit_fence(e, ed);
    case SC_INSTR_EDIT_SYNC:
        return emit_addr_call(e, ed, "__scord_sync");
    case SC_INSTR_EDIT_EXIT:
        return emit_exit(e, ed);
    case SC_INSTR_EDIT_ASYNC_COPY:
        return emit_addr_call(e, ed, "__scord_async_copy");
    case SC_INSTR_EDIT_ASYNC_GROUP:
        return emit_async_group(e, ed);
    case SC_INSTR_EDIT_CLUSTER_BARRIER:
        return emit_cluster_barrier(e, ed);
    case SC_INSTR_EDIT_BULK_COPY:
        return emit_bulk_copy(e, ed);
    case SC_INSTR_EDIT_TENSOR_COPY:
        return emit_tensor_copy(e, ed);
    case SC_INSTR_EDIT_MBAR:
        return emit_mbar(e, ed);
    }
    return sc_err_set(e->err, "edit of unknown kind %d", (int)ed->kind);
}

/* Whether a thread running the function may take a release (a fence or an access that
 * acquires, an mbarrier, a cluster barrier's wait): from then on its block's accesses
 * are never the quick path's (its ScDevBlock.acq_next is set), and the quick hook would
 * only cost them a call. An mbarrier that may be a block barrier (SC_INSTR_EDIT_MBAR)
 * takes none when it is one, the case worth the quick hook. */
static bool may_take_releases(const ScInstrFuncPlan *fp)
{
    for (uint32_t i = 0; i < fp->n_edits; i++)
        if (fp->edits[i].kind == SC_INSTR_EDIT_FENCE || fp->edits[i].kind == SC_INSTR_EDIT_SYNC ||
            fp->edits[i].kind == SC_INSTR_EDIT_CLUSTER_BARRIER)
            return true;
    return false;
}

bool sc_instr_emit_func(ScPtxModule *m, const ScInstrFuncPlan *fp, bool quick, ScErr *err)
{
    Emitter e = {.m = m, .f = fp->func, .quick = quick && !may_take_releases(fp), .err = err};
    bool ok = fp->kernel < 0 || emit_entry(&e, fp);
    for (uint32_t i = 0; ok && i < fp->n_edits; i++)
        ok = emit_edit(&e, &fp->edits[i]);
    sc_buf_free(&e.code);
    sc_buf_free(&e.text);
    for (size_t i = 0; i < SC_ARRAY_LEN(e.arg); i++)
        sc_buf_free(&e.arg[i]);
    return ok;
}
