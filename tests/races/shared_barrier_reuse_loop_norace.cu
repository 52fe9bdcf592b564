// shared_barrier_reuse_loop_norace.cu: a loop reuses one shared buffer every round. A
// barrier orders each round's writes before its reads;
// a second barrier orders a round's reads before the next round's writes.
// SCORD-CATEGORY: 1
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 2, THREADS = 128, ROUNDS = 8 };

__global__ void accumulate(const int *in, int *out)
{
    __shared__ int buf[THREADS];
    int t = threadIdx.x;
    int acc = 0;
    for (int r = 0; r < ROUNDS; r++) {
        buf[t] = in[(blockIdx.x * ROUNDS + r) * THREADS + t];
        __syncthreads();
        acc += buf[(t + 32) % THREADS];
        __syncthreads();
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
