// shared_barrier_divergence_norace.cu: the two warps of a block take different sides of a
// branch, and one __syncthreads() after the branch is reached by every thread. Each
// thread touches only its own shared cell.
// SCORD-CATEGORY: 9
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void two_sides(const int *in, int *out)
{
    __shared__ int s[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    s[t] = in[i];
    if (t < 32) {
        out[i] = s[t] + 1;
    } else {
        out[i] = s[t] * 3;
    }
    __syncthreads();
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    two_sides<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("two_sides", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
