// shared_syncthreads_and_race.cu: each thread reads the neighbour's cell 32 places on,
// overwrites its own cell, and checks with __syncthreads_and() that every neighbour was
// positive. The checking barrier comes after the overwrite, so nothing orders the
// neighbour's read before the write (write after read).
// SCORD-CATEGORY: 1
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

__global__ void double_neighbour(const int *in, int *out)
{
    __shared__ int tile[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    tile[t] = in[i];
    __syncthreads();
    int neighbour = tile[(t + 32) % THREADS];               // race(A) read shared
    tile[t] = 2 * neighbour;                                // race(A) write shared
    int all_positive = __syncthreads_and(neighbour > 0);
    out[i] = tile[t] + all_positive;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i % 9) + 1; });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    double_neighbour<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("double_neighbour", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
