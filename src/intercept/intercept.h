/* intercept.h: what the files of the interposer share: the one process-wide
 * context, the real driver entry points, logging and the load/launch handlers. */
#ifndef SC_INTERCEPT_H
#define SC_INTERCEPT_H

#include <cuda.h>
#include <pthread.h>
#include <stdio.h>

#include "common/sc_defs.h"
#include "common/sc_select.h"
#include "instr/instr.h"
#include "intercept/intercept_alloc.h"
#include "intercept/intercept_plan.h"
#include "intercept/intercept_runtime.h"

/* A parenthesized parameter or argument list of intercept_hooks.def, without its
 * parentheses. */
#define SC_UNPAREN(...) __VA_ARGS__

/* Typed pointers to the real entry points, one per handler. */
#define SC_HOOK(symbol, base, handler, params, args) typedef CUresult(*ScReal_##handler) params;
#define SC_HOOK_VOID(symbol, base, handler) typedef CUresult (*ScReal_##handler)(void);
#include "intercept/intercept_hooks.def"
#undef SC_HOOK
#undef SC_HOOK_VOID

/* Real driver functions scord itself calls, resolved from libcuda.so.1. */
typedef struct ScDriver {
    bool loaded;
    ScReal_cuModuleLoadData module_load_data;
    ScReal_cuModuleLoadDataEx module_load_data_ex;
    ScReal_cuLinkAddData link_add_data;
    CUresult (*link_create)(unsigned int, CUjit_option *, void **, CUlinkState *);
    ScReal_cuLinkComplete link_complete;
    ScReal_cuLinkDestroy link_destroy;
    CUresult (*ctx_get_device)(CUdevice *);
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*device_get_attribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*get_error_name)(CUresult, const char **);
    CUresult (*get_error_string)(CUresult, const char **);
    CUresult (*module_get_global)(CUdeviceptr *, size_t *, CUmodule, const char *);
    CUresult (*library_get_global)(CUdeviceptr *, size_t *, CUlibrary, const char *);
} ScDriver;

/* One code image scord saw the program load. */
typedef struct ScModuleRec {
    unsigned id;
    const char *origin;   /* the driver call that loaded it */
    ScLoadPlan plan;      /* what scord decided, and the PTX it loaded */
    bool loaded_ours;     /* the driver accepted scord's PTX */
    void *linked;         /* the cubin scord compiled or linked and loaded (kept for the driver) */
    char *instr_ptx;      /* the instrumented PTX scord loaded (kept for the driver), declaring the
                             runtime */
    uint32_t site_base;   /* the first site id of its instrumentation (whole_text does it again) */
    unsigned max_registers; /* per thread, in scord's compile of its instrumented code: the
                               prebuilt runtime's 64, or a kernel's lower limit */
    /* A linked plan's inputs as scord links them: each PTX input instrumented (owned),
     * the others as planned, and the device runtime last; NULL when not instrumented. */
    ScLinkInput *instr_link;
    size_t n_instr_link;
    bool instrumented;
    /* The .global variables its PTX defines (__device__, __managed__), tracked like
     * allocations once it is loaded instrumented. */
    char **globals;
    size_t n_globals;
    CUmodule module;       /* what it was loaded as, for their addresses: a module */
    CUlibrary library;     /* or a library */
    bool globals_pending;  /* their addresses are still to be asked for (no context at load) */
    char instr_error[600]; /* why it was loaded uninstrumented */
    char fallback[320];   /* why the original image ran instead, if it did */
} ScModuleRec;

/* A cuLink session: a cubin it produces counts as scord's when every input was. */
typedef struct ScLinkRec {
    CUlinkState state;
    unsigned inputs_ours, inputs_unchecked;
    bool runtime_added; /* the device runtime's PTX is an input, for instrumented units */
    const void *cubin;
} ScLinkRec;

typedef struct ScKernelTrait {
    char *name;
    bool triggers_dependents;
    /* Its reads' and writes' roots (ScInstrKernel); none also when modules instrumented
     * a kernel of this name with different ones. */
    ScInstrRoots roots;
} ScKernelTrait;

/* The one and only process-wide context of the interposer. */
typedef struct ScReport ScReport;

typedef struct ScCtx {
    pthread_mutex_t lock; /* guards everything below that is not atomic */
    pthread_mutex_t launch_lock; /* held across each checked launch */
    bool detect;          /* instrument modules and check launches */
    bool prune;           /* leave out the checks of reads proven race-free */
    bool quick;           /* weak 4-byte accesses take the runtime's quick path */
    bool check_graphs;    /* graph launches issued node by node (intercept_graphs.c) */
    bool triton_ptx;      /* check Triton's cubins through the PTX in its cache */
    ScReport *report;
    unsigned long checked_launches;
    uint64_t unchecked_accesses, unchecked_blocks;
    uint64_t unsplit_accesses; /* not checked: the split pool ran out */
    uint64_t capture_allocs;   /* stream-ordered allocations made during a stream capture: not tracked */
    uint64_t async_unfollowed; /* cp.async copies whose completion was not checked */
    uint32_t next_site;   /* site ids are unique in the process */
    /* The SC_ABI_INFO of every access site, by id (0 for other sites): the device
     * names a previous access by its site alone. */
    uint32_t *site_infos;
    size_t cap_site_infos;
    /* Every instrumented kernel by mangled name, and whether its code may execute
     * griddepcontrol.launch_dependents (a name two modules define: if either may). */
    ScKernelTrait *kernel_traits;
    size_t n_kernel_traits, cap_kernel_traits;
    FILE *log;
    bool verbose;
    int error_exitcode;
    bool exit_on_warnings; /* --error-level warning: warnings count for --error-exitcode */
    int status_fd;
    bool fault_reject_ptx; /* SCORD_FAULT=reject_ptx: the driver is given code it rejects */
    bool fault_shadow_oom; /* SCORD_FAULT=shadow_oom: no allocation gets full shadow */
    ScDriver drv;
    int device_sm;        /* compute capability of the current device, 0 until known */
    CUresult init_result; /* what the program's cuInit returned; -1 if never called */
    /* A child that fork() made without exec from a process that had used CUDA: its
     * modules, launches and races are its parent's (CUDA does not work in such a
     * child), so it reports none of them (docs/options.md, "Several processes"). */
    bool fork_inherited;
    ScModuleRec **modules;
    size_t n_modules, cap_modules;
    size_t modules_pending; /* modules whose __device__ variables are still to be tracked */
    ScLinkRec *links;
    size_t n_links, cap_links;
    ScAllocTable allocs;
    ScTensorMaps tensor_maps; /* the tensor maps the program encoded (every context's) */
    unsigned long launches;      /* atomic */
    unsigned long graph_launches; /* atomic */
    unsigned long graph_launches_checked; /* atomic: of those, issued node by node */
    ScLaunchSelect select;        /* --kernel-name, --launch-skip...: under the lock */
} ScCtx;

extern ScCtx sc_ctx;

/* Reads options once; safe to call from any hook, any thread. */
void sc_ctx_init(void);
void sc_log(const char *fmt, ...) SC_PRINTF(1, 2);
void sc_vlog(const char *fmt, ...) SC_PRINTF(1, 2); /* only with --verbose */
const char *sc_cu_error(CUresult r);

/* Resolves the real libcuda.so.1 entry points (once). False when there is no driver. */
bool sc_driver_load(void);
/* The real entry point behind one of the wrapped symbols (NULL if the driver lacks it). */
void *sc_driver_real(const char *symbol);
/* Any other symbol of the real driver (NULL if it lacks it). */
void *sc_driver_sym(const char *symbol);
/* The C library's dlsym, not scord's (RTLD_NEXT: the next object after libscord.so). */
void *sc_real_dlsym(void *handle, const char *name);
/* Reads a whole code file (at most 1 GiB), NUL-terminated, as PTX needs (malloc'd;
 * NULL on failure; *len without the NUL). */
void *sc_read_code_file(const char *path, size_t *len);

/* Compilers a program drives while it runs: scord's wrapper for an entry point of NVRTC
 * (intercept_nvrtc.c) or nvJitLink (intercept_nvjitlink.c) that a dlsym found at `found`
 * (NULL: none for that name). */
void *sc_nvrtc_wrapper(const char *name, void *found);
void *sc_nvjitlink_wrapper(const char *name, void *found);

/* PTX twins of the cubins those compilers made (intercept_twin.c): `from` says where the
 * PTX comes from, for the run summary (a string that lives as long as the process). */
void sc_twin_add(const uint8_t hash[32], const char *ptx, const char *from);
/* The twin of the cubin with SHA-256 `hash` (malloc'd, *from set; NULL: none). */
char *sc_twin_for(const uint8_t hash[32], const char **from);

/* The entry points of a compiler library the program opened itself, found from the
 * first of its symbols scord's dlsym looked up. A program that opens a second,
 * different library of the same API gets that one's symbols unwrapped (`mixed`): a
 * handle of one library must never reach another's functions. */
typedef struct ScOpenedApi {
    const char *const *names; /* the entry points scord wraps, by index */
    void *fn[12];
    void *lib;  /* the library's handle (dlopen RTLD_NOLOAD); NULL: not known yet */
    bool mixed;
} ScOpenedApi;
/* The library's entry point `which` (NULL: not known yet, or the library lacks it). */
void *sc_opened_real(ScOpenedApi *api, int which);
/* Whether a dlsym that found entry point `which` at `found` gets scord's wrapper: the
 * first library seen is the API's, and `found` must be its own. */
bool sc_opened_takes(ScOpenedApi *api, int which, void *found);

/* Adds device memory to the allocation table and, when detecting, gives it shadow
 * (intercept_launch.c). */
void sc_track_alloc(uint64_t base, uint64_t size, ScAllocKind kind);
/* Tracks the __device__ variables of modules loaded before a context was current
 * (intercept_load.c); called before each checked launch. */
void sc_track_pending_globals(void);
/* Whether the instrumented kernel of that mangled name never executes
 * griddepcontrol.launch_dependents (false when scord did not instrument it). The
 * caller holds the context lock. */
bool sc_kernel_never_triggers(const char *name);
/* The traits of the instrumented kernel of that mangled name, NULL if none; the caller
 * holds the context lock. */
const ScKernelTrait *sc_kernel_trait(const char *name);

/* Compute capability (e.g. 90) of the device current code will run on. */
int sc_current_device_sm(void);
/* An attribute of the current context's device (else device 0); -1 if unknown. */
int sc_current_device_attribute(CUdevice_attribute attr);
/* Its number of SMs, 0 if unknown. */
int sc_current_device_sm_count(void);

#endif
