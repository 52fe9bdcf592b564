// global_app_grid_reduction_race.cu: one kernel centres 2^20 integers on their mean
// (out = in * N - sum), as global_app_grid_reduction_norace.cu does, but thread 0 of each
// block publishes its partial sum with __threadfence_block() before counting the block
// in. Block scope does not include the last block, so the release (fence.sc.cta, then
// atom.add.gpu) does not synchronize with the last block's acquire (atom.add.gpu, then
// fence.sc.gpu), and the last block's read of another block's partial races with its
// write. fence_scope: the fence is there and the counter is strong; its scope is too
// narrow (missing_fence would send the user looking for a fence that exists).
// SCORD-CATEGORY: 6
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A fence_scope
#include "rs_common.h"

enum { BLOCKS = 32, THREADS = 256, N = 1 << 20 };
// Waits are bounded so that a broken run fails loudly instead of hanging.
constexpr int SPIN_LIMIT = 1 << 24;

struct Grid {
    long long partial[BLOCKS];
    unsigned arrived;
    long long total;
    int done;
};

// The sum of v over the block, in thread 0 (0 elsewhere).
__device__ long long block_sum(long long v)
{
    __shared__ long long s[THREADS];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    return threadIdx.x == 0 ? s[0] : 0;
}

__global__ void centre(const int *in, long long *out, Grid *g)
{
    __shared__ bool last;
    __shared__ long long total;
    long long mine = 0;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < N; i += BLOCKS * THREADS)
        mine += in[i];
    long long sum = block_sum(mine);
    if (threadIdx.x == 0) {
        g->partial[blockIdx.x] = sum;                                       // race(A) write global
        __threadfence_block();
        last = atomicAdd(&g->arrived, 1u) == BLOCKS - 1;
        if (last)
            __threadfence();
    }
    __syncthreads();
    if (last) {
        long long p = threadIdx.x < BLOCKS ? g->partial[threadIdx.x] : 0;  // race(A) read global
        long long t = block_sum(p);
        if (threadIdx.x == 0) {
            g->total = t;
            __threadfence();
            *(volatile int *)&g->done = 1;
        }
    }
    if (threadIdx.x == 0) {
        for (int spins = 0; *(volatile int *)&g->done == 0; spins++) {
            if (spins > SPIN_LIMIT) {
                printf("grid_reduction: block %d never saw the total\n", blockIdx.x);
                __trap();
            }
            __nanosleep(64);
        }
        __threadfence();
        total = g->total;
    }
    __syncthreads();
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < N; i += BLOCKS * THREADS)
        out[i] = (long long)in[i] * N - total;
}

int main()
{
    rs_require_device();
    auto value = [](size_t i) { return int((i * 2654435761u >> 7) % 1000); };
    int *in = rs_fill<int>(N, value);
    long long *out = rs_zeros<long long>(N);
    Grid *g = rs_zeros<Grid>(1);
    centre<<<BLOCKS, THREADS>>>(in, out, g);
    RS_LAUNCHED();

    long long sum = 0;
    for (size_t i = 0; i < N; i++)
        sum += value(i);
    long long *got = rs_download(out, N);
    bool same = true;
    for (size_t i = 0; i < N; i++)
        same = same && got[i] == (long long)value(i) * N - sum;
    free(got);
    // A partial sum the race hid would change the result: report it, do not fail.
    printf("host reference: %s\n", same ? "same" : "differs");
    rs_print_checksum("centred", out, N);
    rs_done();
    return 0;
}
