// shared_syncthreads_count_race.cu: each thread stages a value, counts the positive
// values of its block with __syncthreads_count() and reads the value staged 32 places on.
// The counting barrier comes before the write, so it orders nothing.
// SCORD-CATEGORY: 1
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

__global__ void count_positive(const int *in, int *out)
{
    __shared__ int tile[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    int v = in[i];
    int positives = __syncthreads_count(v > 0);
    tile[t] = v;                                     // race(A) write shared
    out[i] = tile[(t + 32) % THREADS] + positives;   // race(A) read shared
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i % 5) - 2; });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    count_positive<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("count_positive", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
