/* intercept_runtime.c: the host half of the device runtime: the device state of
 * the program's context and global-memory shadow for its allocations. */
#include <stdlib.h>
#include <string.h>

#include "devrt/devrt_state.h"
#include "intercept/intercept.h"
#include "intercept/intercept_runtime.h"

#define DIR_ENTRIES ((size_t)1 << SC_SHADOW_DIR_BITS)
#define TABLE_ENTRIES ((size_t)1 << SC_SHADOW_CHUNK_BITS)
#define CHUNK_SHADOW_BYTES ((size_t)SC_SHADOW_WORDS_PER_CHUNK * 8)
#define RECORDS_CAP 4096u

typedef struct ScDrvRt {
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*memset_d8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*htod)(CUdeviceptr, const void *, size_t);
    CUresult (*dtoh)(void *, CUdeviceptr, size_t);
    CUresult (*ctx_get_current)(CUcontext *);
} ScDrvRt;

static bool rt_driver(ScDrvRt *d)
{
    *(void **)&d->mem_alloc = sc_driver_real("cuMemAlloc_v2");
    *(void **)&d->memset_d8 = sc_driver_sym("cuMemsetD8_v2");
    *(void **)&d->htod = sc_driver_sym("cuMemcpyHtoD_v2");
    *(void **)&d->dtoh = sc_driver_sym("cuMemcpyDtoH_v2");
    *(void **)&d->ctx_get_current = sc_driver_sym("cuCtxGetCurrent");
    return d->mem_alloc && d->memset_d8 && d->htod && d->dtoh && d->ctx_get_current;
}

/* Zeroed device memory, counted as scord's. */
static bool dev_zalloc(const ScDrvRt *d, size_t bytes, CUdeviceptr *out)
{
    if (d->mem_alloc(out, bytes) != CUDA_SUCCESS)
        return false;
    if (d->memset_d8(*out, 0, bytes) != CUDA_SUCCESS)
        return false;
    sc_ctx.rt.shadow_bytes += bytes;
    return true;
}

/* The fixed part of the device state, made in the first context that needs it. */
static bool rt_setup(const ScDrvRt *d)
{
    ScRuntime *rt = &sc_ctx.rt;
    if (rt->ready || rt->failed)
        return rt->ready;
    CUcontext ctx = NULL;
    if (d->ctx_get_current(&ctx) != CUDA_SUCCESS || !ctx)
        return false;
    int sms = sc_current_device_sm_count();
    /* %smid may exceed the number of SMs (ids need not be contiguous). */
    rt->sm_ids = sms > 0 ? 2u * (unsigned)sms : 512u;
    rt->tables = calloc(DIR_ENTRIES, sizeof *rt->tables);
    rt->table_dev = calloc(DIR_ENTRIES, sizeof *rt->table_dev);
    rt->records_cap = RECORDS_CAP;
    if (!rt->tables || !rt->table_dev || !dev_zalloc(d, sizeof(ScDevLaunch), &rt->launch) ||
        !dev_zalloc(d, rt->sm_ids * sizeof(uint32_t), &rt->bitmap) ||
        !dev_zalloc(d, DIR_ENTRIES * sizeof(uint64_t), &rt->dir) ||
        !dev_zalloc(d, rt->records_cap * sizeof(ScDevRecord), &rt->records)) {
        rt->failed = true;
        sc_log("scord: cannot set up the device runtime (out of device memory?); nothing "
               "will be checked\n");
        return false;
    }
    rt->ctx = ctx;
    rt->ready = true;
    return true;
}

bool sc_rt_track_alloc(uint64_t base, uint64_t size)
{
    ScRuntime *rt = &sc_ctx.rt;
    ScDrvRt d;
    if (size == 0 || !rt_driver(&d) || !rt_setup(&d))
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
    CUdeviceptr shadow;
    if (!dev_zalloc(&d, missing * CHUNK_SHADOW_BYTES, &shadow)) {
        if (rt->shadow_failures++ == 0)
            sc_log("scord: the device cannot give shadow memory for a %llu-byte allocation; "
                   "accesses to it are not checked\n",
                   (unsigned long long)size);
        return false;
    }
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
            if (d.htod(rt->dir + di * sizeof(uint64_t), &entry, sizeof entry) != CUDA_SUCCESS)
                return false;
        }
        /* Fill this table's part of the range, then copy that part once. */
        uint64_t *table = rt->tables[di];
        size_t lo = (size_t)(c & (TABLE_ENTRIES - 1)), hi = lo;
        for (; c <= last && (size_t)(c >> SC_SHADOW_CHUNK_BITS) == di; c++, hi++) {
            if (!table[hi]) {
                table[hi] = shadow;
                shadow += CHUNK_SHADOW_BYTES;
            }
        }
        if (d.htod(rt->table_dev[di] + lo * sizeof(uint64_t), table + lo,
                   (hi - lo) * sizeof(uint64_t)) != CUDA_SUCCESS)
            return false;
    }
    return true;
}
