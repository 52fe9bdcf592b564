// global_grid_stride_norace.cu: a histogram over a grid-stride loop. With distinct keys (no
// arguments) every bin has one writer; with --duplicates, the run the suite makes, each
// key occurs twice in every grid stride, for threads in different blocks, and
// atomicAdd makes the updates of a bin race-free.
// SCORD-CATEGORY: 11
// SCORD-RUN: --duplicates
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64, STRIDE = BLOCKS * THREADS, N = 4 * STRIDE };

__global__ void histogram(const int *keys, int n, int *bins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[keys[i]], 1);
}

int main(int argc, char **argv)
{
    rs_require_device();
    bool duplicates = argc > 1 && strcmp(argv[1], "--duplicates") == 0;
    // Key k then belongs to elements k + m * STRIDE / 2, whose threads are k and
    // k + STRIDE / 2 of the grid: the same thread, or two blocks apart.
    int *keys = rs_fill<int>(N, [&](size_t i) { return duplicates ? int(i % (STRIDE / 2)) : int(i); });
    int *bins = rs_zeros<int>(N);
    histogram<<<BLOCKS, THREADS>>>(keys, N, bins);
    RS_LAUNCHED();
    rs_print_checksum("bins", bins, N);
    rs_done();
    return 0;
}
