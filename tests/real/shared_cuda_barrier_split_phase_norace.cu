// shared_cuda_barrier_split_phase_norace.cu: a block-scope cuda::barrier used split-phase:
// in each of 8 rounds every thread writes its cell of one of two shared buffers, arrive()s,
// does independent work (loads its next input from global memory and mixes it into a
// register) and only then wait(std::move(token))s before reading its neighbours' cells.
// The buffers alternate, so one barrier phase per round orders both the writes of a round
// before its reads and the reads of a round before the writes two rounds later (a thread
// arrives only after its reads). Race-free; 48 blocks of 256 threads.
// SCORD-CATEGORY: 1
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <cuda/barrier>
#include <cuda/std/utility>
#include <vector>

enum { THREADS = 256, BLOCKS = 48, ROUNDS = 8 };

__host__ __device__ int mix(int x, int r) { return (x * 31 + r * 7) % 1009; }

__global__ void relax(const int *noise, const int *in, int *out)
{
    __shared__ int cells[2][THREADS];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    int t = threadIdx.x;
    int v = in[blockIdx.x * THREADS + t];
    int extra = 0;
    for (int r = 0; r < ROUNDS; r++) {
        int *cur = cells[r & 1];
        cur[t] = v;
        cuda::barrier<cuda::thread_scope_block>::arrival_token token = bar.arrive();
        // Independent work while the others arrive: nothing here touches shared memory.
        extra = mix(extra + noise[(r * BLOCKS + blockIdx.x) * THREADS + t], r);
        bar.wait(cuda::std::move(token));
        v = (cur[(t + THREADS - 1) % THREADS] + v + cur[(t + 1) % THREADS]) / 3 + extra % 5;
    }
    out[blockIdx.x * THREADS + t] = v;
}

int main()
{
    rs_require_device();
    const int n = BLOCKS * THREADS, nn = ROUNDS * n;
    std::vector<int> h(n), z(nn);
    for (int i = 0; i < n; i++)
        h[i] = (int)((i * 40503u) % 4099);
    for (int i = 0; i < nn; i++)
        z[i] = (int)((i * 2654435761u) >> 24);
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *noise = rs_fill<int>(nn, [&](size_t i) { return z[i]; });
    int *out = rs_zeros<int>(n);
    relax<<<BLOCKS, THREADS>>>(noise, in, out);
    RS_LAUNCHED();
    int *got = rs_download(out, n);
    int bad = 0;
    long long sum = 0;
    for (int b = 0; b < BLOCKS; b++) {
        std::vector<int> v(h.begin() + b * THREADS, h.begin() + (b + 1) * THREADS), w(THREADS),
            extra(THREADS, 0);
        for (int r = 0; r < ROUNDS; r++) {
            for (int t = 0; t < THREADS; t++) {
                extra[t] = mix(extra[t] + z[(r * BLOCKS + b) * THREADS + t], r);
                w[t] = (v[(t + THREADS - 1) % THREADS] + v[t] + v[(t + 1) % THREADS]) / 3 + extra[t] % 5;
            }
            v = w;
        }
        for (int t = 0; t < THREADS; t++) {
            bad += got[b * THREADS + t] != v[t];
            sum += v[t];
        }
    }
    printf("split-phase cuda::barrier: %d cells, sum %lld, %d wrong\n", n, sum, bad);
    free(got);
    rs_done();
    return bad != 0;
}
