// global_missing_syncwarp_norace.cu: the lanes of a warp exchange values through the warp's
// region of a global scratch array; each lane reads the value its neighbour lane wrote,
// after a __syncwarp().
// SCORD-CATEGORY: 4
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void rotate_lanes(const int *in, int *scratch, int *out)
{
    int lane = threadIdx.x, base = blockIdx.x * THREADS;
    scratch[base + lane] = in[base + lane] * 5;
    __syncwarp();
    out[base + lane] = scratch[base + (lane + 1) % THREADS];
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i + 2); });
    int *scratch = rs_zeros<int>(BLOCKS * THREADS);
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    rotate_lanes<<<BLOCKS, THREADS>>>(in, scratch, out);
    RS_LAUNCHED();
    rs_print_checksum("rotate_lanes", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
