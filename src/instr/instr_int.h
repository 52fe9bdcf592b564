/* instr_int.h: declarations shared by the files of src/instr and nothing else (edit plans, site table, emission). */
#ifndef SC_INSTR_INT_H
#define SC_INSTR_INT_H

#include "common/sc_buf.h"
#include "instr/instr.h"
#include "ptx/ptx_sema.h"

/*
 * The pass runs in two phases so that a refusal leaves the module untouched:
 * instr_plan.c walks every body, decides what each instruction needs and
 * records it as an ScInstrEdit (operands resolved, nothing inserted), and
 * only when the whole module is understood does instr_emit.c turn the edits
 * into PTX text and insert it.
 */

/* A register operand with its declared width. */
typedef struct ScInstrReg {
    const ScPtxOperand *op;
    uint32_t bits;         /* 8, 16, 32, 64 or 128 */
    bool is_float;         /* f16, bf16, f32, f64, f16x2, bf16x2: moved as bits, never converted */
} ScInstrReg;

/* The address of an access, to be turned into a generic address. */
typedef enum ScInstrBase {
    SC_INSTR_BASE_REG,     /* [%r] or [%rd] (+ offset) */
    SC_INSTR_BASE_SYMBOL,  /* [var] (+ offset) */
} ScInstrBase;

typedef struct ScInstrAddr {
    ScInstrBase base;
    ScInstrReg reg;             /* REG */
    const ScPtxOperand *symbol; /* SYMBOL */
    int64_t offset;
    /* The window the address is in: GLOBAL and SHARED_CTA are converted with
     * cvta; GENERIC is already generic. */
    ScPtxSpace window;
} ScInstrAddr;

/* The value a store writes, as the 64-bit argument of __scord_access. */
typedef enum ScInstrValueKind {
    SC_INSTR_VALUE_ZERO,   /* loads, atomics, discard */
    SC_INSTR_VALUE_IMM,
    SC_INSTR_VALUE_REG,
} ScInstrValueKind;

typedef struct ScInstrValue {
    ScInstrValueKind kind;
    uint64_t imm;          /* IMM: the bits stored, zero-extended */
    ScInstrReg reg;        /* REG */
    uint32_t keep_bits;    /* REG: bits of one element; the rest of the register is masked off */
} ScInstrValue;

/* A .b32 argument taken from an instruction operand. */
typedef struct ScInstrArg32 {
    bool is_imm;
    uint32_t imm;
    ScInstrReg reg;
} ScInstrArg32;

typedef enum ScInstrEditKind {
    SC_INSTR_EDIT_ACCESS,
    SC_INSTR_EDIT_BARRIER,
    SC_INSTR_EDIT_SYNCWARP,
    SC_INSTR_EDIT_FENCE,   /* after a fence, or after an access that acquires */
    SC_INSTR_EDIT_SYNC,    /* before an mbarrier arrive or wait: its synchronization, no check */
    SC_INSTR_EDIT_EXIT,
    SC_INSTR_EDIT_ASYNC_COPY,  /* before a cp.async: its destination write, checked again at completion */
    SC_INSTR_EDIT_ASYNC_GROUP, /* after a cp.async commit or wait, before cp.async.mbarrier.arrive */
    SC_INSTR_EDIT_CLUSTER_BARRIER, /* before barrier.cluster.arrive, after barrier.cluster.wait */
    SC_INSTR_EDIT_BULK_COPY,   /* before a cp.async.bulk: its destination and source as of the instruction */
    SC_INSTR_EDIT_TENSOR_COPY, /* before a cp.async.bulk.tensor: its box, as of the instruction */
    SC_INSTR_EDIT_MBAR,        /* an mbarrier op of a module whose mbarriers may be block barriers:
                                  __scord_mbar before init, arrive and inval, after a wait that
                                  returned true */
} ScInstrEditKind;

typedef struct ScInstrEdit {
    ScInstrEditKind kind;
    ScPtxStmt *stmt;
    uint32_t site;         /* the site id passed to the runtime */
    uint32_t info;         /* ACCESS, FENCE, SYNC, ASYNC_COPY, CLUSTER_BARRIER; ASYNC_GROUP: the op
                              (SC_ABI_ASYNC_*, or N) */
    ScInstrAddr addr;      /* ACCESS, SYNC, ASYNC_COPY; BULK_COPY: the destination; TENSOR_COPY:
                              the shared-memory box */
    ScInstrAddr src;       /* BULK_COPY: the source, whose read is site src_site; TENSOR_COPY:
                              the tensor map, its global-memory access site src_site */
    uint32_t src_site;
    ScInstrArg32 coords[5]; /* TENSOR_COPY: the box's coordinates (0 beyond its dimensions) */
    bool to_global;        /* TENSOR_COPY: shared to global */
    ScInstrValue value;    /* ACCESS */
    ScInstrArg32 id, count; /* BARRIER: count is SC_ABI_ALL_THREADS when the instruction has none;
                               BULK_COPY: count is the size in bytes; MBAR: the init or arrive
                               count */
    uint32_t mbar_op;      /* MBAR: SC_ABI_MBAR_* */
    bool arrive_only;      /* BARRIER: bar.arrive, no __scord_bar_pass */
    bool save_guard;       /* BARRIER: bar.red writes its own guard predicate */
    int32_t align_at;      /* BARRIER: where .aligned goes into a barrier without it, -1 if it has
                              it (instr_plan.c, plan_barrier, says why) */
    ScInstrArg32 mask;     /* SYNCWARP */
    const ScPtxOperand *when; /* FENCE, MBAR: call only when this predicate is true (an mbarrier
                                 wait that saw its phase complete); NULL: always */
    /* ACCESS checked at the join of the if that holds it (instr_plan.c, mark_joins):
     * the if's bra and the join's first instruction; NULL: checked before it. */
    ScPtxStmt *join_branch, *join_at;
    /* ACCESS: the kernel roots (instr_roots.c) of a read the launch leaves out when all
     * of them point into allocations the launch does not write; 0: always checked. */
    uint64_t roots;
} ScInstrEdit;

/* One function's plan. */
typedef struct ScInstrFuncPlan {
    ScPtxFunc *func;
    int32_t kernel;        /* index in the kernel table, -1 for a .func */
    ScInstrEdit *edits;
    uint32_t n_edits, cap_edits;
    uint32_t unchecked;    /* SC_INSTR_UNCHECKED_BIT()s of its own instructions */
    bool triggers;         /* holds griddepcontrol.launch_dependents */
    const char **callees;  /* names of the functions it calls directly */
    uint32_t n_callees, cap_callees;
    bool calls_indirect;
} ScInstrFuncPlan;

typedef struct ScInstrPlan {
    ScInstrFuncPlan *funcs;
    uint32_t n_funcs;
} ScInstrPlan;

/* ---- instr_cfg.c ---- */

/* One function's control-flow graph and control dependences. */
typedef struct ScInstrCfg ScInstrCfg;

/* Analyzes f, numbering its instructions from *instr_base (advanced past
 * them) to name its branches. A function whose control flow is not understood
 * still gets a graph, whose sites have no dependences. False (err set) only
 * when out of memory. */
bool sc_instr_cfg_new(const ScPtxFunc *f, uint32_t *instr_base, ScInstrCfg **out, ScErr *err);
/* The dependences of an instruction of the function, sorted by branch then
 * arm, copied into arena once per block; false (err set) when out of memory. */
bool sc_instr_cfg_deps(ScInstrCfg *cfg, const ScPtxStmt *stmt, ScArena *arena, const ScInstrControlDep **deps,
                       uint32_t *n, ScErr *err);
/* The block of an instruction, SC_INSTR_NO_BLOCK when the function's control flow
 * is not understood. */
#define SC_INSTR_NO_BLOCK UINT32_MAX
uint32_t sc_instr_cfg_block(const ScInstrCfg *cfg, const ScPtxStmt *stmt);
/* Whether block b is the body of an if without else: entered only from a divergent
 * two-way bra whose other arm goes where b goes (the join), and the join entered
 * from those two blocks only, laid out branch, b, join. *branch is that bra, *join
 * the join's first instruction. */
bool sc_instr_cfg_if_then(const ScInstrCfg *cfg, uint32_t b, const ScPtxStmt **branch, const ScPtxStmt **join);
void sc_instr_cfg_free(ScInstrCfg *cfg);
/* Walking the graph (instr_prune.c): its blocks, 0 when the function's control flow is
 * not understood; a block's first instruction (NULL for a block of labels only) and
 * the one after s in it (NULL past its last); its successors, SC_INSTR_NO_BLOCK for
 * the function's end (ret, exit, trap). */
uint32_t sc_instr_cfg_n_blocks(const ScInstrCfg *cfg);
const ScPtxStmt *sc_instr_cfg_first(const ScInstrCfg *cfg, uint32_t b);
const ScPtxStmt *sc_instr_cfg_next(const ScInstrCfg *cfg, uint32_t b, const ScPtxStmt *s);
uint32_t sc_instr_cfg_n_succs(const ScInstrCfg *cfg, uint32_t b);
uint32_t sc_instr_cfg_succ(const ScInstrCfg *cfg, uint32_t b, uint32_t i);

/* ---- instr_site.c ---- */

/* Strings copied into the result's arena once, by key: .debug_str labels
 * (key) or .file indices (index). */
typedef struct ScInstrCache {
    const char **keys;
    uint32_t *indices;
    const char **values;   /* NULL: the key names nothing readable */
    uint32_t n, cap;
} ScInstrCache;

/* Builds the site and kernel tables of one result. */
typedef struct ScInstrSites {
    ScInstrResult *res;
    const ScPtxModule *m;
    uint32_t site_base;
    uint32_t cap_sites, cap_kernels;
    /* Consecutive sites mostly share their .loc and function: reuse the copies. */
    const ScPtxLoc *last_loc;
    const ScInstrFrame *last_frames;
    uint32_t last_n_frames;
    const ScPtxFunc *last_func;
    const char *last_func_name;
    uint32_t last_func_id;
    ScInstrCfg *cfg;       /* the control flow of the function being planned */
    ScInstrCache functions, files;
    ScBuf tmp;
} ScInstrSites;

/* Appends a site for stmt and sets *id to its id; false (err set) when out of
 * memory or when the ids would run past UINT32_MAX - 1. */
bool sc_instr_add_site(ScInstrSites *st, ScInstrSiteKind kind, ScInstrUnchecked why, const ScPtxStmt *stmt,
                       uint32_t info, uint32_t *id, ScErr *err);
/* Adds a kernel to the table; false (err set) when out of memory. */
bool sc_instr_add_kernel(ScInstrSites *st, const char *name, ScErr *err);
/* Frees the builder's caches (not the tables it filled). */
void sc_instr_sites_done(ScInstrSites *st);

/* ---- instr_plan.c ---- */

/* Fills plan (and the site and kernel tables) for every function with a
 * body, pruning reads proven race-free when `prune`; false with err set when
 * the module cannot be instrumented exactly. */
bool sc_instr_plan(ScPtxModule *m, ScInstrSites *sites, bool prune, ScInstrPlan *plan, ScErr *err);
void sc_instr_plan_free(ScInstrPlan *plan);

/* The state space a name is declared in: f's own declarations (demoted __shared__
 * variables, local depots), its parameters, then module scope. NULL when nothing
 * declares it. */
const char *sc_instr_symbol_space(const ScPtxModule *m, const ScPtxFunc *f, const char *name);

/* ---- instr_prune.c ---- */

/* Whether no shared memory of the module's kernels is written outside the barrier
 * intervals of its own block's code (another block's, asynchronous copies'): else
 * nothing is pruned. */
bool sc_instr_prune_allowed(const ScPtxModule *m);
/* Drops from one function's plan the reads of shared memory that no write of another
 * thread can meet (their sites become SC_INSTR_SITE_PRUNED); cfg is the function's
 * graph. False (err set) only when out of memory. */
bool sc_instr_prune(ScInstrFuncPlan *fp, const ScInstrCfg *cfg, ScInstrSites *st, ScErr *err);

/* ---- instr_roots.c ---- */

/* For a kernel's plan: the roots of its global reads and writes into k, and each
 * weak global read's roots into its edit (counted into *n_rooted), when every global
 * write of the kernel goes through its roots (else none). False (err set) only when
 * out of memory. */
bool sc_instr_roots(const ScPtxModule *m, ScInstrFuncPlan *fp, ScInstrKernel *k, uint32_t *n_rooted, ScErr *err);

/* ---- instr_module.c ---- */

/* Refuses a module that declares a name with the runtime's prefix. */
bool sc_instr_check_prefix(const ScPtxModule *m, ScErr *err);

/* ---- instr_emit.c ---- */

/* Inserts the calls of one function's plan (the entry call first for a kernel); quick:
 * ScInstrOpts.quick. */
bool sc_instr_emit_func(ScPtxModule *m, const ScInstrFuncPlan *fp, bool quick, ScErr *err);

#endif
