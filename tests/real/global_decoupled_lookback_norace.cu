// global_decoupled_lookback_norace.cu: a single-pass inclusive prefix sum with decoupled
// look-back, written by hand. A block takes its tile from an atomicAdd ticket, so every
// tile before it belongs to a block that is already running (no deadlock however blocks
// are scheduled); it scans its 512 elements (cg::inclusive_scan over warps), then thread
// 0 stores the tile's aggregate and publishes it with a device-scope
// cuda::atomic_ref release store of the tile's status word, walks back over the earlier
// tiles' status words with acquire loads (adding aggregates until a tile with an
// inclusive prefix), stores its own inclusive prefix and publishes that with a second
// release store. Race-free: each payload is read only after an acquire load saw the
// release store that follows its write. The racy twin publishes the inclusive prefix
// with a relaxed store. 128 tiles, every spin bounded.
// SCORD-CATEGORY: 6
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <vector>

namespace cg = cooperative_groups;
enum { THREADS = 128, PER_THREAD = 4, TILE = THREADS * PER_THREAD, TILES = 128, WARPS = THREADS / 32 };
enum : unsigned { EMPTY = 0, AGGREGATE = 1, PREFIX = 2 };
constexpr long SPIN_LIMIT = 1L << 22;

using status_ref = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

__global__ void scan(const int *in, int *out, int *ticket, unsigned *status, int *aggregate,
                     int *inclusive, unsigned *gave_up)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ int tile_index, tile_prefix;
    __shared__ int warp_totals[WARPS];
    if (threadIdx.x == 0)
        tile_index = atomicAdd(ticket, 1);
    block.sync();
    const int tile = tile_index;
    const int first = tile * TILE + threadIdx.x * PER_THREAD;
    int x[PER_THREAD], own = 0;
    for (int k = 0; k < PER_THREAD; k++)
        own += x[k] = in[first + k];
    int warp_inclusive = cg::inclusive_scan(warp, own);
    if (warp.thread_rank() == 31)
        warp_totals[warp.meta_group_rank()] = warp_inclusive;
    block.sync();
    int before_warp = 0, tile_total = 0;
    for (int w = 0; w < WARPS; w++) {
        before_warp += w < (int)warp.meta_group_rank() ? warp_totals[w] : 0;
        tile_total += warp_totals[w];
    }
    if (threadIdx.x == 0) {
        status_ref mine(status[tile]);
        int prefix = 0;
        if (tile > 0) {
            aggregate[tile] = tile_total;
            mine.store(AGGREGATE, cuda::memory_order_release);
            for (int p = tile - 1; p >= 0; p--) {
                status_ref theirs(status[p]);
                unsigned s = EMPTY;
                for (long spins = 0; spins < SPIN_LIMIT && s == EMPTY; spins++)
                    s = theirs.load(cuda::memory_order_acquire);
                if (s == EMPTY) {
                    atomicAdd(gave_up, 1u);
                    break;
                }
                if (s == PREFIX) {
                    prefix += inclusive[p];
                    break;
                }
                prefix += aggregate[p];
            }
        }
        inclusive[tile] = prefix + tile_total;
        mine.store(PREFIX, cuda::memory_order_release);
        tile_prefix = prefix;
    }
    block.sync();
    int running = tile_prefix + before_warp + warp_inclusive - own;
    for (int k = 0; k < PER_THREAD; k++)
        out[first + k] = running += x[k];
}

int main()
{
    rs_require_device();
    const int n = TILES * TILE;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (int)((i * 2654435761u) >> 25) - 40;
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *out = rs_zeros<int>(n), *ticket = rs_zeros<int>(1);
    int *aggregate = rs_zeros<int>(TILES), *inclusive = rs_zeros<int>(TILES);
    unsigned *status = rs_zeros<unsigned>(TILES), *gave_up = rs_zeros<unsigned>(1);
    scan<<<TILES, THREADS>>>(in, out, ticket, status, aggregate, inclusive, gave_up);
    RS_LAUNCHED();
    unsigned failed = 0;
    RS_CHECK(cudaMemcpy(&failed, gave_up, sizeof failed, cudaMemcpyDeviceToHost));
    if (failed)
        rs_die("%u look-back waits gave up", failed);
    int *got = rs_download(out, n);
    int bad = 0;
    long long running = 0;
    for (int i = 0; i < n; i++) {
        running += h[i];
        bad += got[i] != running;
    }
    printf("decoupled look-back scan: %d elements, last %d, %d wrong\n", n, got[n - 1], bad);
    free(got);
    rs_done();
    return bad != 0;
}
