/* instr.h: the instrumentation pass: inserts the device runtime's calls into a parsed PTX module and links the runtime. */
#ifndef SC_INSTR_H
#define SC_INSTR_H

#include "common/sc_arena.h"
#include "common/sc_defs.h"
#include "common/sc_err.h"
#include "ptx/ptx.h"

/*
 * sc_instr_module() edits a parsed module in place so that every checked
 * memory access and synchronization calls into the device runtime
 * (src/devrt/devrt_abi.h), and returns the module's site and kernel tables,
 * which the host needs to turn the runtime's race records back into source
 * locations. docs/instrumentation.md says what is instrumented, how, and why
 * the rest is not.
 *
 * The inserted calls name the runtime's functions but do not declare them:
 * sc_instr_declare_runtime() declares them afterwards (the module then assembles
 * relocatable, to be linked with the runtime), or sc_instr_link_runtime() appends
 * the runtime itself.
 */

typedef struct ScInstrOpts {
    /* Site ids are site_base + the site's index in ScInstrResult.sites, so
     * that ids stay unique across the modules of a process. */
    uint32_t site_base;
    /* Leave out the checks of reads proven race-free (instr_prune.c). */
    bool prune;
    /* Weak 4-byte accesses call __scord_access_quick, the runtime's quick path, instead
     * of __scord_access (devrt_abi.h, SC_ABI_INFO_QUICK), in functions that take no
     * release (no fence, acquiring access, mbarrier other than one that may be a block
     * barrier, or cluster barrier: the quick path would send every access of a block
     * that took one on). */
    bool quick;
} ScInstrOpts;

typedef enum ScInstrSiteKind {
    SC_INSTR_SITE_ACCESS,    /* ld/st/atom/red/discard: __scord_access before it */
    SC_INSTR_SITE_BARRIER,   /* bar/barrier .sync/.red (arrive before, pass after) or .arrive;
                                barrier.cluster.arrive (before) and .wait (after) */
    SC_INSTR_SITE_SYNCWARP,  /* bar.warp.sync: __scord_syncwarp after it */
    SC_INSTR_SITE_FENCE,     /* fence.{sc,acq_rel,acquire,release}, membar: __scord_fence after it */
    SC_INSTR_SITE_MBARRIER,  /* mbarrier arrive or wait: __scord_sync before it (a wait: __scord_fence after);
                                in a module whose mbarriers may be block barriers, also init and inval:
                                __scord_mbar (before it; a wait: after) */
    SC_INSTR_SITE_ASYNC_COPY, /* a cp.async's destination write: __scord_access before it, and checked
                                 again when the copy completes (its source read is an ACCESS site) */
    SC_INSTR_SITE_UNCHECKED, /* recorded only, not instrumented: see ScInstrUnchecked */
    SC_INSTR_SITE_PRUNED,    /* a read proven race-free, not instrumented (instr_prune.c) */
} ScInstrSiteKind;

/* Why an instruction that touches shared or global memory, or orders such
 * accesses, is not checked in detector part 1. */
typedef enum ScInstrUnchecked {
    SC_INSTR_UNCHECKED_NONE,
    SC_INSTR_UNCHECKED_ASYNC,           /* tensor copies other than tile mode (im2col,
                                           gather4, scatter4), multicast bulk copies, bulk
                                           reductions (cp.reduce.async.bulk*), st.async,
                                           red.async (cp.async, the other bulk copies and
                                           tile-mode tensor copies are checked) */
    SC_INSTR_UNCHECKED_MATRIX,          /* ldmatrix, stmatrix, wmma.load/store, wgmma */
    SC_INSTR_UNCHECKED_MULTIMEM,        /* multimem.* on multicast addresses */
} ScInstrUnchecked;
#define SC_INSTR_UNCHECKED_BIT(u) (1u << (u))

/* One level of a site's source position: frames[0] is the .loc governing the
 * instruction, each next frame the call site its function was inlined at. */
typedef struct ScInstrFrame {
    uint32_t file;        /* .file index */
    const char *path;     /* that .file's path; NULL when the module has no such .file */
    uint32_t line, col;
    /* Mangled name of the function this frame's code belongs to, from the
     * .loc's function_name (.debug_str); NULL for the site's PTX function, or
     * when the name cannot be read. */
    const char *function;
} ScInstrFrame;

/* One control dependence of a site: the site runs only when a conditional
 * branch that lanes of a warp may take differently leaves through one of its
 * successor edges (docs/instrumentation.md). */
typedef struct ScInstrControlDep {
    uint32_t branch; /* the branch instruction's index among the module's instructions, as parsed */
    /* Which edge: the branch's targets in order (bra: 0 is its label; brx.idx:
     * the position in its .branchtargets list; a guarded ret, exit or trap: 0
     * leaves), then the fall-through of a guarded branch. */
    uint32_t arm;
} ScInstrControlDep;
/* The nearest dependences are kept, so an outer branch beyond this many is lost. */
#define SC_INSTR_MAX_CONTROL_DEPS 16

typedef struct ScInstrSite {
    ScInstrSiteKind kind;
    ScInstrUnchecked unchecked; /* SC_INSTR_UNCHECKED_NONE unless kind is UNCHECKED */
    uint32_t id;                /* opts->site_base + index */
    const char *function;       /* the .entry or .func holding it (mangled) */
    uint32_t ptx_line, ptx_col; /* of the instruction in the PTX text that was parsed */
    const char *instr;          /* the instruction as printed, for messages */
    /* ACCESS: the info word passed to __scord_access (SC_ABI_INFO, with
     * SC_ABI_INFO_* to decode it); UNCHECKED memory instructions: the same
     * packing with the space they would have; 0 otherwise. */
    uint32_t info;
    const ScInstrFrame *frames; /* innermost first; n_frames is 0 when no .loc governs it */
    uint32_t n_frames;
    /* The id of the first site of the same function: equal for the sites of
     * one function and, like site ids, different for any two functions. */
    uint32_t function_id;
    /* Sorted by branch, then arm; n_deps is 0 outside every divergent branch,
     * and for every site of a function whose control flow is not understood
     * (a branch target that does not resolve, an endless loop). */
    const ScInstrControlDep *deps;
    uint32_t n_deps;
} ScInstrSite;

/* A kernel parameter word an address may derive from (instr_roots.c): the 64 bits at
 * `offset` bytes into parameter `param` of the .entry. */
typedef struct ScInstrRoot {
    uint32_t param, offset;
} ScInstrRoot;
#define SC_INSTR_MAX_ROOTS 48

/* A kernel's roots (instr_roots.c): those of its global reads that a launch may leave
 * unchecked (n 0: none), and `written`, those it writes through (bit i: at[i]). A read
 * is left out when all of its roots point into allocations no written root points into. */
typedef struct ScInstrRoots {
    ScInstrRoot at[SC_INSTR_MAX_ROOTS];
    uint32_t n;
    uint64_t written;
} ScInstrRoots;

typedef struct ScInstrKernel {
    const char *name;   /* mangled .entry name; its index is the argument of __scord_entry */
    /* SC_INSTR_UNCHECKED_BIT()s of the unchecked instructions the kernel or a
     * .func it may call (directly, or through a pointer: any .func of the
     * module) contains. */
    uint32_t unchecked;
    /* The kernel or a .func it may call executes griddepcontrol.launch_dependents:
     * a launch that depends on it programmatically may begin before it ends. */
    bool triggers_dependents;
    ScInstrRoots roots;
} ScInstrKernel;

typedef struct ScInstrResult {
    ScArena arena;              /* owns every string and frame */
    ScInstrSite *sites;         /* in module order: functions, then statements */
    uint32_t n_sites;
    ScInstrKernel *kernels;     /* in module order of the .entry definitions */
    uint32_t n_kernels;
    /* Calls inserted: */
    uint32_t n_access, n_barrier, n_syncwarp, n_fence, n_mbarrier, n_async, n_entry, n_exit;
    uint32_t n_unchecked;       /* sites recorded but not instrumented */
    uint32_t n_pruned;          /* reads proven race-free, not instrumented */
    uint32_t n_rooted;          /* global reads a launch leaves out when their roots are unwritten */
} ScInstrResult;

/* Instruments every function of m. res must be zeroed (or freed) before the
 * call; it is filled on success and left empty on failure.
 *
 * Refusals (err set, false returned, m untouched): an instruction the PTX
 * front end classifies as unknown (err names it, its PTX line and why), a
 * 32-bit module, a module that already declares a __scord_ symbol, an
 * operand shape the pass cannot instrument exactly. The caller then runs the
 * module uninstrumented. Running out of memory during the edits leaves m
 * partly edited: discard it. */
bool sc_instr_module(ScPtxModule *m, const ScInstrOpts *opts, ScInstrResult *res, ScErr *err);
void sc_instr_result_free(ScInstrResult *res);

/* Declares the device runtime (PTX text of a module nvcc compiled with -rdc:
 * .visible .func definitions and .global and .shared variables, every name starting
 * with __scord_) in m: its variables and functions `.extern` at the top of m, and
 * .extern prototypes of other functions it calls (vprintf) unless m declares them
 * already. The module then links with the runtime as one more input, which defines
 * them once for every module or translation unit of the link (a block's slot
 * variable and the launch state must be one): its cubin for the device, or that same
 * text. Raises m's .version and .target to the runtime's when those are higher.
 * Refuses (m untouched) a module that already uses the __scord_ prefix, and a
 * runtime with line information or a symbol outside the prefix. */
bool sc_instr_declare_runtime(ScPtxModule *m, const char *runtime_ptx, ScErr *err);

/* Appends the runtime itself to m instead: variables and prototypes go to the top of
 * m, function bodies after m's last function, so that m compiles whole. The fallback
 * for a module the prebuilt runtime does not link with: a kernel whose register limit
 * (`.maxnreg`, or `.maxntid` with `.minnctapersm`) is below the cubin's 64 registers,
 * whose callees a whole-module compile fits to that limit. The same checks and raise
 * as sc_instr_declare_runtime. */
bool sc_instr_link_runtime(ScPtxModule *m, const char *runtime_ptx, ScErr *err);

/* The fewest registers per thread ptxas accepts as a limit. */
#define SC_INSTR_MIN_REGISTERS 16

/* The most registers per thread that every kernel of m allows, and at most `regs`: a
 * `.maxnreg`, or what `.minnctapersm` blocks of its `.maxntid`/`.reqntid` threads
 * (1,024 when it names none, rounded up to whole warps) leave each thread of the SM's
 * 65,536, in multiples of 8. The JIT compiles a module's functions apart, each within
 * the compile's register cap, and refuses a kernel that calls a function using more
 * registers than the kernel may: the runtime's functions fit every kernel of the module
 * only when the cap is this limit. */
unsigned sc_instr_register_limit(const ScPtxModule *m, unsigned regs);

/* Names for messages and dumps. */
const char *sc_instr_site_kind_name(ScInstrSiteKind k);
const char *sc_instr_unchecked_name(ScInstrUnchecked u);

#endif
