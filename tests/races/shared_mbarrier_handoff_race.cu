// shared_mbarrier_handoff_race.cu: warp 0 fills a tile in shared memory and arrives
// on a block-scoped cuda::barrier (mbarrier.arrive: a release at block scope); the other
// warps arrive too and wait for the phase to complete (mbarrier.try_wait: an acquire)
// before they read the tile. No __syncthreads orders the tile: the mbarrier does.
// Here the consumers read the tile before their wait: nothing orders warp 0's stores
// before those reads. Cause: missing_fence, synchronization through the mbarrier that
// lacks its acquire (the wait) before the read.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include <cuda/barrier>
#include <utility>

#include "rs_common.h"

#pragma nv_diag_suppress static_var_with_dynamic_init

enum { BLOCKS = 8, THREADS = 128, TILE = 32 };

__global__ void handoff(const int *in, int *out)
{
    __shared__ int tile[TILE];
    __shared__ cuda::barrier<cuda::thread_scope_block> full;
    int t = threadIdx.x;
    if (t == 0)
        init(&full, THREADS);
    __syncthreads();
    if (t < TILE) {
        tile[t] = in[blockIdx.x * TILE + t] * 3;   // race(A) write shared
        (void)full.arrive();
        return;
    }
    auto token = full.arrive();
    int v = tile[(t * 7) % TILE];                  // race(A) read shared
    full.wait(std::move(token));
    out[blockIdx.x * THREADS + t] = v + t;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * TILE, [](size_t i) { return int(i * 5 + 2); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    handoff<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("handoff", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
