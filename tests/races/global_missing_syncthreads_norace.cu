// global_missing_syncthreads_norace.cu: a block exchanges values through its own region of a
// global scratch buffer; each thread reads the value written by the thread 32 places
// on, in another warp of the same block, after a __syncthreads().
// SCORD-CATEGORY: 1
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

__global__ void rotate_global(const int *in, int *scratch, int *out)
{
    int t = threadIdx.x, base = blockIdx.x * THREADS;
    scratch[base + t] = in[base + t] * 2;
    __syncthreads();
    out[base + t] = scratch[base + (t + 32) % THREADS];
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 5 + 3); });
    int *scratch = rs_zeros<int>(BLOCKS * THREADS);
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    rotate_global<<<BLOCKS, THREADS>>>(in, scratch, out);
    RS_LAUNCHED();
    rs_print_checksum("rotate_global", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
