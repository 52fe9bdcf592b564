// shared_cub_warp_reduce_scan_race.cu: a block-wide inclusive prefix sum built from
// warp collectives: each warp scans its 32 values with cub::WarpScan (InclusiveSum), sums
// and takes the maximum of them with cub::WarpReduce, and lane 0 stores the warp's sum in
// a __shared__ array; every thread then adds the sums of the warps before its own.
// Injected race, in the program's own code: the __syncthreads() between the stores of the
// warp sums and the reads of them is missing, so a thread may read the sum of an earlier
// warp before that warp's lane 0 stored it (read against write, always between two
// warps: a thread reads only the sums of the warps before its own). The twin has the
// barrier.
// SCORD-CATEGORY: 1
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"
#include <algorithm>
#include <cub/cub.cuh>
#include <cuda/functional>
#include <vector>

enum { THREADS = 256, WARPS = THREADS / 32, BLOCKS = 256 };

using WarpReduce = cub::WarpReduce<int>;
using WarpScan = cub::WarpScan<int>;

__global__ void block_prefix(const int *in, int *prefix, int *block_sums, int *warp_maxima)
{
    __shared__ WarpReduce::TempStorage reduce_temp[WARPS];
    __shared__ WarpScan::TempStorage scan_temp[WARPS];
    __shared__ int warp_sum[WARPS];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int i = blockIdx.x * THREADS + threadIdx.x;
    const int v = in[i];

    int inclusive;
    WarpScan(scan_temp[warp]).InclusiveSum(v, inclusive);
    int sum = WarpReduce(reduce_temp[warp]).Sum(v); // valid in lane 0 only
    __syncwarp();
    int max = WarpReduce(reduce_temp[warp]).Reduce(v, cuda::maximum<int>{});
    if (lane == 0) {
        warp_sum[warp] = sum; // race(A) write shared
        warp_maxima[blockIdx.x * WARPS + warp] = max;
    }
    // (no __syncthreads() here: the race)

    int offset = 0;
    for (int w = 0; w < warp; w++)
        offset += warp_sum[w]; // race(A) read shared
    prefix[i] = offset + inclusive;
    if (threadIdx.x == THREADS - 32) // lane 0 of the last warp holds that warp's sum
        block_sums[blockIdx.x] = offset + sum;
}

int main()
{
    rs_require_device();
    const int n = BLOCKS * THREADS;
    std::vector<int> h(n);
    uint32_t x = 2024;
    for (int i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        h[i] = (int)(x % 201) - 100;
    }
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *prefix = rs_zeros<int>(n);
    int *sums = rs_zeros<int>(BLOCKS);
    int *maxima = rs_zeros<int>(BLOCKS * WARPS);
    block_prefix<<<BLOCKS, THREADS>>>(in, prefix, sums, maxima);
    RS_LAUNCHED();

    printf("warp reduce + scan (racy): %d blocks of %d ran\n", BLOCKS, THREADS);
    rs_done();
    return 0;
}
