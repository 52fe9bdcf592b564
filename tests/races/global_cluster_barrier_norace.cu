// global_cluster_barrier_norace.cu: the blocks of a cluster of two (sm_90,
// __cluster_dims__) exchange rows through global memory: every thread writes its slot of
// its block's row, the cluster synchronizes with cluster.sync() (barrier.cluster.arrive,
// which releases, and barrier.cluster.wait, which acquires, at cluster scope), and every
// thread reads the slot of the other block of its cluster. The barrier orders each write
// before the other block's read.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: no race
#include <cooperative_groups.h>

#include "rs_common.h"

namespace cg = cooperative_groups;

enum { BLOCKS = 8, THREADS = 64 };

__global__ void __cluster_dims__(2, 1, 1) swap_rows(const int *in, int *rows, int *out)
{
    int t = threadIdx.x, b = blockIdx.x, i = b * THREADS + t;
    rows[i] = in[i] * 3 + 1;
    cg::this_cluster().sync();
    out[i] = rows[(b ^ 1) * THREADS + t];
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 7 % 101); });
    int *rows = rs_zeros<int>(BLOCKS * THREADS), *out = rs_zeros<int>(BLOCKS * THREADS);
    swap_rows<<<BLOCKS, THREADS>>>(in, rows, out);
    RS_LAUNCHED();
    rs_print_checksum("swapped", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
