// shared_cg_tiled_partition_race.cu: the tiled_partition<16> tree reduction of
// shared_cg_tiled_partition_norace without the tile.sync() between the initial stores to
// the tile's shared slice and the first step: the first step's load of slice[r + 8]
// (lane r) is not ordered after lane r + 8's store of it, two lanes of one warp with no
// __syncwarp between them (the later steps keep their tile.sync()). The printed line
// does not depend on the race.
// SCORD-CATEGORY: 4
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_syncwarp
#include "rs_common.h"
#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;
enum { THREADS = 128, BLOCKS = 64, TILE = 16, TILES = THREADS / TILE };

__global__ void tile_sums(const int *in, int *out)
{
    __shared__ int scratch[THREADS];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
    int *slice = scratch + tile.meta_group_rank() * TILE;
    int r = tile.thread_rank();
    int v = in[blockIdx.x * THREADS + tile.meta_group_rank() * TILE + r];
    slice[r] = v * v % 1000;                  // race(A) write shared
    for (int off = TILE / 2; off > 0; off /= 2) {
        if (r < off)
            slice[r] += slice[r + off];           // race(A) read shared
        tile.sync();
    }
    if (r == 0)
        out[blockIdx.x * TILES + tile.meta_group_rank()] = slice[0];
}

int main()
{
    rs_require_device();
    const int n = BLOCKS * THREADS, m = BLOCKS * TILES;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (int)((i * 2654435761u) >> 20);
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *out = rs_zeros<int>(m);
    tile_sums<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    printf("tiled_partition<16> sums (racy): %d tiles\n", m);
    rs_done();
    return 0;
}
