// shared_mbarrier_block_tiles_norace.cu: each block moves eight tiles through one shared
// tile, every thread writing its word and reading another warp's, synchronized only by a
// block-scoped cuda::barrier whose count is the block's thread count (arrive_and_wait
// by every thread): one phase after the tile is filled, one after it is read out, before
// the next tile overwrites it. scord follows such a barrier as a barrier of the block.
// The racy twin leaves out the second phase (the next tile's writes race the reads).
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: no race
#include <cuda/barrier>

#include "rs_common.h"

#pragma nv_diag_suppress static_var_with_dynamic_init

enum { BLOCKS = 32, THREADS = 256, TILES = 8 };

__global__ void tiles(const int *in, int *out)
{
    __shared__ int tile[THREADS];
    __shared__ cuda::barrier<cuda::thread_scope_block> phase;
    int t = threadIdx.x;
    if (t == 0)
        init(&phase, THREADS);
    __syncthreads();
    int sum = 0;
    for (int i = 0; i < TILES; i++) {
        tile[t] = in[(blockIdx.x * TILES + i) * THREADS + t] + i;
        phase.arrive_and_wait();
        sum += tile[(t + 37) % THREADS];
        phase.arrive_and_wait();
    }
    out[blockIdx.x * THREADS + t] = sum;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * TILES * THREADS, [](size_t i) { return int(i * 7 + 1) % 1013; });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    tiles<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("tiles", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
