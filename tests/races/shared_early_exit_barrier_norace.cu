// shared_early_exit_barrier_norace.cu: the last warp of each block has no work and
// returns at once; the other two warps exchange values through shared memory across a
// __syncthreads(). Threads that have exited do not take part in a barrier, so the
// barrier is reached by every non-exited thread: no barrier divergence and no race.
// SCORD-CATEGORY: 9
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 96, WORKERS = 64 };

__global__ void exchange_workers(const int *in, int *out)
{
    __shared__ int s[WORKERS];
    int t = threadIdx.x;
    if (t >= WORKERS)
        return;
    int i = blockIdx.x * WORKERS + t;
    s[t] = in[i] + 7;
    __syncthreads();
    out[i] = s[(t + 32) % WORKERS];
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * WORKERS, [](size_t i) { return int(i * 9); });
    int *out = rs_zeros<int>(BLOCKS * WORKERS);
    exchange_workers<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("exchange_workers", out, BLOCKS * WORKERS);
    rs_done();
    return 0;
}
