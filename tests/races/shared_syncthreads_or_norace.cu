// shared_syncthreads_or_norace.cu: minimum-label propagation around a ring of shared cells,
// iterated while __syncthreads_or() says some cell changed. That barrier orders one
// round's writes before the next round's reads;
// a __syncthreads() orders a round's read of the neighbour's cell before its write.
// SCORD-CATEGORY: 1
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 2, THREADS = 128 };

__global__ void min_label(const int *in, int *out)
{
    __shared__ int label[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    label[t] = in[i];
    __syncthreads();
    bool changed = true;
    while (__syncthreads_or(changed)) {
        int m = min(label[t], label[(t + 32) % THREADS]);
        __syncthreads();
        changed = m < label[t];
        label[t] = m;
    }
    out[i] = label[t];
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int((i * 37) % 101); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    min_label<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("min_label", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
