// shared_syncwarp_mask_race.cu: each lane stores a value in shared memory and loads the
// cell of the lane 16 places away, in the other half of the warp. Each half calls
// __syncwarp() with a mask naming only itself, which orders nothing across the halves.
// SCORD-CATEGORY: 9
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_syncwarp
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void swap_halves(const int *in, int *out)
{
    __shared__ int s[THREADS];
    int lane = threadIdx.x, i = blockIdx.x * THREADS + lane;
    s[lane] = in[i] * 2;                                    // race(A) write shared
    __syncwarp(lane < 16 ? 0x0000ffffu : 0xffff0000u);
    out[i] = s[lane ^ 16];                                  // race(A) read shared
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i + 5); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    swap_halves<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("swap_halves", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
