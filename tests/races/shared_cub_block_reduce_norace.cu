// shared_cub_block_reduce_norace.cu: two cub::BlockReduce sums in a row share one
// TempStorage. CUB's contract: a __syncthreads() must separate a reuse of the storage
// from the previous call, and here it does.
// SCORD-CATEGORY: 13
// SCORD-EXPECT: no race
#include <cub/block/block_reduce.cuh>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

using BlockReduce = cub::BlockReduce<int, THREADS>;

// Each call sits in a function of its own: inlined side by side into one kernel, the
// two calls share address arithmetic, and nvcc's line table then attributes both calls'
// shared-memory accesses to the second call's line.
__device__ __noinline__ int first_sum(BlockReduce::TempStorage &temp, int v)
{
    return BlockReduce(temp).Sum(v);
}

__device__ __noinline__ int second_sum(BlockReduce::TempStorage &temp, int v)
{
    return BlockReduce(temp).Sum(v);
}

__global__ void sum_and_squares(const int *in, int *sums)
{
    __shared__ BlockReduce::TempStorage temp;
    int v = in[blockIdx.x * THREADS + threadIdx.x];
    int sum = first_sum(temp, v);
    __syncthreads();
    int squares = second_sum(temp, v * v);
    if (threadIdx.x == 0) {
        sums[2 * blockIdx.x] = sum;
        sums[2 * blockIdx.x + 1] = squares;
    }
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i % 17) - 8; });
    int *sums = rs_zeros<int>(2 * BLOCKS);
    sum_and_squares<<<BLOCKS, THREADS>>>(in, sums);
    RS_LAUNCHED();
    rs_print_checksum("sums", sums, 2 * BLOCKS);
    rs_done();
    return 0;
}
