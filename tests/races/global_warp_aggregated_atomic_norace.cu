// global_warp_aggregated_atomic_norace.cu: stream compaction with warp-aggregated
// atomics: the first active lane reserves room for the whole warp with one atomicAdd and
// broadcasts the base with __shfl_sync(); each lane then writes its own output slot.
// Every slot has one writer and the counter is only touched atomically: race-free.
// SCORD-CATEGORY: 13
// SCORD-EXPECT: no race
#include <algorithm>

#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };

__global__ void keep_positive(const int *in, int *out, int *count)
{
    int i = blockIdx.x * THREADS + threadIdx.x;
    int v = in[i];
    if (v <= 0)
        return;
    unsigned active = __activemask();
    int lane = threadIdx.x % 32, leader = __ffs(active) - 1;
    int base = 0;
    if (lane == leader)
        base = atomicAdd(count, __popc(active));
    base = __shfl_sync(active, base, leader);
    out[base + __popc(active & ((1u << lane) - 1))] = v;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(N, [](size_t i) { return int(i * 2654435761u % 19) - 6; });
    int *out = rs_zeros<int>(N);
    int *count = rs_zeros<int>(1);
    keep_positive<<<BLOCKS, THREADS>>>(in, out, count);
    RS_LAUNCHED();
    // The order of the kept values depends on the order of the atomics; their set does not.
    int n = 0;
    RS_CHECK(cudaMemcpy(&n, count, sizeof n, cudaMemcpyDeviceToHost));
    int *kept = rs_download(out, N);
    std::sort(kept, kept + n);
    long long sum = 0;
    for (int k = 0; k < n; k++)
        sum = sum * 31 + kept[k];
    printf("keep_positive: %d kept, ordered digest %lld\n", n, sum);
    free(kept);
    rs_done();
    return 0;
}
