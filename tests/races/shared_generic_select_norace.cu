// shared_generic_select_norace.cu: the staging buffer is chosen at run time between shared
// memory and a global scratch area, so every access to it is generic and must be
// resolved to its space when it executes. Run without arguments it is shared memory;
// a __syncthreads() orders the read of the cell staged 32 places on after its write.
// SCORD-CATEGORY: 1
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

__global__ void stage(const int *in, int *scratch, int *out, int use_shared)
{
    __shared__ int tile[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    int *buf = use_shared ? tile : scratch + blockIdx.x * THREADS;
    buf[t] = in[i] ^ 0x55;
    __syncthreads();
    out[i] = buf[(t + 32) % THREADS];
}

int main(int argc, char **)
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i); });
    int *scratch = rs_zeros<int>(BLOCKS * THREADS);
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    stage<<<BLOCKS, THREADS>>>(in, scratch, out, argc < 2);
    RS_LAUNCHED();
    rs_print_checksum("stage", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
