// shared_barrier_reuse_loop_race.cu: a loop reuses one shared buffer every round. A
// barrier orders each round's writes before its reads;
// nothing orders a round's reads before the next round's writes (write after read
// across iterations).
// SCORD-CATEGORY: 1
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 2, THREADS = 128, ROUNDS = 8 };

__global__ void accumulate(const int *in, int *out)
{
    __shared__ int buf[THREADS];
    int t = threadIdx.x;
    int acc = 0;
    for (int r = 0; r < ROUNDS; r++) {
        buf[t] = in[(blockIdx.x * ROUNDS + r) * THREADS + t];   // race(A) write shared
        __syncthreads();
        acc += buf[(t + 32) % THREADS];                          // race(A) read shared
    }
    out[blockIdx.x * THREADS + t] = acc;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * ROUNDS * THREADS, [](size_t i) { return int(i % 1000); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    accumulate<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("accumulate", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
