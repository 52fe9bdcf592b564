// global_cg_coalesced_aggregate_norace.cu: a filter with warp-aggregated atomics written
// with cooperative groups: the threads whose element passes form
// cg::coalesced_threads(), its rank-0 thread reserves room for all of them with one
// atomicAdd on a global cursor, g.shfl() hands the base to the others and each stores its
// element at base + its rank; then cg::labeled_partition() groups the warp's threads by
// the element's key, and each group's rank-0 thread adds the group's size to the key's
// global count. Race-free: each output slot is written by one thread, the cursor and the
// counts only by atomics, and the host reads after the kernel. The output's order depends
// on timing, so the host sorts it before checking and printing. 96 blocks of 256.
// SCORD-CATEGORY: 2
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <algorithm>
#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;
enum { THREADS = 256, BLOCKS = 96, KEYS = 12 };
constexpr int N = THREADS * BLOCKS * 2;

__host__ __device__ bool passes(int v) { return v % 3 != 0 && (v & 4) == 0; }
__host__ __device__ int key_of(int v) { return (v >> 4) % KEYS; }

__global__ void filter(const int *in, int *out, int *cursor, int *key_counts)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < N; i += BLOCKS * THREADS) {
        int v = in[i];
        if (passes(v)) {
            cg::coalesced_group g = cg::coalesced_threads();
            int base = 0;
            if (g.thread_rank() == 0)
                base = atomicAdd(cursor, (int)g.size());
            base = g.shfl(base, 0);
            out[base + g.thread_rank()] = v;
        }
        // Every thread of the warp takes part, labelled by its key (or KEYS if filtered out).
        cg::coalesced_group same_key = cg::labeled_partition(warp, passes(v) ? key_of(v) : KEYS);
        if (same_key.thread_rank() == 0 && passes(v))
            atomicAdd(&key_counts[key_of(v)], (int)same_key.size());
    }
}

int main()
{
    rs_require_device();
    std::vector<int> h(N);
    for (int i = 0; i < N; i++)
        h[i] = (int)((i * 2654435761u) >> 13);
    int *in = rs_fill<int>(N, [&](size_t i) { return h[i]; });
    int *out = rs_zeros<int>(N), *cursor = rs_zeros<int>(1), *key_counts = rs_zeros<int>(KEYS);
    filter<<<BLOCKS, THREADS>>>(in, out, cursor, key_counts);
    RS_LAUNCHED();
    int kept = 0;
    RS_CHECK(cudaMemcpy(&kept, cursor, sizeof kept, cudaMemcpyDeviceToHost));
    std::vector<int> want, want_counts(KEYS, 0);
    for (int v : h)
        if (passes(v)) {
            want.push_back(v);
            want_counts[key_of(v)]++;
        }
    std::sort(want.begin(), want.end());
    int bad = kept != (int)want.size();
    if (!bad) {
        int *got = rs_download(out, kept);
        std::sort(got, got + kept);
        for (int i = 0; i < kept; i++)
            bad += got[i] != want[i];
        free(got);
    }
    int *counts = rs_download(key_counts, KEYS);
    for (int k = 0; k < KEYS; k++)
        bad += counts[k] != want_counts[k];
    unsigned long long sum = 0;
    for (int v : want)
        sum += (unsigned)v;
    printf("coalesced filter: %d of %d kept, sum %llu, key 0 count %d, %d wrong\n", kept, N, sum,
           counts[0], bad);
    free(counts);
    rs_done();
    return bad != 0;
}
