// shared_cub_block_reduce_scan_norace.cu: each block of 256 threads takes a tile of 1024
// ints, sums it with cub::BlockReduce (thread 0 publishes the sum in a __shared__ slot),
// centres the items on the tile's mean, and computes with cub::BlockScan both the
// exclusive prefix sums and, by scanning the tile reversed through a __shared__ array,
// the exclusive suffix sums; both collectives share one TempStorage union. Race-free: a
// __syncthreads() orders thread 0's store of the sum before every thread's read of it,
// one separates each reuse of the union from the previous collective, as CUB documents,
// and one orders the stores of the tile before its reversed reads (thread t reads what
// thread 255-t stored, always in another warp). Checked on the host.
// SCORD-CATEGORY: 1
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <cub/cub.cuh>
#include <vector>

enum { THREADS = 256, ITEMS = 4, TILE = THREADS * ITEMS, BLOCKS = 192 };

using BlockReduce = cub::BlockReduce<int, THREADS>;
using BlockScan = cub::BlockScan<int, THREADS>;

__global__ void prefix_and_suffix(const int *in, int *prefix, int *suffix, int *sums)
{
    __shared__ union {
        BlockReduce::TempStorage reduce;
        BlockScan::TempStorage scan;
    } temp;
    __shared__ int block_sum;
    __shared__ int tile[TILE];
    const int base = blockIdx.x * TILE;
    int items[ITEMS];
    cub::LoadDirectBlocked(threadIdx.x, in + base, items);

    int sum = BlockReduce(temp.reduce).Sum(items); // valid in thread 0 only
    if (threadIdx.x == 0) {
        block_sum = sum;
        sums[blockIdx.x] = sum;
    }
    __syncthreads(); // block_sum is visible; temp.reduce is done with
    const int mean = block_sum / TILE;
    for (int i = 0; i < ITEMS; i++)
        items[i] -= mean;

    int out[ITEMS];
    BlockScan(temp.scan).ExclusiveSum(items, out);
    cub::StoreDirectBlocked(threadIdx.x, prefix + base, out);

    // Suffix sums: the exclusive scan of the reversed tile.
    for (int i = 0; i < ITEMS; i++)
        tile[threadIdx.x * ITEMS + i] = items[i];
    __syncthreads(); // the whole tile is stored
    int rev[ITEMS];
    for (int i = 0; i < ITEMS; i++)
        rev[i] = tile[TILE - 1 - (threadIdx.x * ITEMS + i)];
    __syncthreads(); // temp.scan is done with: the second scan may reuse it
    BlockScan(temp.scan).ExclusiveSum(rev, out);
    for (int i = 0; i < ITEMS; i++)
        suffix[base + TILE - 1 - (threadIdx.x * ITEMS + i)] = out[i];
}

int main()
{
    rs_require_device();
    const int n = BLOCKS * TILE;
    std::vector<int> h(n);
    uint32_t x = 12345;
    for (int i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        h[i] = (int)(x % 1000);
    }
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *prefix = rs_zeros<int>(n);
    int *suffix = rs_zeros<int>(n);
    int *sums = rs_zeros<int>(BLOCKS);
    prefix_and_suffix<<<BLOCKS, THREADS>>>(in, prefix, suffix, sums);
    RS_LAUNCHED();

    int *hp = rs_download(prefix, n);
    int *hq = rs_download(suffix, n);
    int *hs = rs_download(sums, BLOCKS);
    int bad = 0;
    for (int b = 0; b < BLOCKS; b++) {
        const int *t = &h[b * TILE];
        int sum = 0;
        for (int i = 0; i < TILE; i++)
            sum += t[i];
        bad += hs[b] != sum;
        const int mean = sum / TILE;
        int run = 0;
        for (int i = 0; i < TILE; i++) {
            bad += hp[b * TILE + i] != run;
            run += t[i] - mean;
        }
        run = 0;
        for (int i = TILE - 1; i >= 0; i--) {
            bad += hq[b * TILE + i] != run;
            run += t[i] - mean;
        }
    }
    printf("block reduce + scan: %d blocks of %d, %d wrong\n", BLOCKS, TILE, bad);
    rs_print_checksum("sums", sums, BLOCKS);
    rs_print_checksum("prefix sums", prefix, n);
    rs_print_checksum("suffix sums", suffix, n);
    free(hp);
    free(hq);
    free(hs);
    rs_done();
    return bad != 0;
}
