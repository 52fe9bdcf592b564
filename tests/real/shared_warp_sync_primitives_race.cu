// shared_warp_sync_primitives_race.cu: the warp-level stream compaction of
// shared_warp_sync_primitives_norace without the __syncwarp() between the kept lanes'
// stores to the warp's shared staging array and the loads of the first `kept` lanes:
// lane p loads the element that a later lane stored at position p, two lanes of one
// warp ordered by nothing (__ballot_sync, __popc and the other intrinsics order no
// memory). The input drops elements in every round, so such a pair occurs every time;
// the __syncwarp() at the end of each round stays. The printed line does not depend on
// the race.
// SCORD-CATEGORY: 4
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_syncwarp
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
            staging[w][__popc(kept_mask & ((1u << lane) - 1))] = v;  // race(A) write shared
        if (lane < kept)
            out[gw * RUN + written + lane] = staging[w][lane];       // race(A) read shared
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
    printf("warp compaction (racy): %d elements in %d warps\n", N, WARPS_ALL);
    rs_done();
    return 0;
}
