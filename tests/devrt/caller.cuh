/* caller.cuh: a kernel that calls every function of devrt_abi.h the way instrumented
 * code does, for test_devrt to link the embedded runtime into and assemble. Compiled
 * with -x cu -rdc=true (the calls stay .extern); never launched. */
#include <stdint.h>

#include "devrt/devrt_abi.h"

extern "C" {
__device__ void __scord_access(uint64_t addr, uint32_t info, uint32_t site, uint64_t value);
__device__ void __scord_bar_arrive(uint32_t site, uint32_t id, uint32_t count);
__device__ void __scord_bar_pass(uint32_t site, uint32_t id, uint32_t count);
__device__ void __scord_syncwarp(uint32_t site, uint32_t mask);
__device__ void __scord_entry(uint32_t kernel);
__device__ void __scord_exit(void);
__device__ void __scord_fence(uint32_t site, uint32_t info);
__device__ void __scord_sync(uint64_t addr, uint32_t info, uint32_t site);
__device__ void __scord_async_copy(uint64_t dst, uint32_t info, uint32_t site);
__device__ void __scord_async_group(uint32_t op);
__device__ void __scord_bulk_copy(uint64_t dst, uint32_t dst_site, uint64_t src, uint32_t src_site, uint32_t size);
__device__ void __scord_cluster_barrier(uint32_t site, uint32_t info);
}

extern "C" __global__ void sc_devrt_caller(int *out, int n)
{
    __shared__ int tile[64];
    uint32_t t = threadIdx.x;
    __scord_entry(0);
    __scord_access((uint64_t)&tile[t % 64],
                   SC_ABI_INFO(4, SC_ABI_KIND_WRITE, SC_SEM_WEAK, SC_SCOPE_NONE,
                               SC_ABI_SPACE_SHARED),
                   1, t);
    tile[t % 64] = (int)t;
    __scord_bar_arrive(2, 0, SC_ABI_ALL_THREADS);
    __syncthreads();
    __scord_bar_pass(2, 0, SC_ABI_ALL_THREADS);
    __scord_access((uint64_t)&tile[63 - t % 64],
                   SC_ABI_INFO(4, SC_ABI_KIND_READ, SC_SEM_WEAK, SC_SCOPE_NONE,
                               SC_ABI_SPACE_SHARED),
                   3, 0);
    int v = tile[63 - t % 64];
    __syncwarp(0x0000ffffu);
    __scord_syncwarp(4, 0x0000ffffu);
    __scord_access((uint64_t)&out[t],
                   SC_ABI_INFO(4, SC_ABI_KIND_RMW, SC_SEM_RELAXED, SC_SCOPE_GPU,
                               SC_ABI_SPACE_GENERIC),
                   5, 0);
    atomicAdd(&out[t], v);
    __threadfence();
    __scord_fence(8, SC_ABI_INFO(0, SC_ABI_KIND_FENCE, SC_SEM_ACQ_REL, SC_SCOPE_GPU, 0));
    __scord_sync((uint64_t)&tile[0],
                 SC_ABI_INFO(8, SC_ABI_KIND_RMW, SC_SEM_RELEASE, SC_SCOPE_CTA, SC_ABI_SPACE_SHARED), 9);
    __scord_sync((uint64_t)&tile[0],
                 SC_ABI_INFO(8, SC_ABI_KIND_READ, SC_SEM_ACQUIRE, SC_SCOPE_CTA, SC_ABI_SPACE_SHARED), 10);
    __scord_fence(10, SC_ABI_INFO(8, SC_ABI_KIND_READ, SC_SEM_ACQUIRE, SC_SCOPE_CTA, SC_ABI_SPACE_SHARED));
    __scord_async_copy((uint64_t)&tile[t % 16 * 4],
                       SC_ABI_INFO(16, SC_ABI_KIND_WRITE, SC_SEM_WEAK, SC_SCOPE_NONE, SC_ABI_SPACE_SHARED), 11);
    __scord_async_group(SC_ABI_ASYNC_COMMIT);
    __scord_async_group(0);
    __scord_async_group(SC_ABI_ASYNC_ARRIVE);
    __scord_bulk_copy((uint64_t)&tile[0], 13, (uint64_t)out, 14, 256);
    __scord_cluster_barrier(12, SC_ABI_INFO(8, SC_ABI_KIND_RMW, SC_SEM_RELEASE, SC_SCOPE_CLUSTER, SC_ABI_SPACE_GLOBAL));
    __scord_cluster_barrier(12, SC_ABI_INFO(8, SC_ABI_KIND_READ, SC_SEM_ACQUIRE, SC_SCOPE_CLUSTER, SC_ABI_SPACE_GLOBAL));
    if ((int)t >= n) {
        __scord_exit();
        return;
    }
    __scord_bar_arrive(6, 1, 64);
    asm volatile("bar.sync 1, 64;" ::: "memory");
    __scord_bar_pass(6, 1, 64);
    __scord_access((uint64_t)&out[t + 1],
                   SC_ABI_INFO(4, SC_ABI_KIND_WRITE, SC_SEM_WEAK, SC_SCOPE_NONE,
                               SC_ABI_SPACE_GLOBAL),
                   7, (uint64_t)v);
    out[t + 1] = v;
    __scord_exit();
}
