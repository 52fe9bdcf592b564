// shared_atomic_vs_plain_norace.cu: a block histogram in shared memory: warps 1-3 count
// bytes into the bins with atomicAdd, then warp 0 copies the bins to global memory.
// A __syncthreads() orders the copy's plain loads after the other warps' atomics.
// SCORD-CATEGORY: 2
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128, BINS = 16 };

__global__ void block_histogram(const unsigned char *data, unsigned *hist)
{
    __shared__ unsigned bins[BINS];
    int t = threadIdx.x;
    if (t < BINS)
        bins[t] = 0;
    __syncthreads();
    if (t >= 32)
        atomicAdd(&bins[data[blockIdx.x * THREADS + t] % BINS], 1u);
    __syncthreads();
    if (t < BINS)
        hist[blockIdx.x * BINS + t] = bins[t];
}

int main()
{
    rs_require_device();
    unsigned char *data = rs_fill<unsigned char>(BLOCKS * THREADS, [](size_t i) {
        return (unsigned char)(i * 131 + 7);
    });
    unsigned *hist = rs_zeros<unsigned>(BLOCKS * BINS);
    block_histogram<<<BLOCKS, THREADS>>>(data, hist);
    RS_LAUNCHED();
    rs_print_checksum("hist", hist, BLOCKS * BINS);
    rs_done();
    return 0;
}
