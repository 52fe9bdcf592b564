// shared_dsmem_histogram_norace.cu: the four blocks of each cluster (sm_90,
// __cluster_dims__) count their inputs into one histogram in the shared memory of the
// cluster's first block (distributed shared memory, through cluster.map_shared_rank):
// that block clears the bins, cluster.sync(), every thread of the cluster adds to a bin
// with atomicAdd, cluster.sync(), and the first block copies the bins out. The atomics
// are morally strong with one another, and the barriers order them after the clearing
// and before the copy.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: no race
#include <cooperative_groups.h>

#include "rs_common.h"

namespace cg = cooperative_groups;

enum { BLOCKS = 8, THREADS = 128, CLUSTER = 4, BINS = 16 };

__global__ void __cluster_dims__(CLUSTER, 1, 1) histogram(const int *in, int *out)
{
    __shared__ int bins[BINS];
    cg::cluster_group cluster = cg::this_cluster();
    int t = threadIdx.x;
    if (cluster.block_rank() == 0 && t < BINS)
        bins[t] = 0;
    cluster.sync();
    int *home = cluster.map_shared_rank(bins, 0);
    atomicAdd(&home[(unsigned)in[blockIdx.x * THREADS + t] % BINS], 1);
    cluster.sync();
    if (cluster.block_rank() == 0 && t < BINS)
        out[blockIdx.x / CLUSTER * BINS + t] = bins[t];
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int((i * 2654435761u >> 9) & 0xffff); });
    int *out = rs_zeros<int>(BLOCKS / CLUSTER * BINS);
    histogram<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("bins", out, BLOCKS / CLUSTER * BINS);
    rs_done();
    return 0;
}
