// shared_atomic_block_scope_norace.cu: a per-block histogram in shared memory built with
// block-scope atomics (atomicAdd_block and a cuda::atomic_ref<int, thread_scope_block>
// fetch_add), then added into a global histogram with atomicAdd. Shared memory is only
// ever touched by its own block, which block scope includes: no race (a detector that
// flags every .cta atomic gives a false alarm here).
// SCORD-CATEGORY: 5
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128, BINS = 16 };

__global__ void histogram(const int *keys, int *hist)
{
    __shared__ int bins[BINS];
    if (threadIdx.x < BINS)
        bins[threadIdx.x] = 0;
    __syncthreads();
    int key = keys[blockIdx.x * THREADS + threadIdx.x];
    atomicAdd_block(&bins[key % BINS], 1);
    cuda::atomic_ref<int, cuda::thread_scope_block>(bins[key / BINS % BINS])
        .fetch_add(1, cuda::memory_order_relaxed);
    __syncthreads();
    if (threadIdx.x < BINS)
        atomicAdd(&hist[threadIdx.x], bins[threadIdx.x]);
}

int main()
{
    rs_require_device();
    int *keys = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 7919 % 4093); });
    int *hist = rs_zeros<int>(BINS);
    histogram<<<BLOCKS, THREADS>>>(keys, hist);
    RS_LAUNCHED();
    rs_print_checksum("histogram", hist, BINS);
    rs_done();
    return 0;
}
