// shared_barrier_divergence_race.cu: the two warps of a block take different sides of a
// branch and each side calls its own __syncthreads(): neither barrier is reached by
// every thread of the block. Each thread touches only its own shared cell, so the only
// defect is the divergent barrier itself.
// SCORD-CATEGORY: 9
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A barrier_divergence
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void two_sides(const int *in, int *out)
{
    __shared__ int s[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    s[t] = in[i];
    if (t < 32) {
        out[i] = s[t] + 1;
        __syncthreads();            // race(A) barrier
    } else {
        out[i] = s[t] * 3;
        __syncthreads();            // race(A) barrier
    }
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
