// shared_dsmem_exchange_norace.cu: the two blocks of each cluster (sm_90,
// __cluster_dims__) read each other's shared memory (distributed shared memory, through
// cluster.map_shared_rank): every thread stages a value in its block's tile,
// cluster.sync(), reads a value of the other block's tile, cluster.sync() again, and
// only then overwrites its own tile. The barriers order each read after the owner's
// write and before the owner's overwrite.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: no race
#include <cooperative_groups.h>

#include "rs_common.h"

namespace cg = cooperative_groups;

enum { BLOCKS = 8, THREADS = 64 };

__global__ void __cluster_dims__(2, 1, 1) swap_tiles(const int *in, int *out)
{
    __shared__ int tile[THREADS];
    cg::cluster_group cluster = cg::this_cluster();
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    tile[t] = in[i];
    cluster.sync();
    const int *peer = cluster.map_shared_rank(tile, cluster.block_rank() ^ 1);
    int v = peer[(t + 1) % THREADS];
    cluster.sync(); // the other block is done reading this tile
    tile[t] = v * 2 + 1;
    cluster.sync();
    out[i] = tile[(t + 3) % THREADS];
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 7 % 101); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    swap_tiles<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("swapped", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
