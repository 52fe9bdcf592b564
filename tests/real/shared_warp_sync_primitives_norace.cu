// shared_warp_sync_primitives_norace.cu: warp-level stream compaction with the warp
// intrinsics: in each of 8 rounds every lane tests its element, __ballot_sync and __popc
// give each kept element its position, the kept lanes store it in the warp's slice of a
// shared staging array, __syncwarp(), and the first `kept` lanes copy the staging array
// to the warp's output run; __reduce_add_sync counts the kept elements, __match_any_sync
// groups the lanes by key so that one leader per key adds the group's size to the
// warp's shared key counts, and __shfl_xor_sync sums the kept values. Race-free: the
// __syncwarp() orders the staging stores before the other lanes' loads, and one at the
// end of each round orders those loads (and the key counts) before the next round's
// stores. The racy twin drops the first __syncwarp(). 32 blocks of 128 threads.
// SCORD-CATEGORY: 4
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <vector>

enum { THREADS = 128, BLOCKS = 32, WARPS = THREADS / 32, ROUNDS = 8, KEYS = 8 };
constexpr int WARPS_ALL = BLOCKS * WARPS, RUN = ROUNDS * 32, N = WARPS_ALL * RUN;
constexpr unsigned FULL = 0xffffffffu;

__host__ __device__ bool keep(int v) { return v % 5 != 1 && v % 7 != 3; }
__host__ __device__ int key_of(int v) { return (v / 11) % KEYS; }

__global__ void compact(const int *in, int *out, int *run_length, int *key_counts, long long *kept_sums)
{
    __shared__ int staging[WARPS][32];
    __shared__ int counts[WARPS][KEYS];
    int lane = threadIdx.x % 32, w = threadIdx.x / 32, gw = blockIdx.x * WARPS + w;
    if (lane < KEYS)
        counts[w][lane] = 0;
    __syncwarp();
    int written = 0;
    long long sum = 0;
    for (int r = 0; r < ROUNDS; r++) {
        int v = in[gw * RUN + r * 32 + lane];
        bool k = keep(v);
        unsigned kept_mask = __ballot_sync(FULL, k);
        int kept = __popc(kept_mask);
        if (k)
            staging[w][__popc(kept_mask & ((1u << lane) - 1))] = v;
        __syncwarp();
        if (lane < kept)
            out[gw * RUN + written + lane] = staging[w][lane];
        written += __reduce_add_sync(FULL, k ? 1u : 0u);
        unsigned same = __match_any_sync(FULL, k ? key_of(v) : KEYS);
        if (k && lane == __ffs(same) - 1)
            counts[w][key_of(v)] += __popc(same);
        int s = k ? v : 0;
        for (int off = 16; off > 0; off /= 2)
            s += __shfl_xor_sync(FULL, s, off);
        sum += s;
        __syncwarp();
    }
    if (lane < KEYS)
        atomicAdd(&key_counts[lane], counts[w][lane]);
    if (lane == 0) {
        run_length[gw] = written;
        kept_sums[gw] = sum;
    }
}

int main()
{
    rs_require_device();
    std::vector<int> h(N);
    for (int i = 0; i < N; i++)
        h[i] = (int)((i * 2654435761u) >> 17);
    int *in = rs_fill<int>(N, [&](size_t i) { return h[i]; });
    int *out = rs_fill<int>(N, [](size_t) { return -1; });
    int *run_length = rs_zeros<int>(WARPS_ALL), *key_counts = rs_zeros<int>(KEYS);
    long long *kept_sums = rs_zeros<long long>(WARPS_ALL);
    compact<<<BLOCKS, THREADS>>>(in, out, run_length, key_counts, kept_sums);
    RS_LAUNCHED();
    int *got = rs_download(out, N), *lengths = rs_download(run_length, WARPS_ALL);
    int *counts = rs_download(key_counts, KEYS);
    long long *sums = rs_download(kept_sums, WARPS_ALL);
    std::vector<int> want_counts(KEYS, 0);
    int bad = 0, total = 0;
    for (int gw = 0; gw < WARPS_ALL; gw++) {
        int n = 0;
        long long s = 0;
        for (int i = gw * RUN; i < (gw + 1) * RUN; i++)
            if (keep(h[i])) {
                bad += got[gw * RUN + n++] != h[i];
                want_counts[key_of(h[i])]++;
                s += h[i];
            }
        bad += lengths[gw] != n || sums[gw] != s;
        total += n;
    }
    for (int k = 0; k < KEYS; k++)
        bad += counts[k] != want_counts[k];
    printf("warp compaction: %d of %d kept, key 0 count %d, %d wrong\n", total, N, counts[0], bad);
    free(got);
    free(lengths);
    free(counts);
    free(sums);
    rs_done();
    return bad != 0;
}
