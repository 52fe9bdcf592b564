// shared_pipeline_memcpy_async_norace.cu: a double-buffered cuda::pipeline (block scope,
// two stages) fed by cuda::memcpy_async: each stage's tile is copied to shared memory,
// consumer_wait, summed by every thread, consumer_release, and the stage is refilled.
// Race-free: the pipeline orders each copy's writes before the reads of its stage, and
// the reads before the next copy into it.
// SCORD-CATEGORY: 12
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <cooperative_groups.h>
#include <cuda/pipeline>
#include <vector>

namespace cg = cooperative_groups;
enum { THREADS = 128, TILE = 512, STAGES = 2, TILES = 64, BLOCKS = 96 };

__global__ void tile_sums(const int *in, long long *out)
{
    __shared__ int buf[STAGES][TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    cg::thread_block block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    const int *src = in + (size_t)blockIdx.x * TILES * TILE;
    long long acc = 0;
    for (int fetch = 0, use = 0; use < TILES; use++) {
        for (; fetch < TILES && fetch < use + STAGES; fetch++) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetch % STAGES], src + fetch * TILE, sizeof(int) * TILE, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        for (int k = threadIdx.x; k < TILE; k += THREADS)
            acc += buf[use % STAGES][k] * (use + 1);
        pipe.consumer_release();
    }
    out[blockIdx.x * THREADS + threadIdx.x] = acc;
}

int main()
{
    rs_require_device();
    const int n = BLOCKS * TILES * TILE;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (i * 31) % 1009;
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    long long *out = rs_zeros<long long>(BLOCKS * THREADS);
    tile_sums<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    long long *got = rs_download(out, BLOCKS * THREADS);
    int bad = 0;
    for (int b = 0; b < BLOCKS; b++)
        for (int t = 0; t < THREADS; t++) {
            long long want = 0;
            for (int u = 0; u < TILES; u++)
                for (int k = t; k < TILE; k += THREADS)
                    want += (long long)h[(size_t)b * TILES * TILE + u * TILE + k] * (u + 1);
            bad += got[b * THREADS + t] != want;
        }
    printf("pipeline tile sums: %d threads, %d wrong\n", BLOCKS * THREADS, bad);
    rs_done();
    return bad != 0;
}
