// shared_cub_warp_reduce_scan_norace.cu: a block-wide inclusive prefix sum built from
// warp collectives: each warp scans its 32 values with cub::WarpScan (InclusiveSum), sums
// and takes the maximum of them with cub::WarpReduce (Sum, then Reduce with
// cuda::maximum after a __syncwarp(), as CUB documents for reusing its storage), and lane
// 0 stores the warp's sum in a __shared__ array; every thread then adds the sums of the
// warps before its own. Race-free: a __syncthreads() orders the stores of the warp sums
// before the reads of them. 256 blocks of 256 threads, checked on the host.
// SCORD-CATEGORY: 1
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
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
        warp_sum[warp] = sum;
        warp_maxima[blockIdx.x * WARPS + warp] = max;
    }
    __syncthreads(); // every warp's sum is stored before any is read

    int offset = 0;
    for (int w = 0; w < warp; w++)
        offset += warp_sum[w];
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

    int *hp = rs_download(prefix, n);
    int *hs = rs_download(sums, BLOCKS);
    int *hm = rs_download(maxima, BLOCKS * WARPS);
    int bad = 0;
    for (int b = 0; b < BLOCKS; b++) {
        int run = 0;
        for (int t = 0; t < THREADS; t++) {
            run += h[b * THREADS + t];
            bad += hp[b * THREADS + t] != run;
        }
        bad += hs[b] != run;
        for (int w = 0; w < WARPS; w++) {
            int m = h[b * THREADS + w * 32];
            for (int l = 1; l < 32; l++)
                m = std::max(m, h[b * THREADS + w * 32 + l]);
            bad += hm[b * WARPS + w] != m;
        }
    }
    printf("warp reduce + scan: %d blocks of %d, %d wrong\n", BLOCKS, THREADS, bad);
    rs_print_checksum("prefix sums", prefix, n);
    rs_print_checksum("block sums", sums, BLOCKS);
    rs_print_checksum("warp maxima", maxima, BLOCKS * WARPS);
    free(hp);
    free(hs);
    free(hm);
    rs_done();
    return bad != 0;
}
