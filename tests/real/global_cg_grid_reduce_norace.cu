// global_cg_grid_reduce_norace.cu: a cooperative launch whose blocks reduce 4M ints in
// two phases separated by cooperative_groups::this_grid().sync(): each block writes its
// partial, the grid syncs, block 0 adds the partials, the grid syncs, every block scales
// its slice by the total. Tiled partitions (tiled_partition<32>, reduce) do the warp
// sums. Race-free: grid.sync orders the phases.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>

namespace cg = cooperative_groups;
enum { THREADS = 256, N = 1 << 22 };

__global__ void normalize(const int *in, long long *partial, long long *total, int *out)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ long long warp_sums[THREADS / 32];
    long long mine = 0;
    for (long long i = grid.thread_rank(); i < N; i += grid.size())
        mine += in[i];
    long long w = cg::reduce(warp, mine, cg::plus<long long>());
    if (warp.thread_rank() == 0)
        warp_sums[warp.meta_group_rank()] = w;
    block.sync();
    if (threadIdx.x == 0) {
        long long s = 0;
        for (int k = 0; k < THREADS / 32; k++)
            s += warp_sums[k];
        partial[blockIdx.x] = s;
    }
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        long long s = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            s += partial[b];
        *total = s;
    }
    grid.sync();
    long long t = *total;
    for (long long i = grid.thread_rank(); i < N; i += grid.size())
        out[i] = (int)((long long)in[i] * 1000 / (t % 997 + 1));
}

int main()
{
    rs_require_device();
    int dev = 0, sms = 0, per_sm = 0;
    RS_CHECK(cudaGetDevice(&dev));
    RS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    RS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalize, THREADS, 0));
    int blocks = sms * (per_sm < 2 ? per_sm : 2);
    std::vector<int> h(N);
    for (int i = 0; i < N; i++)
        h[i] = (int)((i * 2654435761u) >> 20);
    int *in = rs_fill<int>(N, [&](size_t i) { return h[i]; });
    long long *partial = rs_zeros<long long>(blocks), *total = rs_zeros<long long>(1);
    int *out = rs_zeros<int>(N);
    void *args[] = {&in, &partial, &total, &out};
    RS_CHECK(cudaLaunchCooperativeKernel((void *)normalize, blocks, THREADS, args, 0, 0));
    RS_LAUNCHED();
    long long t = 0;
    for (int i = 0; i < N; i++)
        t += h[i];
    int *got = rs_download(out, N);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += got[i] != (int)((long long)h[i] * 1000 / (t % 997 + 1));
    printf("grid reduce: total %lld, %d wrong\n", t, bad);
    rs_done();
    return bad != 0;
}
