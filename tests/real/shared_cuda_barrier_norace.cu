// shared_cuda_barrier_norace.cu: a block-scope cuda::barrier (libcu++) orders a stencil's
// rounds in shared memory: every thread writes its cell, arrive_and_wait, reads its
// neighbours, arrive_and_wait, 16 rounds, with 264 blocks of 1024 threads. Race-free;
// natively about a second, and it must finish under scord too.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <cuda/barrier>
#include <vector>

enum { THREADS = 1024, BLOCKS = 264, ROUNDS = 16 };

__global__ void smooth(const int *in, int *out)
{
    __shared__ int cell[THREADS];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    int t = threadIdx.x;
    int v = in[blockIdx.x * THREADS + t];
    for (int r = 0; r < ROUNDS; r++) {
        cell[t] = v;
        bar.arrive_and_wait();
        v = (cell[(t + THREADS - 1) % THREADS] + 2 * v + cell[(t + 1) % THREADS]) / 4 + r;
        bar.arrive_and_wait();
    }
    out[blockIdx.x * THREADS + t] = v;
}

int main()
{
    rs_require_device();
    const int n = BLOCKS * THREADS;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (i * 7919) % 10007;
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *out = rs_zeros<int>(n);
    smooth<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    int *got = rs_download(out, n);
    int bad = 0;
    for (int b = 0; b < BLOCKS; b++) {
        std::vector<int> v(h.begin() + b * THREADS, h.begin() + (b + 1) * THREADS), w(THREADS);
        for (int r = 0; r < ROUNDS; r++) {
            for (int t = 0; t < THREADS; t++)
                w[t] = (v[(t + THREADS - 1) % THREADS] + 2 * v[t] + v[(t + 1) % THREADS]) / 4 + r;
            v = w;
        }
        for (int t = 0; t < THREADS; t++)
            bad += got[b * THREADS + t] != v[t];
    }
    printf("cuda::barrier stencil: %d cells, %d wrong\n", n, bad);
    rs_done();
    return bad != 0;
}
