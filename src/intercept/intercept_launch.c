/* intercept_launch.c: kernel launches, device allocations and tensor maps as the
 * program makes them: launches are counted per entry point, allocations kept in the
 * table that reports use to name a global address, tensor maps in the table the
 * runtime checks tensor copies with. */
#include <string.h>

#include "intercept/intercept.h"
#include "intercept/intercept_graphs.h"
#include "intercept/intercept_streams.h"

static void count_launch(unsigned long *counter, CUresult r)
{
    if (r == CUDA_SUCCESS)
        __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

CUresult on_cuLaunchKernel(ScReal_cuLaunchKernel real, CUfunction f, unsigned int gx,
                           unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by,
                           unsigned int bz, unsigned int shmem, CUstream stream, void **params,
                           void **extra)
{
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    ScLaunchCheck chk;
    sc_rt_launch_begin(f, grid, block, shmem, stream, false, params, &chk);
    CUresult r = real(f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra);
    count_launch(&sc_ctx.launches, r);
    sc_rt_launch_end(&chk, r, stream);
    return r;
}

/* Programmatic dependent launch: the launch may begin before the grid before it in
 * its stream ends (only griddepcontrol.wait waits for it). */
static bool programmatic(const CUlaunchConfig *config)
{
    for (unsigned i = 0; config->attrs && i < config->numAttrs; i++)
        if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION &&
            config->attrs[i].value.programmaticStreamSerializationAllowed)
            return true;
    return false;
}

CUresult on_cuLaunchKernelEx(ScReal_cuLaunchKernelEx real, const CUlaunchConfig *config,
                             CUfunction f, void **params, void **extra)
{
    ScLaunchCheck chk = {0};
    if (config) {
        const unsigned grid[3] = {config->gridDimX, config->gridDimY, config->gridDimZ};
        const unsigned block[3] = {config->blockDimX, config->blockDimY, config->blockDimZ};
        sc_rt_launch_begin(f, grid, block, config->sharedMemBytes, config->hStream,
                           programmatic(config), params, &chk);
    }
    CUresult r = real(config, f, params, extra);
    count_launch(&sc_ctx.launches, r);
    sc_rt_launch_end(&chk, r, config ? config->hStream : NULL);
    return r;
}

CUresult on_cuLaunchCooperativeKernel(ScReal_cuLaunchCooperativeKernel real, CUfunction f,
                                      unsigned int gx, unsigned int gy, unsigned int gz,
                                      unsigned int bx, unsigned int by, unsigned int bz,
                                      unsigned int shmem, CUstream stream, void **params)
{
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    ScLaunchCheck chk;
    sc_rt_launch_begin(f, grid, block, shmem, stream, false, params, &chk);
    CUresult r = real(f, gx, gy, gz, bx, by, bz, shmem, stream, params);
    count_launch(&sc_ctx.launches, r);
    sc_rt_launch_end(&chk, r, stream);
    return r;
}

CUresult on_cuGraphLaunch(ScReal_cuGraphLaunch real, CUgraphExec exec, CUstream stream)
{
    CUresult checked;
    if (sc_graphs_launch(exec, stream, &checked)) {
        count_launch(&sc_ctx.graph_launches, checked);
        count_launch(&sc_ctx.graph_launches_checked, checked);
        return checked;
    }
    bool wait = sc_rt_graph_begin();
    CUresult r = real(exec, stream);
    count_launch(&sc_ctx.graph_launches, r);
    if (r == CUDA_SUCCESS)
        sc_streams_graph_launch(stream);
    if (wait)
        sc_rt_graph_end(r, stream);
    return r;
}

void sc_track_alloc(uint64_t base, uint64_t size, ScAllocKind kind)
{
    pthread_mutex_lock(&sc_ctx.lock);
    bool ok = sc_alloc_add(&sc_ctx.allocs, base, size, kind);
    if (sc_ctx.detect)
        sc_rt_track_alloc(base, size);
    pthread_mutex_unlock(&sc_ctx.lock);
    if (!ok)
        sc_log("scord: out of memory tracking device allocations; reports may not name "
               "the allocation of an address\n");
}

static void track_alloc(CUresult r, const CUdeviceptr *ptr, uint64_t size, ScAllocKind kind)
{
    if (r == CUDA_SUCCESS && ptr)
        sc_track_alloc((uint64_t)*ptr, size, kind);
}

static void untrack_alloc(CUresult r, CUdeviceptr ptr)
{
    if (r != CUDA_SUCCESS || !ptr)
        return;
    pthread_mutex_lock(&sc_ctx.lock);
    sc_alloc_remove(&sc_ctx.allocs, (uint64_t)ptr);
    pthread_mutex_unlock(&sc_ctx.lock);
}

CUresult on_cuMemAlloc(ScReal_cuMemAlloc real, CUdeviceptr *ptr, size_t size)
{
    CUresult r = real(ptr, size);
    track_alloc(r, ptr, size, SC_ALLOC_DEVICE);
    return r;
}

CUresult on_cuMemAllocPitch(ScReal_cuMemAllocPitch real, CUdeviceptr *ptr, size_t *pitch,
                            size_t width, size_t height, unsigned int elem)
{
    CUresult r = real(ptr, pitch, width, height, elem);
    if (r == CUDA_SUCCESS && pitch)
        track_alloc(r, ptr, (uint64_t)*pitch * height, SC_ALLOC_PITCHED);
    return r;
}

CUresult on_cuMemAllocManaged(ScReal_cuMemAllocManaged real, CUdeviceptr *ptr, size_t size,
                              unsigned int flags)
{
    CUresult r = real(ptr, size, flags);
    track_alloc(r, ptr, size, SC_ALLOC_MANAGED);
    return r;
}

/* A stream-ordered allocation. One made on a stream that is being captured is a graph
 * memory node, whose memory exists when the graph runs: it is not tracked (graph launches
 * are not checked), and scord makes no driver call for it, since its allocation and
 * copies would be refused during the capture and invalidate it. Counted for the run
 * summary. */
static void track_async_alloc(CUresult r, const CUdeviceptr *ptr, uint64_t size, CUstream stream)
{
    if (r == CUDA_SUCCESS && ptr && sc_ctx.detect && sc_rt_stream_capturing(stream)) {
        __atomic_fetch_add(&sc_ctx.capture_allocs, 1, __ATOMIC_RELAXED);
        return;
    }
    track_alloc(r, ptr, size, SC_ALLOC_ASYNC);
    sc_streams_stream_waits_all(r, stream);
}

CUresult on_cuMemAllocAsync(ScReal_cuMemAllocAsync real, CUdeviceptr *ptr, size_t size,
                            CUstream stream)
{
    CUresult r = real(ptr, size, stream);
    track_async_alloc(r, ptr, size, stream);
    return r;
}

CUresult on_cuMemAllocFromPoolAsync(ScReal_cuMemAllocFromPoolAsync real, CUdeviceptr *ptr,
                                    size_t size, CUmemoryPool pool, CUstream stream)
{
    CUresult r = real(ptr, size, pool, stream);
    track_async_alloc(r, ptr, size, stream);
    return r;
}

CUresult on_cuMemFree(ScReal_cuMemFree real, CUdeviceptr ptr)
{
    CUresult r = real(ptr);
    untrack_alloc(r, ptr);
    /* cudaFree, which comes here, synchronizes the device. */
    sc_streams_host_waits_all(r);
    return r;
}

CUresult on_cuMemFreeAsync(ScReal_cuMemFreeAsync real, CUdeviceptr ptr, CUstream stream)
{
    CUresult r = real(ptr, stream);
    untrack_alloc(r, ptr);
    return r;
}

CUresult on_cuTensorMapEncodeTiled(ScReal_cuTensorMapEncodeTiled real, CUtensorMap *map,
                                   CUtensorMapDataType type, cuuint32_t rank, void *global,
                                   const cuuint64_t *dim, const cuuint64_t *strides,
                                   const cuuint32_t *box, const cuuint32_t *element_strides,
                                   CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                   CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob)
{
    CUresult r = real(map, type, rank, global, dim, strides, box, element_strides, interleave,
                      swizzle, l2, oob);
    ScDevTensorMap m;
    if (r != CUDA_SUCCESS || !sc_tensor_map_describe(&m, map, (int)type, rank, (uint64_t)(uintptr_t)global,
                                                     dim, strides, box, element_strides, (int)interleave))
        return r;
    pthread_mutex_lock(&sc_ctx.lock);
    sc_tensor_maps_add(&sc_ctx.tensor_maps, &m);
    pthread_mutex_unlock(&sc_ctx.lock);
    return r;
}

/* The same map over another base address: its record follows it (the bytes change). */
CUresult on_cuTensorMapReplaceAddress(ScReal_cuTensorMapReplaceAddress real, CUtensorMap *map,
                                      void *global)
{
    ScDevTensorMap m;
    bool known = false;
    pthread_mutex_lock(&sc_ctx.lock);
    const ScDevTensorMap *old = map ? sc_tensor_maps_find(&sc_ctx.tensor_maps, map) : NULL;
    if (old) {
        m = *old;
        known = true;
    }
    pthread_mutex_unlock(&sc_ctx.lock);
    CUresult r = real(map, global);
    if (r != CUDA_SUCCESS || !known)
        return r;
    memcpy(m.map, map, sizeof m.map);
    m.base = (uint64_t)(uintptr_t)global;
    pthread_mutex_lock(&sc_ctx.lock);
    sc_tensor_maps_add(&sc_ctx.tensor_maps, &m);
    pthread_mutex_unlock(&sc_ctx.lock);
    return r;
}
