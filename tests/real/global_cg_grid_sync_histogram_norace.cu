// global_cg_grid_sync_histogram_norace.cu: a counting sort in one cooperative launch
// (cudaLaunchCooperativeKernel, grid from cudaOccupancyMaxActiveBlocksPerMultiprocessor,
// at most 64 blocks). Phase 1: each block counts its keys in a shared histogram and adds
// it to a global one with atomicAdd; grid.sync(); phase 2: block 0's thread 0 turns the
// global counts into bin offsets with plain loads and stores; grid.sync(); phase 3:
// every thread reads the offsets and places its keys at offset + atomicAdd(bin cursor).
// Race-free: grid.sync() orders the phases, the scatter's slots are distinct, and
// within a bin all keys are equal, so the output does not depend on the order.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <algorithm>
#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;
enum { THREADS = 256, BINS = 64, N = 1 << 16, MAX_BLOCKS = 64 };

__global__ void counting_sort(const int *keys, int *counts, int *offsets, int *cursor, int *out)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += THREADS)
        local[b] = 0;
    block.sync();
    for (long long i = grid.thread_rank(); i < N; i += grid.size())
        atomicAdd(&local[keys[i]], 1);
    block.sync();
    for (int b = threadIdx.x; b < BINS; b += THREADS)
        if (local[b])
            atomicAdd(&counts[b], local[b]);
    grid.sync();
    if (grid.block_rank() == 0 && threadIdx.x == 0) {
        int start = 0;
        for (int b = 0; b < BINS; b++) {
            offsets[b] = start;
            start += counts[b];
        }
    }
    grid.sync();
    for (long long i = grid.thread_rank(); i < N; i += grid.size()) {
        int k = keys[i];
        out[offsets[k] + atomicAdd(&cursor[k], 1)] = k;
    }
}

int main()
{
    rs_require_device();
    int dev = 0, sms = 0, per_sm = 0, cooperative = 0;
    RS_CHECK(cudaGetDevice(&dev));
    RS_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, dev));
    if (!cooperative)
        rs_die("the device cannot launch cooperative kernels");
    RS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    RS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, counting_sort, THREADS, 0));
    int blocks = std::min(sms * per_sm, (int)MAX_BLOCKS);
    if (blocks < 1)
        rs_die("counting_sort cannot be resident");
    std::vector<int> h(N);
    for (int i = 0; i < N; i++)
        h[i] = (int)(((i * 2654435761u) >> 16) % 1000 * BINS / 1000 + (i % 7 == 0)) % BINS;
    int *keys = rs_fill<int>(N, [&](size_t i) { return h[i]; });
    int *counts = rs_zeros<int>(BINS), *offsets = rs_zeros<int>(BINS), *cursor = rs_zeros<int>(BINS);
    int *out = rs_zeros<int>(N);
    void *args[] = {&keys, &counts, &offsets, &cursor, &out};
    RS_CHECK(cudaLaunchCooperativeKernel((void *)counting_sort, blocks, THREADS, args, 0, 0));
    RS_LAUNCHED();
    std::vector<int> want(h);
    std::sort(want.begin(), want.end());
    int *got = rs_download(out, N);
    int *got_counts = rs_download(counts, BINS);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += got[i] != want[i];
    std::vector<int> want_counts(BINS, 0);
    for (int k : h)
        want_counts[k]++;
    for (int b = 0; b < BINS; b++)
        bad += got_counts[b] != want_counts[b];
    printf("grid.sync counting sort: %d keys in %d bins, bin 0 holds %d, %d wrong\n", N, BINS,
           got_counts[0], bad);
    free(got);
    free(got_counts);
    rs_done();
    return bad != 0;
}
