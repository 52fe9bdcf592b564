/* ptx_sema.c: decodes a PTX instruction's opcode, modifiers and operands into its race-relevant semantics. */
#include "ptx/ptx_sema.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Each opcode has one decoder. A decoder walks the modifiers as a set: every
 * modifier must be claimed by one of the vocabulary helpers below, or the
 * instruction is UNKNOWN ("modifier '.x' of OP is not known"), so that a
 * qualifier added by a later ISA can never be silently ignored. The order the
 * modifiers were written in never matters; only their presence does.
 */

/* ---- results ---------------------------------------------------------- */

SC_PRINTF(2, 3) static void set_unknown(ScPtxSema *out, const char *fmt, ...)
{
    va_list ap;
    out->family = SC_PTX_FAM_UNKNOWN;
    va_start(ap, fmt);
    vsnprintf(out->why, sizeof out->why, fmt, ap);
    va_end(ap);
}

static void bad_mod(ScPtxSema *out, const ScPtxInstr *in, const char *mod)
{
    set_unknown(out, "modifier '.%s' of %s is not known", mod, in->opcode);
}

static void bad_operands(ScPtxSema *out, const ScPtxInstr *in)
{
    set_unknown(out, "%s with %u operands is not a known form", in->opcode, in->n_ops);
}

/* ---- operands ---------------------------------------------------------- */

static bool op_is(const ScPtxInstr *in, int i, ScPtxOperandKind kind)
{
    return i >= 0 && (uint32_t)i < in->n_ops && in->ops[i].kind == kind;
}

static bool has_addr_operand(const ScPtxInstr *in)
{
    for (uint32_t i = 0; i < in->n_ops; i++)
        if (in->ops[i].kind == SC_PTX_OPND_ADDR)
            return true;
    return false;
}

/* The value of an integer immediate operand, 0 if the operand is not one. */
static uint32_t imm_u32(const ScPtxInstr *in, int i)
{
    if (!op_is(in, i, SC_PTX_OPND_INT) || in->ops[i].u.i.bits > UINT32_MAX)
        return 0;
    return (uint32_t)in->ops[i].u.i.bits;
}

/* ---- modifier vocabulary ----------------------------------------------- */

static bool eq(const char *a, const char *b) { return strcmp(a, b) == 0; }

static bool sem_of(const char *m, ScSem *out)
{
    static const struct {
        const char *name;
        ScSem sem;
    } tab[] = {
        {"weak", SC_SEM_WEAK},       {"relaxed", SC_SEM_RELAXED},
        {"acquire", SC_SEM_ACQUIRE}, {"release", SC_SEM_RELEASE},
        {"acq_rel", SC_SEM_ACQ_REL}, {"sc", SC_SEM_SC},
        {"volatile", SC_SEM_VOLATILE}, {"mmio", SC_SEM_MMIO},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(tab); i++)
        if (eq(m, tab[i].name)) {
            *out = tab[i].sem;
            return true;
        }
    return false;
}

static bool scope_of(const char *m, ScScope *out)
{
    static const struct {
        const char *name;
        ScScope scope;
    } tab[] = {
        {"cta", SC_SCOPE_CTA},
        {"cluster", SC_SCOPE_CLUSTER},
        {"gpu", SC_SCOPE_GPU},
        {"sys", SC_SCOPE_SYS},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(tab); i++)
        if (eq(m, tab[i].name)) {
            *out = tab[i].scope;
            return true;
        }
    return false;
}

static bool space_of(const char *m, ScPtxSpace *out)
{
    static const struct {
        const char *name;
        ScPtxSpace space;
    } tab[] = {
        {"global", SC_PTX_SPACE_GLOBAL},
        {"shared", SC_PTX_SPACE_SHARED_CTA}, /* ISA: .shared alone means .shared::cta */
        {"shared::cta", SC_PTX_SPACE_SHARED_CTA},
        {"shared::cluster", SC_PTX_SPACE_SHARED_CLUSTER},
        {"local", SC_PTX_SPACE_LOCAL},
        {"param", SC_PTX_SPACE_PARAM},
        {"param::entry", SC_PTX_SPACE_PARAM},
        {"param::func", SC_PTX_SPACE_PARAM},
        {"const", SC_PTX_SPACE_CONST},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(tab); i++)
        if (eq(m, tab[i].name)) {
            *out = tab[i].space;
            return true;
        }
    return false;
}

/* Bytes of a data type modifier; packed types count as one element. 0 if m is not a type. */
static uint32_t type_size(const char *m)
{
    static const struct {
        const char *name;
        uint32_t size;
    } tab[] = {
        {"b8", 1},      {"u8", 1},      {"s8", 1},       {"e4m3", 1},     {"e5m2", 1},
        {"b16", 2},     {"u16", 2},     {"s16", 2},      {"f16", 2},      {"bf16", 2},
        {"e4m3x2", 2},  {"e5m2x2", 2},  {"b32", 4},      {"u32", 4},      {"s32", 4},
        {"f32", 4},     {"f16x2", 4},   {"bf16x2", 4},   {"tf32", 4},     {"e4m3x4", 4},
        {"e5m2x4", 4},  {"b64", 8},     {"u64", 8},      {"s64", 8},      {"f64", 8},
        {"b128", 16},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(tab); i++)
        if (eq(m, tab[i].name))
            return tab[i].size;
    return 0;
}

static uint32_t vec_of(const char *m)
{
    if (eq(m, "v2"))
        return 2;
    if (eq(m, "v4"))
        return 4;
    if (eq(m, "v8"))
        return 8;
    return 0;
}

static bool atom_op_of(const char *m, ScPtxAtomOp *out)
{
    static const struct {
        const char *name;
        ScPtxAtomOp op;
    } tab[] = {
        {"add", SC_PTX_ATOM_ADD}, {"and", SC_PTX_ATOM_AND},   {"or", SC_PTX_ATOM_OR},
        {"xor", SC_PTX_ATOM_XOR}, {"cas", SC_PTX_ATOM_CAS},   {"exch", SC_PTX_ATOM_EXCH},
        {"inc", SC_PTX_ATOM_INC}, {"dec", SC_PTX_ATOM_DEC},   {"min", SC_PTX_ATOM_MIN},
        {"max", SC_PTX_ATOM_MAX},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(tab); i++)
        if (eq(m, tab[i].name)) {
            *out = tab[i].op;
            return true;
        }
    return false;
}

/* Cache operators and cache/eviction/prefetch hints: performance only, no
 * effect on what is accessed or on ordering. */
static bool is_load_hint(const char *m)
{
    static const char *const tab[] = {
        "ca", "cg", "cs", "lu", "cv",
        "L1::evict_normal", "L1::evict_unchanged", "L1::evict_first", "L1::evict_last",
        "L1::no_allocate", "L2::evict_normal", "L2::evict_first", "L2::evict_last",
        "L2::cache_hint", "L2::64B", "L2::128B", "L2::256B",
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(tab); i++)
        if (eq(m, tab[i]))
            return true;
    return false;
}

static bool is_store_hint(const char *m)
{
    static const char *const tab[] = {
        "wb", "cg", "cs", "wt",
        "L1::evict_normal", "L1::evict_unchanged", "L1::evict_first", "L1::evict_last",
        "L1::no_allocate", "L2::evict_normal", "L2::evict_first", "L2::evict_last",
        "L2::cache_hint",
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(tab); i++)
        if (eq(m, tab[i]))
            return true;
    return false;
}

/* Accumulates the common categories of a memory instruction's modifiers.
 * Each field records the first value seen; a second, different value of the
 * same category makes the instruction unknown (e.g. `.relaxed.acquire`). */
typedef struct Mods {
    ScSem sem;
    bool mmio;                   /* .mmio (always written with .relaxed.sys) */
    ScScope scope;
    ScPtxSpace space;
    uint32_t type_size;
    uint32_t vec;
    ScPtxAtomOp op;
    const char *conflict;        /* the modifier that repeated a category */
} Mods;

static bool take_sem(Mods *k, const char *m)
{
    ScSem s;
    if (!sem_of(m, &s))
        return false;
    if (s == SC_SEM_MMIO) {
        k->mmio = true;
        return true;
    }
    if (k->sem != SC_SEM_NONE && k->sem != s)
        k->conflict = m;
    k->sem = s;
    return true;
}

static bool take_scope(Mods *k, const char *m)
{
    ScScope s;
    if (!scope_of(m, &s))
        return false;
    if (k->scope != SC_SCOPE_NONE && k->scope != s)
        k->conflict = m;
    k->scope = s;
    return true;
}

static bool take_space(Mods *k, const char *m)
{
    ScPtxSpace s;
    if (!space_of(m, &s))
        return false;
    if (k->space != SC_PTX_SPACE_NONE && k->space != s)
        k->conflict = m;
    k->space = s;
    return true;
}

static bool take_type(Mods *k, const char *m)
{
    uint32_t sz = type_size(m);
    if (!sz)
        return false;
    if (k->type_size)
        k->conflict = m;
    k->type_size = sz;
    return true;
}

static bool take_vec(Mods *k, const char *m)
{
    uint32_t v = vec_of(m);
    if (!v)
        return false;
    if (k->vec)
        k->conflict = m;
    k->vec = v;
    return true;
}

static bool take_op(Mods *k, const char *m)
{
    ScPtxAtomOp op;
    if (!atom_op_of(m, &op))
        return false;
    if (k->op != SC_PTX_ATOM_NONE)
        k->conflict = m;
    k->op = op;
    return true;
}

static void set_size(ScPtxMem *mem, const Mods *k)
{
    mem->elem_size = k->type_size;
    mem->n_elems = k->vec ? k->vec : 1;
    mem->size = mem->elem_size * mem->n_elems;
}

static bool space_is_any_shared(ScPtxSpace s)
{
    return s == SC_PTX_SPACE_SHARED_CTA || s == SC_PTX_SPACE_SHARED_CLUSTER;
}

/* ---- ld, ldu, st ------------------------------------------------------- */

/* The .sem/.scope rules shared by ld and st (ISA: ld/st "Semantics"):
 * no qualifier and .weak are weak with no scope; .relaxed/.acquire/.release
 * need an explicit scope; .volatile is relaxed at .sys; .mmio is written
 * .mmio.relaxed.sys. */
static void ldst_sem(ScPtxSema *out, const ScPtxInstr *in, Mods *k)
{
    ScPtxMem *mem = &out->u.mem;
    if (k->mmio) {
        if (k->sem != SC_SEM_RELAXED || k->scope != SC_SCOPE_SYS) {
            set_unknown(out, "%s.mmio needs .relaxed.sys", in->opcode);
            return;
        }
        mem->sem = SC_SEM_MMIO;
        mem->scope = SC_SCOPE_SYS;
        return;
    }
    switch (k->sem) {
    case SC_SEM_NONE:
    case SC_SEM_WEAK:
    case SC_SEM_VOLATILE:
        if (k->scope != SC_SCOPE_NONE) {
            set_unknown(out, "%s with a .scope needs .relaxed, .acquire or .release", in->opcode);
            return;
        }
        mem->sem = k->sem == SC_SEM_VOLATILE ? SC_SEM_VOLATILE : SC_SEM_WEAK;
        mem->scope = k->sem == SC_SEM_VOLATILE ? SC_SCOPE_SYS : SC_SCOPE_NONE;
        return;
    case SC_SEM_RELAXED:
    case SC_SEM_ACQUIRE:
    case SC_SEM_RELEASE:
        if (k->scope == SC_SCOPE_NONE) {
            set_unknown(out, "%s.%s needs a .scope", in->opcode, sc_ptx_sem_name(k->sem));
            return;
        }
        mem->sem = k->sem;
        mem->scope = k->scope;
        return;
    case SC_SEM_ACQ_REL:
    case SC_SEM_SC:
    case SC_SEM_MMIO:
        break;
    }
    set_unknown(out, "%s.%s is not a valid form", in->opcode, sc_ptx_sem_name(k->sem));
}

static void dec_ld(const ScPtxInstr *in, ScPtxSema *out)
{
    Mods k = {0};
    bool nc = false;
    ScPtxMem *mem = &out->u.mem;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (eq(m, "release") || eq(m, "acq_rel") || eq(m, "sc"))
            return bad_mod(out, in, m);
        if (take_sem(&k, m) || take_scope(&k, m) || take_space(&k, m) || take_type(&k, m) ||
            take_vec(&k, m) || is_load_hint(m))
            continue;
        if (eq(m, "nc")) {
            nc = true;
            continue;
        }
        return bad_mod(out, in, m);
    }
    if (k.conflict)
        return set_unknown(out, "ld has conflicting modifiers (.%s)", k.conflict);
    if (!k.type_size)
        return set_unknown(out, "ld without a data type");
    if (in->n_ops < 2 || !op_is(in, 1, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_MEM;
    mem->kind = SC_PTX_ACCESS_READ;
    mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    mem->addr_op = 1;
    set_size(mem, &k);
    if (nc) {
        if (mem->space != SC_PTX_SPACE_GLOBAL || k.sem != SC_SEM_NONE)
            return set_unknown(out, "ld.nc is only valid as a weak ld.global.nc");
        mem->non_coherent = mem->outside_model = true;
    }
    /* ISA ld: a sink '_' in the destination vector means "data from
     * corresponding memory location is not read". */
    if (op_is(in, 0, SC_PTX_OPND_VEC))
        for (uint32_t i = 0; i < in->ops[0].u.list.n && i < 32; i++)
            if (in->ops[0].u.list.items[i].kind == SC_PTX_OPND_SINK)
                mem->sink_mask |= UINT32_C(1) << i;
    ldst_sem(out, in, &k);
}

static void dec_ldu(const ScPtxInstr *in, ScPtxSema *out)
{
    Mods k = {0};
    ScPtxMem *mem = &out->u.mem;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (take_space(&k, m) || take_type(&k, m) || take_vec(&k, m))
            continue;
        return bad_mod(out, in, m);
    }
    if (k.conflict || !k.type_size || (k.space && k.space != SC_PTX_SPACE_GLOBAL))
        return set_unknown(out, "ldu needs a data type and at most .global");
    if (in->n_ops != 2 || !op_is(in, 1, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_MEM;
    mem->kind = SC_PTX_ACCESS_READ;
    mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    mem->sem = SC_SEM_WEAK;
    mem->addr_op = 1;
    mem->non_coherent = mem->outside_model = true;
    set_size(mem, &k);
}

/* st.async{.weak}{.shared::cluster}.mbarrier::complete_tx::bytes{.vec}.type [a], b, [mbar] */
static void dec_st_async(const ScPtxInstr *in, ScPtxSema *out)
{
    Mods k = {0};
    bool tx = false;
    ScPtxMem *mem = &out->u.mem;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (eq(m, "async"))
            continue;
        if (eq(m, "mbarrier::complete_tx::bytes")) {
            tx = true;
            continue;
        }
        if (eq(m, "weak") || take_space(&k, m) || take_type(&k, m) || take_vec(&k, m))
            continue;
        return bad_mod(out, in, m);
    }
    if (k.conflict || !k.type_size || !tx || (k.space && k.space != SC_PTX_SPACE_SHARED_CLUSTER))
        return set_unknown(out, "st.async needs .mbarrier::complete_tx::bytes, a type and at most .shared::cluster");
    if (in->n_ops != 3 || !op_is(in, 0, SC_PTX_OPND_ADDR) || !op_is(in, 2, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_MEM;
    mem->kind = SC_PTX_ACCESS_WRITE;
    mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    mem->sem = SC_SEM_WEAK;
    mem->addr_op = 0;
    mem->mbar_op = 2;
    mem->async = true;
    set_size(mem, &k);
}

static void dec_st(const ScPtxInstr *in, ScPtxSema *out)
{
    Mods k = {0};
    ScPtxMem *mem = &out->u.mem;
    for (uint32_t i = 0; i < in->n_mods; i++)
        if (eq(in->mods[i], "async"))
            return dec_st_async(in, out);
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (eq(m, "acquire") || eq(m, "acq_rel") || eq(m, "sc"))
            return bad_mod(out, in, m);
        if (take_sem(&k, m) || take_scope(&k, m) || take_space(&k, m) || take_type(&k, m) ||
            take_vec(&k, m) || is_store_hint(m))
            continue;
        return bad_mod(out, in, m);
    }
    if (k.conflict)
        return set_unknown(out, "st has conflicting modifiers (.%s)", k.conflict);
    if (!k.type_size)
        return set_unknown(out, "st without a data type");
    if (in->n_ops < 2 || !op_is(in, 0, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    if (k.space == SC_PTX_SPACE_CONST)
        return set_unknown(out, "st.const is not valid");
    out->family = SC_PTX_FAM_MEM;
    mem->kind = SC_PTX_ACCESS_WRITE;
    mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    mem->addr_op = 0;
    set_size(mem, &k);
    ldst_sem(out, in, &k);
}

/* ---- atom, red, multimem, discard --------------------------------------- */

/* Modifiers atom and red share. `noftz` and the cache hint change neither
 * what is accessed nor the ordering. */
static bool scan_atomic_mods(const ScPtxInstr *in, ScPtxSema *out, Mods *k)
{
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (eq(m, "weak") || eq(m, "volatile") || eq(m, "mmio") || eq(m, "sc")) {
            bad_mod(out, in, m);
            return false;
        }
        if (take_sem(k, m) || take_scope(k, m) || take_space(k, m) || take_type(k, m) ||
            take_vec(k, m) || take_op(k, m) || eq(m, "noftz") || eq(m, "L2::cache_hint"))
            continue;
        bad_mod(out, in, m);
        return false;
    }
    if (k->conflict) {
        set_unknown(out, "%s has conflicting modifiers (.%s)", in->opcode, k->conflict);
        return false;
    }
    if (!k->type_size || k->op == SC_PTX_ATOM_NONE) {
        set_unknown(out, "%s needs an operation and a type", in->opcode);
        return false;
    }
    if (k->space && !space_is_any_shared(k->space) && k->space != SC_PTX_SPACE_GLOBAL) {
        set_unknown(out, "%s is only valid on .global and .shared", in->opcode);
        return false;
    }
    return true;
}

static void dec_atom(const ScPtxInstr *in, ScPtxSema *out)
{
    Mods k = {0};
    ScPtxMem *mem = &out->u.mem;
    if (!scan_atomic_mods(in, out, &k))
        return;
    if (in->n_ops < 3 || !op_is(in, 1, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_MEM;
    mem->kind = SC_PTX_ACCESS_RMW;
    mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    /* ISA atom: "If the .sem qualifier is absent, .relaxed is assumed by
     * default"; "If the .scope qualifier is absent, .gpu scope is assumed". */
    mem->sem = k.sem ? k.sem : SC_SEM_RELAXED;
    mem->scope = k.scope ? k.scope : SC_SCOPE_GPU;
    mem->op = k.op;
    mem->addr_op = 1;
    set_size(mem, &k);
}

/* red.async{.relaxed}{.cluster}{.shared::cluster}.mbarrier::complete_tx::bytes.op.type [a], b, [mbar] */
static void dec_red_async(const ScPtxInstr *in, ScPtxSema *out)
{
    Mods k = {0};
    bool tx = false;
    ScPtxMem *mem = &out->u.mem;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (eq(m, "async"))
            continue;
        if (eq(m, "mbarrier::complete_tx::bytes")) {
            tx = true;
            continue;
        }
        if (take_sem(&k, m) || take_scope(&k, m) || take_space(&k, m) || take_type(&k, m) ||
            take_op(&k, m))
            continue;
        return bad_mod(out, in, m);
    }
    if (k.conflict || !k.type_size || !k.op || !tx ||
        (k.sem && k.sem != SC_SEM_RELAXED) ||
        (k.scope && k.scope != SC_SCOPE_CLUSTER) ||
        (k.space && k.space != SC_PTX_SPACE_SHARED_CLUSTER))
        return set_unknown(out, "red.async form is not known");
    if (in->n_ops != 3 || !op_is(in, 0, SC_PTX_OPND_ADDR) || !op_is(in, 2, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_MEM;
    mem->kind = SC_PTX_ACCESS_RED;
    mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    /* The only .sem and .scope red.async has: relaxed, cluster. */
    mem->sem = SC_SEM_RELAXED;
    mem->scope = SC_SCOPE_CLUSTER;
    mem->op = k.op;
    mem->addr_op = 0;
    mem->mbar_op = 2;
    mem->async = true;
    set_size(mem, &k);
}

static void dec_red(const ScPtxInstr *in, ScPtxSema *out)
{
    Mods k = {0};
    ScPtxMem *mem = &out->u.mem;
    for (uint32_t i = 0; i < in->n_mods; i++)
        if (eq(in->mods[i], "async"))
            return dec_red_async(in, out);
    if (!scan_atomic_mods(in, out, &k))
        return;
    if (k.sem == SC_SEM_ACQUIRE || k.sem == SC_SEM_ACQ_REL)
        return set_unknown(out, "red.%s is not valid (red has .relaxed and .release only)",
                           sc_ptx_sem_name(k.sem));
    if (in->n_ops < 2 || !op_is(in, 0, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_MEM;
    mem->kind = SC_PTX_ACCESS_RED;
    mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    /* ISA red: default .relaxed and .gpu, as for atom. */
    mem->sem = k.sem ? k.sem : SC_SEM_RELAXED;
    mem->scope = k.scope ? k.scope : SC_SCOPE_GPU;
    mem->op = k.op;
    mem->addr_op = 0;
    set_size(mem, &k);
}

/* multimem.ld_reduce / .st / .red on a multicast address (always .global). */
static void dec_multimem(const ScPtxInstr *in, ScPtxSema *out)
{
    Mods k = {0};
    ScPtxMem *mem = &out->u.mem;
    if (in->n_mods == 0)
        return set_unknown(out, "multimem without an operation");
    const char *what = in->mods[0];
    bool is_ld = eq(what, "ld_reduce"), is_st = eq(what, "st"), is_red = eq(what, "red");
    if (!is_ld && !is_st && !is_red)
        return bad_mod(out, in, what);
    for (uint32_t i = 1; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (take_sem(&k, m) || take_scope(&k, m) || take_space(&k, m) || take_type(&k, m) ||
            take_vec(&k, m) || take_op(&k, m) || eq(m, "acc::f32") || eq(m, "acc::f16"))
            continue;
        return bad_mod(out, in, m);
    }
    ScSem ok1 = is_ld ? SC_SEM_ACQUIRE : SC_SEM_RELEASE;
    if (k.conflict || !k.type_size || k.mmio || (k.space && k.space != SC_PTX_SPACE_GLOBAL) ||
        (k.sem && k.sem != SC_SEM_WEAK && k.sem != SC_SEM_RELAXED && k.sem != ok1) ||
        (is_st ? k.op != SC_PTX_ATOM_NONE : k.op == SC_PTX_ATOM_NONE) ||
        (is_red && k.sem == SC_SEM_WEAK))
        return set_unknown(out, "multimem.%s form is not known", what);
    int addr = is_ld ? 1 : 0;
    if (in->n_ops != 2 || !op_is(in, addr, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_MEM;
    mem->kind = is_ld ? SC_PTX_ACCESS_READ : is_st ? SC_PTX_ACCESS_WRITE : SC_PTX_ACCESS_RED;
    mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    mem->op = k.op;
    mem->addr_op = addr;
    mem->multimem = true;
    set_size(mem, &k);
    if (is_red) {
        /* ISA multimem: .red defaults to .relaxed, and to .sys when no scope is given. */
        mem->sem = k.sem ? k.sem : SC_SEM_RELAXED;
        mem->scope = k.scope ? k.scope : SC_SCOPE_SYS;
        return;
    }
    /* ld_reduce and st default to .weak. The ISA gives no default scope for
     * their strong forms, so a strong one without a scope is refused. */
    if (k.sem == SC_SEM_NONE || k.sem == SC_SEM_WEAK) {
        if (k.scope)
            return set_unknown(out, "weak multimem.%s with a scope is not valid", what);
        mem->sem = SC_SEM_WEAK;
        return;
    }
    if (!k.scope)
        return set_unknown(out, "multimem.%s.%s without a scope", what, sc_ptx_sem_name(k.sem));
    mem->sem = k.sem;
    mem->scope = k.scope;
}

/* discard{.global}.L2 [a], 128: afterwards the 128 bytes hold unspecified
 * values, so it conflicts with any concurrent access like a write does. */
static void dec_discard(const ScPtxInstr *in, ScPtxSema *out)
{
    Mods k = {0};
    bool l2 = false;
    ScPtxMem *mem = &out->u.mem;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (eq(m, "L2")) {
            l2 = true;
            continue;
        }
        if (take_space(&k, m))
            continue;
        return bad_mod(out, in, m);
    }
    if (!l2 || k.conflict || (k.space && k.space != SC_PTX_SPACE_GLOBAL))
        return set_unknown(out, "discard form is not known");
    if (in->n_ops != 2 || !op_is(in, 0, SC_PTX_OPND_ADDR) || imm_u32(in, 1) != 128)
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_MEM;
    mem->kind = SC_PTX_ACCESS_WRITE;
    mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    mem->sem = SC_SEM_WEAK;
    mem->addr_op = 0;
    mem->elem_size = mem->size = 128;
    mem->n_elems = 1;
}

/* ---- cache-only instructions -------------------------------------------- */

static void dec_cache(const ScPtxInstr *in, ScPtxSema *out)
{
    static const char *const ok[] = {
        "L1", "L2", "global", "local", "param", "const", "tensormap",
        "L2::evict_last", "L2::evict_normal",
    };
    for (uint32_t i = 0; i < in->n_mods; i++) {
        bool found = false;
        for (size_t j = 0; j < SC_ARRAY_LEN(ok) && !found; j++)
            found = eq(in->mods[i], ok[j]);
        if (!found)
            return bad_mod(out, in, in->mods[i]);
    }
    if (in->n_ops < 1 || !op_is(in, 0, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_CACHE;
}

/* ---- barriers ------------------------------------------------------------ */

/* bar{.cta}.{sync,arrive,red} and barrier{.cta}.{sync,arrive,red}{.aligned}. */
static void dec_cta_barrier(const ScPtxInstr *in, ScPtxSema *out, bool is_bar)
{
    ScPtxBarrier *b = &out->u.bar;
    bool have_kind = false, aligned = is_bar, pred = false, u32 = false;
    b->red_op = SC_PTX_BARRED_NONE;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        ScPtxBarKind kind;
        if (eq(m, "cta"))
            continue;
        if (eq(m, "aligned") && !is_bar) {
            aligned = true;
            continue;
        }
        if (eq(m, "sync") || eq(m, "arrive") || eq(m, "red")) {
            kind = eq(m, "sync") ? SC_PTX_BAR_SYNC : eq(m, "arrive") ? SC_PTX_BAR_ARRIVE : SC_PTX_BAR_RED;
            if (have_kind)
                return set_unknown(out, "%s with two barrier operations", in->opcode);
            have_kind = true;
            b->kind = kind;
            continue;
        }
        if (eq(m, "popc") || eq(m, "and") || eq(m, "or")) {
            b->red_op = eq(m, "popc") ? SC_PTX_BARRED_POPC : eq(m, "and") ? SC_PTX_BARRED_AND : SC_PTX_BARRED_OR;
            continue;
        }
        if (eq(m, "pred")) {
            pred = true;
            continue;
        }
        if (eq(m, "u32")) {
            u32 = true;
            continue;
        }
        return bad_mod(out, in, m);
    }
    if (!have_kind)
        return set_unknown(out, "%s without .sync, .arrive or .red", in->opcode);
    if (has_addr_operand(in))
        return bad_operands(out, in);
    b->aligned = aligned;
    b->dst_op = b->pred_op = -1;
    switch (b->kind) {
    case SC_PTX_BAR_SYNC:
        if (b->red_op || pred || u32 || in->n_ops < 1 || in->n_ops > 2)
            return set_unknown(out, "%s.sync form is not known", in->opcode);
        b->id_op = 0;
        b->count_op = in->n_ops == 2 ? 1 : -1;
        break;
    case SC_PTX_BAR_ARRIVE:
        /* The ISA requires a thread count for arrive. */
        if (b->red_op || pred || u32 || in->n_ops != 2)
            return set_unknown(out, "%s.arrive form is not known", in->opcode);
        b->id_op = 0;
        b->count_op = 1;
        break;
    case SC_PTX_BAR_RED:
        if (!b->red_op || (b->red_op == SC_PTX_BARRED_POPC ? !u32 || pred : !pred || u32) ||
            in->n_ops < 3 || in->n_ops > 4)
            return set_unknown(out, "%s.red form is not known", in->opcode);
        b->dst_op = 0;
        b->id_op = 1;
        b->count_op = in->n_ops == 4 ? 2 : -1;
        b->pred_op = (int)in->n_ops - 1;
        break;
    }
    out->family = SC_PTX_FAM_BARRIER;
}

static void dec_bar(const ScPtxInstr *in, ScPtxSema *out)
{
    if (in->n_mods >= 1 && eq(in->mods[0], "warp")) {
        if (in->n_mods != 2 || !eq(in->mods[1], "sync"))
            return set_unknown(out, "bar.warp form is not known");
        if (in->n_ops != 1 || has_addr_operand(in))
            return bad_operands(out, in);
        out->family = SC_PTX_FAM_WARP_SYNC;
        out->u.warp_sync_mask_op = 0;
        return;
    }
    dec_cta_barrier(in, out, true);
}

/* barrier.cluster.arrive{.release|.relaxed}{.aligned}, barrier.cluster.wait{.acquire}{.aligned} */
static void dec_cluster_barrier(const ScPtxInstr *in, ScPtxSema *out)
{
    ScPtxClusterBar *c = &out->u.cluster;
    bool arrive = false, wait = false;
    ScSem sem = SC_SEM_NONE;
    c->aligned = false;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (eq(m, "cluster"))
            continue;
        if (eq(m, "arrive") || eq(m, "wait")) {
            if (arrive || wait)
                return set_unknown(out, "barrier.cluster with two operations");
            arrive = eq(m, "arrive");
            wait = !arrive;
            continue;
        }
        if (eq(m, "aligned")) {
            c->aligned = true;
            continue;
        }
        if (eq(m, "release") || eq(m, "relaxed") || eq(m, "acquire")) {
            if (sem)
                return set_unknown(out, "barrier.cluster with two .sem qualifiers");
            sem_of(m, &sem);
            continue;
        }
        return bad_mod(out, in, m);
    }
    if (!arrive && !wait)
        return set_unknown(out, "barrier.cluster without .arrive or .wait");
    if (in->n_ops != 0)
        return bad_operands(out, in);
    c->wait = wait;
    if (wait) {
        /* ISA: wait has only (and defaults to) .acquire. */
        if (sem && sem != SC_SEM_ACQUIRE)
            return set_unknown(out, "barrier.cluster.wait.%s is not valid", sc_ptx_sem_name(sem));
        c->sem = SC_SEM_ACQUIRE;
    } else {
        /* ISA: arrive defaults to .release; .relaxed drops the ordering. */
        if (sem == SC_SEM_ACQUIRE)
            return set_unknown(out, "barrier.cluster.arrive.acquire is not valid");
        c->sem = sem ? sem : SC_SEM_RELEASE;
    }
    out->family = SC_PTX_FAM_CLUSTER_BARRIER;
}

static void dec_barrier(const ScPtxInstr *in, ScPtxSema *out)
{
    for (uint32_t i = 0; i < in->n_mods; i++)
        if (eq(in->mods[i], "cluster"))
            return dec_cluster_barrier(in, out);
    dec_cta_barrier(in, out, false);
}

/* ---- fences ------------------------------------------------------------- */

static bool restrict_of(const char *m, ScPtxSpace *out)
{
    if (eq(m, "sync_restrict::shared::cta")) {
        *out = SC_PTX_SPACE_SHARED_CTA;
        return true;
    }
    if (eq(m, "sync_restrict::shared::cluster")) {
        *out = SC_PTX_SPACE_SHARED_CLUSTER;
        return true;
    }
    return false;
}

/* ISA fence: .sync_restrict::shared::cta goes with .release and
 * .sync_restrict::shared::cluster with .acquire, both at .cluster scope. */
static bool restrict_ok(const ScPtxFence *f)
{
    ScSem need = f->restrict_space == SC_PTX_SPACE_SHARED_CTA ? SC_SEM_RELEASE : SC_SEM_ACQUIRE;
    return f->sem == need && f->scope == SC_SCOPE_CLUSTER;
}

/* fence.proxy.{alias, async{.global,.shared::cta,.shared::cluster}},
 * fence.proxy.tensormap::generic.{release,acquire}.scope [{addr, size}],
 * fence.proxy.async::generic.{acquire,release}.sync_restrict::shared::X.cluster */
static void dec_fence_proxy(const ScPtxInstr *in, ScPtxSema *out, uint32_t first, bool membar)
{
    ScPtxFence *f = &out->u.fence;
    ScPtxSpace space = SC_PTX_SPACE_NONE;
    uint32_t n_sem = 0, n_scope = 0, n_space = 0;
    f->kind = SC_PTX_FENCE_PROXY;
    f->membar = membar;
    f->proxy = SC_PTX_PROXY_NONE;
    for (uint32_t i = first; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        ScPtxProxy p = SC_PTX_PROXY_NONE;
        if (eq(m, "alias"))
            p = SC_PTX_PROXY_ALIAS;
        else if (eq(m, "async"))
            p = SC_PTX_PROXY_ASYNC;
        else if (eq(m, "tensormap::generic"))
            p = SC_PTX_PROXY_TENSORMAP;
        else if (eq(m, "async::generic"))
            p = SC_PTX_PROXY_ASYNC_GENERIC;
        if (p) {
            if (f->proxy)
                return set_unknown(out, "fence.proxy with two proxy kinds");
            f->proxy = p;
            continue;
        }
        if (eq(m, "release") || eq(m, "acquire")) {
            n_sem++;
            sem_of(m, &f->sem);
            continue;
        }
        if (scope_of(m, &f->scope)) {
            n_scope++;
            continue;
        }
        if (restrict_of(m, &f->restrict_space))
            continue;
        if (eq(m, "global") || eq(m, "shared::cta") || eq(m, "shared::cluster")) {
            n_space++;
            space_of(m, &space);
            continue;
        }
        return bad_mod(out, in, m);
    }
    f->addr_op = f->size_op = -1;
    switch (f->proxy) {
    case SC_PTX_PROXY_NONE:
        return set_unknown(out, "fence.proxy without a proxy kind");
    case SC_PTX_PROXY_ALIAS:
        if (n_sem || n_scope || n_space || f->restrict_space || in->n_ops)
            return set_unknown(out, "fence.proxy.alias takes no qualifiers");
        return (void)(out->family = SC_PTX_FAM_FENCE);
    case SC_PTX_PROXY_ASYNC:
    case SC_PTX_PROXY_ASYNC_GLOBAL:
    case SC_PTX_PROXY_ASYNC_SHARED_CTA:
    case SC_PTX_PROXY_ASYNC_SHARED_CLUSTER:
        if (n_sem || n_scope || n_space > 1 || f->restrict_space || in->n_ops || membar)
            return set_unknown(out, "fence.proxy.async form is not known");
        f->proxy = space == SC_PTX_SPACE_GLOBAL       ? SC_PTX_PROXY_ASYNC_GLOBAL
                   : space == SC_PTX_SPACE_SHARED_CTA ? SC_PTX_PROXY_ASYNC_SHARED_CTA
                   : space == SC_PTX_SPACE_SHARED_CLUSTER ? SC_PTX_PROXY_ASYNC_SHARED_CLUSTER
                                                          : SC_PTX_PROXY_ASYNC;
        return (void)(out->family = SC_PTX_FAM_FENCE);
    case SC_PTX_PROXY_TENSORMAP:
        if (n_sem != 1 || n_scope != 1 || n_space || f->restrict_space || membar)
            return set_unknown(out, "fence.proxy.tensormap::generic needs one .sem and one .scope");
        if (f->sem == SC_SEM_ACQUIRE) {
            /* [addr], 128: the one size the ISA allows. */
            if (in->n_ops != 2 || !op_is(in, 0, SC_PTX_OPND_ADDR) || imm_u32(in, 1) != 128)
                return bad_operands(out, in);
            f->addr_op = 0;
            f->size_op = 1;
        } else if (in->n_ops) {
            return bad_operands(out, in);
        }
        return (void)(out->family = SC_PTX_FAM_FENCE);
    case SC_PTX_PROXY_ASYNC_GENERIC:
        if (n_sem != 1 || n_scope != 1 || n_space || !f->restrict_space || in->n_ops || membar ||
            !restrict_ok(f))
            return set_unknown(out, "fence.proxy.async::generic form is not known");
        return (void)(out->family = SC_PTX_FAM_FENCE);
    }
}

static void dec_fence(const ScPtxInstr *in, ScPtxSema *out)
{
    ScPtxFence *f = &out->u.fence;
    uint32_t n_sem = 0, n_scope = 0;
    if (in->n_mods >= 1 && eq(in->mods[0], "proxy"))
        return dec_fence_proxy(in, out, 1, false);
    f->addr_op = f->size_op = -1;
    if (in->n_mods >= 1 && eq(in->mods[0], "mbarrier_init")) {
        /* The only form: fence.mbarrier_init.release.cluster. */
        if (in->n_mods != 3 || !eq(in->mods[1], "release") || !eq(in->mods[2], "cluster") || in->n_ops)
            return set_unknown(out, "fence.mbarrier_init form is not known");
        f->kind = SC_PTX_FENCE_MBARRIER_INIT;
        f->sem = SC_SEM_RELEASE;
        f->scope = SC_SCOPE_CLUSTER;
        out->family = SC_PTX_FAM_FENCE;
        return;
    }
    f->kind = SC_PTX_FENCE_MEMORY;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (eq(m, "sc") || eq(m, "acq_rel") || eq(m, "acquire") || eq(m, "release")) {
            n_sem++;
            sem_of(m, &f->sem);
            continue;
        }
        if (scope_of(m, &f->scope)) {
            n_scope++;
            continue;
        }
        if (restrict_of(m, &f->restrict_space))
            continue;
        return bad_mod(out, in, m);
    }
    if (n_sem > 1 || n_scope != 1 || in->n_ops)
        return set_unknown(out, "fence needs one .scope and at most one .sem");
    /* ISA fence: "If the optional .sem qualifier is absent, .acq_rel is assumed by default." */
    if (!n_sem)
        f->sem = SC_SEM_ACQ_REL;
    if (f->restrict_space && !restrict_ok(f))
        return set_unknown(out, "fence.sync_restrict form is not valid");
    out->family = SC_PTX_FAM_FENCE;
}

/* membar.{cta,gl,sys} == fence.sc.{cta,gpu,sys} on sm_70+; membar.proxy.* == fence.proxy.* */
static void dec_membar(const ScPtxInstr *in, ScPtxSema *out)
{
    ScPtxFence *f = &out->u.fence;
    if (in->n_mods >= 1 && eq(in->mods[0], "proxy"))
        return dec_fence_proxy(in, out, 1, true);
    if (in->n_mods != 1 || in->n_ops)
        return set_unknown(out, "membar needs exactly one level");
    const char *m = in->mods[0];
    f->kind = SC_PTX_FENCE_MEMORY;
    f->sem = SC_SEM_SC;
    f->membar = true;
    f->addr_op = f->size_op = -1;
    if (eq(m, "cta"))
        f->scope = SC_SCOPE_CTA;
    else if (eq(m, "gl"))
        f->scope = SC_SCOPE_GPU;
    else if (eq(m, "sys"))
        f->scope = SC_SCOPE_SYS;
    else
        return bad_mod(out, in, m);
    out->family = SC_PTX_FAM_FENCE;
}

/* ---- mbarrier ------------------------------------------------------------ */

static void dec_mbarrier(const ScPtxInstr *in, ScPtxSema *out)
{
    static const struct {
        const char *name;
        ScPtxMbarOp op;
    } ops[] = {
        {"init", SC_PTX_MBAR_INIT},           {"inval", SC_PTX_MBAR_INVAL},
        {"arrive", SC_PTX_MBAR_ARRIVE},       {"arrive_drop", SC_PTX_MBAR_ARRIVE_DROP},
        {"expect_tx", SC_PTX_MBAR_EXPECT_TX}, {"complete_tx", SC_PTX_MBAR_COMPLETE_TX},
        {"test_wait", SC_PTX_MBAR_TEST_WAIT}, {"try_wait", SC_PTX_MBAR_TRY_WAIT},
        {"pending_count", SC_PTX_MBAR_PENDING_COUNT},
    };
    ScPtxMbar *b = &out->u.mbar;
    Mods k = {0};
    bool have_op = false, b64 = false;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        bool is_op = false;
        for (size_t j = 0; j < SC_ARRAY_LEN(ops) && !is_op; j++)
            if (eq(m, ops[j].name)) {
                is_op = true;
                /* expect_tx after arrive/arrive_drop qualifies it. */
                if (have_op && ops[j].op == SC_PTX_MBAR_EXPECT_TX &&
                    (b->op == SC_PTX_MBAR_ARRIVE || b->op == SC_PTX_MBAR_ARRIVE_DROP))
                    b->expect_tx = true;
                else if (have_op)
                    return set_unknown(out, "mbarrier with two operations");
                else
                    b->op = ops[j].op;
                have_op = true;
            }
        if (is_op)
            continue;
        if (eq(m, "noComplete")) {
            b->no_complete = true;
            continue;
        }
        if (eq(m, "parity")) {
            b->parity = true;
            continue;
        }
        if (eq(m, "b64")) {
            b64 = true;
            continue;
        }
        if (take_sem(&k, m) || take_scope(&k, m) || take_space(&k, m))
            continue;
        return bad_mod(out, in, m);
    }
    if (!have_op || !b64 || k.conflict || k.mmio ||
        (k.space && !space_is_any_shared(k.space)))
        return set_unknown(out, "mbarrier form is not known");
    b->addr_op = b->count_op = b->state_op = b->result_op = -1;
    b->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    ScSem sem_default = SC_SEM_NONE, sem_alt = SC_SEM_NONE;
    bool scoped = true, ok_ops = false;
    uint32_t n = in->n_ops;
    switch (b->op) {
    case SC_PTX_MBAR_INIT:
        scoped = false;
        ok_ops = n == 2 && op_is(in, 0, SC_PTX_OPND_ADDR);
        b->addr_op = 0;
        b->count_op = 1;
        break;
    case SC_PTX_MBAR_INVAL:
        scoped = false;
        ok_ops = n == 1 && op_is(in, 0, SC_PTX_OPND_ADDR);
        b->addr_op = 0;
        break;
    case SC_PTX_MBAR_ARRIVE:
    case SC_PTX_MBAR_ARRIVE_DROP:
        /* ISA: arrive's .sem is .release (default) or .relaxed; .scope .cta (default) or .cluster. */
        sem_default = SC_SEM_RELEASE;
        sem_alt = SC_SEM_RELAXED;
        ok_ops = (n == 2 || n == 3) && op_is(in, 1, SC_PTX_OPND_ADDR) &&
                 ((!b->expect_tx && !b->no_complete) || n == 3);
        b->state_op = 0;
        b->addr_op = 1;
        b->count_op = n == 3 ? 2 : -1;
        break;
    case SC_PTX_MBAR_EXPECT_TX:
    case SC_PTX_MBAR_COMPLETE_TX:
        sem_default = SC_SEM_RELAXED;
        ok_ops = n == 2 && op_is(in, 0, SC_PTX_OPND_ADDR);
        b->addr_op = 0;
        b->count_op = 1;
        break;
    case SC_PTX_MBAR_TEST_WAIT:
    case SC_PTX_MBAR_TRY_WAIT:
        /* ISA: waits are .acquire (default) or .relaxed, .cta (default) or .cluster. */
        sem_default = SC_SEM_ACQUIRE;
        sem_alt = SC_SEM_RELAXED;
        ok_ops = (n == 3 || (n == 4 && b->op == SC_PTX_MBAR_TRY_WAIT)) && op_is(in, 1, SC_PTX_OPND_ADDR);
        b->result_op = 0;
        b->addr_op = 1;
        b->state_op = 2;
        break;
    case SC_PTX_MBAR_PENDING_COUNT:
        scoped = false;
        ok_ops = n == 2 && !has_addr_operand(in) && !k.space;
        b->space = SC_PTX_SPACE_NONE;
        b->result_op = 0;
        b->state_op = 1;
        break;
    case SC_PTX_MBAR_CP_ASYNC_ARRIVE: /* spelled cp.async.mbarrier.arrive: not an mbarrier.* op */
        break;
    }
    if (!ok_ops)
        return bad_operands(out, in);
    if ((b->expect_tx || b->no_complete) && b->op != SC_PTX_MBAR_ARRIVE && b->op != SC_PTX_MBAR_ARRIVE_DROP)
        return set_unknown(out, "mbarrier qualifier on the wrong operation");
    if (b->parity && b->op != SC_PTX_MBAR_TEST_WAIT && b->op != SC_PTX_MBAR_TRY_WAIT)
        return set_unknown(out, "mbarrier .parity on a non-wait operation");
    if (!scoped) {
        if (k.sem || k.scope)
            return set_unknown(out, "mbarrier operation takes no .sem or .scope");
        b->sem = SC_SEM_NONE;
        b->scope = SC_SCOPE_NONE;
    } else {
        if (k.sem && k.sem != sem_default && k.sem != sem_alt)
            return set_unknown(out, "mbarrier .%s is not valid here", sc_ptx_sem_name(k.sem));
        if (k.scope && k.scope != SC_SCOPE_CTA && k.scope != SC_SCOPE_CLUSTER)
            return set_unknown(out, "mbarrier .scope must be .cta or .cluster");
        b->sem = k.sem ? k.sem : sem_default;
        b->scope = k.scope ? k.scope : SC_SCOPE_CTA;
    }
    out->family = SC_PTX_FAM_MBARRIER;
}

/* ---- asynchronous copies ----------------------------------------------- */

/* cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr] */
static void dec_cp_async_mbarrier(const ScPtxInstr *in, ScPtxSema *out)
{
    ScPtxMbar *b = &out->u.mbar;
    Mods k = {0};
    bool arrive = false, b64 = false;
    for (uint32_t i = 2; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (eq(m, "arrive"))
            arrive = true;
        else if (eq(m, "noinc"))
            b->noinc = true;
        else if (eq(m, "b64"))
            b64 = true;
        else if (!take_space(&k, m))
            return bad_mod(out, in, m);
    }
    if (!arrive || !b64 || k.conflict || (k.space && k.space != SC_PTX_SPACE_SHARED_CTA))
        return set_unknown(out, "cp.async.mbarrier form is not known");
    if (in->n_ops != 1 || !op_is(in, 0, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    b->op = SC_PTX_MBAR_CP_ASYNC_ARRIVE;
    b->sem = SC_SEM_NONE;
    b->scope = SC_SCOPE_NONE;
    b->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    b->addr_op = 0;
    b->count_op = b->state_op = b->result_op = -1;
    out->family = SC_PTX_FAM_MBARRIER;
}

/* cp.async.{ca,cg}.shared{::cta}.global{.L2::cache_hint}{.L2::NB} [dst], [src], cp-size{, src-size|ignore-src}{, policy} */
static void dec_cp_async(const ScPtxInstr *in, ScPtxSema *out)
{
    ScPtxCopy *c = &out->u.copy;
    uint32_t n_spaces = 0;
    bool hint = false;
    c->kind = SC_PTX_COPY_CP_ASYNC;
    for (uint32_t i = 1; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        ScPtxSpace s;
        if (i == 1 && (eq(m, "ca") || eq(m, "cg")))
            continue;
        if (space_of(m, &s)) {
            if (n_spaces == 0)
                c->dst_space = s;
            else
                c->src_space = s;
            n_spaces++;
            continue;
        }
        if (eq(m, "L2::cache_hint")) {
            hint = true;
            continue;
        }
        if (eq(m, "L2::64B") || eq(m, "L2::128B") || eq(m, "L2::256B"))
            continue;
        return bad_mod(out, in, m);
    }
    if (n_spaces != 2 || c->dst_space != SC_PTX_SPACE_SHARED_CTA || c->src_space != SC_PTX_SPACE_GLOBAL)
        return set_unknown(out, "cp.async needs .shared{::cta}.global");
    uint32_t base = hint ? 4 : 3;
    if ((in->n_ops != base && in->n_ops != base + 1) || !op_is(in, 0, SC_PTX_OPND_ADDR) ||
        !op_is(in, 1, SC_PTX_OPND_ADDR) || !imm_u32(in, 2))
        return bad_operands(out, in);
    c->dst_op = 0;
    c->src_op = 1;
    c->size_op = 2;
    c->size = imm_u32(in, 2);
    c->src_size_op = in->n_ops == base + 1 ? 3 : -1;
    c->mbar_op = -1;
    c->completion = SC_PTX_COMPLETE_GROUP;
    out->family = SC_PTX_FAM_COPY;
}

static void dec_group(const ScPtxInstr *in, ScPtxSema *out, ScPtxGroupOp op, uint32_t first)
{
    ScPtxGroup *g = &out->u.group;
    g->op = op;
    g->read_only = false;
    for (uint32_t i = first; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (op == SC_PTX_GROUP_BULK_WAIT && eq(m, "read"))
            g->read_only = true;
        else if ((op == SC_PTX_GROUP_WGMMA_FENCE || op == SC_PTX_GROUP_WGMMA_COMMIT ||
                  op == SC_PTX_GROUP_WGMMA_WAIT) && (eq(m, "sync") || eq(m, "aligned")))
            continue;
        else
            return bad_mod(out, in, m);
    }
    bool waits = op == SC_PTX_GROUP_CP_ASYNC_WAIT || op == SC_PTX_GROUP_BULK_WAIT ||
                 op == SC_PTX_GROUP_WGMMA_WAIT;
    if (in->n_ops != (waits ? 1u : 0u) || (waits && !op_is(in, 0, SC_PTX_OPND_INT)))
        return bad_operands(out, in);
    g->n_op = waits ? 0 : -1;
    out->family = SC_PTX_FAM_ASYNC_GROUP;
}

/* The modifiers after `cp.async.bulk` / `cp.reduce.async.bulk`: spaces (the
 * destination first), completion mechanism, tensor dimensionality and mode,
 * multicast, hint, and for reductions the operation and type. */
static void dec_bulk(const ScPtxInstr *in, ScPtxSema *out, uint32_t first, bool reduce)
{
    ScPtxCopy *c = &out->u.copy;
    Mods k = {0};
    uint32_t n_spaces = 0;
    bool tensor = false, hint = false, other_mode = false;
    c->completion = SC_PTX_COMPLETE_NONE;
    for (uint32_t i = first; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        ScPtxSpace s;
        if (eq(m, "tensor")) {
            tensor = true;
            continue;
        }
        if (tensor && strlen(m) == 2 && m[1] == 'd' && m[0] >= '1' && m[0] <= '5') {
            c->tensor_dims = (uint32_t)(m[0] - '0');
            continue;
        }
        if (tensor && (eq(m, "tile") || eq(m, "im2col") || eq(m, "im2col_no_offs") ||
                       eq(m, "tile::gather4") || eq(m, "tile::scatter4"))) {
            other_mode |= !eq(m, "tile");
            continue;
        }
        if (space_of(m, &s)) {
            if (n_spaces == 0)
                c->dst_space = s;
            else
                c->src_space = s;
            n_spaces++;
            continue;
        }
        if (eq(m, "mbarrier::complete_tx::bytes")) {
            c->completion = SC_PTX_COMPLETE_MBARRIER;
            continue;
        }
        if (eq(m, "bulk_group")) {
            c->completion = SC_PTX_COMPLETE_BULK_GROUP;
            continue;
        }
        if (eq(m, "multicast::cluster")) {
            c->multicast = true;
            continue;
        }
        if (eq(m, "L2::cache_hint")) {
            hint = true;
            continue;
        }
        if (reduce && (take_op(&k, m) || take_type(&k, m) || eq(m, "noftz")))
            continue;
        return bad_mod(out, in, m);
    }
    if (n_spaces != 2 || c->completion == SC_PTX_COMPLETE_NONE || k.conflict ||
        (tensor && !c->tensor_dims) || (reduce && !k.op) || (reduce && !tensor && !k.type_size))
        return set_unknown(out, "%s.async.bulk form is not known", in->opcode);
    c->red_op = k.op;
    c->mbar_op = -1;
    c->src_size_op = -1;
    bool to_global = c->dst_space == SC_PTX_SPACE_GLOBAL;
    uint32_t n = in->n_ops;
    if (tensor) {
        c->kind = reduce ? SC_PTX_COPY_REDUCE_BULK_TENSOR : SC_PTX_COPY_BULK_TENSOR;
        c->tensor_tile = !other_mode;
        c->size_op = -1;
        c->dst_op = 0;
        c->src_op = 1;
        if (c->completion == SC_PTX_COMPLETE_MBARRIER) {
            /* [dst], [tensorMap, coords], [mbar] {, im2col offsets}{, ctaMask}{, policy} */
            if (n < 3 || !op_is(in, 2, SC_PTX_OPND_ADDR))
                return bad_operands(out, in);
            c->mbar_op = 2;
        } else if (n < 2 || n > 2u + hint) {
            return bad_operands(out, in);
        }
        if (!op_is(in, 0, SC_PTX_OPND_ADDR) || !op_is(in, 1, SC_PTX_OPND_ADDR))
            return bad_operands(out, in);
    } else {
        c->kind = reduce ? SC_PTX_COPY_REDUCE_BULK : SC_PTX_COPY_BULK;
        c->dst_op = 0;
        c->src_op = 1;
        c->size_op = 2;
        c->size = imm_u32(in, 2);
        if (c->completion == SC_PTX_COMPLETE_MBARRIER) {
            /* [dst], [src], size, [mbar] {, ctaMask}{, policy} */
            if (n < 4 || n > 4u + c->multicast + hint || !op_is(in, 3, SC_PTX_OPND_ADDR))
                return bad_operands(out, in);
            c->mbar_op = 3;
        } else if (n != 3u + hint) {
            return bad_operands(out, in);
        }
        if (!op_is(in, 0, SC_PTX_OPND_ADDR) || !op_is(in, 1, SC_PTX_OPND_ADDR))
            return bad_operands(out, in);
    }
    if ((c->completion == SC_PTX_COMPLETE_BULK_GROUP) != to_global)
        return set_unknown(out, "%s.async.bulk: bulk_group is for copies to .global", in->opcode);
    out->family = SC_PTX_FAM_COPY;
}

static void dec_cp(const ScPtxInstr *in, ScPtxSema *out)
{
    const char *const *m = (const char *const *)in->mods;
    uint32_t n = in->n_mods;
    if (n >= 3 && eq(m[0], "reduce") && eq(m[1], "async") && eq(m[2], "bulk"))
        return dec_bulk(in, out, 3, true);
    if (n < 2 || !eq(m[0], "async"))
        return set_unknown(out, "cp form is not known");
    if (eq(m[1], "ca") || eq(m[1], "cg"))
        return dec_cp_async(in, out);
    if (n == 2 && eq(m[1], "commit_group"))
        return dec_group(in, out, SC_PTX_GROUP_CP_ASYNC_COMMIT, 2);
    if (n == 2 && eq(m[1], "wait_group"))
        return dec_group(in, out, SC_PTX_GROUP_CP_ASYNC_WAIT, 2);
    if (n == 2 && eq(m[1], "wait_all"))
        return dec_group(in, out, SC_PTX_GROUP_CP_ASYNC_WAIT_ALL, 2);
    if (eq(m[1], "mbarrier"))
        return dec_cp_async_mbarrier(in, out);
    if (!eq(m[1], "bulk"))
        return bad_mod(out, in, m[1]);
    if (n >= 3 && eq(m[2], "commit_group"))
        return dec_group(in, out, SC_PTX_GROUP_BULK_COMMIT, 3);
    if (n >= 3 && eq(m[2], "wait_group"))
        return dec_group(in, out, SC_PTX_GROUP_BULK_WAIT, 3);
    if (n >= 3 && eq(m[2], "prefetch")) {
        /* cp.async.bulk.prefetch{.tensor.Nd}.L2.global{.mode}{.L2::cache_hint}: an L2 hint. */
        for (uint32_t i = 3; i < n; i++) {
            bool dims = strlen(m[i]) == 2 && m[i][1] == 'd' && m[i][0] >= '1' && m[i][0] <= '5';
            if (!dims && !eq(m[i], "tensor") && !eq(m[i], "L2") && !eq(m[i], "global") &&
                !eq(m[i], "tile") && !eq(m[i], "im2col") && !eq(m[i], "L2::cache_hint") &&
                !eq(m[i], "tile::gather4"))
                return bad_mod(out, in, m[i]);
        }
        if (in->n_ops < 1 || !op_is(in, 0, SC_PTX_OPND_ADDR))
            return bad_operands(out, in);
        out->family = SC_PTX_FAM_CACHE;
        return;
    }
    dec_bulk(in, out, 2, false);
}

/* tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned [dst], [src], size
 * tensormap.replace.mode.field{.ss}.b1024.type [addr], value */
static void dec_tensormap(const ScPtxInstr *in, ScPtxSema *out)
{
    Mods k = {0};
    if (in->n_mods >= 1 && eq(in->mods[0], "cp_fenceproxy")) {
        ScPtxCopy *c = &out->u.copy;
        uint32_t n_spaces = 0;
        bool proxy = false;
        for (uint32_t i = 1; i < in->n_mods; i++) {
            const char *m = in->mods[i];
            ScPtxSpace s;
            if (space_of(m, &s)) {
                if (n_spaces++ == 0)
                    c->dst_space = s;
                else
                    c->src_space = s;
            } else if (eq(m, "tensormap::generic")) {
                proxy = true;
            } else if (eq(m, "sync") || eq(m, "aligned")) {
                continue;
            } else if (!take_sem(&k, m) && !take_scope(&k, m)) {
                return bad_mod(out, in, m);
            }
        }
        if (n_spaces != 2 || !proxy || k.sem != SC_SEM_RELEASE || !k.scope || k.conflict)
            return set_unknown(out, "tensormap.cp_fenceproxy form is not known");
        if (in->n_ops != 3 || !op_is(in, 0, SC_PTX_OPND_ADDR) || !op_is(in, 1, SC_PTX_OPND_ADDR))
            return bad_operands(out, in);
        c->kind = SC_PTX_COPY_TENSORMAP;
        c->dst_op = 0;
        c->src_op = 1;
        c->size_op = 2;
        c->size = imm_u32(in, 2);
        c->src_size_op = c->mbar_op = -1;
        c->completion = SC_PTX_COMPLETE_NONE;
        c->sem = SC_SEM_RELEASE;
        c->scope = k.scope;
        out->family = SC_PTX_FAM_COPY;
        return;
    }
    if (in->n_mods >= 1 && eq(in->mods[0], "replace")) {
        ScPtxMem *mem = &out->u.mem;
        /* The other modifiers name the mode, the field rewritten and its
         * type: they decide which bytes of the map change, not which map. */
        for (uint32_t i = 1; i < in->n_mods; i++)
            take_space(&k, in->mods[i]);
        if (k.conflict || (k.space && k.space != SC_PTX_SPACE_GLOBAL && k.space != SC_PTX_SPACE_SHARED_CTA))
            return set_unknown(out, "tensormap.replace form is not known");
        if (in->n_ops != 2 || !op_is(in, 0, SC_PTX_OPND_ADDR))
            return bad_operands(out, in);
        /* A 1024-bit tensor map is rewritten in place: counted as a write of all of it. */
        out->family = SC_PTX_FAM_MEM;
        mem->kind = SC_PTX_ACCESS_WRITE;
        mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
        mem->sem = SC_SEM_WEAK;
        mem->addr_op = 0;
        mem->size = mem->elem_size = 128;
        mem->n_elems = 1;
        return;
    }
    set_unknown(out, "tensormap form is not known");
}

static void dec_griddep(const ScPtxInstr *in, ScPtxSema *out)
{
    if (in->n_mods != 1 || in->n_ops)
        return set_unknown(out, "griddepcontrol form is not known");
    if (eq(in->mods[0], "wait"))
        out->u.griddep_wait = true;
    else if (eq(in->mods[0], "launch_dependents"))
        out->u.griddep_wait = false;
    else
        return bad_mod(out, in, in->mods[0]);
    out->family = SC_PTX_FAM_GRIDDEP;
}

/* ---- matrix instructions ----------------------------------------------- */

/* ldmatrix/stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16:
 * each participating lane names one 16-byte row. */
static void dec_xmatrix(const ScPtxInstr *in, ScPtxSema *out, bool store)
{
    Mods k = {0};
    ScPtxMem *mem = &out->u.mem;
    bool shape = false, num = false, b16 = false;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (eq(m, "sync") || eq(m, "aligned") || eq(m, "trans"))
            continue;
        if (eq(m, "m8n8"))
            shape = true;
        else if (eq(m, "x1") || eq(m, "x2") || eq(m, "x4"))
            num = true;
        else if (eq(m, "b16"))
            b16 = true;
        else if (!take_space(&k, m))
            return bad_mod(out, in, m);
    }
    if (!shape || !num || !b16 || k.conflict || (k.space && k.space != SC_PTX_SPACE_SHARED_CTA))
        return set_unknown(out, "%s form is not known", in->opcode);
    int addr = store ? 0 : 1;
    if (in->n_ops != 2 || !op_is(in, addr, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_MATRIX;
    mem->kind = store ? SC_PTX_ACCESS_WRITE : SC_PTX_ACCESS_READ;
    mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    mem->sem = SC_SEM_WEAK;
    mem->addr_op = addr;
    mem->elem_size = 2;
    mem->n_elems = 8;
    mem->size = 16;
    mem->collective = true;
}

static void dec_ldmatrix(const ScPtxInstr *in, ScPtxSema *out) { dec_xmatrix(in, out, false); }
static void dec_stmatrix(const ScPtxInstr *in, ScPtxSema *out) { dec_xmatrix(in, out, true); }

/* wmma.load.{a,b,c} / wmma.store.d: a warp reads or writes a whole tile
 * starting at the address with the row stride of the last operand. Layout,
 * shape and type modifiers only change which elements land in which lane. */
static void dec_wmma(const ScPtxInstr *in, ScPtxSema *out)
{
    Mods k = {0};
    ScPtxMem *mem = &out->u.mem;
    if (in->n_mods < 1)
        return set_unknown(out, "wmma without an operation");
    if (eq(in->mods[0], "mma")) {
        out->family = SC_PTX_FAM_HARMLESS;
        return;
    }
    bool load = eq(in->mods[0], "load"), store = eq(in->mods[0], "store");
    if (!load && !store)
        return bad_mod(out, in, in->mods[0]);
    for (uint32_t i = 1; i < in->n_mods; i++)
        take_space(&k, in->mods[i]);
    if (k.conflict || (k.space && k.space != SC_PTX_SPACE_GLOBAL && k.space != SC_PTX_SPACE_SHARED_CTA))
        return set_unknown(out, "wmma.%s state space is not known", in->mods[0]);
    int addr = load ? 1 : 0;
    if (in->n_ops < 2 || in->n_ops > 3 || !op_is(in, addr, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_MATRIX;
    mem->kind = load ? SC_PTX_ACCESS_READ : SC_PTX_ACCESS_WRITE;
    mem->space = k.space ? k.space : SC_PTX_SPACE_GENERIC;
    mem->sem = SC_SEM_WEAK;
    mem->addr_op = addr;
    mem->collective = true;
}

/* wgmma.mma_async reads its shared-memory operands through matrix
 * descriptors in registers, in the async proxy; the rest are group ops. */
static void dec_wgmma(const ScPtxInstr *in, ScPtxSema *out)
{
    ScPtxMem *mem = &out->u.mem;
    if (in->n_mods < 1)
        return set_unknown(out, "wgmma without an operation");
    const char *m = in->mods[0];
    if (eq(m, "fence"))
        return dec_group(in, out, SC_PTX_GROUP_WGMMA_FENCE, 1);
    if (eq(m, "commit_group"))
        return dec_group(in, out, SC_PTX_GROUP_WGMMA_COMMIT, 1);
    if (eq(m, "wait_group"))
        return dec_group(in, out, SC_PTX_GROUP_WGMMA_WAIT, 1);
    if (!eq(m, "mma_async"))
        return bad_mod(out, in, m);
    if (has_addr_operand(in))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_MATRIX;
    mem->kind = SC_PTX_ACCESS_READ;
    mem->space = SC_PTX_SPACE_SHARED_CTA;
    mem->sem = SC_SEM_WEAK;
    mem->addr_op = -1;
    mem->async = true;
    mem->collective = true;
}

/* ---- texture and surface -------------------------------------------------- */

static void dec_texsurf(const ScPtxInstr *in, ScPtxSema *out)
{
    ScPtxMem *mem = &out->u.mem;
    const char *op = in->opcode;
    bool write = eq(op, "sust"), red = eq(op, "sured");
    int addr = (write || red) ? 0 : 1;
    if (in->n_ops < 2 || !op_is(in, addr, SC_PTX_OPND_ADDR))
        return bad_operands(out, in);
    out->family = SC_PTX_FAM_TEXSURF;
    mem->kind = write ? SC_PTX_ACCESS_WRITE : red ? SC_PTX_ACCESS_RED : SC_PTX_ACCESS_READ;
    mem->space = SC_PTX_SPACE_TEXSURF;
    mem->sem = SC_SEM_WEAK;
    mem->addr_op = addr;
    mem->outside_model = true;
}

/* ---- warp collectives ---------------------------------------------------- */

static void dec_warp(const ScPtxInstr *in, ScPtxSema *out)
{
    static const struct {
        const char *name;
        ScPtxWarpOp op;
    } tab[] = {
        {"shfl", SC_PTX_WARP_SHFL},   {"vote", SC_PTX_WARP_VOTE},
        {"match", SC_PTX_WARP_MATCH}, {"redux", SC_PTX_WARP_REDUX},
        {"elect", SC_PTX_WARP_ELECT}, {"activemask", SC_PTX_WARP_ACTIVEMASK},
    };
    ScPtxWarp *w = &out->u.warp;
    for (size_t i = 0; i < SC_ARRAY_LEN(tab); i++)
        if (eq(in->opcode, tab[i].name))
            w->op = tab[i].op;
    if (has_addr_operand(in))
        return bad_operands(out, in);
    bool sync = false;
    for (uint32_t i = 0; i < in->n_mods; i++)
        sync = sync || eq(in->mods[i], "sync");
    /* The member mask is the last operand of every .sync form but elect,
     * whose operands are d|p, membermask. */
    w->mask_op = -1;
    if (sync && in->n_ops >= 1)
        w->mask_op = w->op == SC_PTX_WARP_ELECT ? 1 : (int)in->n_ops - 1;
    if ((w->op == SC_PTX_WARP_REDUX || w->op == SC_PTX_WARP_ELECT || w->op == SC_PTX_WARP_MATCH) && !sync)
        return set_unknown(out, "%s without .sync is not valid", in->opcode);
    out->family = SC_PTX_FAM_WARP;
}

/* ---- control flow --------------------------------------------------------- */

static void dec_ctl(const ScPtxInstr *in, ScPtxSema *out)
{
    static const struct {
        const char *name;
        ScPtxCtlOp op;
    } tab[] = {
        {"bra", SC_PTX_CTL_BRA},     {"brx", SC_PTX_CTL_BRX},   {"call", SC_PTX_CTL_CALL},
        {"ret", SC_PTX_CTL_RET},     {"exit", SC_PTX_CTL_EXIT}, {"trap", SC_PTX_CTL_TRAP},
        {"brkpt", SC_PTX_CTL_BRKPT},
    };
    ScPtxCtl *c = &out->u.ctl;
    for (size_t i = 0; i < SC_ARRAY_LEN(tab); i++)
        if (eq(in->opcode, tab[i].name))
            c->op = tab[i].op;
    bool idx = false;
    for (uint32_t i = 0; i < in->n_mods; i++) {
        const char *m = in->mods[i];
        if (eq(m, "uni") && c->op != SC_PTX_CTL_TRAP && c->op != SC_PTX_CTL_BRKPT && c->op != SC_PTX_CTL_EXIT)
            c->uni = true;
        else if (eq(m, "idx") && c->op == SC_PTX_CTL_BRX)
            idx = true;
        else
            return bad_mod(out, in, m);
    }
    if (has_addr_operand(in))
        return bad_operands(out, in);
    c->target_op = -1;
    switch (c->op) {
    case SC_PTX_CTL_BRA:
        if (in->n_ops != 1)
            return bad_operands(out, in);
        c->target_op = 0;
        c->indirect = !op_is(in, 0, SC_PTX_OPND_LABEL) && !op_is(in, 0, SC_PTX_OPND_SYMBOL);
        if (c->indirect)
            return bad_operands(out, in);
        break;
    case SC_PTX_CTL_BRX:
        if (!idx || in->n_ops != 2)
            return set_unknown(out, "brx form is not known");
        c->target_op = 1;
        c->indirect = true;
        break;
    case SC_PTX_CTL_CALL:
        /* call{.uni} (rets), target, (args){, proto|table}: the target is the
         * first operand that is not a parenthesised list. */
        for (uint32_t i = 0; i < in->n_ops && c->target_op < 0; i++)
            if (in->ops[i].kind != SC_PTX_OPND_LIST)
                c->target_op = (int)i;
        if (c->target_op < 0)
            return bad_operands(out, in);
        c->indirect = in->ops[c->target_op].kind == SC_PTX_OPND_REG;
        if (!c->indirect && in->ops[c->target_op].kind != SC_PTX_OPND_SYMBOL)
            return bad_operands(out, in);
        break;
    case SC_PTX_CTL_RET:
    case SC_PTX_CTL_EXIT:
    case SC_PTX_CTL_TRAP:
    case SC_PTX_CTL_BRKPT:
        if (in->n_ops)
            return bad_operands(out, in);
        break;
    }
    out->family = SC_PTX_FAM_CONTROL;
}

static void dec_family(const ScPtxInstr *in, ScPtxSema *out, ScPtxFamily fam)
{
    /* Address arithmetic and resource instructions take registers and
     * symbols, never a bracketed memory operand. */
    if (has_addr_operand(in))
        return bad_operands(out, in);
    out->family = fam;
}

static void dec_addr(const ScPtxInstr *in, ScPtxSema *out) { dec_family(in, out, SC_PTX_FAM_ADDR); }
static void dec_resource(const ScPtxInstr *in, ScPtxSema *out) { dec_family(in, out, SC_PTX_FAM_RESOURCE); }
static void dec_harmless(const ScPtxInstr *in, ScPtxSema *out) { dec_family(in, out, SC_PTX_FAM_HARMLESS); }

/* ---- the opcode table ----------------------------------------------------- */

typedef void (*Decoder)(const ScPtxInstr *, ScPtxSema *);

typedef struct OpcodeEntry {
    const char *opcode;
    Decoder dec;
} OpcodeEntry;

/* Every opcode scord knows, sorted by strcmp for bsearch (an entry out of
 * order is not found, and the corpus test then fails on UNKNOWN). The
 * dec_harmless ones compute on registers only: integer, floating-point,
 * comparison, logic, conversion, move, video, register-only matrix math,
 * queries of texture/surface headers. An opcode missing here is UNKNOWN,
 * never assumed harmless; docs/ptx-semantics.md lists the families. */
static const OpcodeEntry opcodes[] = {
    {"abs", dec_harmless},
    {"activemask", dec_warp},
    {"add", dec_harmless},
    {"addc", dec_harmless},
    {"alloca", dec_resource},
    {"and", dec_harmless},
    {"applypriority", dec_cache},
    {"atom", dec_atom},
    {"bar", dec_bar},
    {"barrier", dec_barrier},
    {"bfe", dec_harmless},
    {"bfi", dec_harmless},
    {"bfind", dec_harmless},
    {"bmsk", dec_harmless},
    {"bra", dec_ctl},
    {"brev", dec_harmless},
    {"brkpt", dec_ctl},
    {"brx", dec_ctl},
    {"call", dec_ctl},
    {"clz", dec_harmless},
    {"cnot", dec_harmless},
    {"copysign", dec_harmless},
    {"cos", dec_harmless},
    {"cp", dec_cp},
    {"createpolicy", dec_harmless},
    {"cvt", dec_harmless},
    {"cvta", dec_addr},
    {"discard", dec_discard},
    {"div", dec_harmless},
    {"dp2a", dec_harmless},
    {"dp4a", dec_harmless},
    {"elect", dec_warp},
    {"ex2", dec_harmless},
    {"exit", dec_ctl},
    {"fence", dec_fence},
    {"fma", dec_harmless},
    {"fns", dec_harmless},
    {"getctarank", dec_addr},
    {"griddepcontrol", dec_griddep},
    {"isspacep", dec_addr},
    {"istypep", dec_harmless},
    {"ld", dec_ld},
    {"ldmatrix", dec_ldmatrix},
    {"ldu", dec_ldu},
    {"lg2", dec_harmless},
    {"lop3", dec_harmless},
    {"mad", dec_harmless},
    {"mad24", dec_harmless},
    {"madc", dec_harmless},
    {"mapa", dec_addr},
    {"match", dec_warp},
    {"max", dec_harmless},
    {"mbarrier", dec_mbarrier},
    {"membar", dec_membar},
    {"min", dec_harmless},
    {"mma", dec_harmless},
    {"mov", dec_harmless},
    {"movmatrix", dec_harmless},
    {"mul", dec_harmless},
    {"mul24", dec_harmless},
    {"multimem", dec_multimem},
    {"nanosleep", dec_harmless},
    {"neg", dec_harmless},
    {"not", dec_harmless},
    {"or", dec_harmless},
    {"pmevent", dec_harmless},
    {"popc", dec_harmless},
    {"prefetch", dec_cache},
    {"prefetchu", dec_cache},
    {"prmt", dec_harmless},
    {"rcp", dec_harmless},
    {"red", dec_red},
    {"redux", dec_warp},
    {"rem", dec_harmless},
    {"ret", dec_ctl},
    {"rsqrt", dec_harmless},
    {"sad", dec_harmless},
    {"selp", dec_harmless},
    {"set", dec_harmless},
    {"setmaxnreg", dec_resource},
    {"setp", dec_harmless},
    {"shf", dec_harmless},
    {"shfl", dec_warp},
    {"shl", dec_harmless},
    {"shr", dec_harmless},
    {"sin", dec_harmless},
    {"slct", dec_harmless},
    {"sqrt", dec_harmless},
    {"st", dec_st},
    {"stackrestore", dec_resource},
    {"stacksave", dec_resource},
    {"stmatrix", dec_stmatrix},
    {"sub", dec_harmless},
    {"subc", dec_harmless},
    {"suld", dec_texsurf},
    {"suq", dec_harmless},
    {"sured", dec_texsurf},
    {"sust", dec_texsurf},
    {"szext", dec_harmless},
    {"tanh", dec_harmless},
    {"tensormap", dec_tensormap},
    {"testp", dec_harmless},
    {"tex", dec_texsurf},
    {"tld4", dec_texsurf},
    {"trap", dec_ctl},
    {"txq", dec_harmless},
    {"vabsdiff", dec_harmless},
    {"vabsdiff2", dec_harmless},
    {"vabsdiff4", dec_harmless},
    {"vadd", dec_harmless},
    {"vadd2", dec_harmless},
    {"vadd4", dec_harmless},
    {"vavrg2", dec_harmless},
    {"vavrg4", dec_harmless},
    {"vmad", dec_harmless},
    {"vmax", dec_harmless},
    {"vmax2", dec_harmless},
    {"vmax4", dec_harmless},
    {"vmin", dec_harmless},
    {"vmin2", dec_harmless},
    {"vmin4", dec_harmless},
    {"vote", dec_warp},
    {"vset", dec_harmless},
    {"vset2", dec_harmless},
    {"vset4", dec_harmless},
    {"vshl", dec_harmless},
    {"vshr", dec_harmless},
    {"vsub", dec_harmless},
    {"vsub2", dec_harmless},
    {"vsub4", dec_harmless},
    {"wgmma", dec_wgmma},
    {"wmma", dec_wmma},
    {"xor", dec_harmless},
};

static int cmp_opcode(const void *key, const void *entry)
{
    return strcmp((const char *)key, ((const OpcodeEntry *)entry)->opcode);
}

/* ---- special registers ---------------------------------------------------- */

typedef struct SregEntry {
    const char *name;
    ScPtxSreg sreg;
} SregEntry;

/* Sorted by strcmp for bsearch: every register operand is looked up. */
static const SregEntry sregs[] = {
    {"%aggr_smem_size", SC_PTX_SREG_SMEM_SIZE},
    {"%clock", SC_PTX_SREG_CLOCK},
    {"%clock64", SC_PTX_SREG_CLOCK},
    {"%clock_hi", SC_PTX_SREG_CLOCK},
    {"%cluster_ctaid", SC_PTX_SREG_CLUSTER_CTAID},
    {"%cluster_ctarank", SC_PTX_SREG_CLUSTER_CTARANK},
    {"%cluster_nctaid", SC_PTX_SREG_CLUSTER_NCTAID},
    {"%cluster_nctarank", SC_PTX_SREG_CLUSTER_NCTARANK},
    {"%clusterid", SC_PTX_SREG_CLUSTERID},
    {"%ctaid", SC_PTX_SREG_CTAID},
    {"%current_graph_exec", SC_PTX_SREG_CURRENT_GRAPH_EXEC},
    {"%dynamic_smem_size", SC_PTX_SREG_SMEM_SIZE},
    {"%globaltimer", SC_PTX_SREG_GLOBALTIMER},
    {"%globaltimer_hi", SC_PTX_SREG_GLOBALTIMER},
    {"%globaltimer_lo", SC_PTX_SREG_GLOBALTIMER},
    {"%gridid", SC_PTX_SREG_GRIDID},
    {"%is_explicit_cluster", SC_PTX_SREG_IS_EXPLICIT_CLUSTER},
    {"%laneid", SC_PTX_SREG_LANEID},
    {"%lanemask_eq", SC_PTX_SREG_LANEMASK},
    {"%lanemask_ge", SC_PTX_SREG_LANEMASK},
    {"%lanemask_gt", SC_PTX_SREG_LANEMASK},
    {"%lanemask_le", SC_PTX_SREG_LANEMASK},
    {"%lanemask_lt", SC_PTX_SREG_LANEMASK},
    {"%nclusterid", SC_PTX_SREG_NCLUSTERID},
    {"%nctaid", SC_PTX_SREG_NCTAID},
    {"%nsmid", SC_PTX_SREG_NSMID},
    {"%ntid", SC_PTX_SREG_NTID},
    {"%nwarpid", SC_PTX_SREG_NWARPID},
    {"%smid", SC_PTX_SREG_SMID},
    {"%tid", SC_PTX_SREG_TID},
    {"%total_smem_size", SC_PTX_SREG_SMEM_SIZE},
    {"%warpid", SC_PTX_SREG_WARPID},
};

static int cmp_sreg(const void *key, const void *entry)
{
    return strcmp((const char *)key, ((const SregEntry *)entry)->name);
}

/* %pmN / %pmN_64, %envregN, %reserved_smem_*: families matched by prefix. */
static bool digits_then(const char *s, const char *rest)
{
    if (*s < '0' || *s > '9')
        return false;
    while (*s >= '0' && *s <= '9')
        s++;
    return strcmp(s, rest) == 0;
}

int sc_ptx_sreg_lookup(const char *name)
{
    /* Virtual registers (%r12, %rd3, %p1 ...) are most operands: a name with
     * a digit is special only in the three digit-bearing families below and
     * %clock64, which saves the search for them. */
    if (strpbrk(name, "0123456789") && strncmp(name, "%pm", 3) != 0 && strncmp(name, "%envreg", 7) != 0 &&
        strcmp(name, "%clock64") != 0)
        return -1;
    const SregEntry *e = bsearch(name, sregs, SC_ARRAY_LEN(sregs), sizeof sregs[0], cmp_sreg);
    if (e)
        return (int)e->sreg;
    if (strncmp(name, "%pm", 3) == 0 && (digits_then(name + 3, "") || digits_then(name + 3, "_64")))
        return SC_PTX_SREG_PM;
    if (strncmp(name, "%envreg", 7) == 0 && digits_then(name + 7, ""))
        return SC_PTX_SREG_ENVREG;
    if (strncmp(name, "%reserved_smem_", 15) == 0 && name[15])
        return SC_PTX_SREG_SMEM_SIZE;
    return -1;
}

static uint64_t operand_sregs(const ScPtxOperand *o, unsigned depth)
{
    uint64_t bits = 0;
    if (depth > SC_PTX_MAX_OPND_DEPTH + 1)
        return 0;
    switch (o->kind) {
    case SC_PTX_OPND_REG: {
        int s = o->text ? sc_ptx_sreg_lookup(o->text) : -1;
        return s >= 0 ? SC_PTX_SREG_BIT(s) : 0;
    }
    case SC_PTX_OPND_ADDR:
        if (o->u.addr.base)
            bits |= operand_sregs(o->u.addr.base, depth + 1);
        for (uint32_t i = 0; i < o->u.addr.n_rest; i++)
            bits |= operand_sregs(&o->u.addr.rest[i], depth + 1);
        return bits;
    case SC_PTX_OPND_VEC:
    case SC_PTX_OPND_LIST:
    case SC_PTX_OPND_PAIR:
        for (uint32_t i = 0; i < o->u.list.n; i++)
            bits |= operand_sregs(&o->u.list.items[i], depth + 1);
        return bits;
    case SC_PTX_OPND_INT:
    case SC_PTX_OPND_FLOAT:
    case SC_PTX_OPND_SYMBOL:
    case SC_PTX_OPND_LABEL:
    case SC_PTX_OPND_SINK:
    case SC_PTX_OPND_EXPR:
        return 0;
    }
    return 0;
}

/* ---- entry points ---------------------------------------------------------- */

void sc_ptx_classify(const ScPtxInstr *in, ScPtxSema *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < in->n_ops; i++)
        out->sregs |= operand_sregs(&in->ops[i], 0);
    if (!in->opcode)
        return set_unknown(out, "no opcode");
    const OpcodeEntry *e = bsearch(in->opcode, opcodes, SC_ARRAY_LEN(opcodes), sizeof opcodes[0], cmp_opcode);
    if (e)
        return e->dec(in, out);
    set_unknown(out, "opcode '%s' is not known", in->opcode);
}

bool sc_ptx_check_known(const ScPtxModule *m, ScErr *err)
{
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind != SC_PTX_ITEM_FUNC || !it->u.func->has_body)
            continue;
        for (const ScPtxStmt *s = it->u.func->first; s; s = s->next) {
            ScPtxSema sema;
            if (s->kind != SC_PTX_STMT_INSTR)
                continue;
            sc_ptx_classify(&s->u.instr, &sema);
            if (sema.family != SC_PTX_FAM_UNKNOWN)
                continue;
            char mnemonic[160];
            size_t len = (size_t)snprintf(mnemonic, sizeof mnemonic, "%s", s->u.instr.opcode);
            for (uint32_t i = 0; i < s->u.instr.n_mods && len < sizeof mnemonic; i++)
                len += (size_t)snprintf(mnemonic + len, sizeof mnemonic - len, ".%s", s->u.instr.mods[i]);
            return sc_err_set(err,
                              "%s:%u:%u: error: instruction '%s' in %s is not known to scord (%s); "
                              "the module cannot be instrumented safely and runs unchecked",
                              m->filename ? m->filename : "<ptx>", s->pos.line, s->pos.col, mnemonic,
                              it->u.func->name, sema.why);
        }
    }
    return true;
}

bool sc_ptx_sem_is_strong(ScSem sem)
{
    switch (sem) {
    case SC_SEM_RELAXED:
    case SC_SEM_ACQUIRE:
    case SC_SEM_RELEASE:
    case SC_SEM_ACQ_REL:
    case SC_SEM_SC:
    case SC_SEM_VOLATILE:
    case SC_SEM_MMIO:
        return true;
    case SC_SEM_NONE:
    case SC_SEM_WEAK:
        return false;
    }
    return false;
}

/* ---- names ------------------------------------------------------------------ */

const char *sc_ptx_family_name(ScPtxFamily f)
{
    switch (f) {
    case SC_PTX_FAM_UNKNOWN: return "unknown";
    case SC_PTX_FAM_HARMLESS: return "harmless";
    case SC_PTX_FAM_MEM: return "mem";
    case SC_PTX_FAM_MATRIX: return "matrix";
    case SC_PTX_FAM_TEXSURF: return "texsurf";
    case SC_PTX_FAM_CACHE: return "cache";
    case SC_PTX_FAM_BARRIER: return "barrier";
    case SC_PTX_FAM_WARP_SYNC: return "warp_sync";
    case SC_PTX_FAM_CLUSTER_BARRIER: return "cluster_barrier";
    case SC_PTX_FAM_FENCE: return "fence";
    case SC_PTX_FAM_MBARRIER: return "mbarrier";
    case SC_PTX_FAM_COPY: return "copy";
    case SC_PTX_FAM_ASYNC_GROUP: return "async_group";
    case SC_PTX_FAM_GRIDDEP: return "griddep";
    case SC_PTX_FAM_WARP: return "warp";
    case SC_PTX_FAM_CONTROL: return "control";
    case SC_PTX_FAM_ADDR: return "addr";
    case SC_PTX_FAM_RESOURCE: return "resource";
    }
    return "?";
}

const char *sc_ptx_space_name(ScPtxSpace s)
{
    switch (s) {
    case SC_PTX_SPACE_NONE: return "-";
    case SC_PTX_SPACE_GENERIC: return "generic";
    case SC_PTX_SPACE_GLOBAL: return "global";
    case SC_PTX_SPACE_SHARED_CTA: return "shared::cta";
    case SC_PTX_SPACE_SHARED_CLUSTER: return "shared::cluster";
    case SC_PTX_SPACE_LOCAL: return "local";
    case SC_PTX_SPACE_PARAM: return "param";
    case SC_PTX_SPACE_CONST: return "const";
    case SC_PTX_SPACE_TEXSURF: return "texsurf";
    }
    return "?";
}

const char *sc_ptx_access_name(ScPtxAccess a)
{
    switch (a) {
    case SC_PTX_ACCESS_NONE: return "-";
    case SC_PTX_ACCESS_READ: return "read";
    case SC_PTX_ACCESS_WRITE: return "write";
    case SC_PTX_ACCESS_RMW: return "rmw";
    case SC_PTX_ACCESS_RED: return "red";
    }
    return "?";
}

const char *sc_ptx_sem_name(ScSem s)
{
    return s == SC_SEM_NONE ? "-" : sc_sem_name(s);
}

const char *sc_ptx_scope_name(ScScope s)
{
    return s == SC_SCOPE_NONE ? "-" : sc_scope_name(s);
}

const char *sc_ptx_atom_op_name(ScPtxAtomOp op)
{
    switch (op) {
    case SC_PTX_ATOM_NONE: return "-";
    case SC_PTX_ATOM_ADD: return "add";
    case SC_PTX_ATOM_AND: return "and";
    case SC_PTX_ATOM_OR: return "or";
    case SC_PTX_ATOM_XOR: return "xor";
    case SC_PTX_ATOM_CAS: return "cas";
    case SC_PTX_ATOM_EXCH: return "exch";
    case SC_PTX_ATOM_INC: return "inc";
    case SC_PTX_ATOM_DEC: return "dec";
    case SC_PTX_ATOM_MIN: return "min";
    case SC_PTX_ATOM_MAX: return "max";
    }
    return "?";
}

const char *sc_ptx_sreg_name(ScPtxSreg s)
{
    switch (s) {
    case SC_PTX_SREG_TID: return "%tid";
    case SC_PTX_SREG_NTID: return "%ntid";
    case SC_PTX_SREG_LANEID: return "%laneid";
    case SC_PTX_SREG_WARPID: return "%warpid";
    case SC_PTX_SREG_NWARPID: return "%nwarpid";
    case SC_PTX_SREG_CTAID: return "%ctaid";
    case SC_PTX_SREG_NCTAID: return "%nctaid";
    case SC_PTX_SREG_SMID: return "%smid";
    case SC_PTX_SREG_NSMID: return "%nsmid";
    case SC_PTX_SREG_GRIDID: return "%gridid";
    case SC_PTX_SREG_CLUSTERID: return "%clusterid";
    case SC_PTX_SREG_NCLUSTERID: return "%nclusterid";
    case SC_PTX_SREG_CLUSTER_CTAID: return "%cluster_ctaid";
    case SC_PTX_SREG_CLUSTER_NCTAID: return "%cluster_nctaid";
    case SC_PTX_SREG_CLUSTER_CTARANK: return "%cluster_ctarank";
    case SC_PTX_SREG_CLUSTER_NCTARANK: return "%cluster_nctarank";
    case SC_PTX_SREG_IS_EXPLICIT_CLUSTER: return "%is_explicit_cluster";
    case SC_PTX_SREG_LANEMASK: return "%lanemask_*";
    case SC_PTX_SREG_CLOCK: return "%clock*";
    case SC_PTX_SREG_GLOBALTIMER: return "%globaltimer*";
    case SC_PTX_SREG_PM: return "%pm*";
    case SC_PTX_SREG_ENVREG: return "%envreg*";
    case SC_PTX_SREG_SMEM_SIZE: return "%*smem_size";
    case SC_PTX_SREG_CURRENT_GRAPH_EXEC: return "%current_graph_exec";
    case SC_PTX_SREG_COUNT: break;
    }
    return "?";
}
