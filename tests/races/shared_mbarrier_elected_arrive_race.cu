// shared_mbarrier_elected_arrive_race.cu: every lane of warp 0 stores three words of
// a tile, then lane 0 alone arrives on the block's cuda::barrier for the warp. An arrive
// releases only its own thread's accesses: the __syncwarp() before it orders the other
// lanes' stores before lane 0's arrive, so the warps that wait on the barrier read the
// whole tile safely, each its own word. Here there is no __syncwarp(): lanes 1-31's
// stores are not ordered before the release (the bug of an elected arrive), and the
// waiting warps race them. Cause: missing_fence, the release that misses what it
// should publish, as for a warp leader's lock release (global_lock_warp_leader_race).
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include <cuda/barrier>
#include <utility>

#include "rs_common.h"

#pragma nv_diag_suppress static_var_with_dynamic_init

enum { BLOCKS = 8, THREADS = 128, LANES = 32, TILE = THREADS - LANES };

__global__ void elected(const int *in, int *out)
{
    __shared__ int tile[TILE];
    __shared__ cuda::barrier<cuda::thread_scope_block> full;
    int t = threadIdx.x;
    if (t == 0)
        init(&full, TILE + 1);
    __syncthreads();
    if (t < LANES) {
        for (int i = t; i < TILE; i += LANES)
            tile[i] = in[blockIdx.x * TILE + i] + 11; // race(A) write shared
        if (t == 0)
            (void)full.arrive();
        return;
    }
    auto token = full.arrive();
    full.wait(std::move(token));
    int v = tile[(t - LANES) * 5 % TILE];           // race(A) read shared
    out[blockIdx.x * THREADS + t] = v * 2;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * TILE, [](size_t i) { return int(i * 3 + 4); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    elected<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("elected", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
