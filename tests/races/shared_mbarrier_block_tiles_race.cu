// shared_mbarrier_block_tiles_race.cu: each block moves eight tiles through one shared
// tile, every thread writing its word and reading another warp's, synchronized only by a
// block-scoped cuda::barrier whose count is the block's thread count (arrive_and_wait
// by every thread): one phase after the tile is filled, one after it is read out, before
// the next tile overwrites it. scord follows such a barrier as a barrier of the block.
// Here the second phase is left out: the next tile's write of a word races the read of
// it by another warp after the first phase. Cause: missing_fence, synchronization through
// the mbarrier that lacks the phase (its release and acquire) between read and write.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
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
        tile[t] = in[(blockIdx.x * TILES + i) * THREADS + t] + i; // race(A) write shared
        phase.arrive_and_wait();
        sum += tile[(t + 37) % THREADS];                       // race(A) read shared
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
