// shared_cub_block_reduce_race.cu: two cub::BlockReduce sums in a row share one
// TempStorage. CUB's contract: a __syncthreads() must separate a reuse of the storage
// from the previous call; without it, the second call's per-warp partial sums (written
// by lane 0 of each warp) overwrite cells that thread 0 may still be reading for the
// first. The race lies in CUB's code, inlined at the two lines that call it.
// SCORD-CATEGORY: 13
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include <cub/block/block_reduce.cuh>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

using BlockReduce = cub::BlockReduce<int, THREADS>;

// Each call sits in a function of its own: inlined side by side into one kernel, the
// two calls share address arithmetic, and nvcc's line table then attributes both calls'
// shared-memory accesses to the second call's line.
__device__ __noinline__ int first_sum(BlockReduce::TempStorage &temp, int v)
{
    return BlockReduce(temp).Sum(v);            // race(A) read shared
}

__device__ __noinline__ int second_sum(BlockReduce::TempStorage &temp, int v)
{
    return BlockReduce(temp).Sum(v);            // race(A) write shared
}

__global__ void sum_and_squares(const int *in, int *sums)
{
    __shared__ BlockReduce::TempStorage temp;
    int v = in[blockIdx.x * THREADS + threadIdx.x];
    int sum = first_sum(temp, v);
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
