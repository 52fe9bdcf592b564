/* ptx_sema.h: what a PTX instruction means for race detection: memory access, ordering, control flow. */
#ifndef SC_PTX_SEMA_H
#define SC_PTX_SEMA_H

#include "common/sc_defs.h"
#include "common/sc_err.h"
#include "ptx/ptx.h"
#include "rules/memory_model.h"

/*
 * sc_ptx_classify() decodes one instruction from its opcode, its modifiers
 * (as a set: `atom.global.cta.add.u32`, `atom.add.relaxed.cta.s32` and
 * `atom.relaxed.cta.global.add.u32` decode alike) and the shape of its
 * operands, and applies the ISA's defaults (docs/ptx-semantics.md gives each
 * rule and its reason).
 *
 * Every opcode is in exactly one family. An opcode that is in no table, or a
 * known opcode with a modifier or operand shape this file does not know, is
 * SC_PTX_FAM_UNKNOWN: the instrumenter must refuse the module rather than
 * guess. Harmless opcodes (register-only computation) come from an explicit
 * table; nothing is harmless by default.
 *
 * Operand indices are positions in ScPtxInstr.ops, -1 when absent.
 */

typedef enum ScPtxFamily {
    SC_PTX_FAM_UNKNOWN,         /* not understood: refuse the module */
    SC_PTX_FAM_HARMLESS,        /* registers only: arithmetic, mov, cvt, setp, mma ... */
    SC_PTX_FAM_MEM,             /* ld, ldu, st, atom, red, multimem.*, st.async, red.async, discard */
    SC_PTX_FAM_MATRIX,          /* ldmatrix, stmatrix, wmma.load/store, wgmma.mma_async: warp-collective */
    SC_PTX_FAM_TEXSURF,         /* tex, tld4, suld, sust, sured: outside the memory model */
    SC_PTX_FAM_CACHE,           /* prefetch*, applypriority, cp.async.bulk.prefetch*: no access */
    SC_PTX_FAM_BARRIER,         /* bar/barrier .sync/.arrive/.red (CTA barriers) */
    SC_PTX_FAM_WARP_SYNC,       /* bar.warp.sync */
    SC_PTX_FAM_CLUSTER_BARRIER, /* barrier.cluster.arrive/wait */
    SC_PTX_FAM_FENCE,           /* fence.*, membar.* */
    SC_PTX_FAM_MBARRIER,        /* mbarrier.*, cp.async.mbarrier.arrive */
    SC_PTX_FAM_COPY,            /* cp.async, cp.async.bulk*, cp.reduce.async.bulk*, tensormap.cp_fenceproxy */
    SC_PTX_FAM_ASYNC_GROUP,     /* commit/wait of cp.async and bulk groups; wgmma fence/commit/wait */
    SC_PTX_FAM_GRIDDEP,         /* griddepcontrol.wait/.launch_dependents */
    SC_PTX_FAM_WARP,            /* shfl/vote/match/redux/elect .sync, activemask: no memory ordering */
    SC_PTX_FAM_CONTROL,         /* bra, brx.idx, call, ret, exit, trap, brkpt */
    SC_PTX_FAM_ADDR,            /* cvta, isspacep, mapa, getctarank: address arithmetic, no access */
    SC_PTX_FAM_RESOURCE,        /* setmaxnreg, alloca, stacksave, stackrestore */
} ScPtxFamily;

typedef enum ScPtxSpace {
    SC_PTX_SPACE_NONE,           /* no memory operand */
    SC_PTX_SPACE_GENERIC,        /* no state space written: resolved at run time */
    SC_PTX_SPACE_GLOBAL,
    SC_PTX_SPACE_SHARED_CTA,     /* .shared and .shared::cta */
    SC_PTX_SPACE_SHARED_CLUSTER, /* .shared::cluster (may be another CTA's) */
    SC_PTX_SPACE_LOCAL,
    SC_PTX_SPACE_PARAM,          /* .param, .param::entry, .param::func */
    SC_PTX_SPACE_CONST,
    SC_PTX_SPACE_TEXSURF,        /* a texture or surface object */
} ScPtxSpace;

typedef enum ScPtxAccess {
    SC_PTX_ACCESS_NONE,
    SC_PTX_ACCESS_READ,
    SC_PTX_ACCESS_WRITE,
    SC_PTX_ACCESS_RMW,           /* atomic read-modify-write that returns the old value (atom) */
    SC_PTX_ACCESS_RED,           /* atomic reduction without a result (red, sured, bulk reduce) */
} ScPtxAccess;

/* ScSem and ScScope: rules/memory_model.h. */

typedef enum ScPtxAtomOp {
    SC_PTX_ATOM_NONE,
    SC_PTX_ATOM_ADD,
    SC_PTX_ATOM_AND,
    SC_PTX_ATOM_OR,
    SC_PTX_ATOM_XOR,
    SC_PTX_ATOM_CAS,
    SC_PTX_ATOM_EXCH,
    SC_PTX_ATOM_INC,
    SC_PTX_ATOM_DEC,
    SC_PTX_ATOM_MIN,
    SC_PTX_ATOM_MAX,
} ScPtxAtomOp;

/* MEM, MATRIX and TEXSURF. */
typedef struct ScPtxMem {
    ScPtxAccess kind;
    ScPtxSpace space;
    ScSem sem;
    ScScope scope;
    /* Bytes one thread accesses at its address: n_elems * elem_size (.v4.u32
     * is 16, .f16x2 is 4, .b128 is 16). 0 when the access is not one
     * contiguous range per thread (wmma tiles, wgmma descriptors, tex/surf). */
    uint32_t size;
    uint32_t elem_size;
    uint32_t n_elems;
    uint32_t sink_mask;          /* ld: bit i set when element i's destination is '_' (not read) */
    ScPtxAtomOp op;              /* RMW and RED */
    int addr_op;
    int mbar_op;                 /* st.async/red.async: the mbarrier completed */
    bool non_coherent;           /* ld.global.nc, ldu: read-only path, outside the model */
    bool outside_model;          /* nc reads, tex/surf: the memory model does not cover them */
    bool async;                  /* async proxy or not in program order (st.async, red.async, wgmma) */
    bool collective;             /* warp-collective (.sync.aligned matrix ops) */
    bool multimem;               /* multimem.*: every location a multicast address maps to */
} ScPtxMem;

typedef enum ScPtxBarKind {
    SC_PTX_BAR_SYNC,
    SC_PTX_BAR_ARRIVE,
    SC_PTX_BAR_RED,
} ScPtxBarKind;

typedef enum ScPtxBarRedOp {
    SC_PTX_BARRED_NONE,
    SC_PTX_BARRED_POPC,
    SC_PTX_BARRED_AND,
    SC_PTX_BARRED_OR,
} ScPtxBarRedOp;

/* BARRIER. bar.* is always .aligned (bar.sync == barrier.sync.aligned). */
typedef struct ScPtxBarrier {
    ScPtxBarKind kind;
    ScPtxBarRedOp red_op;
    bool aligned;
    int id_op;                   /* barrier number 0..15 */
    int count_op;                /* thread count; -1: every thread of the CTA */
    int dst_op;                  /* RED: the result */
    int pred_op;                 /* RED: the predicate combined (ops[pred_op].negated for {!}c) */
} ScPtxBarrier;

typedef enum ScPtxFenceKind {
    SC_PTX_FENCE_MEMORY,         /* fence.{sc,acq_rel,acquire,release}, membar: sem + scope */
    SC_PTX_FENCE_PROXY,          /* fence.proxy.*, membar.proxy.* */
    SC_PTX_FENCE_MBARRIER_INIT,  /* fence.mbarrier_init.release.cluster */
} ScPtxFenceKind;

typedef enum ScPtxProxy {
    SC_PTX_PROXY_NONE,
    SC_PTX_PROXY_ALIAS,
    SC_PTX_PROXY_ASYNC,          /* all state spaces */
    SC_PTX_PROXY_ASYNC_GLOBAL,
    SC_PTX_PROXY_ASYNC_SHARED_CTA,
    SC_PTX_PROXY_ASYNC_SHARED_CLUSTER,
    SC_PTX_PROXY_TENSORMAP,      /* tensormap::generic, with sem (acquire/release) and scope */
    SC_PTX_PROXY_ASYNC_GENERIC,  /* async::generic with sem and scope */
} ScPtxProxy;

typedef struct ScPtxFence {
    ScPtxFenceKind kind;
    ScSem sem;                /* MEMORY: SC, ACQ_REL, ACQUIRE or RELEASE; proxy/init: as written */
    ScScope scope;
    ScPtxProxy proxy;
    ScPtxSpace restrict_space;   /* .sync_restrict::shared::{cta,cluster}; NONE if not restricted */
    bool membar;                 /* spelled membar.* */
    int addr_op, size_op;        /* fence.proxy.tensormap::generic.acquire [addr], size */
} ScPtxFence;

typedef enum ScPtxMbarOp {
    SC_PTX_MBAR_INIT,
    SC_PTX_MBAR_INVAL,
    SC_PTX_MBAR_ARRIVE,
    SC_PTX_MBAR_ARRIVE_DROP,
    SC_PTX_MBAR_EXPECT_TX,
    SC_PTX_MBAR_COMPLETE_TX,
    SC_PTX_MBAR_TEST_WAIT,
    SC_PTX_MBAR_TRY_WAIT,
    SC_PTX_MBAR_PENDING_COUNT,   /* reads a state register only */
    SC_PTX_MBAR_CP_ASYNC_ARRIVE, /* cp.async.mbarrier.arrive{.noinc} */
} ScPtxMbarOp;

/* MBARRIER. */
typedef struct ScPtxMbar {
    ScPtxMbarOp op;
    ScSem sem;                /* arrive*: RELEASE/RELAXED; waits: ACQUIRE/RELAXED; tx: RELAXED; else NONE */
    ScScope scope;            /* CTA or CLUSTER where the op has one; else NONE */
    ScPtxSpace space;            /* of the mbarrier object */
    bool expect_tx;              /* arrive.expect_tx / arrive_drop.expect_tx */
    bool no_complete;            /* .noComplete */
    bool parity;                 /* wait on a phase parity rather than a state */
    bool noinc;                  /* cp.async.mbarrier.arrive.noinc */
    int addr_op;                 /* the mbarrier object */
    int count_op;                /* init/arrive count, expect/complete tx count */
    int state_op;                /* arrive: state result (may be a sink); waits: state/parity input */
    int result_op;               /* waits: the completion predicate; pending_count: the count */
} ScPtxMbar;

/* CLUSTER_BARRIER. */
typedef struct ScPtxClusterBar {
    bool wait;                   /* barrier.cluster.wait; false: .arrive */
    ScSem sem;                /* arrive: RELEASE (default) or RELAXED; wait: ACQUIRE */
    bool aligned;
} ScPtxClusterBar;

typedef enum ScPtxCopyKind {
    SC_PTX_COPY_CP_ASYNC,        /* cp.async.ca/.cg: 4, 8 or 16 bytes global -> shared::cta */
    SC_PTX_COPY_BULK,            /* cp.async.bulk */
    SC_PTX_COPY_BULK_TENSOR,     /* cp.async.bulk.tensor */
    SC_PTX_COPY_REDUCE_BULK,     /* cp.reduce.async.bulk */
    SC_PTX_COPY_REDUCE_BULK_TENSOR,
    SC_PTX_COPY_TENSORMAP,       /* tensormap.cp_fenceproxy: synchronous copy + release fence */
} ScPtxCopyKind;

typedef enum ScPtxCompletion {
    SC_PTX_COMPLETE_NONE,        /* synchronous */
    SC_PTX_COMPLETE_GROUP,       /* cp.async.commit_group / wait_group */
    SC_PTX_COMPLETE_BULK_GROUP,  /* cp.async.bulk.commit_group / wait_group */
    SC_PTX_COMPLETE_MBARRIER,    /* .mbarrier::complete_tx::bytes */
} ScPtxCompletion;

/* COPY. */
typedef struct ScPtxCopy {
    ScPtxCopyKind kind;
    ScPtxSpace dst_space, src_space;
    uint32_t size;               /* bytes when fixed by the instruction (cp.async cp-size, an immediate), else 0 */
    int size_op;                 /* the operand holding the byte count; -1 for tensor copies (from the map) */
    int src_size_op;             /* cp.async: bytes actually read (rest zero-filled) */
    int dst_op, src_op;          /* for tensor copies, the [tensorMap, {coords}] operand */
    int mbar_op;
    ScPtxCompletion completion;
    ScPtxAtomOp red_op;          /* reduce copies */
    uint32_t tensor_dims;        /* .1d ... .5d */
    bool tensor_tile;            /* tensor copies: .tile mode (the default), not im2col,
                                    gather4 or scatter4 */
    bool multicast;              /* .multicast::cluster */
    ScSem sem;                /* TENSORMAP: RELEASE */
    ScScope scope;
} ScPtxCopy;

typedef enum ScPtxGroupOp {
    SC_PTX_GROUP_CP_ASYNC_COMMIT,
    SC_PTX_GROUP_CP_ASYNC_WAIT,      /* wait_group N: n_op */
    SC_PTX_GROUP_CP_ASYNC_WAIT_ALL,
    SC_PTX_GROUP_BULK_COMMIT,
    SC_PTX_GROUP_BULK_WAIT,          /* n_op; .read: only the reads of the source are done */
    SC_PTX_GROUP_WGMMA_FENCE,
    SC_PTX_GROUP_WGMMA_COMMIT,
    SC_PTX_GROUP_WGMMA_WAIT,
} ScPtxGroupOp;

typedef struct ScPtxGroup {
    ScPtxGroupOp op;
    int n_op;
    bool read_only;              /* cp.async.bulk.wait_group.read */
} ScPtxGroup;

typedef enum ScPtxCtlOp {
    SC_PTX_CTL_BRA,
    SC_PTX_CTL_BRX,              /* brx.idx index, table */
    SC_PTX_CTL_CALL,
    SC_PTX_CTL_RET,
    SC_PTX_CTL_EXIT,
    SC_PTX_CTL_TRAP,
    SC_PTX_CTL_BRKPT,
} ScPtxCtlOp;

typedef struct ScPtxCtl {
    ScPtxCtlOp op;
    bool uni;                    /* .uni: non-divergent */
    bool indirect;               /* call through a register, or brx.idx */
    int target_op;               /* bra: label; call: function symbol or register; brx: table */
} ScPtxCtl;

typedef enum ScPtxWarpOp {
    SC_PTX_WARP_SHFL,
    SC_PTX_WARP_VOTE,
    SC_PTX_WARP_MATCH,
    SC_PTX_WARP_REDUX,
    SC_PTX_WARP_ELECT,
    SC_PTX_WARP_ACTIVEMASK,
} ScPtxWarpOp;

typedef struct ScPtxWarp {
    ScPtxWarpOp op;
    int mask_op;                 /* membermask; -1 for activemask and legacy non-.sync forms */
} ScPtxWarp;

/* Special registers, as bit numbers of ScPtxSema.sregs. */
typedef enum ScPtxSreg {
    SC_PTX_SREG_TID,
    SC_PTX_SREG_NTID,
    SC_PTX_SREG_LANEID,
    SC_PTX_SREG_WARPID,
    SC_PTX_SREG_NWARPID,
    SC_PTX_SREG_CTAID,
    SC_PTX_SREG_NCTAID,
    SC_PTX_SREG_SMID,
    SC_PTX_SREG_NSMID,
    SC_PTX_SREG_GRIDID,
    SC_PTX_SREG_CLUSTERID,
    SC_PTX_SREG_NCLUSTERID,
    SC_PTX_SREG_CLUSTER_CTAID,
    SC_PTX_SREG_CLUSTER_NCTAID,
    SC_PTX_SREG_CLUSTER_CTARANK,
    SC_PTX_SREG_CLUSTER_NCTARANK,
    SC_PTX_SREG_IS_EXPLICIT_CLUSTER,
    SC_PTX_SREG_LANEMASK,        /* %lanemask_eq/le/lt/ge/gt */
    SC_PTX_SREG_CLOCK,           /* %clock, %clock_hi, %clock64 */
    SC_PTX_SREG_GLOBALTIMER,     /* %globaltimer, _lo, _hi */
    SC_PTX_SREG_PM,              /* %pm0..7, %pm0_64..%pm7_64 */
    SC_PTX_SREG_ENVREG,          /* %envreg0..31 */
    SC_PTX_SREG_SMEM_SIZE,       /* %total/aggr/dynamic_smem_size, %reserved_smem_* */
    SC_PTX_SREG_CURRENT_GRAPH_EXEC,
    SC_PTX_SREG_COUNT
} ScPtxSreg;
#define SC_PTX_SREG_BIT(s) (UINT64_C(1) << (s))

typedef struct ScPtxSema {
    ScPtxFamily family;
    /* UNKNOWN: why, e.g. "modifier '.foo' of ld is not known"; "" otherwise. */
    char why[96];
    uint64_t sregs;              /* SC_PTX_SREG_BIT()s of the special registers the operands read */
    union {
        ScPtxMem mem;            /* MEM, MATRIX, TEXSURF */
        ScPtxBarrier bar;        /* BARRIER */
        int warp_sync_mask_op;   /* WARP_SYNC */
        ScPtxClusterBar cluster; /* CLUSTER_BARRIER */
        ScPtxFence fence;        /* FENCE */
        ScPtxMbar mbar;          /* MBARRIER */
        ScPtxCopy copy;          /* COPY */
        ScPtxGroup group;        /* ASYNC_GROUP */
        bool griddep_wait;       /* GRIDDEP: .wait; false: .launch_dependents */
        ScPtxWarp warp;          /* WARP */
        ScPtxCtl ctl;            /* CONTROL */
    } u;
} ScPtxSema;

/* Decodes one instruction. Never fails: what it cannot decode is UNKNOWN. */
void sc_ptx_classify(const ScPtxInstr *in, ScPtxSema *out);

/* Checks that every instruction of every function is known. On the first
 * UNKNOWN one returns false with err set to
 * "FILE:LINE:COL: error: instruction 'OPCODE.MODS' is not known to scord (WHY); ...". */
bool sc_ptx_check_known(const ScPtxModule *m, ScErr *err);

/* The special register bit of a name ("%tid" -> SC_PTX_SREG_TID), -1 if none. */
int sc_ptx_sreg_lookup(const char *name);

/* True for operations the memory model calls strong: a fence, or an access
 * with .relaxed/.acquire/.release/.acq_rel/.volatile/.mmio (and every atomic). */
bool sc_ptx_sem_is_strong(ScSem sem);

/* Names for messages and tests: "shared::cta", "acq_rel", "cluster", ... */
const char *sc_ptx_family_name(ScPtxFamily f);
const char *sc_ptx_space_name(ScPtxSpace s);
const char *sc_ptx_access_name(ScPtxAccess a);
const char *sc_ptx_sem_name(ScSem s);
const char *sc_ptx_scope_name(ScScope s);
const char *sc_ptx_atom_op_name(ScPtxAtomOp op);
const char *sc_ptx_sreg_name(ScPtxSreg s);

#endif
