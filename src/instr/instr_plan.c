/* instr_plan.c: decides, for every instruction of every body, which runtime call it needs and with which operands. */
#include "devrt/devrt_abi.h"
#include "instr/instr_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- registers in scope ---------------------------------------------------- */

/* The .reg declarations visible at the statement being planned: a stack that
 * { pushes a mark on and } pops back to, searched innermost first, because an
 * inline-asm block may declare a register under a name the body also uses. */
typedef struct RegDecl {
    const char *name;
    size_t len;
    bool has_range;
    uint32_t range;
    const char *type;
} RegDecl;

typedef struct Planner {
    ScPtxModule *m;
    ScInstrSites *sites;
    ScInstrFuncPlan *fp;
    RegDecl *regs;
    size_t n_regs, cap_regs;
    size_t *marks;
    size_t n_marks, cap_marks;
    ScBuf tmp;
    ScErr *err;
    bool block_mbarriers; /* the module's mbarriers may be block barriers (block_mbarriers) */
} Planner;

static bool push_reg(Planner *p, const ScPtxDeclarator *d, const char *type)
{
    if (p->n_regs == p->cap_regs) {
        size_t cap = p->cap_regs ? p->cap_regs * 2 : 64;
        RegDecl *r = realloc(p->regs, cap * sizeof *r);
        if (!r)
            return sc_err_set(p->err, "out of memory");
        p->regs = r;
        p->cap_regs = cap;
    }
    p->regs[p->n_regs++] = (RegDecl){d->name, strlen(d->name), d->has_range, d->range, type};
    return true;
}

static bool push_mark(Planner *p)
{
    if (p->n_marks == p->cap_marks) {
        size_t cap = p->cap_marks ? p->cap_marks * 2 : 16;
        size_t *mk = realloc(p->marks, cap * sizeof *mk);
        if (!mk)
            return sc_err_set(p->err, "out of memory");
        p->marks = mk;
        p->cap_marks = cap;
    }
    p->marks[p->n_marks++] = p->n_regs;
    return true;
}

/* `%r17` is a member of `%r<32>`: the declared name, then a number below the range. */
static bool in_range(const RegDecl *d, const char *name)
{
    if (strncmp(name, d->name, d->len) != 0)
        return false;
    const char *digits = name + d->len;
    if (!*digits)
        return false;
    uint64_t v = 0;
    for (const char *c = digits; *c; c++) {
        if (*c < '0' || *c > '9' || v > UINT32_MAX)
            return false;
        v = v * 10 + (uint64_t)(*c - '0');
    }
    return v < d->range;
}

static const char *reg_type(const Planner *p, const char *name)
{
    for (size_t i = p->n_regs; i-- > 0;) {
        const RegDecl *d = &p->regs[i];
        if (d->has_range ? in_range(d, name) : strcmp(d->name, name) == 0)
            return d->type;
    }
    return NULL;
}

/* Width of a register type, 0 for predicates and anything that is not a
 * scalar value type. */
static uint32_t type_bits(const char *t, bool *is_float)
{
    static const struct {
        const char *name;
        uint32_t bits;
        bool is_float;
    } tab[] = {
        {"b8", 8, false},     {"u8", 8, false},      {"s8", 8, false},     {"b16", 16, false},
        {"u16", 16, false},   {"s16", 16, false},    {"f16", 16, true},    {"bf16", 16, true},
        {"b32", 32, false},   {"u32", 32, false},    {"s32", 32, false},   {"f32", 32, true},
        {"f16x2", 32, true},  {"bf16x2", 32, true},  {"b64", 64, false},   {"u64", 64, false},
        {"s64", 64, false},   {"f64", 64, true},     {"b128", 128, false},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(tab); i++)
        if (strcmp(tab[i].name, t) == 0) {
            *is_float = tab[i].is_float;
            return tab[i].bits;
        }
    return 0;
}

/* Special registers are .u32 except the few 64-bit ones. */
static uint32_t sreg_bits(const char *name)
{
    size_t n = strlen(name);
    if (strcmp(name, "%globaltimer") == 0 || strcmp(name, "%gridid") == 0 ||
        strcmp(name, "%current_graph_exec") == 0 || (n > 2 && strcmp(name + n - 2, "64") == 0))
        return 64;
    return 32;
}

/* Refuses the module at s: "FILE:LINE:COL: error: INSTR: cannot instrument ...: WHY". */
static bool refuse(Planner *p, const ScPtxStmt *s, const char *fmt, ...) SC_PRINTF(3, 4);
static bool refuse(Planner *p, const ScPtxStmt *s, const char *fmt, ...)
{
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    p->tmp.len = 0;
    sc_ptx_print_stmt(s, &p->tmp);
    return sc_err_set(p->err, "%s:%u:%u: error: cannot instrument '%s': %s; the module runs unchecked",
                      p->m->filename ? p->m->filename : "PTX", s->pos.line, s->pos.col,
                      p->tmp.data ? p->tmp.data : "", why);
}

/* ---- operands ------------------------------------------------------------- */

static bool resolve_reg(Planner *p, const ScPtxStmt *s, const ScPtxOperand *o, ScInstrReg *out)
{
    out->op = o;
    out->is_float = false;
    if (sc_ptx_sreg_lookup(o->text) >= 0) {
        out->bits = sreg_bits(o->text);
        return true;
    }
    const char *t = reg_type(p, o->text);
    if (!t)
        return refuse(p, s, "register %s is not declared in scope", o->text);
    out->bits = type_bits(t, &out->is_float);
    if (!out->bits)
        return refuse(p, s, "register %s has type .%s, not a value type", o->text, t);
    return true;
}

const char *sc_instr_symbol_space(const ScPtxModule *m, const ScPtxFunc *f, const char *name)
{
    for (const ScPtxStmt *s = f->first; s; s = s->next) {
        if (s->kind != SC_PTX_STMT_VAR || strcmp(s->u.var.space, "reg") == 0)
            continue;
        for (uint32_t i = 0; i < s->u.var.n_decls; i++)
            if (strcmp(s->u.var.decls[i].name, name) == 0)
                return s->u.var.space;
    }
    for (uint32_t i = 0; i < f->n_params; i++)
        if (f->params[i].n_decls && strcmp(f->params[i].decls[0].name, name) == 0)
            return f->params[i].space;
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind != SC_PTX_ITEM_VAR)
            continue;
        for (uint32_t i = 0; i < it->u.var.n_decls; i++)
            if (strcmp(it->u.var.decls[i].name, name) == 0)
                return it->u.var.space;
    }
    return NULL;
}

/* Resolves the address operand. *skip: a generic access to a variable of a
 * thread-private or read-only space, which is not instrumented. */
static bool plan_addr(Planner *p, const ScPtxStmt *s, const ScPtxMem *mem, ScInstrAddr *a, bool *skip)
{
    const ScPtxAddr *ad = &s->u.instr.ops[mem->addr_op].u.addr;
    const ScPtxOperand *b = ad->base;
    *skip = false;
    a->offset = ad->offset;
    a->window = mem->space;
    switch (b->kind) {
    case SC_PTX_OPND_REG:
        a->base = SC_INSTR_BASE_REG;
        if (!resolve_reg(p, s, b, &a->reg))
            return false;
        if ((a->reg.bits != 32 && a->reg.bits != 64) || a->reg.is_float)
            return refuse(p, s, "address register %s is not a 32- or 64-bit integer", b->text);
        return true;
    case SC_PTX_OPND_SYMBOL: {
        a->base = SC_INSTR_BASE_SYMBOL;
        a->symbol = b;
        if (mem->space != SC_PTX_SPACE_GENERIC)
            return true;
        const char *space = sc_instr_symbol_space(p->m, s->func, b->text);
        if (!space)
            return refuse(p, s, "'%s' is not declared", b->text);
        if (strcmp(space, "global") == 0) {
            a->window = SC_PTX_SPACE_GLOBAL;
            return true;
        }
        if (strcmp(space, "shared") == 0) {
            a->window = SC_PTX_SPACE_SHARED_CTA;
            return true;
        }
        if (strcmp(space, "local") == 0 || strcmp(space, "param") == 0 || strcmp(space, "const") == 0) {
            *skip = true;
            return true;
        }
        return refuse(p, s, "a generic access to a .%s variable", space);
    }
    case SC_PTX_OPND_INT: /* [imm] is valid for .local only */
    case SC_PTX_OPND_FLOAT:
    case SC_PTX_OPND_LABEL:
    case SC_PTX_OPND_SINK:
    case SC_PTX_OPND_ADDR:
    case SC_PTX_OPND_VEC:
    case SC_PTX_OPND_LIST:
    case SC_PTX_OPND_PAIR:
    case SC_PTX_OPND_EXPR:
        break;
    }
    return refuse(p, s, "the address is not a register or a variable plus an offset");
}

static uint64_t low_bits(uint64_t v, uint32_t bits)
{
    return bits >= 64 ? v : v & ((UINT64_C(1) << bits) - 1);
}

/* The first element a store writes, as it lands in memory. */
static bool plan_value(Planner *p, const ScPtxStmt *s, const ScPtxMem *mem, ScInstrValue *v)
{
    const ScPtxOperand *o = &s->u.instr.ops[1];
    if (o->kind == SC_PTX_OPND_VEC) {
        if (o->u.list.n == 0)
            return refuse(p, s, "an empty vector is stored");
        o = &o->u.list.items[0];
    }
    /* Wider elements (.b128) pass their first 64 bits. */
    uint32_t keep = mem->elem_size * 8 > 64 ? 64 : mem->elem_size * 8;
    switch (o->kind) {
    case SC_PTX_OPND_INT:
        v->kind = SC_INSTR_VALUE_IMM;
        v->imm = low_bits(o->u.i.bits, keep);
        return true;
    case SC_PTX_OPND_FLOAT: {
        bool hex_f = o->u.f.exact_bits && (o->text[1] == 'f' || o->text[1] == 'F');
        bool hex_d = o->u.f.exact_bits && (o->text[1] == 'd' || o->text[1] == 'D');
        v->kind = SC_INSTR_VALUE_IMM;
        if (mem->elem_size == 4) {
            float f = (float)o->u.f.value;
            uint32_t bits;
            memcpy(&bits, &f, sizeof bits);
            v->imm = hex_f ? o->u.f.bits : bits;
            return true;
        }
        if (mem->elem_size == 8) {
            double d = o->u.f.value;
            uint64_t bits;
            memcpy(&bits, &d, sizeof bits);
            v->imm = hex_d ? o->u.f.bits : bits;
            return true;
        }
        return refuse(p, s, "a floating-point immediate is stored as %u bytes", mem->elem_size);
    }
    case SC_PTX_OPND_REG:
        v->kind = SC_INSTR_VALUE_REG;
        v->keep_bits = keep;
        return resolve_reg(p, s, o, &v->reg);
    case SC_PTX_OPND_SYMBOL:
    case SC_PTX_OPND_LABEL:
    case SC_PTX_OPND_SINK:
    case SC_PTX_OPND_ADDR:
    case SC_PTX_OPND_VEC:
    case SC_PTX_OPND_LIST:
    case SC_PTX_OPND_PAIR:
    case SC_PTX_OPND_EXPR:
        break;
    }
    return refuse(p, s, "the stored value is not a register or an immediate");
}

/* A 32-bit integer operand, register or immediate: a barrier number, thread count or
 * warp mask, a tensor copy's coordinate. */
static bool plan_opnd32(Planner *p, const ScPtxStmt *s, const ScPtxOperand *o, ScInstrArg32 *a)
{
    switch (o->kind) {
    case SC_PTX_OPND_INT:
        a->is_imm = true;
        a->imm = (uint32_t)o->u.i.bits;
        return true;
    case SC_PTX_OPND_REG:
        a->is_imm = false;
        if (!resolve_reg(p, s, o, &a->reg))
            return false;
        if (a->reg.bits != 32 || a->reg.is_float) /* ptxas takes nothing else */
            return refuse(p, s, "operand %s is not a 32-bit integer register", o->text);
        return true;
    case SC_PTX_OPND_FLOAT:
    case SC_PTX_OPND_SYMBOL:
    case SC_PTX_OPND_LABEL:
    case SC_PTX_OPND_SINK:
    case SC_PTX_OPND_ADDR:
    case SC_PTX_OPND_VEC:
    case SC_PTX_OPND_LIST:
    case SC_PTX_OPND_PAIR:
    case SC_PTX_OPND_EXPR:
        break;
    }
    return refuse(p, s, "operand '%s' is not a register or an integer", o->text ? o->text : "");
}

static bool plan_arg32(Planner *p, const ScPtxStmt *s, int index, ScInstrArg32 *a)
{
    return plan_opnd32(p, s, &s->u.instr.ops[index], a);
}

/* ---- the access info word (ptx_sema's enums onto devrt_abi.h's) ------------ */

static bool abi_kind(ScPtxAccess a, unsigned *out)
{
    switch (a) {
    case SC_PTX_ACCESS_READ:
        *out = SC_ABI_KIND_READ;
        return true;
    case SC_PTX_ACCESS_WRITE:
        *out = SC_ABI_KIND_WRITE;
        return true;
    case SC_PTX_ACCESS_RMW:
        *out = SC_ABI_KIND_RMW;
        return true;
    case SC_PTX_ACCESS_RED:
        *out = SC_ABI_KIND_RED;
        return true;
    case SC_PTX_ACCESS_NONE:
        break;
    }
    return false;
}

/* An access's semantics go into its info as they are (rules/memory_model.h); NONE and SC
 * belong to no access. */
static bool access_sem(ScSem s)
{
    return s != SC_SEM_NONE && s != SC_SEM_SC;
}

static bool abi_space(ScPtxSpace s, unsigned *out)
{
    switch (s) {
    case SC_PTX_SPACE_GENERIC:
        *out = SC_ABI_SPACE_GENERIC;
        return true;
    case SC_PTX_SPACE_GLOBAL:
        *out = SC_ABI_SPACE_GLOBAL;
        return true;
    case SC_PTX_SPACE_SHARED_CTA:
        *out = SC_ABI_SPACE_SHARED;
        return true;
    case SC_PTX_SPACE_SHARED_CLUSTER:
        *out = SC_ABI_SPACE_SHARED_CLUSTER;
        return true;
    case SC_PTX_SPACE_NONE:
    case SC_PTX_SPACE_LOCAL:
    case SC_PTX_SPACE_PARAM:
    case SC_PTX_SPACE_CONST:
    case SC_PTX_SPACE_TEXSURF:
        break;
    }
    return false;
}

static bool pack_info(Planner *p, const ScPtxStmt *s, const ScPtxMem *mem, uint32_t *info)
{
    unsigned kind, space;
    if (!abi_kind(mem->kind, &kind))
        return refuse(p, s, "the access is neither a read, a write nor an atomic");
    if (!access_sem(mem->sem))
        return refuse(p, s, "the access has no memory-model semantics (.%s)", sc_ptx_sem_name(mem->sem));
    if (!abi_space(mem->space, &space))
        return refuse(p, s, "the access is not to shared, global or generic memory");
    if (mem->size == 0 || mem->size > SC_ABI_INFO_SIZE(~0u))
        return refuse(p, s, "an access of %u bytes does not fit the runtime's size field", mem->size);
    *info = SC_ABI_INFO(mem->size, kind, mem->sem, mem->scope, space);
    if (mem->op == SC_PTX_ATOM_CAS || mem->op == SC_PTX_ATOM_EXCH)
        *info |= SC_ABI_INFO_LOCK;
    return true;
}

/* ---- instructions --------------------------------------------------------- */

static bool push_edit(Planner *p, const ScInstrEdit *e)
{
    ScInstrFuncPlan *fp = p->fp;
    if (fp->n_edits == fp->cap_edits) {
        uint32_t cap = fp->cap_edits ? fp->cap_edits * 2 : 32;
        ScInstrEdit *n = realloc(fp->edits, cap * sizeof *n);
        if (!n)
            return sc_err_set(p->err, "out of memory");
        fp->edits = n;
        fp->cap_edits = cap;
    }
    fp->edits[fp->n_edits++] = *e;
    return true;
}

static bool unchecked(Planner *p, const ScPtxStmt *s, ScInstrUnchecked why, uint32_t info)
{
    uint32_t id;
    p->fp->unchecked |= SC_INSTR_UNCHECKED_BIT(why);
    return sc_instr_add_site(p->sites, SC_INSTR_SITE_UNCHECKED, why, s, info, &id, p->err);
}

/* The info and address of mem in *e, and a site of kind `kind` for it; *skip (and no
 * site) when the address needs no check. */
static bool plan_edit(Planner *p, ScPtxStmt *s, const ScPtxMem *mem, ScInstrSiteKind kind, ScInstrEdit *e,
                      bool *skip)
{
    return pack_info(p, s, mem, &e->info) && plan_addr(p, s, mem, &e->addr, skip) &&
           (*skip || sc_instr_add_site(p->sites, kind, SC_INSTR_UNCHECKED_NONE, s, e->info, &e->site, p->err));
}

static bool plan_mem(Planner *p, ScPtxStmt *s, const ScPtxMem *mem)
{
    if (mem->non_coherent || mem->outside_model)
        return true; /* ld.global.nc, ldu: read-only path */
    switch (mem->space) {
    case SC_PTX_SPACE_LOCAL:
    case SC_PTX_SPACE_PARAM:
    case SC_PTX_SPACE_CONST:
    case SC_PTX_SPACE_TEXSURF:
        return true;
    case SC_PTX_SPACE_NONE:
        return refuse(p, s, "the memory instruction has no memory operand");
    case SC_PTX_SPACE_GENERIC:
    case SC_PTX_SPACE_GLOBAL:
    case SC_PTX_SPACE_SHARED_CTA:
    case SC_PTX_SPACE_SHARED_CLUSTER:
        break;
    }
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_ACCESS, .stmt = s};
    if (!pack_info(p, s, mem, &e.info))
        return false;
    if (mem->multimem)
        return unchecked(p, s, SC_INSTR_UNCHECKED_MULTIMEM, e.info);
    if (mem->async)
        return unchecked(p, s, SC_INSTR_UNCHECKED_ASYNC, e.info);
    bool skip;
    if (!plan_addr(p, s, mem, &e.addr, &skip))
        return false;
    if (skip)
        return true;
    if (mem->kind == SC_PTX_ACCESS_WRITE && strcmp(s->u.instr.opcode, "st") == 0 &&
        !plan_value(p, s, mem, &e.value))
        return false;
    if (!sc_instr_add_site(p->sites, SC_INSTR_SITE_ACCESS, SC_INSTR_UNCHECKED_NONE, s, e.info, &e.site, p->err) ||
        !push_edit(p, &e))
        return false;
    if (mem->sem != SC_SEM_ACQUIRE && mem->sem != SC_SEM_ACQ_REL)
        return true;
    /* The acquire the access made, once it has read. */
    ScInstrEdit acq = {.kind = SC_INSTR_EDIT_FENCE, .stmt = s, .site = e.site, .info = e.info};
    return push_edit(p, &acq);
}

/* Memory fences order; proxy fences and mbarrier_init order other proxies' accesses,
 * which are not checked. */
static bool plan_fence(Planner *p, ScPtxStmt *s, const ScPtxFence *f)
{
    if (f->kind != SC_PTX_FENCE_MEMORY)
        return true;
    ScSem sem;
    switch (f->sem) {
    case SC_SEM_SC: /* the runtime orders with it as with acq_rel */
    case SC_SEM_ACQ_REL:
        sem = SC_SEM_ACQ_REL;
        break;
    case SC_SEM_ACQUIRE:
    case SC_SEM_RELEASE:
        sem = f->sem;
        break;
    default:
        return refuse(p, s, "a memory fence without .sc, .acq_rel, .acquire or .release");
    }
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_FENCE, .stmt = s,
                     .info = SC_ABI_INFO(0, SC_ABI_KIND_FENCE, sem, f->scope, 0)};
    return sc_instr_add_site(p->sites, SC_INSTR_SITE_FENCE, SC_INSTR_UNCHECKED_NONE, s, e.info, &e.site, p->err) &&
           push_edit(p, &e);
}

/* griddepcontrol.wait orders every access of the prerequisite grid before the
 * thread's next ones (a dependent launch's, docs/devrt.md); launch_dependents orders
 * nothing. The runtime hears of the wait through the fence call, after it. */
static bool plan_grid_wait(Planner *p, ScPtxStmt *s)
{
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_FENCE, .stmt = s,
                     .info = SC_ABI_INFO(0, SC_ABI_KIND_GRID_WAIT, 0, 0, 0)};
    return sc_instr_add_site(p->sites, SC_INSTR_SITE_FENCE, SC_INSTR_UNCHECKED_NONE, s, e.info, &e.site, p->err) &&
           push_edit(p, &e);
}

/* The predicate an mbarrier wait writes, which the call after it branches on (*done);
 * false (the module refused) when the wait writes no predicate register. */
static bool wait_result(Planner *p, const ScPtxStmt *s, const ScPtxMbar *b, const ScPtxOperand **done)
{
    *done = &s->u.instr.ops[b->result_op];
    return (*done)->kind == SC_PTX_OPND_REG || refuse(p, s, "the mbarrier wait's result is not a predicate register");
}

/* Might the instruction access memory another thread sees (or call code that does)? */
static bool touches_memory(const ScPtxSema *se)
{
    switch (se->family) {
    case SC_PTX_FAM_MEM:
    case SC_PTX_FAM_MATRIX:
        if (se->u.mem.non_coherent || se->u.mem.outside_model)
            return false;
        return se->u.mem.space == SC_PTX_SPACE_GENERIC || se->u.mem.space == SC_PTX_SPACE_GLOBAL ||
               se->u.mem.space == SC_PTX_SPACE_SHARED_CTA || se->u.mem.space == SC_PTX_SPACE_SHARED_CLUSTER;
    case SC_PTX_FAM_COPY:
        return true;
    case SC_PTX_FAM_CONTROL:
        return se->u.ctl.op == SC_PTX_CTL_CALL;
    default:
        return false;
    }
}

/* Does every path from the arrive `at` (in block b of cfg) reach an mbarrier wait, or
 * the end of the kernel, before any instruction that may touch memory? A thread's
 * accesses between its arrive and its wait are the ones a barrier of the block would
 * misplace (docs/devrt.md, "Mbarriers as block barriers"). A wait ends the walk
 * whatever it returns (an access past a wait that returned false is one of the
 * approximations docs/devrt.md names); the end of a function that is no kernel leaves
 * its caller's next steps unknown. */
static bool arrive_then_wait(const ScInstrCfg *cfg, bool kernel, uint32_t b, const ScPtxStmt *at, uint8_t *seen,
                             uint32_t *stack)
{
    uint32_t n = sc_instr_cfg_n_blocks(cfg), depth = 0;
    if (!n)
        return false;
    memset(seen, 0, n);
    const ScPtxStmt *s = sc_instr_cfg_next(cfg, b, at);
    for (;;) {
        bool waited = false;
        for (; s && !waited; s = sc_instr_cfg_next(cfg, b, s)) {
            ScPtxSema se;
            sc_ptx_classify(&s->u.instr, &se);
            if (touches_memory(&se))
                return false;
            waited = se.family == SC_PTX_FAM_MBARRIER &&
                     (se.u.mbar.op == SC_PTX_MBAR_TEST_WAIT || se.u.mbar.op == SC_PTX_MBAR_TRY_WAIT);
        }
        for (uint32_t i = 0, k = waited ? 0 : sc_instr_cfg_n_succs(cfg, b); i < k; i++) {
            uint32_t to = sc_instr_cfg_succ(cfg, b, i);
            if (to == SC_INSTR_NO_BLOCK && !kernel)
                return false;
            if (to != SC_INSTR_NO_BLOCK && !seen[to]) {
                seen[to] = 1;
                stack[depth++] = to;
            }
        }
        if (!depth)
            return true;
        b = stack[--depth];
        s = sc_instr_cfg_first(cfg, b);
    }
}

/* *all: whether every mbarrier arrive of f reaches a wait before it may touch memory
 * (arrive_then_wait). False only when out of memory. */
static bool arrives_then_wait(const ScPtxFunc *f, bool *all, ScErr *err)
{
    ScInstrCfg *cfg;
    uint32_t base = 0;
    *all = false;
    if (!sc_instr_cfg_new(f, &base, &cfg, err))
        return false;
    uint32_t n = sc_instr_cfg_n_blocks(cfg);
    uint8_t *seen = malloc(n ? n : 1);
    uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
    bool ok = seen && stack;
    *all = ok && n;
    for (const ScPtxStmt *s = f->first; ok && *all && s; s = s->next) {
        if (s->kind != SC_PTX_STMT_INSTR || strcmp(s->u.instr.opcode, "mbarrier") != 0)
            continue;
        ScPtxSema se;
        sc_ptx_classify(&s->u.instr, &se);
        if (se.family == SC_PTX_FAM_MBARRIER && se.u.mbar.op == SC_PTX_MBAR_ARRIVE) {
            uint32_t b = sc_instr_cfg_block(cfg, s);
            *all = b != SC_INSTR_NO_BLOCK && arrive_then_wait(cfg, f->is_entry, b, s, seen, stack);
        }
    }
    free(seen);
    free(stack);
    sc_instr_cfg_free(cfg);
    return ok || sc_err_set(err, "out of memory");
}

/* Can every mbarrier of the module be told by the runtime to be a barrier of its block
 * (docs/devrt.md, "Mbarriers as block barriers")? Yes when each of its mbarrier
 * operations is an init, a release arrive at .cta scope with no transaction count, an
 * acquire wait, an inval or a pending_count, all on shared::cta objects, no copy
 * completes through an mbarrier, and no thread can touch memory between an arrive and
 * its wait (arrive_then_wait: cuda::barrier's arrive_and_wait): then an object whose
 * count is the block's thread count completes a phase only by arrivals of the block's
 * threads, each seen by the runtime as it comes, and everything a thread does before
 * its arrive comes before everything it does after its wait. A transaction count (a
 * copy's complete_tx, expect_tx), an arrive_drop, a cp.async.mbarrier.arrive, a relaxed
 * operation, one that another block may make, or work between an arrive and its wait
 * is outside what a barrier orders; a module with one keeps every mbarrier a release
 * chain (plan_mbarrier). */
static bool block_mbarriers(const ScPtxModule *m, ScErr *err, bool *ok)
{
    bool any = false, all;
    *ok = true;
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind != SC_PTX_ITEM_FUNC || !it->u.func->has_body)
            continue;
        bool arrives = false;
        for (const ScPtxStmt *s = it->u.func->first; s; s = s->next) {
            /* Only mbarrier and cp instructions can be either: the rest are not classified
             * twice at every module load. */
            if (s->kind != SC_PTX_STMT_INSTR ||
                (strcmp(s->u.instr.opcode, "mbarrier") != 0 && strcmp(s->u.instr.opcode, "cp") != 0))
                continue;
            ScPtxSema se;
            sc_ptx_classify(&s->u.instr, &se);
            if (se.family == SC_PTX_FAM_COPY && se.u.copy.completion == SC_PTX_COMPLETE_MBARRIER)
                return false;
            if (se.family != SC_PTX_FAM_MBARRIER)
                continue;
            const ScPtxMbar *b = &se.u.mbar;
            bool cta = b->scope == SC_SCOPE_CTA || b->scope == SC_SCOPE_NONE;
            switch (b->op) {
            case SC_PTX_MBAR_INIT:
            case SC_PTX_MBAR_INVAL:
                break;
            case SC_PTX_MBAR_PENDING_COUNT:
                continue;
            case SC_PTX_MBAR_ARRIVE:
                if (b->expect_tx || b->no_complete || b->sem != SC_SEM_RELEASE || !cta)
                    return false;
                arrives = true;
                break;
            case SC_PTX_MBAR_TEST_WAIT:
            case SC_PTX_MBAR_TRY_WAIT:
                if (b->sem != SC_SEM_ACQUIRE || !cta)
                    return false;
                break;
            case SC_PTX_MBAR_ARRIVE_DROP:
            case SC_PTX_MBAR_CP_ASYNC_ARRIVE:
            case SC_PTX_MBAR_EXPECT_TX:
            case SC_PTX_MBAR_COMPLETE_TX:
                return false;
            }
            if (b->space != SC_PTX_SPACE_SHARED_CTA)
                return false;
            any = true;
        }
        if (arrives && (!(*ok = arrives_then_wait(it->u.func, &all, err)) || !all))
            return false;
    }
    return any;
}

/* An mbarrier operation of a module whose mbarriers may be block barriers: one
 * __scord_mbar call, before an init, arrive or inval, after a wait that returned true.
 * `info` is what __scord_sync would get, for an object that is no block barrier. */
static bool plan_block_mbarrier(Planner *p, ScPtxStmt *s, const ScPtxMbar *b)
{
    ScPtxMem mem = {.kind = SC_PTX_ACCESS_RMW, .space = b->space, .sem = b->sem, .scope = SC_SCOPE_CTA,
                    .size = 8, .addr_op = b->addr_op};
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_MBAR, .stmt = s, .count = {.is_imm = true, .imm = 1}};
    switch (b->op) {
    case SC_PTX_MBAR_INIT:
        e.mbar_op = SC_ABI_MBAR_INIT;
        mem.sem = SC_SEM_WEAK;
        break;
    case SC_PTX_MBAR_INVAL:
        e.mbar_op = SC_ABI_MBAR_INVAL;
        mem.sem = SC_SEM_WEAK;
        break;
    case SC_PTX_MBAR_ARRIVE:
        e.mbar_op = SC_ABI_MBAR_ARRIVE;
        break;
    case SC_PTX_MBAR_TEST_WAIT:
    case SC_PTX_MBAR_TRY_WAIT:
        e.mbar_op = SC_ABI_MBAR_WAIT;
        mem.kind = SC_PTX_ACCESS_READ;
        break;
    default: /* pending_count orders nothing; block_mbarriers admits no other op */
        return true;
    }
    if ((e.mbar_op == SC_ABI_MBAR_INIT || e.mbar_op == SC_ABI_MBAR_ARRIVE) && b->count_op >= 0 &&
        !plan_opnd32(p, s, &s->u.instr.ops[b->count_op], &e.count))
        return false;
    if (e.mbar_op == SC_ABI_MBAR_WAIT && !wait_result(p, s, b, &e.when))
        return false;
    bool skip;
    if (!plan_edit(p, s, &mem, SC_INSTR_SITE_MBARRIER, &e, &skip))
        return false;
    return skip || push_edit(p, &e);
}

/* An mbarrier arrive releases and a wait that sees its phase complete acquires (PTX ISA:
 * arrive is .release, the waits .acquire, both .cta unless written otherwise), like a
 * release read-modify-write and an acquire read of the object, whose arrivals form one
 * release sequence. The object itself is opaque to the program: its accesses are not
 * checked. init, inval, expect_tx, complete_tx and pending_count order nothing. An
 * arrive on another block's object (.shared::cluster, made generic with
 * cvta.shared::cluster) releases through the owner's object: the runtime names a
 * shared flag by its owner and offset. */
static bool plan_mbarrier(Planner *p, ScPtxStmt *s, const ScPtxMbar *b)
{
    if (p->block_mbarriers)
        return plan_block_mbarrier(p, s, b);
    ScPtxMem mem = {.space = b->space, .sem = b->sem, .scope = b->scope, .size = 8, .addr_op = b->addr_op};
    switch (b->op) {
    case SC_PTX_MBAR_ARRIVE:
    case SC_PTX_MBAR_ARRIVE_DROP:
        mem.kind = SC_PTX_ACCESS_RMW;
        break;
    case SC_PTX_MBAR_TEST_WAIT:
    case SC_PTX_MBAR_TRY_WAIT:
        mem.kind = SC_PTX_ACCESS_READ;
        break;
    case SC_PTX_MBAR_CP_ASYNC_ARRIVE:
        /* The arrive-on fires once the thread's earlier copies complete: they are
         * checked as its writes here, and the arrive releases them. */
        mem.kind = SC_PTX_ACCESS_RMW;
        mem.sem = SC_SEM_RELEASE;
        mem.scope = SC_SCOPE_CTA;
        break;
    case SC_PTX_MBAR_INIT:
    case SC_PTX_MBAR_INVAL:
    case SC_PTX_MBAR_EXPECT_TX:
    case SC_PTX_MBAR_COMPLETE_TX:
    case SC_PTX_MBAR_PENDING_COUNT:
        return true;
    }
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_SYNC, .stmt = s};
    bool skip;
    if (!plan_edit(p, s, &mem, SC_INSTR_SITE_MBARRIER, &e, &skip))
        return false;
    if (skip)
        return true;
    if (b->op == SC_PTX_MBAR_CP_ASYNC_ARRIVE) {
        ScInstrEdit done = {.kind = SC_INSTR_EDIT_ASYNC_GROUP, .stmt = s, .info = SC_ABI_ASYNC_ARRIVE};
        if (!push_edit(p, &done))
            return false;
    }
    if (!push_edit(p, &e))
        return false;
    if (mem.kind != SC_PTX_ACCESS_READ || b->sem != SC_SEM_ACQUIRE)
        return true;
    ScInstrEdit acq = {.kind = SC_INSTR_EDIT_FENCE, .stmt = s, .site = e.site, .info = e.info};
    return wait_result(p, s, b, &acq.when) && push_edit(p, &acq);
}

/* A bulk or tensor copy completed through an mbarrier releases what it did through
 * the object, as its complete-tx does (a release at cluster scope, PTX ISA), so that a
 * wait that sees the phase complete orders it (__scord_sync, as an arrive). */
static bool plan_mbarrier_completion(Planner *p, ScPtxStmt *s, const ScPtxCopy *c)
{
    if (c->completion != SC_PTX_COMPLETE_MBARRIER || c->mbar_op < 0)
        return true;
    ScPtxMem mbar = {.kind = SC_PTX_ACCESS_RMW, .space = c->dst_space, .sem = SC_SEM_RELEASE,
                     .scope = SC_SCOPE_CLUSTER, .size = 8, .addr_op = c->mbar_op};
    ScInstrEdit r = {.kind = SC_INSTR_EDIT_SYNC, .stmt = s};
    bool skip;
    return plan_edit(p, s, &mbar, SC_INSTR_SITE_MBARRIER, &r, &skip) && (skip || push_edit(p, &r));
}

/* A bulk or tensor copy's edit e: an access site for each of its two sides (e->site:
 * `at`, whose address goes to e->addr; e->src_site: `other`, whose address is found
 * through `other_addr`'s, into e->src), then its mbarrier completion. A side whose
 * address plan_addr skips leaves the copy unchecked. */
static bool push_copy(Planner *p, ScPtxStmt *s, const ScPtxCopy *c, ScInstrEdit *e, const ScPtxMem *at,
                      const ScPtxMem *other, const ScPtxMem *other_addr)
{
    bool skip_at, skip_other;
    uint32_t at_info, other_info;
    if (!pack_info(p, s, at, &at_info) || !pack_info(p, s, other, &other_info) ||
        !plan_addr(p, s, at, &e->addr, &skip_at) || !plan_addr(p, s, other_addr, &e->src, &skip_other))
        return false;
    if (skip_at || skip_other)
        return true;
    return sc_instr_add_site(p->sites, SC_INSTR_SITE_ACCESS, SC_INSTR_UNCHECKED_NONE, s, at_info, &e->site,
                             p->err) &&
           sc_instr_add_site(p->sites, SC_INSTR_SITE_ACCESS, SC_INSTR_UNCHECKED_NONE, s, other_info, &e->src_site,
                             p->err) &&
           push_edit(p, e) && plan_mbarrier_completion(p, s, c);
}

/* A tensor copy in tile mode (cp.async.bulk.tensor, TMA) between shared memory and
 * global memory: the box of its tensor map at its coordinates, checked as the issuing
 * thread's accesses as of the instruction (__scord_tensor_copy: the host knows each
 * map the program encoded), then released through its mbarrier like a bulk copy's.
 * Other modes (im2col, gather4, scatter4), multicast, and a map not in a 64-bit
 * register stay unchecked sites. */
static bool plan_tensor_copy(Planner *p, ScPtxStmt *s, const ScPtxCopy *c)
{
    bool to_global = c->dst_space == SC_PTX_SPACE_GLOBAL;
    int map_op = to_global ? c->dst_op : c->src_op, box_op = to_global ? c->src_op : c->dst_op;
    const ScPtxAddr *map = &s->u.instr.ops[map_op].u.addr;
    if (!c->tensor_tile || c->multicast || map->base->kind != SC_PTX_OPND_REG || map->offset != 0 ||
        map->n_rest != 1 || map->rest[0].kind != SC_PTX_OPND_VEC || map->rest[0].u.list.n != c->tensor_dims)
        return unchecked(p, s, SC_INSTR_UNCHECKED_ASYNC, 0);
    ScPtxSpace box_space = to_global ? c->src_space : c->dst_space;
    ScPtxMem box = {.kind = to_global ? SC_PTX_ACCESS_READ : SC_PTX_ACCESS_WRITE, .space = box_space,
                    .sem = SC_SEM_WEAK, .size = 16, .addr_op = box_op};
    ScPtxMem rows = {.kind = to_global ? SC_PTX_ACCESS_WRITE : SC_PTX_ACCESS_READ, .space = SC_PTX_SPACE_GLOBAL,
                     .sem = SC_SEM_WEAK, .size = 16, .addr_op = map_op};
    ScPtxMem map_mem = {.kind = SC_PTX_ACCESS_READ, .space = SC_PTX_SPACE_GENERIC, .sem = SC_SEM_WEAK,
                        .size = 16, .addr_op = map_op};
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_TENSOR_COPY, .stmt = s, .to_global = to_global};
    for (uint32_t d = 0; d < 5; d++) {
        e.coords[d] = (ScInstrArg32){.is_imm = true, .imm = 0};
        if (d < c->tensor_dims && !plan_opnd32(p, s, &map->rest[0].u.list.items[d], &e.coords[d]))
            return false;
    }
    return push_copy(p, s, c, &e, &box, &rows, &map_mem);
}

/* cp.async.bulk copies size bytes (an immediate or a register) asynchronously: global
 * to this block's shared memory, completed through an mbarrier's transaction count, or
 * shared to global memory, completed through a bulk group. Its destination write and
 * source read are checked as the issuing thread's accesses as of the instruction
 * (__scord_bulk_copy), then released through its mbarrier (plan_mbarrier_completion).
 * Tensor copies: plan_tensor_copy. Multicast copies and bulk reductions stay unchecked
 * sites. */
static bool plan_bulk_copy(Planner *p, ScPtxStmt *s, const ScPtxCopy *c)
{
    if (c->kind == SC_PTX_COPY_BULK_TENSOR && c->src_op >= 0 && c->dst_op >= 0)
        return plan_tensor_copy(p, s, c);
    if (c->kind != SC_PTX_COPY_BULK || c->multicast || c->src_op < 0 || c->dst_op < 0)
        return unchecked(p, s, SC_INSTR_UNCHECKED_ASYNC, 0);
    ScPtxMem dst = {.kind = SC_PTX_ACCESS_WRITE, .space = c->dst_space, .sem = SC_SEM_WEAK,
                    .size = 16, .addr_op = c->dst_op};
    ScPtxMem src = {.kind = SC_PTX_ACCESS_READ, .space = c->src_space, .sem = SC_SEM_WEAK,
                    .size = 16, .addr_op = c->src_op};
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_BULK_COPY, .stmt = s};
    if (c->size_op >= 0) {
        if (!plan_arg32(p, s, c->size_op, &e.count))
            return false;
    } else
        e.count = (ScInstrArg32){.is_imm = true, .imm = c->size};
    return push_copy(p, s, c, &e, &dst, &src, &src);
}

/* cp.async copies global to shared memory asynchronously. Its source read and its
 * destination write are checked as of the instruction (what is not ordered with the
 * copy's start races with it), and the write again when the copy completes (what is
 * not ordered with its end races too: a __syncthreads() with no wait before it).
 * __scord_async_copy comes first: it completes an earlier copy of the thread to the
 * same bytes before the new write is checked. A source size in a register, or
 * ignore-src, leaves the bytes read unknown: the read is not checked. */
static bool plan_copy(Planner *p, ScPtxStmt *s, const ScPtxCopy *c)
{
    if (c->kind != SC_PTX_COPY_CP_ASYNC)
        return plan_bulk_copy(p, s, c);
    ScPtxMem dst = {.kind = SC_PTX_ACCESS_WRITE, .space = c->dst_space, .sem = SC_SEM_WEAK,
                    .size = c->size, .addr_op = c->dst_op};
    ScPtxMem src = {.kind = SC_PTX_ACCESS_READ, .space = c->src_space, .sem = SC_SEM_WEAK,
                    .size = c->size, .addr_op = c->src_op};
    if (c->src_size_op >= 0) {
        const ScPtxOperand *o = &s->u.instr.ops[c->src_size_op];
        src.size = o->kind != SC_PTX_OPND_INT ? 0 : o->u.i.bits < c->size ? (uint32_t)o->u.i.bits : c->size;
    }
    bool skip;
    ScInstrEdit w = {.kind = SC_INSTR_EDIT_ASYNC_COPY, .stmt = s};
    if (!plan_edit(p, s, &dst, SC_INSTR_SITE_ASYNC_COPY, &w, &skip))
        return false;
    if (skip)
        return true;
    if (!push_edit(p, &w))
        return false;
    if (src.size) {
        ScInstrEdit r = {.kind = SC_INSTR_EDIT_ACCESS, .stmt = s};
        if (!plan_edit(p, s, &src, SC_INSTR_SITE_ACCESS, &r, &skip) || (!skip && !push_edit(p, &r)))
            return false;
    }
    w.kind = SC_INSTR_EDIT_ACCESS;
    return push_edit(p, &w);
}

/* cp.async.commit_group, wait_group N and wait_all: the runtime follows the thread's
 * groups and checks the copies a wait completes. Bulk groups add nothing to what is
 * checked: their copies are checked as of their issue (plan_bulk_copy). wgmma groups
 * stay unchecked sites. */
static bool plan_group(Planner *p, ScPtxStmt *s, const ScPtxGroup *g)
{
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_ASYNC_GROUP, .stmt = s};
    switch (g->op) {
    case SC_PTX_GROUP_CP_ASYNC_COMMIT:
        e.info = SC_ABI_ASYNC_COMMIT;
        break;
    case SC_PTX_GROUP_CP_ASYNC_WAIT_ALL:
        e.info = SC_ABI_ASYNC_WAIT_ALL;
        break;
    case SC_PTX_GROUP_CP_ASYNC_WAIT: {
        uint64_t n = s->u.instr.ops[g->n_op].u.i.bits;
        e.info = n > SC_ABI_ASYNC_WAIT_MAX ? SC_ABI_ASYNC_WAIT_MAX : (uint32_t)n;
        break;
    }
    case SC_PTX_GROUP_BULK_COMMIT:
    case SC_PTX_GROUP_BULK_WAIT:
        return true;
    case SC_PTX_GROUP_WGMMA_FENCE:
    case SC_PTX_GROUP_WGMMA_COMMIT:
    case SC_PTX_GROUP_WGMMA_WAIT:
        return unchecked(p, s, SC_INSTR_UNCHECKED_ASYNC, 0);
    }
    return push_edit(p, &e);
}

/* A barrier that is not .aligned gets it in the instrumented code. Hooks called from
 * divergent code can cost a warp its convergence (DESIGN.md, "Calls in divergent
 * code"), and for a barrier without .aligned ptxas then takes a collective path that,
 * on an H100 with CUDA 13.0, let part of a warp complete the barrier for all of it:
 * cooperative groups' block.sync() (barrier.sync 0) left a persistent work queue's
 * lanes one barrier apart and its sums wrong. With .aligned ptxas first gathers the
 * whole warp (WARPSYNC.ALL), and the program was right. CUDA asks the same of
 * __syncthreads() and of a thread block's sync(): every thread reaches the same one;
 * only hand-written PTX whose lanes of one warp wait at different barriers would
 * differ. The modifier's place: barrier{.cta}.sync / .arrive / .red.op, then .aligned,
 * then the type of a reduction. */
static int32_t aligned_position(const ScPtxInstr *in)
{
    int32_t at = (int32_t)in->n_mods;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (!strcmp(m, "sync") || !strcmp(m, "arrive") || !strcmp(m, "red") || !strcmp(m, "popc") ||
            !strcmp(m, "and") || !strcmp(m, "or"))
            at = (int32_t)i + 1;
    }
    return at;
}

static bool plan_barrier(Planner *p, ScPtxStmt *s, const ScPtxBarrier *b)
{
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_BARRIER, .stmt = s};
    switch (b->kind) {
    case SC_PTX_BAR_SYNC:
    case SC_PTX_BAR_RED:
        e.arrive_only = false;
        break;
    case SC_PTX_BAR_ARRIVE:
        e.arrive_only = true;
        break;
    }
    if (!plan_arg32(p, s, b->id_op, &e.id))
        return false;
    if (b->count_op < 0)
        e.count = (ScInstrArg32){.is_imm = true, .imm = SC_ABI_ALL_THREADS};
    else if (!plan_arg32(p, s, b->count_op, &e.count))
        return false;
    const ScPtxInstr *in = &s->u.instr;
    e.align_at = b->aligned ? -1 : aligned_position(in);
    e.save_guard = in->guard && b->dst_op >= 0 && in->ops[b->dst_op].kind == SC_PTX_OPND_REG &&
                   strcmp(in->ops[b->dst_op].text, in->guard) == 0;
    return sc_instr_add_site(p->sites, SC_INSTR_SITE_BARRIER, SC_INSTR_UNCHECKED_NONE, s, 0, &e.site, p->err) &&
           push_edit(p, &e);
}

/* barrier.cluster.arrive releases (unless .relaxed) and barrier.cluster.wait acquires,
 * at cluster scope, for every thread of the cluster (PTX ISA: barrier.cluster); within
 * a block the pair is also a full barrier. Like an 8-byte read-modify-write and read
 * of a flag of the cluster's own, which the runtime keeps. */
static bool plan_cluster_barrier(Planner *p, ScPtxStmt *s, const ScPtxClusterBar *c)
{
    unsigned sem = c->wait ? SC_SEM_ACQUIRE : c->sem == SC_SEM_RELAXED ? SC_SEM_RELAXED : SC_SEM_RELEASE;
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_CLUSTER_BARRIER, .stmt = s,
                     .info = SC_ABI_INFO(8, c->wait ? SC_ABI_KIND_READ : SC_ABI_KIND_RMW, sem,
                                         SC_SCOPE_CLUSTER, SC_ABI_SPACE_GLOBAL)};
    return sc_instr_add_site(p->sites, SC_INSTR_SITE_BARRIER, SC_INSTR_UNCHECKED_NONE, s, e.info, &e.site, p->err) &&
           push_edit(p, &e);
}

static bool plan_syncwarp(Planner *p, ScPtxStmt *s, int mask_op)
{
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_SYNCWARP, .stmt = s};
    return plan_arg32(p, s, mask_op, &e.mask) &&
           sc_instr_add_site(p->sites, SC_INSTR_SITE_SYNCWARP, SC_INSTR_UNCHECKED_NONE, s, 0, &e.site, p->err) &&
           push_edit(p, &e);
}

static bool note_callee(Planner *p, const char *name)
{
    ScInstrFuncPlan *fp = p->fp;
    for (uint32_t i = 0; i < fp->n_callees; i++)
        if (strcmp(fp->callees[i], name) == 0)
            return true;
    if (fp->n_callees == fp->cap_callees) {
        uint32_t cap = fp->cap_callees ? fp->cap_callees * 2 : 8;
        const char **n = realloc(fp->callees, cap * sizeof *n);
        if (!n)
            return sc_err_set(p->err, "out of memory");
        fp->callees = n;
        fp->cap_callees = cap;
    }
    fp->callees[fp->n_callees++] = name;
    return true;
}

static bool plan_control(Planner *p, ScPtxStmt *s, const ScPtxCtl *c)
{
    ScInstrEdit e = {.kind = SC_INSTR_EDIT_EXIT, .stmt = s};
    switch (c->op) {
    case SC_PTX_CTL_RET:
        /* A .func's ret returns to its caller; only a kernel's ends the thread. */
        return !s->func->is_entry || push_edit(p, &e);
    case SC_PTX_CTL_EXIT:
        return push_edit(p, &e);
    case SC_PTX_CTL_CALL:
        if (c->indirect) {
            p->fp->calls_indirect = true;
            return true;
        }
        return note_callee(p, s->u.instr.ops[c->target_op].text);
    case SC_PTX_CTL_BRA:
    case SC_PTX_CTL_BRX:
    case SC_PTX_CTL_TRAP:
    case SC_PTX_CTL_BRKPT:
        return true;
    }
    return true;
}

static bool plan_instr(Planner *p, ScPtxStmt *s)
{
    ScPtxSema se;
    sc_ptx_classify(&s->u.instr, &se);
    switch (se.family) {
    case SC_PTX_FAM_UNKNOWN:
        return refuse(p, s, "the instruction is not known to scord (%s)", se.why);
    case SC_PTX_FAM_MEM:
        return plan_mem(p, s, &se.u.mem);
    case SC_PTX_FAM_MATRIX:
        switch (se.u.mem.space) {
        case SC_PTX_SPACE_LOCAL:
        case SC_PTX_SPACE_PARAM:
        case SC_PTX_SPACE_CONST:
        case SC_PTX_SPACE_TEXSURF:
        case SC_PTX_SPACE_NONE:
            return true;
        case SC_PTX_SPACE_GENERIC:
        case SC_PTX_SPACE_GLOBAL:
        case SC_PTX_SPACE_SHARED_CTA:
        case SC_PTX_SPACE_SHARED_CLUSTER:
            break;
        }
        return unchecked(p, s, SC_INSTR_UNCHECKED_MATRIX, 0);
    case SC_PTX_FAM_BARRIER:
        return plan_barrier(p, s, &se.u.bar);
    case SC_PTX_FAM_WARP_SYNC:
        return plan_syncwarp(p, s, se.u.warp_sync_mask_op);
    case SC_PTX_FAM_CLUSTER_BARRIER:
        return plan_cluster_barrier(p, s, &se.u.cluster);
    case SC_PTX_FAM_MBARRIER:
        return plan_mbarrier(p, s, &se.u.mbar);
    case SC_PTX_FAM_COPY:
        return plan_copy(p, s, &se.u.copy);
    case SC_PTX_FAM_ASYNC_GROUP:
        return plan_group(p, s, &se.u.group);
    case SC_PTX_FAM_CONTROL:
        return plan_control(p, s, &se.u.ctl);
    case SC_PTX_FAM_FENCE:
        return plan_fence(p, s, &se.u.fence);
    case SC_PTX_FAM_GRIDDEP:
        if (!se.u.griddep_wait)
            p->fp->triggers = true;
        return !se.u.griddep_wait || plan_grid_wait(p, s);
    case SC_PTX_FAM_TEXSURF: /* outside the memory model */
    case SC_PTX_FAM_CACHE:   /* no access */
    case SC_PTX_FAM_WARP:
    case SC_PTX_FAM_ADDR:
    case SC_PTX_FAM_RESOURCE:
    case SC_PTX_FAM_HARMLESS:
        return true;
    }
    return true;
}

/* ---- functions ------------------------------------------------------------ */

static bool push_params(Planner *p, const ScPtxVar *vars, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(vars[i].space, "reg") == 0)
            for (uint32_t j = 0; j < vars[i].n_decls; j++)
                if (!push_reg(p, &vars[i].decls[j], vars[i].type))
                    return false;
    return true;
}

static bool plan_func(Planner *p, ScPtxFunc *f)
{
    p->n_regs = p->n_marks = 0;
    if (!push_params(p, f->rets, f->n_rets) || !push_params(p, f->params, f->n_params))
        return false;
    for (ScPtxStmt *s = f->first; s; s = s->next) {
        switch (s->kind) {
        case SC_PTX_STMT_VAR:
            if (strcmp(s->u.var.space, "reg") == 0)
                for (uint32_t i = 0; i < s->u.var.n_decls; i++)
                    if (!push_reg(p, &s->u.var.decls[i], s->u.var.type))
                        return false;
            break;
        case SC_PTX_STMT_OPEN:
            if (!push_mark(p))
                return false;
            break;
        case SC_PTX_STMT_CLOSE:
            if (p->n_marks)
                p->n_regs = p->marks[--p->n_marks];
            break;
        case SC_PTX_STMT_INSTR:
            if (!plan_instr(p, s))
                return false;
            break;
        case SC_PTX_STMT_LABEL:
        case SC_PTX_STMT_LOC:
        case SC_PTX_STMT_PRAGMA:
        case SC_PTX_STMT_CALLPROTO:
        case SC_PTX_STMT_CALLTARGETS:
        case SC_PTX_STMT_BRANCHTARGETS:
        case SC_PTX_STMT_UNKNOWN:
            break;
        }
    }
    return true;
}

/* Whether an access may be checked after it, at the join of its if: a plain load
 * or store, or a relaxed atomic other than a lock's, unguarded. Such a check orders
 * nothing, so doing it a few instructions late changes no verdict. */
static bool joinable(const ScInstrEdit *ed)
{
    if (ed->kind != SC_INSTR_EDIT_ACCESS || ed->stmt->u.instr.guard || (ed->info & SC_ABI_INFO_LOCK))
        return false;
    switch (SC_ABI_INFO_KIND(ed->info)) {
    case SC_ABI_KIND_READ:
    case SC_ABI_KIND_WRITE:
        return SC_ABI_INFO_SEM(ed->info) == SC_SEM_WEAK;
    case SC_ABI_KIND_RMW:
    case SC_ABI_KIND_RED:
        return SC_ABI_INFO_SEM(ed->info) == SC_SEM_RELAXED;
    default:
        return false;
    }
}

/* Moves the checks of an if without else to its join, where every lane of the if
 * calls the runtime together (DESIGN.md, "Calls in divergent code"): a call made by
 * some lanes while the others wait at the join lets the waiting ones go early once
 * the runtime reuses their convergence barrier, and code after the join that reads
 * the callers' registers (a __shfl_sync from the lane that did an atomicAdd) reads
 * them too soon. Only a body whose edits are all joinable accesses moves. */
static void mark_joins(ScInstrFuncPlan *fp, const ScInstrCfg *cfg)
{
    for (uint32_t i = 0; i < fp->n_edits;) {
        uint32_t b = sc_instr_cfg_block(cfg, fp->edits[i].stmt), end = i + 1;
        while (end < fp->n_edits && sc_instr_cfg_block(cfg, fp->edits[end].stmt) == b)
            end++;
        const ScPtxStmt *branch, *join;
        bool all = b != SC_INSTR_NO_BLOCK && sc_instr_cfg_if_then(cfg, b, &branch, &join);
        for (uint32_t k = i; all && k < end; k++)
            all = joinable(&fp->edits[k]);
        /* The same statements, reached from an edit's: the module is ours to edit. */
        ScPtxStmt *at_branch = fp->edits[i].stmt, *at_join = fp->edits[i].stmt;
        while (all && at_branch && at_branch != branch)
            at_branch = at_branch->prev;
        while (all && at_join && at_join != join)
            at_join = at_join->next;
        for (uint32_t k = i; all && at_branch && at_join && k < end; k++) {
            fp->edits[k].join_branch = at_branch;
            fp->edits[k].join_at = at_join;
        }
        i = end;
    }
}

/* Functions of the CUDA toolkit's device library that a module declares and never
 * defines: none executes griddepcontrol. */
static bool is_system_call(const char *name)
{
    static const char *const names[] = {"vprintf", "malloc", "free", "__assertfail"};
    for (size_t i = 0; i < SC_ARRAY_LEN(names); i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* What each kernel may reach: its own unchecked instructions and those of
 * every .func it calls, transitively, and whether any of them (or a function
 * another unit defines) triggers its dependents; through a pointer it may call
 * any .func. */
static void propagate_to_kernels(ScInstrPlan *plan, ScInstrResult *res)
{
    uint32_t n = plan->n_funcs;
    for (bool changed = true; changed;) {
        changed = false;
        uint32_t any_func = 0;
        bool any_triggers = false;
        for (uint32_t i = 0; i < n; i++)
            if (plan->funcs[i].kernel < 0) {
                any_func |= plan->funcs[i].unchecked;
                any_triggers |= plan->funcs[i].triggers;
            }
        for (uint32_t i = 0; i < n; i++) {
            ScInstrFuncPlan *fp = &plan->funcs[i];
            uint32_t mask = fp->unchecked | (fp->calls_indirect ? any_func : 0);
            bool triggers = fp->triggers || (fp->calls_indirect && any_triggers);
            for (uint32_t c = 0; c < fp->n_callees; c++) {
                bool defined = false;
                for (uint32_t j = 0; j < n; j++)
                    if (strcmp(plan->funcs[j].func->name, fp->callees[c]) == 0) {
                        mask |= plan->funcs[j].unchecked;
                        triggers |= plan->funcs[j].triggers;
                        defined = true;
                    }
                /* Another unit's function (-rdc) may trigger; CUDA's own calls do not. */
                triggers |= !defined && !is_system_call(fp->callees[c]);
            }
            if (mask != fp->unchecked || triggers != fp->triggers) {
                fp->unchecked = mask;
                fp->triggers = triggers;
                changed = true;
            }
        }
    }
    for (uint32_t i = 0; i < n; i++)
        if (plan->funcs[i].kernel >= 0) {
            res->kernels[plan->funcs[i].kernel].unchecked = plan->funcs[i].unchecked;
            res->kernels[plan->funcs[i].kernel].triggers_dependents = plan->funcs[i].triggers;
        }
}

bool sc_instr_plan(ScPtxModule *m, ScInstrSites *sites, bool prune, ScInstrPlan *plan, ScErr *err)
{
    memset(plan, 0, sizeof *plan);
    bool roots = prune;
    prune = prune && sc_instr_prune_allowed(m);
    uint32_t n = 0;
    for (const ScPtxItem *it = m->first; it; it = it->next)
        if (it->kind == SC_PTX_ITEM_FUNC && it->u.func->has_body)
            n++;
    if (n && !(plan->funcs = calloc(n, sizeof *plan->funcs)))
        return sc_err_set(err, "out of memory");
    bool ok = true;
    Planner p = {.m = m, .sites = sites, .err = err, .block_mbarriers = block_mbarriers(m, err, &ok)};
    if (!ok) {
        free(plan->funcs);
        plan->funcs = NULL;
        return false;
    }
    uint32_t instr_base = 0;
    for (ScPtxItem *it = m->first; it && ok; it = it->next) {
        if (it->kind != SC_PTX_ITEM_FUNC || !it->u.func->has_body)
            continue;
        ScPtxFunc *f = it->u.func;
        p.fp = &plan->funcs[plan->n_funcs++];
        p.fp->func = f;
        p.fp->kernel = -1;
        if (f->is_entry) {
            p.fp->kernel = (int32_t)sites->res->n_kernels;
            ok = sc_instr_add_kernel(sites, f->name, err);
        }
        /* Before any edit: the branches are the program's own. */
        ok = ok && sc_instr_cfg_new(f, &instr_base, &sites->cfg, err) && plan_func(&p, f) &&
             (!prune || sc_instr_prune(p.fp, sites->cfg, sites, err));
        if (ok)
            mark_joins(p.fp, sites->cfg);
        ok = ok && (!roots || p.fp->kernel < 0 || sc_instr_roots(m, p.fp, &sites->res->kernels[p.fp->kernel],
                                                                  &sites->res->n_rooted, err));
        sc_instr_cfg_free(sites->cfg);
        sites->cfg = NULL;
    }
    free(p.regs);
    free(p.marks);
    sc_buf_free(&p.tmp);
    if (ok)
        propagate_to_kernels(plan, sites->res);
    return ok;
}

void sc_instr_plan_free(ScInstrPlan *plan)
{
    for (uint32_t i = 0; i < plan->n_funcs; i++) {
        free(plan->funcs[i].edits);
        free(plan->funcs[i].callees);
    }
    free(plan->funcs);
    memset(plan, 0, sizeof *plan);
}
