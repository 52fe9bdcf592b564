// shared_cg_tiled_partition_norace.cu: cooperative_groups::tiled_partition<16> splits each
// block of 128 threads into 8 tiles of 16; every tile sums its 16 values through its own
// 16-element slice of a __shared__ array by a tree reduction with tile.sync() after the
// initial stores and after every step, and its rank-0 thread writes the tile's sum.
// Race-free: a tile touches only its own slice, and tile.sync() (a __syncwarp over the
// tile's lanes) orders each step's stores before the next step's loads. The racy twin
// leaves out the tile.sync() after the initial stores. 64 blocks.
// SCORD-CATEGORY: 4
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
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
    slice[r] = v * v % 1000;
    tile.sync();
    for (int off = TILE / 2; off > 0; off /= 2) {
        if (r < off)
            slice[r] += slice[r + off];
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
    int *got = rs_download(out, m);
    int bad = 0;
    long long total = 0;
    for (int k = 0; k < m; k++) {
        int want = 0;
        for (int i = 0; i < TILE; i++)
            want += h[k * TILE + i] * h[k * TILE + i] % 1000;
        bad += got[k] != want;
        total += want;
    }
    printf("tiled_partition<16> sums: %d tiles, total %lld, %d wrong\n", m, total, bad);
    free(got);
    rs_done();
    return bad != 0;
}
