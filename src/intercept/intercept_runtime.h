/* intercept_runtime.h: the host half of the device runtime: device state of each of
 * the program's contexts, shadow for their allocations, and instrumented launches. */
#ifndef SC_INTERCEPT_RUNTIME_H
#define SC_INTERCEPT_RUNTIME_H

#include <cuda.h>

#include "common/sc_defs.h"
#include "devrt/devrt_policy.h"
#include "hostrt/hostrt.h"
#include "hostrt/hostrt_order.h"
#include "intercept/intercept_tensor.h"

typedef struct ScOptions ScOptions;

/* A device range of an asynchronous copy or memset, and the copy's place in the order
 * of stream work: checked against the checked launch before it and kept for the one
 * after it, where nothing orders them (sc_rt_copy_issued). */
typedef struct ScPendingCopy {
    ScHostCopy range;
    ScWork work;
} ScPendingCopy;
#define SC_RT_PENDING_COPIES 64

/* Contexts scord holds device state in at once (devices, or contexts of the program's
 * own); launches and allocations of more run unchecked, said once. */
#define SC_RT_CONTEXTS 16

/* Device memory scord holds for one context. Guarded by the context lock. */
typedef struct ScRuntime {
    bool ready;               /* buffers below exist */
    bool failed;              /* setting up failed once: nothing is checked */
    bool launch_failure_said; /* a checked launch failed, and scord said so once */
    CUcontext ctx;            /* the context they live in */
    unsigned long long ctx_id; /* its id (cuCtxGetId), never reused by the process: a
                                  context made anew under a destroyed one's handle is
                                  another context, whose state this is not */
    unsigned sm_ids;          /* SM ids the slot bitmap covers */
    CUdeviceptr launch;       /* ScDevLaunch */
    CUdeviceptr bitmap;       /* uint32_t[sm_ids] */
    CUdeviceptr dir;          /* chunk-table addresses, one per directory entry */
    CUdeviceptr records;      /* ScDevRecord[records_cap] */
    CUdeviceptr sync_table;   /* uint64_t[1 << SC_DEV_SYNC_TABLE_BITS], cleared per launch */
    CUdeviceptr sync_nodes;   /* ScDevSyncNode[1 << SC_DEV_SYNC_NODES_BITS] */
    CUdeviceptr trails;       /* ScDevTrail[1 << SC_DEV_TRAILS_BITS], never cleared */
    CUdeviceptr const_rows;   /* uint16_t[SC_DEV_CONST_ROWS][32], row v all v */
    uint32_t records_cap;
    uint64_t **tables;        /* host mirrors of the chunk tables, NULL where none */
    CUdeviceptr *table_dev;   /* device address of each chunk table */
    CUdeviceptr threads, blocks, shared_shadow, warp_clocks; /* per slot, grown as needed */
    size_t threads_bytes, blocks_bytes, shared_bytes, warp_clocks_bytes;
    CUdeviceptr async;        /* per slot, per thread: ScDevAsync, for modules with cp.async */
    size_t async_bytes;
    CUdeviceptr split_pool;   /* byte-exact cells of words split by disjoint accesses */
    uint32_t split_cap;       /* its groups (devrt_policy.h, sc_split_groups) */
    CUdeviceptr slot_split;   /* per slot, split groups for its shared memory, for kernels
                                 with sub-word shared accesses; grown as needed */
    size_t slot_split_bytes;
    bool split_warned;        /* the note that it could not grow was given */
    uint32_t launch_tag;
    uint64_t cached_bytes;    /* chunks (64 KiB each) mapped to the metadata cache */
    uint64_t full_chunks;     /* chunks with full shadow */
    CUdeviceptr cache;        /* ScDevCacheEntry[1 << cache_bits]; 0 until first needed */
    uint32_t cache_bits;
    uint32_t cache_epoch;     /* the last launch's epoch in the cache's tags */
    bool cache_warned;        /* the warning about cached allocations was given */
    /* The latest checked launch of the context, when it completed: its shadow is still
     * in the chunks it marked (launches scord does not check leave the shadow as it
     * is), for the next checked launch that may overlap it: one its stream runs next
     * with programmatic stream serialization (docs/devrt.md, "The prerequisite grid"),
     * or one nothing orders after it (DESIGN.md, "Order between kernels"). */
    bool last_checked;
    char last_kernel[512];    /* its mangled name: whether it triggers its dependents
                                 early is asked only by a launch that depends on it */
    ScWork last_work;         /* its place in the order of stream work */
    uint64_t last_number;     /* its launch number in the reports */
    unsigned last_grid[3], last_block[3];
    uint32_t last_split_used; /* split pool groups it filled */
    /* That shadow, kept for a dependent launch: a directory and chunk tables like the
     * live ones over copies of the chunks, and a copy of the split pool. */
    CUdeviceptr prior_dir, prior_tables, prior_shadow, prior_split;
    size_t prior_tables_bytes, prior_shadow_bytes, prior_split_bytes;
    uint64_t *prior_dir_host; /* mirror of prior_dir */
    bool prior_warned;        /* the note that a dependency could not be kept was given */
    /* Copy ranges issued since the checked launch before, for the next one; beyond
     * SC_RT_PENDING_COPIES they are not followed (counted). */
    ScPendingCopy copies[SC_RT_PENDING_COPIES];
    size_t n_copies;
    uint64_t copies_unfollowed;
    CUstream own_stream;      /* non-blocking, scord's: shadow read back beside the
                                 program's streams, waiting for none of their work */
    CUdeviceptr tensor_maps_dev; /* the program's tensor maps on the device,
                                    SC_DEV_TENSOR_MAPS records */
    uint32_t tensor_maps_version; /* ScTensorMaps.version of that copy */
#ifdef SC_DEVRT_PROFILE
    CUdeviceptr prof;         /* ScDevLaunch.prof, cleared per launch */
    uint64_t prof_sum[SC_DEV_PROF_COUNT]; /* summed over SMs and launches */
#endif
} ScRuntime;

/* One launch of scord's code, between sc_rt_launch_begin and sc_rt_launch_end. */
typedef struct ScLaunchCheck {
    bool active;              /* the launch is checked: end must be called */
    bool left_out;            /* instrumented code the filters left out: end must be called */
    ScRuntime *rt;            /* the runtime of the launch's context */
    CUfunction function;
    unsigned grid[3], block[3];
    char kernel[512];         /* mangled name */
    bool dependent;           /* checked against the prerequisite grid's shadow */
    bool prior_quiet;         /* that grid never triggers its dependents early: this one
                                 began after it ended (grid_completion) */
    bool unordered;           /* checked against the shadow of the checked launch
                                 before, which nothing orders before this one */
    unsigned prior_grid[3], prior_block[3]; /* that grid's shape */
    char prior_kernel[512];   /* its kernel, mangled, and launch number */
    uint64_t prior_number;
    ScWork work;              /* this launch in the order of stream work */
} ScLaunchCheck;

/* Prepares the device runtime for a launch of f when f is scord's instrumented
 * code; false (nothing to end) when it is not, or when detection is off.
 * `programmatic`: the launch allows programmatic stream serialization (it may overlap
 * the grid before it in its stream until griddepcontrol.wait); params: the launch's
 * kernel parameters, NULL when it passed them otherwise (`extra`). A
 * checked launch holds the launch lock until sc_rt_launch_end: instrumented
 * launches run one at a time, each followed by a synchronize. */
bool sc_rt_launch_begin(CUfunction f, const unsigned grid[3], const unsigned block[3],
                        unsigned shmem, CUstream stream, bool programmatic, void *const *params,
                        ScLaunchCheck *chk);
/* Waits for the launch, reads its races back and reports them. */
void sc_rt_launch_end(ScLaunchCheck *chk, CUresult launch_result, CUstream stream);
#ifdef SC_DEVRT_PROFILE
/* Prints the section timers of a profiling runtime (DEVRT_PROFILE=1), summed over the run. */
void sc_rt_print_profile(void);
#endif

/* An asynchronous copy or memset the program issued, by its device ranges: checked,
 * in the shadow the checked launch before it left, where nothing orders that launch
 * before it, and kept for the checked launch after it (races: unordered_streams). */
void sc_rt_copy_issued(const ScHostCopy *ranges, size_t n, ScWork work);

/* Whether work on the stream is being captured into a graph (or the driver cannot
 * say): scord then makes no driver call of its own for it, which could invalidate the
 * capture. */
bool sc_rt_stream_capturing(CUstream stream);

/* A graph launch that runs unchecked (one scord does not issue node by node): its
 * kernels find the runtime disabled, and the launch is waited for so that no checked
 * launch overlaps it. begin returns whether end must be called. */
bool sc_rt_graph_begin(void);
void sc_rt_graph_end(CUresult launch_result, CUstream stream);

/* Takes the shadow and cache_mb options (called once, before any allocation). */
void sc_rt_configure(const ScOptions *o);

/* Gives [base, base + size) global-memory shadow. Called with the context lock
 * held, after the program's allocation succeeded. Full shadow while the device keeps
 * its headroom (devrt_policy.h), else the chunks go through the metadata cache, which
 * the next launch allocates or grows; false when not even the chunk tables can be
 * had: that memory is then unchecked. */
bool sc_rt_track_alloc(uint64_t base, uint64_t size);

/* The largest split pool of any context (groups), for the exit summary. The caller
 * holds the context lock. */
uint32_t sc_rt_split_cap(void);

#endif
