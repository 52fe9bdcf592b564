// shared_dsmem_exchange_race.cu: the two blocks of each cluster (sm_90,
// __cluster_dims__) read each other's shared memory (distributed shared memory, through
// cluster.map_shared_rank): every thread stages a value in its block's tile,
// cluster.sync(), reads a value of the other block's tile and overwrites its own tile
// with no second cluster.sync() between: the other block's read of the tile races the
// overwrite (write after read across blocks). Cause: missing_fence (the blocks
// synchronize through the cluster barrier, whose release came before the read).
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
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
    int v = peer[(t + 1) % THREADS];          // race(A) read shared
    tile[t] = v * 2 + 1;                  // race(A) write shared
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
