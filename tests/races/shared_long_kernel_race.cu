// shared_long_kernel_race.cu: a long kernel: 2^17 rounds of a barrier-separated exchange
// through shared memory (2^18 barriers, so barrier counters of 16 or 17 bits wrap), then
// one last exchange that lacks its barrier: the only race comes after all the others.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 2, THREADS = 128, ROUNDS = 1 << 17 };

__global__ void relay(int *out)
{
    __shared__ int buf[THREADS];
    int t = threadIdx.x;
    int acc = t;
    for (int r = 0; r < ROUNDS; r++) {
        buf[t] = acc;
        __syncthreads();
        acc = (acc * 3 + buf[(t + 32) % THREADS]) & 0xffff;
        __syncthreads();
    }
    buf[t] = acc ^ 0x5a5a;                                      // race(A) write shared
    out[blockIdx.x * THREADS + t] = buf[(t + 64) % THREADS];    // race(A) read shared
}

int main()
{
    rs_require_device();
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    relay<<<BLOCKS, THREADS>>>(out);
    RS_LAUNCHED();
    rs_print_checksum("relay", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
