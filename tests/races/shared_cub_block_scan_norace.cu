// shared_cub_block_scan_norace.cu: two cub::BlockScan exclusive prefix sums in a row
// over one TempStorage, separated by the __syncthreads() CUB asks for. CUB's internal
// raking and barriers must not look like races.
// SCORD-CATEGORY: 13
// SCORD-EXPECT: no race
#include <cub/block/block_scan.cuh>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

using BlockScan = cub::BlockScan<int, THREADS>;

__global__ void two_scans(const int *in, int *out)
{
    __shared__ BlockScan::TempStorage temp;
    int i = blockIdx.x * THREADS + threadIdx.x;
    int v = in[i], prefix, prefix_of_squares;
    BlockScan(temp).ExclusiveSum(v, prefix);
    __syncthreads();
    BlockScan(temp).ExclusiveSum(v * v, prefix_of_squares);
    out[2 * i] = prefix;
    out[2 * i + 1] = prefix_of_squares;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i % 13); });
    int *out = rs_zeros<int>(2 * BLOCKS * THREADS);
    two_scans<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("two_scans", out, 2 * BLOCKS * THREADS);
    rs_done();
    return 0;
}
