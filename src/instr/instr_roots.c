/* instr_roots.c: the global reads a launch can leave unchecked: of allocations none of its writes can reach. */
#include "devrt/devrt_abi.h"
#include "instr/instr_int.h"

#include <stdlib.h>
#include <string.h>

/*
 * A weak read races only with a write of another thread to the same bytes. When every
 * write to global memory a kernel can make goes through a pointer that came from its
 * parameters, and a read's pointer came from other parameters that, at this launch,
 * point into allocations none of the written ones points into, no write of the launch
 * reaches what the read reads: it races with nothing, and no later access can race
 * with it (the shadow starts over at each launch). That is decided in two halves.
 *
 * Here, per kernel: which parameter words (a 64-bit load of the kernel's parameter
 * space at a fixed offset: a "root") each register's value may derive from, flow-
 * insensitively and by over-approximation (a register's set is the union over all its
 * definitions of their operands' sets); the roots of every address the kernel writes
 * through; and, for each weak global read, the roots of its address. A value loaded
 * from memory 64 or 128 bits wide (it may be a pointer), a call's result, a module
 * variable's address or anything not understood taints the register with a flag
 * instead, and a write through a flagged or rootless address, a call, or a write this
 * file does not model (a bulk or tensor copy to global memory, a surface store,
 * multimem) leaves the kernel without roots: every read is checked.
 *
 * At the launch (intercept_alloc.c, sc_alloc_unwritten_roots), the host reads each
 * root's value from the launch's parameters and marks the roots that point into a
 * tracked allocation no written root points into; the instrumented read skips its
 * call when all of its roots are marked (one AND and one compare against a register
 * the kernel fetched at entry, __scord_roots). The assumption is C's: pointer
 * arithmetic stays within the object its pointer points into.
 */

/* Flags above the roots: where else a value may come from. */
#define ROOTS_MASK ((UINT64_C(1) << SC_INSTR_MAX_ROOTS) - 1)
#define FROM_SHARED (UINT64_C(1) << 60) /* a shared-memory address: not global */
#define FROM_LOCAL (UINT64_C(1) << 61)  /* a local-memory address: not global */
#define FROM_GLOBAL_VAR (UINT64_C(1) << 62)
#define FROM_UNKNOWN (UINT64_C(1) << 63)
#define NOT_GLOBAL (FROM_SHARED | FROM_LOCAL)

typedef struct RegSet {
    const char *name; /* NULL: empty slot */
    uint64_t set;
} RegSet;

typedef struct Roots {
    const ScPtxModule *m;
    const ScPtxFunc *f;
    ScInstrKernel *k;
    RegSet *regs; /* open addressing, cap_regs a power of two */
    uint32_t n_regs, cap_regs;
    bool changed;
    bool oom;
} Roots;

static uint32_t hash_name(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static RegSet *slot_of(Roots *r, const char *name)
{
    uint32_t i = hash_name(name) & (r->cap_regs - 1);
    while (r->regs[i].name && strcmp(r->regs[i].name, name) != 0)
        i = (i + 1) & (r->cap_regs - 1);
    return &r->regs[i];
}

static uint64_t reg_set(Roots *r, const char *name)
{
    if (!r->cap_regs)
        return 0;
    RegSet *s = slot_of(r, name);
    return s->name ? s->set : 0;
}

static void widen(Roots *r, const char *name, uint64_t set)
{
    if (!set || r->oom)
        return;
    if (2 * (r->n_regs + 1) > r->cap_regs) {
        uint32_t cap = r->cap_regs ? 2 * r->cap_regs : 256;
        RegSet *old = r->regs, *grown = calloc(cap, sizeof *grown);
        if (!grown) {
            r->oom = true;
            return;
        }
        uint32_t old_cap = r->cap_regs;
        r->regs = grown;
        r->cap_regs = cap;
        for (uint32_t i = 0; i < old_cap; i++)
            if (old[i].name)
                *slot_of(r, old[i].name) = old[i];
        free(old);
    }
    RegSet *s = slot_of(r, name);
    if (!s->name) {
        s->name = name;
        r->n_regs++;
    }
    if ((s->set | set) != s->set) {
        s->set |= set;
        r->changed = true;
    }
}

/* Where a symbol's address points: a variable's of some state space; a kernel
 * parameter's (only loads of it are roots) or a function's is unknown. */
static uint64_t symbol_set(const Roots *r, const char *name)
{
    const char *space = sc_instr_symbol_space(r->m, r->f, name);
    if (!space)
        return FROM_UNKNOWN;
    if (strcmp(space, "shared") == 0)
        return FROM_SHARED;
    if (strcmp(space, "local") == 0)
        return FROM_LOCAL;
    if (strcmp(space, "global") == 0 || strcmp(space, "const") == 0)
        return FROM_GLOBAL_VAR;
    return FROM_UNKNOWN;
}

/* The set of everything an operand reads: registers, and symbols' addresses. */
static uint64_t operand_set(Roots *r, const ScPtxOperand *o)
{
    switch (o->kind) {
    case SC_PTX_OPND_REG:
        return reg_set(r, o->text);
    case SC_PTX_OPND_SYMBOL:
        return symbol_set(r, o->text);
    case SC_PTX_OPND_ADDR:
        return o->u.addr.base ? operand_set(r, o->u.addr.base) : 0;
    case SC_PTX_OPND_VEC:
    case SC_PTX_OPND_LIST:
    case SC_PTX_OPND_PAIR: {
        uint64_t set = 0;
        for (uint32_t i = 0; i < o->u.list.n; i++)
            set |= operand_set(r, &o->u.list.items[i]);
        return set;
    }
    default:
        return 0;
    }
}

/* The kernel parameter named `name`, and its size in bytes; -1 if none. */
static int param_index(const ScPtxFunc *f, const char *name, uint64_t *bytes)
{
    for (uint32_t i = 0; i < f->n_params; i++) {
        const ScPtxVar *v = &f->params[i];
        if (v->n_decls != 1 || strcmp(v->decls[0].name, name) != 0)
            continue;
        uint64_t size = strlen(v->type) >= 2 ? strtoull(v->type + 1, NULL, 10) / 8 : 0;
        for (uint32_t d = 0; d < v->decls[0].n_dims; d++)
            size = v->decls[0].dims[d] == SC_PTX_DIM_UNSIZED ? 0 : size * v->decls[0].dims[d];
        *bytes = size * (v->vec ? v->vec : 1);
        return (int)i;
    }
    return -1;
}

/* The root of the parameter word at param + off, made on first sight. */
static uint64_t root_of(Roots *r, int param, uint64_t off)
{
    ScInstrRoots *k = &r->k->roots;
    for (uint32_t i = 0; i < k->n; i++)
        if (k->at[i].param == (uint32_t)param && k->at[i].offset == off)
            return UINT64_C(1) << i;
    if (k->n == SC_INSTR_MAX_ROOTS)
        return FROM_UNKNOWN;
    k->at[k->n] = (ScInstrRoot){(uint32_t)param, (uint32_t)off};
    return UINT64_C(1) << k->n++;
}

/* Whether the instruction's elements are wide enough to hold a pointer: 64 bits of
 * any type (a pointer may pass through a double's bits), or 128. */
static bool holds_pointer(const ScPtxInstr *in)
{
    static const char *const wide[] = {"u64", "b64", "s64", "f64", "b128"};
    for (uint32_t i = 0; i < in->n_mods; i++)
        for (size_t w = 0; w < SC_ARRAY_LEN(wide); w++)
            if (strcmp(in->mods[i], wide[w]) == 0)
                return true;
    return false;
}

/* The destinations an instruction writes: the registers of its first operand. */
static void define(Roots *r, const ScPtxOperand *dst, uint64_t set)
{
    if (dst->kind == SC_PTX_OPND_REG) {
        widen(r, dst->text, set);
    } else if (dst->kind == SC_PTX_OPND_VEC || dst->kind == SC_PTX_OPND_LIST || dst->kind == SC_PTX_OPND_PAIR) {
        for (uint32_t i = 0; i < dst->u.list.n; i++)
            define(r, &dst->u.list.items[i], set);
    }
}

/* A load of the kernel's parameter space: a 64-bit element at a fixed offset of a
 * parameter is a root; narrower ones carry no address. */
static void define_param_load(Roots *r, const ScPtxInstr *in, const ScPtxMem *mem)
{
    const ScPtxOperand *dst = &in->ops[0], *a = &in->ops[mem->addr_op];
    bool wide = holds_pointer(in);
    uint64_t bytes = 0;
    int p = a->kind == SC_PTX_OPND_ADDR && a->u.addr.base && a->u.addr.base->kind == SC_PTX_OPND_SYMBOL &&
                    a->u.addr.offset >= 0
                ? param_index(r->f, a->u.addr.base->text, &bytes)
                : -1;
    uint32_t n = dst->kind == SC_PTX_OPND_VEC ? dst->u.list.n : 1;
    for (uint32_t i = 0; i < n; i++) {
        const ScPtxOperand *d = dst->kind == SC_PTX_OPND_VEC ? &dst->u.list.items[i] : dst;
        uint64_t off = (uint64_t)a->u.addr.offset + 8u * i;
        uint64_t set = !wide ? 0 : p >= 0 && off + 8 <= bytes ? root_of(r, p, off) : FROM_UNKNOWN;
        define(r, d, set);
    }
}

static void step(Roots *r, const ScPtxInstr *in)
{
    if (!in->n_ops)
        return;
    ScPtxSema se;
    sc_ptx_classify(in, &se);
    uint64_t sources = 0;
    for (uint32_t i = 1; i < in->n_ops; i++)
        sources |= operand_set(r, &in->ops[i]);
    switch (se.family) {
    case SC_PTX_FAM_HARMLESS:
    case SC_PTX_FAM_WARP:
        /* A 64-bit value packed from pieces may be a pointer loaded in halves. */
        if (in->n_ops > 1 && in->ops[1].kind == SC_PTX_OPND_VEC && in->ops[0].kind == SC_PTX_OPND_REG)
            sources |= FROM_UNKNOWN;
        define(r, &in->ops[0], sources);
        return;
    case SC_PTX_FAM_ADDR:
        if (strcmp(in->opcode, "cvta") == 0) {
            bool to_global = false, to_shared = false, to_local = false;
            for (uint32_t i = 0; i < in->n_mods; i++) {
                to_global |= strcmp(in->mods[i], "global") == 0;
                to_shared |= strncmp(in->mods[i], "shared", 6) == 0;
                to_local |= strcmp(in->mods[i], "local") == 0;
            }
            uint64_t set = to_global ? sources : to_shared ? FROM_SHARED : to_local ? FROM_LOCAL : FROM_UNKNOWN;
            define(r, &in->ops[0], set | (to_global ? 0 : sources & ~ROOTS_MASK));
        } else {
            define(r, &in->ops[0], strcmp(in->opcode, "mapa") == 0 ? FROM_SHARED | sources : sources);
        }
        return;
    case SC_PTX_FAM_MEM:
        if (se.u.mem.kind == SC_PTX_ACCESS_READ && se.u.mem.space == SC_PTX_SPACE_PARAM) {
            define_param_load(r, in, &se.u.mem);
            return;
        }
        if (se.u.mem.kind == SC_PTX_ACCESS_READ || se.u.mem.kind == SC_PTX_ACCESS_RMW)
            define(r, &in->ops[0], holds_pointer(in) ? FROM_UNKNOWN : 0);
        return;
    default:
        /* Anything else that writes a register: whatever it is, not a known root. */
        define(r, &in->ops[0], FROM_UNKNOWN | sources);
        return;
    }
}

/* The callees a kernel may call without losing its roots: they write no global memory. */
static bool harmless_callee(const char *name)
{
    return strcmp(name, "vprintf") == 0 || strcmp(name, "__assertfail") == 0;
}

/* The roots the address of a global or generic write may point into, added to
 * k->roots.written; false when the write may go anywhere else in global memory. */
static bool note_write(Roots *r, const ScPtxOperand *addr, ScPtxSpace space)
{
    if (space != SC_PTX_SPACE_GLOBAL && space != SC_PTX_SPACE_GENERIC)
        return true;
    uint64_t set = addr->kind == SC_PTX_OPND_ADDR ? operand_set(r, addr) : FROM_UNKNOWN;
    if (space == SC_PTX_SPACE_GENERIC && set && !(set & ~NOT_GLOBAL))
        return true;
    if (!(set & ROOTS_MASK) || (set & (FROM_UNKNOWN | FROM_GLOBAL_VAR)))
        return false;
    r->k->roots.written |= set & ROOTS_MASK;
    return true;
}

/* Whether every global write of the kernel goes through its roots (k->roots.written). */
static bool writes_known(Roots *r)
{
    for (const ScPtxStmt *s = r->f->first; s; s = s->next) {
        if (s->kind != SC_PTX_STMT_INSTR)
            continue;
        const ScPtxInstr *in = &s->u.instr;
        ScPtxSema se;
        sc_ptx_classify(in, &se);
        switch (se.family) {
        case SC_PTX_FAM_MEM:
        case SC_PTX_FAM_MATRIX:
            if (se.u.mem.kind == SC_PTX_ACCESS_READ || se.u.mem.kind == SC_PTX_ACCESS_NONE)
                break;
            if (se.u.mem.multimem || se.u.mem.addr_op < 0 || (uint32_t)se.u.mem.addr_op >= in->n_ops ||
                !note_write(r, &in->ops[se.u.mem.addr_op], se.u.mem.space))
                return false;
            break;
        case SC_PTX_FAM_COPY:
            if (se.u.copy.dst_space != SC_PTX_SPACE_SHARED_CTA && se.u.copy.dst_space != SC_PTX_SPACE_SHARED_CLUSTER)
                return false;
            break;
        case SC_PTX_FAM_TEXSURF:
            if (se.u.mem.kind != SC_PTX_ACCESS_READ)
                return false;
            break;
        case SC_PTX_FAM_CONTROL:
            if (strcmp(in->opcode, "call") == 0) {
                const ScPtxOperand *fn = in->n_ops && in->ops[0].kind == SC_PTX_OPND_LIST && in->n_ops > 1
                                             ? &in->ops[1]
                                             : &in->ops[0];
                if (!in->n_ops || fn->kind != SC_PTX_OPND_SYMBOL || !harmless_callee(fn->text))
                    return false;
            }
            break;
        case SC_PTX_FAM_UNKNOWN:
            return false;
        default:
            break;
        }
    }
    return true;
}

/* The roots of a read the launch may leave out: a weak read of global memory through
 * an address that derives from roots only. 0: always checked. */
static uint64_t read_roots(Roots *r, const ScInstrEdit *ed)
{
    if (ed->kind != SC_INSTR_EDIT_ACCESS || SC_ABI_INFO_KIND(ed->info) != SC_ABI_KIND_READ ||
        SC_ABI_INFO_SEM(ed->info) != SC_SEM_WEAK ||
        (SC_ABI_INFO_SPACE(ed->info) != SC_ABI_SPACE_GLOBAL && SC_ABI_INFO_SPACE(ed->info) != SC_ABI_SPACE_GENERIC))
        return 0;
    uint64_t set = ed->addr.base == SC_INSTR_BASE_REG ? reg_set(r, ed->addr.reg.op->text) : FROM_GLOBAL_VAR;
    return set & ~ROOTS_MASK ? 0 : set;
}

bool sc_instr_roots(const ScPtxModule *m, ScInstrFuncPlan *fp, ScInstrKernel *k, uint32_t *n_rooted, ScErr *err)
{
    if (!fp->func->is_entry)
        return true;
    Roots r = {.m = m, .f = fp->func, .k = k};
    do {
        r.changed = false;
        for (const ScPtxStmt *s = r.f->first; s && !r.oom; s = s->next)
            if (s->kind == SC_PTX_STMT_INSTR)
                step(&r, &s->u.instr);
    } while (r.changed && !r.oom);
    uint32_t rooted = 0;
    if (!r.oom && writes_known(&r))
        for (uint32_t i = 0; i < fp->n_edits; i++)
            rooted += (fp->edits[i].roots = read_roots(&r, &fp->edits[i])) != 0;
    *n_rooted += rooted;
    if (!rooted)
        k->roots = (ScInstrRoots){0};
    free(r.regs);
    return !r.oom || sc_err_set(err, "out of memory");
}
