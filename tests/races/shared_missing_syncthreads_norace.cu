// shared_missing_syncthreads_norace.cu: every thread stages a value in shared memory and
// reads the one staged by the thread 32 places on, in another warp, after a
// __syncthreads().
// SCORD-CATEGORY: 1
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

__global__ void rotate(const int *in, int *out)
{
    __shared__ int tile[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[(t + 32) % THREADS];
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 7 + 1); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    rotate<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("rotate", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
