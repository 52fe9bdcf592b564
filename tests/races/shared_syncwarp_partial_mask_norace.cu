// shared_syncwarp_partial_mask_norace.cu: only the lower 16 lanes of a warp take part: each
// stores a value in shared memory, synchronizes with __syncwarp(mask) and loads the cell
// of the lane 8 places away. The mask names all 16 taking part, so the partner's store
// is ordered before the load (the other 16 lanes are rightly left out).
// SCORD-CATEGORY: 4
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void half_warp_swap(const int *in, int *out)
{
    __shared__ int s[16];
    int lane = threadIdx.x, i = blockIdx.x * THREADS + lane;
    if (lane < 16) {
        s[lane] = in[i] + 1;
        __syncwarp(0x0000ffffu);
        out[i] = s[lane ^ 8];
    }
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 13); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    half_warp_swap<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("half_warp_swap", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
