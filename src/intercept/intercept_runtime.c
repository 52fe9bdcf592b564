/* intercept_runtime.c: the host half of the device runtime: the device state of
 * each of the program's contexts (one per device, and any of the program's own), and
 * global-memory shadow for their allocations (full shadow or the metadata cache). */
#include <stdlib.h>
#include <string.h>

#include <stddef.h>
#include <stdio.h>

#include "common/sc_options.h"
#include "devrt/devrt_abi.h"
#include "devrt/devrt_policy.h"
#include "devrt/devrt_state.h"
#include "report/report.h"
#include "hostrt/hostrt.h"
#include "intercept/intercept.h"
#include "intercept/intercept_streams.h"
#include "intercept/intercept_runtime.h"

#define DIR_ENTRIES ((size_t)1 << SC_SHADOW_DIR_BITS)
#define TABLE_ENTRIES ((size_t)1 << SC_SHADOW_CHUNK_BITS)
#define CHUNK_SHADOW_BYTES ((size_t)SC_SHADOW_CHUNK_WORDS * 8)
#define RECORDS_CAP 4096u
#define SYNC_TABLE_BYTES (((size_t)1 << SC_DEV_SYNC_TABLE_BITS) * sizeof(uint64_t))

typedef struct ScDrvRt {
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*mem_free)(CUdeviceptr);
    CUresult (*mem_get_info)(size_t *, size_t *);
    CUresult (*memset_d8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*htod)(CUdeviceptr, const void *, size_t);
    CUresult (*dtoh)(void *, CUdeviceptr, size_t);
    CUresult (*dtod)(CUdeviceptr, CUdeviceptr, size_t);
    CUresult (*ctx_get_current)(CUcontext *);
    CUresult (*ctx_get_id)(CUcontext, unsigned long long *);
    CUresult (*pointer_attr)(void *, CUpointer_attribute, CUdeviceptr);
    CUresult (*mem_range)(CUdeviceptr *, size_t *, CUdeviceptr);
    CUresult (*stream_create)(CUstream *, unsigned int);
    CUresult (*dtoh_async)(void *, CUdeviceptr, size_t, CUstream);
    CUresult (*stream_sync)(CUstream);
} ScDrvRt;

static ScDrvRt rt_table;
static bool rt_found;

static void rt_resolve(void)
{
    ScDrvRt *d = &rt_table;
    *(void **)&d->mem_alloc = sc_driver_real("cuMemAlloc_v2");
    *(void **)&d->mem_free = sc_driver_real("cuMemFree_v2");
    *(void **)&d->mem_get_info = sc_driver_sym("cuMemGetInfo_v2");
    *(void **)&d->memset_d8 = sc_driver_sym("cuMemsetD8_v2");
    *(void **)&d->htod = sc_driver_sym("cuMemcpyHtoD_v2");
    *(void **)&d->dtoh = sc_driver_sym("cuMemcpyDtoH_v2");
    *(void **)&d->dtod = sc_driver_sym("cuMemcpyDtoD_v2");
    *(void **)&d->ctx_get_current = sc_driver_sym("cuCtxGetCurrent");
    *(void **)&d->ctx_get_id = sc_driver_sym("cuCtxGetId");
    *(void **)&d->pointer_attr = sc_driver_sym("cuPointerGetAttribute");
    *(void **)&d->mem_range = sc_driver_sym("cuMemGetAddressRange_v2");
    *(void **)&d->stream_create = sc_driver_sym("cuStreamCreate");
    *(void **)&d->dtoh_async = sc_driver_sym("cuMemcpyDtoHAsync_v2");
    *(void **)&d->stream_sync = sc_driver_sym("cuStreamSynchronize");
    rt_found = d->mem_alloc && d->mem_free && d->mem_get_info && d->memset_d8 && d->htod && d->dtoh && d->dtod &&
               d->ctx_get_current && d->ctx_get_id && d->pointer_attr && d->mem_range && d->stream_create &&
               d->dtoh_async && d->stream_sync;
}

/* The entry points, looked up once (a lookup per launch would cost every launch of
 * the program, scord's or not, a few dozen dlsym calls). */
static bool rt_driver(ScDrvRt *d)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, rt_resolve);
    *d = rt_table;
    return rt_found;
}

/* The first driver error since launch preparation began (sc_rt_launch_begin names it
 * when the preparation fails); used under sc_ctx.lock. */
static CUresult rt_first_error;

static bool cu_ok(CUresult r)
{
    if (r != CUDA_SUCCESS && rt_first_error == CUDA_SUCCESS)
        rt_first_error = r;
    return r == CUDA_SUCCESS;
}

/* Zeroed device memory, counted as scord's. */
static bool dev_zalloc(const ScDrvRt *d, size_t bytes, CUdeviceptr *out)
{
    if (!cu_ok(d->mem_alloc(out, bytes)))
        return false;
    return cu_ok(d->memset_d8(*out, 0, bytes));
}

/* Clock rows that know every warp (or lane) at one value: the clocks an asynchronous
 * copy's thread had when it issued the copy, which the runtime keeps as values only. */
static bool fill_const_rows(const ScDrvRt *d, CUdeviceptr *out)
{
    static uint16_t rows[SC_DEV_CONST_ROWS][32];
    sc_dev_fill_const_rows(rows);
    return dev_zalloc(d, sizeof rows, out) && cu_ok(d->htod(*out, rows, sizeof rows));
}

/* The options every context's runtime follows (sc_rt_configure). */
static struct {
    ScShadowMode shadow_mode; /* the shadow option */
    uint32_t cache_mb;        /* the cache_mb option: 0 sizes the cache by what it serves */
    uint32_t cut;             /* SC_DEV_CUT_* of the cut option */
} rt_config;

/* The device state of each context scord has set up, guarded by the context lock. */
static ScRuntime *runtimes[SC_RT_CONTEXTS];
static bool runtimes_full_said;

/* The fixed part of a context's device state, made in the current context. */
static bool rt_setup(const ScDrvRt *d, ScRuntime *rt)
{
    int sms = sc_current_device_sm_count();
    /* %smid may exceed the number of SMs (ids need not be contiguous). */
    rt->sm_ids = sms > 0 ? 2u * (unsigned)sms : 512u;
    rt->tables = calloc(DIR_ENTRIES, sizeof *rt->tables);
    rt->table_dev = calloc(DIR_ENTRIES, sizeof *rt->table_dev);
    rt->records_cap = RECORDS_CAP;
    if (!rt->tables || !rt->table_dev || !dev_zalloc(d, sizeof(ScDevLaunch), &rt->launch) ||
        !dev_zalloc(d, rt->sm_ids * sizeof(uint64_t), &rt->bitmap) ||
        !dev_zalloc(d, DIR_ENTRIES * sizeof(uint64_t), &rt->dir) ||
        !dev_zalloc(d, rt->records_cap * sizeof(ScDevRecord), &rt->records) ||
        !dev_zalloc(d, SYNC_TABLE_BYTES, &rt->sync_table) ||
        !dev_zalloc(d, ((size_t)1 << SC_DEV_SYNC_NODES_BITS) * sizeof(ScDevSyncNode), &rt->sync_nodes) ||
        !dev_zalloc(d, ((size_t)1 << SC_DEV_TRAILS_BITS) * sizeof(ScDevTrail), &rt->trails) ||
#ifdef SC_DEVRT_PROFILE
        !dev_zalloc(d, rt->sm_ids * SC_DEV_PROF_COUNT * sizeof(uint64_t), &rt->prof) ||
#endif
        !fill_const_rows(d, &rt->const_rows)) {
        rt->failed = true;
        sc_log("scord: cannot set up the device runtime (out of device memory?); nothing "
               "will be checked in this context\n");
        return false;
    }
    rt->ready = true;
    return true;
}

/* Frees the host memory of a runtime whose context is gone (its device memory went
 * with the context). */
static void rt_forget(ScRuntime *rt)
{
    if (!rt)
        return;
    for (size_t di = 0; rt->tables && di < DIR_ENTRIES; di++)
        free(rt->tables[di]);
    free(rt->tables);
    free(rt->table_dev);
    free(rt->prior_dir_host);
    free(rt);
}

/* Whether the runtime's context has been destroyed (cuCtxDestroy, cudaDeviceReset):
 * its handle no longer names it. */
static bool context_gone(const ScDrvRt *d, const ScRuntime *rt)
{
    unsigned long long id = 0;
    return d->ctx_get_id(rt->ctx, &id) != CUDA_SUCCESS || id != rt->ctx_id;
}

/* The runtime of the current context, set up when `make` and it has none yet; NULL
 * when no context is current, when its set-up failed, or when SC_RT_CONTEXTS contexts
 * hold device state already (said once), and without `make` when it has none. The
 * caller holds the context lock. */
static ScRuntime *rt_current(const ScDrvRt *d, bool make)
{
    CUcontext ctx = NULL;
    unsigned long long id = 0;
    if (!cu_ok(d->ctx_get_current(&ctx)) || !ctx || !cu_ok(d->ctx_get_id(ctx, &id)))
        return NULL;
    for (size_t i = 0; i < SC_RT_CONTEXTS; i++)
        if (runtimes[i] && runtimes[i]->ctx_id == id)
            return runtimes[i]->ready ? runtimes[i] : NULL;
    if (!make)
        return NULL;
    size_t slot = 0;
    while (slot < SC_RT_CONTEXTS && runtimes[slot] && !context_gone(d, runtimes[slot]))
        slot++;
    if (slot == SC_RT_CONTEXTS) {
        if (!runtimes_full_said)
            sc_log("scord: the program uses more than %d CUDA contexts at once: launches and "
                   "allocations in the others are not checked\n",
                   SC_RT_CONTEXTS);
        runtimes_full_said = true;
        return NULL;
    }
    ScRuntime *rt = calloc(1, sizeof *rt);
    if (!rt)
        return NULL;
    rt_forget(runtimes[slot]);
    runtimes[slot] = rt;
    rt->ctx = ctx;
    rt->ctx_id = id;
    if (!rt_setup(d, rt))
        return NULL;
    sc_vlog("scord: device state set up for context %llu\n", id);
    return rt;
}

uint32_t sc_rt_split_cap(void)
{
    uint32_t cap = 0;
    for (size_t i = 0; i < SC_RT_CONTEXTS; i++)
        if (runtimes[i] && runtimes[i]->split_cap > cap)
            cap = runtimes[i]->split_cap;
    return cap;
}

void sc_rt_configure(const ScOptions *o)
{
    /* sc_options_set lets only full or cache in, and only the words of `cut`, in the
     * order of this table. */
    rt_config.shadow_mode = strcmp(o->shadow, "cache") == 0 ? SC_SHADOW_MODE_CACHE : SC_SHADOW_MODE_FULL;
    rt_config.cache_mb = (uint32_t)o->cache_mb;
    static const uint32_t cuts[] = {SC_DEV_CUT_NONE, SC_DEV_CUT_HOOKS, SC_DEV_CUT_ACCESS,
                                    SC_DEV_CUT_GROUPING, SC_DEV_CUT_SHADOW};
    int i = sc_options_choice("cut", o->cut);
    if (i < 0 || i >= (int)SC_ARRAY_LEN(cuts))
        i = 0;
    rt_config.cut = cuts[i];
    if (i != 0)
        sc_log("scord: cut=%s: checks stop there, races are missed (a measurement, not a check)\n",
               o->cut);
}

/* Free and total device memory, or UINT64_MAX and 0 when the driver cannot say (the
 * allocation itself then decides; see sc_shadow_keeps_headroom). */
static void device_memory(const ScDrvRt *d, uint64_t *free_bytes, uint64_t *total)
{
    size_t f = 0, t = 0;
    bool known = cu_ok(d->mem_get_info(&f, &t)) && t > 0;
    *free_bytes = known ? f : UINT64_MAX;
    *total = known ? t : 0;
}

/* Full shadow of `bytes`, when the policy gives it and the device does. */
static bool full_shadow(const ScDrvRt *d, uint64_t bytes, CUdeviceptr *out)
{
    if (sc_ctx.fault_shadow_oom)
        return false;
    uint64_t free_bytes, total;
    device_memory(d, &free_bytes, &total);
    return sc_shadow_full(rt_config.shadow_mode, free_bytes, total, bytes) &&
           dev_zalloc(d, bytes, out);
}

/* Entries [lo, hi) of chunk table di, host to device. */
static bool copy_entries(const ScDrvRt *d, const ScRuntime *rt, size_t di, size_t lo, size_t hi)
{
    size_t at = lo * sizeof(uint64_t);
    return hi == lo || cu_ok(d->htod(rt->table_dev[di] + at, rt->tables[di] + lo, (hi - lo) * sizeof(uint64_t)));
}

bool sc_rt_track_alloc(uint64_t base, uint64_t size)
{
    ScDrvRt d;
    /* The current context's memory: cuMemAlloc allocates there. */
    ScRuntime *rt = size && rt_driver(&d) ? rt_current(&d, true) : NULL;
    if (!rt)
        return false;
    uint64_t first = base >> SC_SHADOW_CHUNK_SHIFT;
    uint64_t last = (base + size - 1) >> SC_SHADOW_CHUNK_SHIFT;
    if ((last >> SC_SHADOW_CHUNK_BITS) >= DIR_ENTRIES)
        return false;
    /* One device allocation for every chunk of the range that has no shadow yet
     * (small allocations share chunks, so some may have it already). */
    size_t missing = 0;
    for (uint64_t c = first; c <= last; c++) {
        const uint64_t *table = rt->tables[c >> SC_SHADOW_CHUNK_BITS];
        if (!table || !table[c & (TABLE_ENTRIES - 1)])
            missing++;
    }
    if (missing == 0)
        return true;
    CUdeviceptr shadow = 0;
    bool full = full_shadow(&d, missing * CHUNK_SHADOW_BYTES, &shadow);
    if (full)
        rt->full_chunks += missing;
    else
        rt->cached_bytes += (uint64_t)missing * SC_SHADOW_CHUNK_BYTES;
    for (uint64_t c = first; c <= last;) {
        size_t di = (size_t)(c >> SC_SHADOW_CHUNK_BITS);
        if (!rt->tables[di]) {
            rt->tables[di] = calloc(TABLE_ENTRIES, sizeof(uint64_t));
            if (!rt->tables[di] ||
                !dev_zalloc(&d, TABLE_ENTRIES * sizeof(uint64_t), &rt->table_dev[di])) {
                free(rt->tables[di]);
                rt->tables[di] = NULL;
                return false;
            }
            uint64_t entry = rt->table_dev[di];
            if (!cu_ok(d.htod(rt->dir + di * sizeof(uint64_t), &entry, sizeof entry)))
                return false;
        }
        /* Fill this table's part of the range, copying each run of new entries once.
         * Only new ones: the host's copy of an entry that has shadow already may lack
         * the used mark the device set in the last launch (read back only when the
         * next launch begins), and writing it back would keep that launch's shadow
         * from being cleared (a Thrust program's select kernel met the writes of the
         * fill kernel before it, in a chunk a temporary allocation shared). */
        uint64_t *table = rt->tables[di];
        size_t lo = (size_t)(c & (TABLE_ENTRIES - 1)), run = lo;
        for (; c <= last && (size_t)(c >> SC_SHADOW_CHUNK_BITS) == di; c++, lo++) {
            if (table[lo]) {
                if (!copy_entries(&d, rt, di, run, lo))
                    return false;
                run = lo + 1;
                continue;
            }
            /* A cached chunk comes marked used: the device never marks it, the host
             * never clears it (the cache's epochs do). */
            table[lo] = full ? shadow : SC_SHADOW_CACHED | SC_SHADOW_DIRTY;
            if (full)
                shadow += CHUNK_SHADOW_BYTES;
        }
        if (!copy_entries(&d, rt, di, run, lo))
            return false;
    }
    return true;
}

/* ---- instrumented launches -------------------------------------------------- */

typedef struct ScDrvLaunch {
    CUresult (*func_get_module)(CUmodule *, CUfunction);
    CUresult (*kernel_get_function)(CUfunction *, CUkernel);
    CUresult (*module_get_global)(CUdeviceptr *, size_t *, CUmodule, const char *);
    CUresult (*occupancy)(int *, CUfunction, int, size_t);
    CUresult (*func_get_attribute)(int *, CUfunction_attribute, CUfunction);
    CUresult (*func_get_name)(const char **, CUfunction);
    CUresult (*stream_sync)(CUstream);
    CUresult (*stream_is_capturing)(CUstream, CUstreamCaptureStatus *);
} ScDrvLaunch;

static ScDrvLaunch launch_table;
static bool launch_found;

static void launch_resolve(void)
{
    ScDrvLaunch *d = &launch_table;
    *(void **)&d->func_get_module = sc_driver_sym("cuFuncGetModule");
    *(void **)&d->kernel_get_function = sc_driver_sym("cuKernelGetFunction");
    *(void **)&d->module_get_global = sc_driver_sym("cuModuleGetGlobal_v2");
    *(void **)&d->occupancy = sc_driver_sym("cuOccupancyMaxActiveBlocksPerMultiprocessor");
    *(void **)&d->func_get_attribute = sc_driver_sym("cuFuncGetAttribute");
    *(void **)&d->func_get_name = sc_driver_sym("cuFuncGetName");
    *(void **)&d->stream_sync = sc_driver_sym("cuStreamSynchronize");
    *(void **)&d->stream_is_capturing = sc_driver_sym("cuStreamIsCapturing");
    launch_found = d->func_get_module && d->module_get_global && d->occupancy && d->func_get_attribute &&
                   d->func_get_name && d->stream_sync;
}

static bool launch_driver(ScDrvLaunch *d)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, launch_resolve);
    *d = launch_table;
    return launch_found;
}

/* What a kernel's module tells the launch about its code (its marker variables). */
typedef struct ScKernelCode {
    bool async;          /* issues cp.async: its launches get per-thread queues */
    bool subword_global; /* has sub-word accesses that may reach global memory: its
                            launches get a split pool for every word of full shadow */
    bool subword_shared; /* ... that may reach shared memory: its launches get split
                            groups for every word of each slot's own shared memory */
} ScKernelCode;

/* The __scord_state variable of f's module, 0 when f is not scord's code, and what the
 * module's markers say (SC_ABI_ASYNC_MARKER, SC_ABI_SUBWORD_*_MARKER). A launch may pass
 * a CUkernel where a CUfunction is expected (CUDA 12+). */
static CUdeviceptr state_var(const ScDrvLaunch *d, CUfunction *f, ScKernelCode *code)
{
    CUmodule mod;
    if (d->func_get_module(&mod, *f) != CUDA_SUCCESS) {
        CUfunction g;
        if (!d->kernel_get_function || d->kernel_get_function(&g, (CUkernel)*f) != CUDA_SUCCESS ||
            d->func_get_module(&mod, g) != CUDA_SUCCESS)
            return 0;
        *f = g;
    }
    CUdeviceptr var = 0, marker = 0;
    size_t bytes = 0, marker_bytes = 0;
    if (d->module_get_global(&var, &bytes, mod, "__scord_state") != CUDA_SUCCESS ||
        bytes != sizeof(uint64_t))
        return 0;
    code->async = d->module_get_global(&marker, &marker_bytes, mod, SC_ABI_ASYNC_MARKER) == CUDA_SUCCESS;
    code->subword_global =
        d->module_get_global(&marker, &marker_bytes, mod, SC_ABI_SUBWORD_GLOBAL_MARKER) == CUDA_SUCCESS;
    code->subword_shared =
        d->module_get_global(&marker, &marker_bytes, mod, SC_ABI_SUBWORD_SHARED_MARKER) == CUDA_SUCCESS;
    return var;
}

/* Grows one of the per-slot buffers to at least `bytes`. */
static bool ensure(const ScDrvRt *d, CUdeviceptr *buf, size_t *have, size_t bytes)
{
    if (*have >= bytes)
        return true;
    /* The old buffer is not freed: cuMemFree would synchronize the device, and the
     * sizes settle after the first few launches. */
    size_t cap = bytes < 2 * *have ? 2 * *have : bytes;
    if (!dev_zalloc(d, cap, buf))
        return false;
    *have = cap;
    return true;
}

/* Reads the chunk tables back into their host mirrors: the device marks in them the
 * chunks a launch used (SC_SHADOW_DIRTY). */
static bool read_chunk_tables(const ScDrvRt *d, ScRuntime *rt)
{
    for (size_t di = 0; di < DIR_ENTRIES; di++)
        if (rt->tables[di] &&
            !cu_ok(d->dtoh(rt->tables[di], rt->table_dev[di], TABLE_ENTRIES * sizeof(uint64_t))))
            return false;
    return true;
}

/* Clears the shadow of every chunk the last launch used, so that kernel boundaries
 * order everything: those read_chunk_tables found marked. The chunks of one allocation
 * have consecutive shadow, so a run of them is one memset: one per chunk cost
 * `reduce_block`'s 1,024 chunks about 1,024 memset calls per launch. A run ends where
 * its shadow allocation does: the shadow of two tracked allocations may lie back to
 * back, and the driver refuses a memset across the boundary (three CUB/Thrust programs
 * had a late launch that could not be prepared, after which nothing more was checked;
 * not since runs stop at the boundary). */
static bool clear_dirty_chunks(const ScDrvRt *d, ScRuntime *rt)
{
    CUdeviceptr run = 0, run_limit = 0;
    size_t run_bytes = 0;
    for (size_t di = 0; di < DIR_ENTRIES; di++) {
        uint64_t *table = rt->tables[di];
        if (!table)
            continue;
        bool changed = false;
        for (size_t t = 0; t < TABLE_ENTRIES; t++) {
            if (!(table[t] & SC_SHADOW_DIRTY) || (table[t] & SC_SHADOW_CACHED))
                continue;
            table[t] &= ~SC_SHADOW_DIRTY;
            changed = true;
            if (run_bytes && table[t] == run + run_bytes && table[t] < run_limit) {
                run_bytes += CHUNK_SHADOW_BYTES;
                continue;
            }
            if (run_bytes && !cu_ok(d->memset_d8(run, 0, run_bytes)))
                return false;
            run = table[t];
            run_bytes = CHUNK_SHADOW_BYTES;
            CUdeviceptr base = 0;
            size_t size = 0;
            run_limit = cu_ok(d->mem_range(&base, &size, run)) ? base + size : run + run_bytes;
        }
        if (changed &&
            !cu_ok(d->htod(rt->table_dev[di], table, TABLE_ENTRIES * sizeof *table)))
            return false;
    }
    return !run_bytes || cu_ok(d->memset_d8(run, 0, run_bytes));
}

static unsigned long long mib(uint64_t bytes)
{
    return (unsigned long long)((bytes + ((uint64_t)1 << 20) - 1) >> 20);
}

/* A chunk-table entry whose shadow of its own the last launch used. */
static bool used_own_shadow(uint64_t entry)
{
    return (entry & SC_SHADOW_DIRTY) && !(entry & SC_SHADOW_CACHED) && (entry & ~SC_SHADOW_FLAGS);
}

/* A programmatically dependent launch: copies the shadow the grid before it left in
 * the chunks it used (read_chunk_tables found them marked; clear_dirty_chunks clears
 * them next) and its split pool, and
 * builds a directory over the copies, so that the accesses its threads make before
 * griddepcontrol.wait are checked against that grid's (docs/devrt.md, "The
 * prerequisite grid"). Words of cached chunks are not kept. False when the device
 * cannot hold the copy while keeping its headroom, or a copy fails: the launch is then
 * checked as if it depended on nothing. */
static bool keep_prior(const ScDrvRt *d, ScRuntime *rt)
{
    const size_t table_bytes = TABLE_ENTRIES * sizeof(uint64_t);
    size_t chunks = 0, dirs = 0;
    for (size_t di = 0; di < DIR_ENTRIES; di++) {
        const uint64_t *table = rt->tables[di];
        if (!table)
            continue;
        size_t n = 0;
        for (size_t t = 0; t < TABLE_ENTRIES; t++)
            n += used_own_shadow(table[t]);
        chunks += n;
        dirs += n != 0;
    }
    size_t split_bytes = (size_t)rt->last_split_used * 8 * sizeof(uint64_t);
    uint64_t want = (uint64_t)chunks * CHUNK_SHADOW_BYTES + dirs * table_bytes + split_bytes +
                    (rt->prior_dir ? 0 : DIR_ENTRIES * sizeof(uint64_t));
    uint64_t free_bytes, total;
    device_memory(d, &free_bytes, &total);
    uint64_t *tabs = calloc(dirs ? dirs * TABLE_ENTRIES : 1, sizeof *tabs);
    if (!rt->prior_dir_host)
        rt->prior_dir_host = calloc(DIR_ENTRIES, sizeof *rt->prior_dir_host);
    bool ok = tabs && rt->prior_dir_host && sc_shadow_keeps_headroom(free_bytes, total, want) &&
              (rt->prior_dir || dev_zalloc(d, DIR_ENTRIES * sizeof(uint64_t), &rt->prior_dir)) &&
              ensure(d, &rt->prior_tables, &rt->prior_tables_bytes, dirs * table_bytes) &&
              ensure(d, &rt->prior_shadow, &rt->prior_shadow_bytes, chunks * CHUNK_SHADOW_BYTES) &&
              ensure(d, &rt->prior_split, &rt->prior_split_bytes, split_bytes);
    if (ok) {
        memset(rt->prior_dir_host, 0, DIR_ENTRIES * sizeof *rt->prior_dir_host);
        size_t j = 0, k = 0;
        for (size_t di = 0; ok && di < DIR_ENTRIES; di++) {
            const uint64_t *table = rt->tables[di];
            if (!table)
                continue;
            uint64_t *tab = tabs + j * TABLE_ENTRIES;
            for (size_t t = 0; ok && t < TABLE_ENTRIES; t++) {
                if (!used_own_shadow(table[t]))
                    continue;
                CUdeviceptr copy = rt->prior_shadow + k++ * CHUNK_SHADOW_BYTES;
                ok = cu_ok(d->dtod(copy, table[t] & ~SC_SHADOW_FLAGS, CHUNK_SHADOW_BYTES));
                tab[t] = copy;
                rt->prior_dir_host[di] = rt->prior_tables + j * table_bytes;
            }
            j += rt->prior_dir_host[di] != 0;
        }
        ok = ok && (!dirs || cu_ok(d->htod(rt->prior_tables, tabs, dirs * table_bytes))) &&
             cu_ok(d->htod(rt->prior_dir, rt->prior_dir_host, DIR_ENTRIES * sizeof(uint64_t))) &&
             (!split_bytes || cu_ok(d->dtod(rt->prior_split, rt->split_pool, split_bytes)));
    }
    free(tabs);
    if (!ok && !rt->prior_warned) {
        rt->prior_warned = true;
        sc_log("scord: cannot keep the shadow of a grid for a launch that may overlap it (%llu "
               "MiB): the accesses of a programmatic launch before griddepcontrol.wait, or of a "
               "launch on a stream not ordered after that grid's, are not checked against that "
               "grid's\n",
               mib(want));
    }
    return ok;
}

/* Reads device memory on scord's own non-blocking stream. A synchronous copy runs on
 * the legacy stream and waits for the program's blocking streams, one of which may
 * wait for the host (a stream memory wait, an event not yet recorded): this waits for
 * nothing of the program's. The caller holds the context lock. */
static bool own_read(const ScDrvRt *d, ScRuntime *rt, void *dst, CUdeviceptr src, size_t bytes)
{
    if (!rt->own_stream && !cu_ok(d->stream_create(&rt->own_stream, CU_STREAM_NON_BLOCKING)))
        return false;
    return cu_ok(d->dtoh_async(dst, src, bytes, rt->own_stream)) && cu_ok(d->stream_sync(rt->own_stream));
}

/* The races of one row of a copy with the checked launch whose shadow lies over it
 * (the latest), read back chunk by chunk where that launch marked the chunk (the chunk
 * tables, read back already): the shadow words (and the byte cells of split ones) over
 * the row. False when a read fails. */
static bool scan_row(const ScDrvRt *d, ScRuntime *rt, const ScHostCopy *c, bool copy_later,
                     const ScRecordLaunch *rl, ScCopyRaces *acc)
{
    static uint64_t shadow[SC_SHADOW_CHUNK_WORDS];
    uint64_t end = c->base + c->size;
    for (uint64_t addr = c->base & ~(uint64_t)3; addr < end;) {
        uint64_t chunk_end = (addr | (SC_SHADOW_CHUNK_BYTES - 1)) + 1, stop = end < chunk_end ? end : chunk_end;
        const uint64_t *table = rt->tables[addr >> SC_SHADOW_DIR_SHIFT];
        uint64_t entry = table ? table[(addr >> SC_SHADOW_CHUNK_SHIFT) & (TABLE_ENTRIES - 1)] : 0;
        size_t first = (addr & (SC_SHADOW_CHUNK_BYTES - 1)) >> 2, n = (size_t)((stop - addr + 3) >> 2);
        if (used_own_shadow(entry) &&
            !own_read(d, rt, shadow, (entry & ~SC_SHADOW_FLAGS) + first * 16, n * 16))
            return false;
        for (size_t i = 0; used_own_shadow(entry) && i < n; i++) {
            uint64_t word = shadow[2 * i], site = shadow[2 * i + 1], at = addr + 4 * i, cells[8];
            uint8_t mask = sc_hostrt_copy_mask(c, at);
            if (!word)
                continue;
            if (!sc_rules_is_split(word)) {
                sc_hostrt_copy_word(acc, c, copy_later, at, mask, word, site, false, rl);
                continue;
            }
            uint64_t group = sc_rules_split_index(word);
            if (group >= rt->split_cap || !own_read(d, rt, cells, rt->split_pool + group * sizeof cells, sizeof cells))
                continue;
            for (uint32_t b = 0; b < 4; b++)
                if (mask & (1u << b))
                    sc_hostrt_copy_word(acc, c, copy_later, at, (uint8_t)(1u << b), cells[2 * b],
                                        cells[2 * b + 1], true, rl);
        }
        addr = chunk_end;
    }
    return true;
}

/* The races of a copy with that launch: the chunk tables over the bytes it spans
 * read back, then row by row (a 2D copy's gaps are not read). */
static bool scan_copy(const ScDrvRt *d, ScRuntime *rt, const ScHostCopy *c, bool copy_later,
                      const ScRecordLaunch *rl, ScCopyRaces *acc)
{
    uint64_t rows = c->rows > 1 ? c->rows : 1, end = c->base + (rows - 1) * c->pitch + c->size;
    if (!c->size || end < c->base || (end - 1) >> SC_SHADOW_DIR_SHIFT >= DIR_ENTRIES)
        return true;
    for (uint64_t di = c->base >> SC_SHADOW_DIR_SHIFT; di <= (end - 1) >> SC_SHADOW_DIR_SHIFT; di++)
        if (rt->tables[di] &&
            !own_read(d, rt, rt->tables[di], rt->table_dev[di], TABLE_ENTRIES * sizeof(uint64_t)))
            return false;
    for (uint64_t r = 0; r < rows; r++) {
        ScHostCopy row = sc_hostrt_copy_row(c, r);
        if (!scan_row(d, rt, &row, copy_later, rl, acc))
            return false;
    }
    return true;
}

/* Races of copies with a launch that nothing orders with them: at most this many
 * records (one per instruction of the launch); words of more instructions count as
 * records not delivered where the launch's own are counted, and are not reported
 * where a copy meets the launch before it. */
#define COPY_RACES 64

void sc_rt_copy_issued(const ScHostCopy *ranges, size_t n, ScWork work)
{
    if (!sc_ctx.detect || !work.stream)
        return;
    /* A launch in flight holds the launch lock until its kernel has ended, and that
     * kernel may wait for this copy: the copy never waits for the lock. The shadow is
     * then that launch's own, not the one before's, so only its end compares the copy. */
    ScDrvRt d;
    if (!rt_driver(&d))
        return;
    bool locked = pthread_mutex_trylock(&sc_ctx.launch_lock) == 0;
    pthread_mutex_lock(&sc_ctx.lock);
    /* The copy's stream is the current context's (or the program's call failed). */
    ScRuntime *rt = rt_current(&d, true);
    if (!rt) {
        pthread_mutex_unlock(&sc_ctx.lock);
        if (locked)
            pthread_mutex_unlock(&sc_ctx.launch_lock);
        return;
    }
    ScRaceRecord recs[COPY_RACES];
    ScCopyRaces acc = {recs, 0, COPY_RACES, 0};
    if (locked && rt->last_checked && !sc_streams_before(rt->last_work, work)) {
        ScRecordLaunch rl = {
            .site_infos = sc_ctx.site_infos,
            .n_site_infos = sc_ctx.cap_site_infos,
            .report = sc_ctx.report,
        };
        memcpy(rl.grid, rt->last_grid, sizeof rl.grid);
        memcpy(rl.block, rt->last_block, sizeof rl.block);
        for (size_t i = 0; i < n; i++)
            if (!scan_copy(&d, rt, &ranges[i], true, &rl, &acc))
                break;
    }
    for (size_t i = 0; i < n; i++) {
        if (rt->n_copies < SC_RT_PENDING_COPIES)
            rt->copies[rt->n_copies++] = (ScPendingCopy){ranges[i], work};
        else
            rt->copies_unfollowed++;
    }
    ScBuf text = {0};
    ScErr err = {0};
    ScReportLaunch launch = {
        .kernel = rt->last_kernel,
        .number = rt->last_number,
        .grid = {rt->last_grid[0], rt->last_grid[1], rt->last_grid[2]},
        .block = {rt->last_block[0], rt->last_block[1], rt->last_block[2]},
    };
    if (acc.n && sc_ctx.report && !sc_report_add_late_races(sc_ctx.report, &launch, recs, acc.n, &text, &err))
        sc_log("scord: %s\n", err.msg);
    pthread_mutex_unlock(&sc_ctx.lock);
    if (locked)
        pthread_mutex_unlock(&sc_ctx.launch_lock);
    if (text.len)
        sc_log("%s", text.data);
    sc_buf_free(&text);
}

/* Allocates or grows the metadata cache to what the cached allocations want (as far
 * as the device keeps its headroom, devrt_policy.h) and gives this launch its epoch.
 * A cache that cannot be had is no failure: its chunks count as unchecked. False only
 * when the device fails a memset. */
static bool prepare_cache(const ScDrvRt *d, ScRuntime *rt)
{
    if (!rt->cached_bytes)
        return true;
    uint64_t free_bytes, total;
    device_memory(d, &free_bytes, &total);
    uint32_t want = sc_shadow_cache_want(rt->cached_bytes, rt_config.cache_mb);
    uint32_t have = rt->cache ? rt->cache_bits : 0;
    uint32_t bits = sc_shadow_cache_grow(have, want, free_bytes, total);
    CUdeviceptr fresh = 0;
    bool got = bits && dev_zalloc(d, sc_shadow_cache_bytes(bits), &fresh);
    if (!got && !rt->cache && bits > SC_SHADOW_CACHE_MIN_BITS) {
        bits = SC_SHADOW_CACHE_MIN_BITS;
        got = dev_zalloc(d, sc_shadow_cache_bytes(bits), &fresh);
    }
    if (got) {
        /* Nothing runs on the old cache now: checked launches run one at a time and
         * are waited for. A new cache starts empty, its epochs anew. */
        if (rt->cache)
            d->mem_free(rt->cache);
        rt->cache = fresh;
        rt->cache_bits = bits;
        rt->cache_epoch = 0;
        sc_vlog("scord: metadata cache of %llu MiB for %llu MiB of allocations\n",
                mib(sc_shadow_cache_bytes(bits)), mib(rt->cached_bytes));
    }
    if (!rt->cache_warned) {
        rt->cache_warned = true;
        if (!rt->cache)
            sc_log("scord: the device cannot give the metadata cache: accesses to %llu MiB "
                   "of allocations are not checked\n",
                   mib(rt->cached_bytes));
        else if (rt_config.shadow_mode == SC_SHADOW_MODE_FULL)
            sc_log("scord: device memory is short: %llu MiB of allocations checked through "
                   "the metadata cache; races may be missed\n",
                   mib(rt->cached_bytes));
    }
    if (!rt->cache)
        return true;
    if (rt->cache_epoch == SC_SHADOW_CACHE_EPOCHS) {
        /* The tags' epochs would repeat: an entry of a launch this many launches ago
         * must not read as this launch's. */
        if (!cu_ok(d->memset_d8(rt->cache, 0, sc_shadow_cache_bytes(rt->cache_bits))))
            return false;
        rt->cache_epoch = 0;
    }
    rt->cache_epoch++;
    return true;
}

/* The tensor maps the program encoded, to the device when they changed (a tensor copy
 * of a map the device does not have counts unchecked). False only when a copy fails. */
static bool send_tensor_maps(const ScDrvRt *d, ScRuntime *rt)
{
    const ScTensorMaps *maps = &sc_ctx.tensor_maps;
    if (rt->tensor_maps_version == maps->version)
        return true;
    if (!rt->tensor_maps_dev &&
        !dev_zalloc(d, SC_DEV_TENSOR_MAPS * sizeof(ScDevTensorMap), &rt->tensor_maps_dev))
        return true;
    rt->tensor_maps_version = maps->version;
    return cu_ok(d->htod(rt->tensor_maps_dev, maps->v, maps->n * sizeof(ScDevTensorMap)));
}

/* Gives the split pool the groups sc_split_groups wants for a launch of a kernel with
 * (or without) sub-word global accesses. A larger pool replaces the old one, whose
 * content no launch needs any more (keep_prior has copied it). */
static bool size_split_pool(const ScDrvRt *d, ScRuntime *rt, bool subword)
{
    uint64_t have = rt->split_pool ? rt->split_cap : 0;
    if (have && !subword)
        return true; /* most launches: no need to ask the driver for free memory */
    uint64_t free_bytes, total;
    device_memory(d, &free_bytes, &total);
    uint64_t want = sc_split_groups(have ? have : SC_SPLIT_MIN_GROUPS, subword, rt->full_chunks,
                                    free_bytes, total);
    if (want == have)
        return true;
    CUdeviceptr pool = 0;
    bool got = dev_zalloc(d, want * SC_SPLIT_GROUP_BYTES, &pool);
    if (!got && !have) {
        want = SC_SPLIT_MIN_GROUPS;
        got = dev_zalloc(d, want * SC_SPLIT_GROUP_BYTES, &pool);
    }
    if (!got) {
        if (!have)
            return false;
        if (!rt->split_warned)
            sc_vlog("scord: the split pool could not grow to %llu words; it keeps %llu\n",
                    (unsigned long long)want, (unsigned long long)have);
        rt->split_warned = true;
        return true;
    }
    if (rt->split_pool)
        d->mem_free(rt->split_pool);
    rt->split_pool = pool;
    rt->split_cap = (uint32_t)want;
    return true;
}

/* Gives the slot split area a group per word of `own_words` words of shared memory
 * for each of `slots` slots, or as many as sc_slot_split_groups allows; returns the
 * groups per slot it has (0: the pool's groups only). A larger area replaces the old
 * one, allocated at its size exactly: it can take gigabytes, and what was checked
 * against the headroom is what it takes. */
static uint32_t size_slot_split(const ScDrvRt *d, ScRuntime *rt, uint32_t own_words, size_t slots)
{
    if (slots * own_words * (size_t)SC_SPLIT_GROUP_BYTES <= rt->slot_split_bytes)
        return own_words; /* the area of an earlier launch holds it all */
    uint64_t free_bytes, total;
    device_memory(d, &free_bytes, &total);
    uint32_t cap = sc_slot_split_groups(own_words, slots, free_bytes, total);
    size_t bytes = slots * cap * (size_t)SC_SPLIT_GROUP_BYTES;
    if (bytes <= rt->slot_split_bytes)
        return cap;
    CUdeviceptr area = 0;
    if (!dev_zalloc(d, bytes, &area))
        return rt->slot_split_bytes / (slots * (size_t)SC_SPLIT_GROUP_BYTES);
    if (rt->slot_split)
        d->mem_free(rt->slot_split);
    rt->slot_split = area;
    rt->slot_split_bytes = bytes;
    return cap;
}

/* Whether the kernel filters and the launch range (--kernel-name, --launch-skip...)
 * let this launch of the kernel `name` (mangled, "" if unknown) be checked; counts it. */
static bool selected(const char *name)
{
    if (!sc_launch_select_narrows(&sc_ctx.select))
        return true;
    ScBuf demangled = {0}, plain = {0};
    pthread_mutex_lock(&sc_ctx.lock);
    sc_report_demangle(sc_ctx.report, name, &demangled);
    if (!demangled.oom && demangled.data)
        sc_report_short_name(demangled.data, &plain);
    ScKernelNameForms k = {name, demangled.oom ? NULL : demangled.data, plain.oom ? NULL : plain.data};
    bool chosen = sc_launch_select(&sc_ctx.select, &k);
    pthread_mutex_unlock(&sc_ctx.lock);
    sc_buf_free(&demangled);
    sc_buf_free(&plain);
    return chosen;
}

/* Instrumented code that runs unchecked (a graph launch, a launch the filters leave
 * out) runs with the runtime off, every hook returning at once, and alone: the launch
 * lock stays held until runtime_off_end has waited for it, so that no checked launch
 * turns the runtime on under it. Returns whether the end must be called (false: the
 * runtime was never set up, nothing to turn off). */
static bool runtime_off(const ScDrvRt *d)
{
    pthread_mutex_lock(&sc_ctx.launch_lock);
    pthread_mutex_lock(&sc_ctx.lock);
    ScRuntime *rt = rt_current(d, false);
    bool ready = rt != NULL;
    uint32_t off = 0;
    if (rt)
        d->htod(rt->launch + offsetof(ScDevLaunch, enabled), &off, sizeof off);
    pthread_mutex_unlock(&sc_ctx.lock);
    if (!ready)
        pthread_mutex_unlock(&sc_ctx.launch_lock);
    return ready;
}

/* Whether the kernel's module (its __scord_state variable) lives in the current
 * context, whose runtime the launch is given. A function of another context's module
 * (the program launched it with that context not current) would be handed addresses
 * of a context it cannot reach, and fault: it runs unchecked, said once. */
static bool module_in_current_context(const ScDrvRt *d, CUdeviceptr var)
{
    static bool said;
    CUcontext cur = NULL, owner = NULL;
    /* A driver that cannot say leaves it to the current context, as a launch does. */
    bool same = d->pointer_attr(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, var) != CUDA_SUCCESS ||
                (d->ctx_get_current(&cur) == CUDA_SUCCESS && owner == cur);
    if (!same && !__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
        sc_log("scord: a kernel was launched while another context than its module's was current: "
               "such launches are not checked\n");
    return same;
}

static void runtime_off_end(CUresult launch_result, CUstream stream)
{
    ScDrvLaunch dl;
    if (launch_driver(&dl) && launch_result == CUDA_SUCCESS)
        dl.stream_sync(stream);
    pthread_mutex_unlock(&sc_ctx.launch_lock);
}

bool sc_rt_stream_capturing(CUstream stream)
{
    ScDrvLaunch dl;
    CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
    return !launch_driver(&dl) || !dl.stream_is_capturing || dl.stream_is_capturing(stream, &capture) != CUDA_SUCCESS ||
           capture != CU_STREAM_CAPTURE_STATUS_NONE;
}

/* The roots of the reads of kernel `name` that this launch leaves out
 * (ScDevLaunch.readonly_roots, instr_roots.c): those whose value points into a tracked
 * allocation that no root the kernel writes through points into. None for a launch
 * that may overlap the grid or a copy before it (a programmatic one, or one on another
 * stream that nothing orders after it), whose writes its reads may meet. The caller
 * holds the context lock. */
static uint64_t readonly_roots(const char *name, void *const *params, bool overlaps)
{
    const ScKernelTrait *t = params && !overlaps && name[0] ? sc_kernel_trait(name) : NULL;
    return t ? sc_alloc_unwritten_roots(&sc_ctx.allocs, &t->roots, params) : 0;
}

bool sc_rt_launch_begin(CUfunction f, const unsigned grid[3], const unsigned block[3],
                        unsigned shmem, CUstream stream, bool programmatic, void *const *params,
                        ScLaunchCheck *chk)
{
    *chk = (ScLaunchCheck){0};
    ScDrvRt d;
    ScDrvLaunch dl;
    if (!sc_ctx.detect || !rt_driver(&d) || !launch_driver(&dl))
        return false;
    sc_track_pending_globals();
    /* A launch into a capturing stream becomes a graph node: it runs later, with
     * graph launches, and a synchronize now would invalidate the capture. */
    if (sc_rt_stream_capturing(stream))
        return false;
    /* Every launch, checked or not, is work that orders later work. */
    sc_streams_work(stream, &chk->work);
    ScKernelCode code = {0};
    CUdeviceptr var = state_var(&dl, &f, &code);
    if (!var || !module_in_current_context(&d, var))
        return false;
    const char *name = NULL; /* the driver's, whole (chk->kernel may cut it) */
    if (dl.func_get_name(&name, f) != CUDA_SUCCESS || !name)
        name = "";
    if (!selected(name)) {
        chk->left_out = runtime_off(&d);
        return false;
    }
    pthread_mutex_lock(&sc_ctx.launch_lock);
    pthread_mutex_lock(&sc_ctx.lock);
    rt_first_error = CUDA_SUCCESS;
    ScRuntime *rt = rt_current(&d, true);
    if (!rt) {
        /* Said where it was found: a failed set-up, too many contexts. */
        pthread_mutex_unlock(&sc_ctx.lock);
        pthread_mutex_unlock(&sc_ctx.launch_lock);
        return false;
    }
    const char *step = "";
    bool ok = true;
    uint32_t threads = block[0] * block[1] * block[2];
    int per_sm = 0, static_shared = 0;
    CUresult why = CUDA_SUCCESS;
    if (ok) {
        step = "asking for the kernel's occupancy";
        why = dl.occupancy(&per_sm, f, (int)threads, shmem);
        if (why == CUDA_SUCCESS)
            why = dl.func_get_attribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
        ok = why == CUDA_SUCCESS;
    }
    if (ok)
        step = "allocating per-block state";
    /* Four times the occupancy, up to 64: an SM frees a warp's registers when the warp
     * exits, so it can start a new block while earlier ones still finish their last
     * warps, each of them holding its slot (seen on the H100: 87% of reduce_block's
     * blocks found no slot with slots for the occupancy alone, and 62 to 2,305 of
     * 360,448 with twice it, their last warp slowed by a contended atomicAdd). */
    uint32_t slots_per_sm = per_sm < 1 ? 1 : per_sm > 16 ? 64 : 4u * (uint32_t)per_sm;
    size_t slots = (size_t)rt->sm_ids * slots_per_sm;
    /* The shared window of a block starts with memory the driver reserves (1 KiB on
     * sm_80 and later), so the program's offsets begin past it. */
    int reserved = sc_current_device_attribute(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
    size_t window = (size_t)(reserved > 0 ? reserved : 0) + (size_t)static_shared + shmem;
    uint32_t shared_words = (uint32_t)((window + 3) / 4);
    size_t warps = (threads + 31) / 32;
    ok = ok && ensure(&d, &rt->threads, &rt->threads_bytes, slots * threads * sizeof(ScDevThread)) &&
         (!code.async || ensure(&d, &rt->async, &rt->async_bytes, slots * threads * sizeof(ScDevAsync))) &&
         ensure(&d, &rt->blocks, &rt->blocks_bytes, slots * sizeof(ScDevBlock)) &&
         ensure(&d, &rt->warp_clocks, &rt->warp_clocks_bytes,
                slots * warps * sizeof(ScRulesWarpClk)) &&
         ensure(&d, &rt->shared_shadow, &rt->shared_bytes,
                slots * (size_t)shared_words * 2 * sizeof(uint64_t) + 8);
    uint32_t slot_split_cap = 0;
    if (ok && code.subword_shared) {
        /* The words the driver reserves at the window's start are never the program's. */
        uint32_t own_words = (uint32_t)(((size_t)static_shared + shmem + 3) / 4);
        slot_split_cap = size_slot_split(&d, rt, own_words, slots);
    }
    if (ok) {
        step = "reading the chunk tables back";
        ok = read_chunk_tables(&d, rt);
    }
    /* A dependent launch keeps the shadow of the grid it depends on before the reset. */
    bool dependent = ok && programmatic && rt->last_checked && sc_order_next(rt->last_work, chk->work) &&
                     keep_prior(&d, rt);
    /* A launch the one before is not ordered before (another stream, no event or
     * synchronize between them) meets that one's accesses with every thread; scord
     * ran that launch to its end already, but the program did not ask it to. */
    bool unordered = ok && !dependent && rt->last_checked && !sc_streams_before(rt->last_work, chk->work) &&
                     keep_prior(&d, rt);
    /* A copy issued before it that nothing orders before it meets its accesses when it
     * ends: its reads of memory it never writes are checked then too. */
    bool copy_unordered = false;
    for (size_t i = 0; i < rt->n_copies && !copy_unordered; i++)
        copy_unordered = !sc_streams_before(rt->copies[i].work, chk->work);
    if (dependent || unordered) {
        chk->dependent = dependent;
        chk->unordered = unordered;
        chk->prior_quiet = dependent && sc_kernel_never_triggers(rt->last_kernel);
        memcpy(chk->prior_grid, rt->last_grid, sizeof chk->prior_grid);
        memcpy(chk->prior_block, rt->last_block, sizeof chk->prior_block);
        memcpy(chk->prior_kernel, rt->last_kernel, sizeof chk->prior_kernel);
        chk->prior_number = rt->last_number;
    }
    rt->last_checked = false;
    if (ok) {
        /* After keep_prior, which copies the pool as the grid before left it. */
        step = "sizing the split pool";
        ok = size_split_pool(&d, rt, code.subword_global);
    }
    if (ok) {
        step = "sending the tensor maps";
        ok = send_tensor_maps(&d, rt);
    }
    if (ok) {
        step = "clearing the shadow the last launch used";
        ok = clear_dirty_chunks(&d, rt);
    }
    if (ok) {
        step = "preparing the metadata cache";
        ok = prepare_cache(&d, rt);
    }
    if (ok) {
        step = "clearing the slot map, the race records and the sync table";
        ok = cu_ok(d.memset_d8(rt->bitmap, 0, rt->sm_ids * sizeof(uint64_t))) &&
             cu_ok(d.memset_d8(rt->records, 0, rt->records_cap * sizeof(ScDevRecord))) &&
             cu_ok(d.memset_d8(rt->sync_table, 0, SYNC_TABLE_BYTES)) &&
#ifdef SC_DEVRT_PROFILE
             cu_ok(d.memset_d8(rt->prof, 0, rt->sm_ids * SC_DEV_PROF_COUNT * sizeof(uint64_t))) &&
#endif
             cu_ok(d.htod(var, &rt->launch, sizeof(uint64_t)));
    }
    ScDevLaunch desc = {
        .launch_tag = ++rt->launch_tag,
        .enabled = rt_config.cut != SC_DEV_CUT_HOOKS,
        .cut = rt_config.cut,
        .slots_per_sm = slots_per_sm,
        .threads_per_block = threads,
        .shared_words = shared_words,
        .records_cap = rt->records_cap,
        .sm_ids = rt->sm_ids,
        .slot_bitmap = rt->bitmap,
        .threads = rt->threads,
        .blocks = rt->blocks,
        .shared_shadow = rt->shared_shadow,
        .shadow_dir = rt->dir,
        .records = rt->records,
        .split_cap = rt->split_cap,
        .warp_clocks = rt->warp_clocks,
        .split_pool = rt->split_pool,
        .cache_epoch = rt->cache_epoch,
        .cache = rt->cache,
        .cache_bits = rt->cache_bits,
        .sync_table = rt->sync_table,
        .sync_nodes = rt->sync_nodes,
        .trails = rt->trails,
        .const_rows = rt->const_rows,
        .async = code.async ? rt->async : 0,
        .slot_split = slot_split_cap ? rt->slot_split : 0,
        .slot_split_cap = slot_split_cap,
        .prior_dir = dependent || unordered ? rt->prior_dir : 0,
        .prior_split = dependent || unordered ? rt->prior_split : 0,
        .prior_unordered = unordered,
        .tensor_maps = rt->tensor_maps_dev,
        .n_tensor_maps = rt->tensor_maps_dev ? sc_ctx.tensor_maps.n : 0,
#ifdef SC_DEVRT_PROFILE
        .prof = rt->prof,
#endif
        .readonly_roots = readonly_roots(name, params, programmatic || unordered || copy_unordered),
    };
    if (ok) {
        step = "sending the launch descriptor";
        ok = cu_ok(d.htod(rt->launch, &desc, sizeof desc));
    }
    if (why == CUDA_SUCCESS)
        why = rt_first_error;
    pthread_mutex_unlock(&sc_ctx.lock);
    snprintf(chk->kernel, sizeof chk->kernel, "%s", name);
    if (!ok) {
        pthread_mutex_unlock(&sc_ctx.launch_lock);
        if (!rt->failed) {
            rt->failed = true;
            sc_log("scord: cannot prepare the device runtime for a launch of %s: %s failed (%s); "
                   "launches are no longer checked\n",
                   chk->kernel[0] ? chk->kernel : "a kernel", step,
                   why != CUDA_SUCCESS ? sc_cu_error(why) : "no driver error: scord's own limits");
        }
        return false;
    }
    chk->active = true;
    chk->rt = rt;
    chk->function = f;
    memcpy(chk->grid, grid, sizeof chk->grid);
    memcpy(chk->block, block, sizeof chk->block);
    return true;
}

#ifdef SC_DEVRT_PROFILE
/* The launch's section timers, summed over SMs into the run's. */
static void add_profile(const ScDrvRt *d, ScRuntime *rt)
{
    size_t n = rt->sm_ids * SC_DEV_PROF_COUNT;
    uint64_t *rows = malloc(n * sizeof *rows);
    if (rows && cu_ok(d->dtoh(rows, rt->prof, n * sizeof *rows)))
        for (size_t i = 0; i < n; i++)
            rt->prof_sum[i % SC_DEV_PROF_COUNT] += rows[i];
    free(rows);
}

void sc_rt_print_profile(void)
{
    static const char *const names[] = {
#define SC_DEV_PROF_NAME(id, what) #id,
        SC_DEV_PROF_LIST(SC_DEV_PROF_NAME)
#undef SC_DEV_PROF_NAME
    };
    static const char *const whats[] = {
#define SC_DEV_PROF_WHAT(id, what) what,
        SC_DEV_PROF_LIST(SC_DEV_PROF_WHAT)
#undef SC_DEV_PROF_WHAT
    };
    for (int k = 0; k < SC_DEV_PROF_COUNT; k++) {
        unsigned long long sum = 0;
        for (size_t i = 0; i < SC_RT_CONTEXTS; i++)
            sum += runtimes[i] ? runtimes[i]->prof_sum[k] : 0;
        sc_log("scord-profile: %s %llu (%s)\n", names[k], sum, whats[k]);
    }
}
#endif

void sc_rt_launch_end(ScLaunchCheck *chk, CUresult launch_result, CUstream stream)
{
    ScDrvRt d;
    ScDrvLaunch dl;
    if (chk->left_out) {
        runtime_off_end(launch_result, stream);
        return;
    }
    if (!chk->active)
        return;
    rt_driver(&d);
    launch_driver(&dl);
    ScRuntime *rt = chk->rt;
    CUresult ran = launch_result == CUDA_SUCCESS ? dl.stream_sync(stream) : launch_result;
    if (ran != CUDA_SUCCESS) {
        /* Said once: a fault is sticky, and every later launch of the context fails too. */
        if (!rt->launch_failure_said) {
            rt->launch_failure_said = true;
            sc_log("scord: the checked launch of %s %s: %s; its races were not read\n",
                   chk->kernel[0] ? chk->kernel : "a kernel",
                   launch_result != CUDA_SUCCESS ? "could not start" : "failed while it ran",
                   sc_cu_error(ran));
        }
        pthread_mutex_unlock(&sc_ctx.launch_lock);
        return;
    }
    ScDevLaunch desc;
    ScDevRecord *dev = malloc(rt->records_cap * sizeof *dev);
    ScRaceRecord *recs = malloc((rt->records_cap + COPY_RACES) * sizeof *recs);
    size_t n = 0, withheld = 0;
    if (dev && recs && cu_ok(d.dtoh(&desc, rt->launch, sizeof desc)) &&
        cu_ok(d.dtoh(dev, rt->records, rt->records_cap * sizeof *dev))) {
        pthread_mutex_lock(&sc_ctx.lock); /* site_infos */
        ScRecordLaunch rl = {
            .dependent = chk->dependent,
            .prior_quiet = chk->prior_quiet,
            .unordered = chk->unordered,
            .site_infos = sc_ctx.site_infos,
            .n_site_infos = sc_ctx.cap_site_infos,
            .report = sc_ctx.report,
        };
        memcpy(rl.grid, chk->grid, sizeof rl.grid);
        memcpy(rl.block, chk->block, sizeof rl.block);
        memcpy(rl.prior_grid, chk->prior_grid, sizeof rl.prior_grid);
        memcpy(rl.prior_block, chk->prior_block, sizeof rl.prior_block);
        n = sc_hostrt_decode(dev, rt->records_cap, &rl, recs, &withheld);
        uint64_t dropped = desc.records_used > n + withheld ? desc.records_used - n - withheld : 0;
        /* The copies issued since the launch before meet this one's accesses where
         * nothing orders them before it. */
        ScCopyRaces copies = {recs + n, 0, COPY_RACES, 0};
        for (size_t i = 0; i < rt->n_copies; i++)
            if (!sc_streams_before(rt->copies[i].work, chk->work) &&
                !scan_copy(&d, rt, &rt->copies[i].range, false, &rl, &copies))
                break;
        rt->n_copies = 0;
        n += copies.n;
        dropped += copies.lost;
        if (rt->copies_unfollowed)
            sc_vlog("scord: %llu copies issued before a launch of %s were not compared with it "
                    "(more than %d since the checked launch before)\n",
                    (unsigned long long)rt->copies_unfollowed, chk->kernel, SC_RT_PENDING_COPIES);
        rt->copies_unfollowed = 0;
        ScReportLaunch launch = {
            .kernel = chk->kernel,
            .number = ++sc_ctx.checked_launches,
            .grid = {chk->grid[0], chk->grid[1], chk->grid[2]},
            .block = {chk->block[0], chk->block[1], chk->block[2]},
            .previous_kernel = chk->dependent || chk->unordered ? chk->prior_kernel : NULL,
            .previous_number = chk->prior_number,
        };
        ScBuf text = {0};
        ScErr err = {0};
        if (sc_ctx.report && !sc_report_add_launch(sc_ctx.report, &launch, recs, n, dropped,
                                                    &text, &err))
            sc_log("scord: %s\n", err.msg);
        rt->last_checked = true;
        memcpy(rt->last_kernel, chk->kernel, sizeof rt->last_kernel);
        rt->last_work = chk->work;
        rt->last_number = launch.number;
        memcpy(rt->last_grid, chk->grid, sizeof rt->last_grid);
        memcpy(rt->last_block, chk->block, sizeof rt->last_block);
        rt->last_split_used = desc.split_used < desc.split_cap ? desc.split_used : desc.split_cap;
        sc_ctx.unchecked_accesses += desc.unchecked_accesses;
        sc_ctx.unsplit_accesses += desc.unsplit_accesses;
        sc_ctx.async_unfollowed += desc.async_unfollowed;
        sc_ctx.unchecked_blocks += desc.unchecked_blocks;
#ifdef SC_DEVRT_PROFILE
        add_profile(&d, rt);
#endif
        if (desc.sync_lost)
            sc_vlog("scord: %s: %u flags lost their release chain to another flag in the sync "
                    "table (a false alarm is possible there)\n", chk->kernel, desc.sync_lost);
        if (desc.trails_lost)
            sc_vlog("scord: %s: %u shadow words kept no trail, the trail table's set was full "
                    "(a false alarm is possible there)\n", chk->kernel, desc.trails_lost);
        pthread_mutex_unlock(&sc_ctx.lock);
        if (text.len)
            sc_log("%s", text.data);
        sc_buf_free(&text);
    }
    free(dev);
    free(recs);
    pthread_mutex_unlock(&sc_ctx.launch_lock);
}

bool sc_rt_graph_begin(void)
{
    ScDrvRt d;
    return sc_ctx.detect && rt_driver(&d) && runtime_off(&d);
}

void sc_rt_graph_end(CUresult launch_result, CUstream stream)
{
    runtime_off_end(launch_result, stream);
}
