// rs_hopper.h: helpers of the race-suite programs that use sm_90 features: on the host,
// a launch with programmatic stream serialization (programmatic dependent launch) and
// tensor maps for tensor copies (TMA), encoded through the driver entry points the CUDA
// runtime hands out; on the device, shared-window addresses for inline PTX and the wait
// for an mbarrier's phase.
#ifndef RS_HOPPER_H
#define RS_HOPPER_H

#include <cuda.h>
#include <cudaTypedefs.h>

#include "rs_sync.h"

// Launches kernel(args...) into stream s, allowed to begin before the kernel before it
// in s has ended (it must call cudaGridDependencySynchronize() before it relies on it).
template <class... Params, class... Args>
static inline void rs_launch_dependent(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t s,
                                       Args... args)
{
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.stream = s;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    RS_CHECK(cudaLaunchKernelEx(&cfg, kernel, args...));
}

static inline void *rs_driver_entry(const char *name)
{
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    RS_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || !fn)
        rs_die("the driver has no %s", name);
    return fn;
}

// A tensor map of a row-major int matrix of width x height elements at `matrix`, in
// boxes of tile x tile elements (no swizzle, no interleave).
static inline CUtensorMap rs_int_tiles(int *matrix, unsigned width, unsigned height, unsigned tile)
{
    auto encode = (PFN_cuTensorMapEncodeTiled_v12000)rs_driver_entry("cuTensorMapEncodeTiled");
    CUtensorMap map;
    cuuint64_t dim[2] = {width, height}, strides[1] = {width * sizeof(int)};
    cuuint32_t box[2] = {tile, tile}, element_strides[2] = {1, 1};
    CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, matrix, dim, strides, box, element_strides,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        rs_die("cuTensorMapEncodeTiled failed (%d)", (int)r);
    return map;
}

// The same map over another matrix of the same shape.
static inline void rs_move_tiles(CUtensorMap *map, int *matrix)
{
    auto replace = (PFN_cuTensorMapReplaceAddress_v12000)rs_driver_entry("cuTensorMapReplaceAddress");
    CUresult r = replace(map, matrix);
    if (r != CUDA_SUCCESS)
        rs_die("cuTensorMapReplaceAddress failed (%d)", (int)r);
}

// The shared-window address of a generic pointer to shared memory, for inline PTX.
__device__ __forceinline__ uint32_t rs_smem(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

// Initializes the mbarrier at bar for `count` arrivals and makes the initialization
// visible to the cluster (and to the asynchronous proxy that completes bulk copies).
__device__ __forceinline__ void rs_mbar_init(uint64_t *bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(rs_smem(bar)), "r"(count) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// Waits (rs_spin_until) for the phase of parity `parity` of the mbarrier at bar to
// complete; false when the spin gave up.
__device__ __forceinline__ bool rs_mbar_wait(uint64_t *bar, uint32_t parity)
{
    return rs_spin_until([&] {
        uint32_t done;
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}" : "=r"(done) : "r"(rs_smem(bar)), "r"(parity) : "memory");
        return done != 0;
    });
}

#endif
