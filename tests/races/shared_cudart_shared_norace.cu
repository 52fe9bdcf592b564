// shared_cudart_shared_norace.cu: built with -cudart shared (tests/races/races.mk), so the
// runtime is libcudart.so rather than the static default. Each thread of a block of 8
// warps reads the shared cell of the mirrored thread, always in another warp,
// after a __syncthreads().
// SCORD-CATEGORY: 14
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 256 };

__global__ void reverse(const float *in, float *out)
{
    __shared__ float tile[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    tile[t] = in[i] * 2.0f;
    __syncthreads();
    out[i] = tile[THREADS - 1 - t];
}

int main()
{
    rs_require_device();
    float *in = rs_fill<float>(BLOCKS * THREADS, [](size_t i) { return float(i) * 0.125f; });
    float *out = rs_zeros<float>(BLOCKS * THREADS);
    reverse<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("reverse", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
