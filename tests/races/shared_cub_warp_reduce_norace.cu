// shared_cub_warp_reduce_norace.cu: cub::WarpReduce over a logical warp of 12 lanes (a
// block of 12 threads). 12 is not a power of two, so CUB reduces through shared memory
// with volatile loads and stores and __syncwarp() with a 12-lane member mask: race-free.
// (CUB's mask for such widths names lanes 0-11 only, hence one logical warp per block.)
// SCORD-CATEGORY: 13
// SCORD-EXPECT: no race
#include <cub/warp/warp_reduce.cuh>

#include "rs_common.h"

enum { BLOCKS = 8, WIDTH = 12 };

using WarpReduce = cub::WarpReduce<int, WIDTH>;

__global__ void group_sums(const int *in, int *out)
{
    __shared__ WarpReduce::TempStorage temp;
    int sum = WarpReduce(temp).Sum(in[blockIdx.x * WIDTH + threadIdx.x]);
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * WIDTH, [](size_t i) { return int(i * 7 % 23); });
    int *out = rs_zeros<int>(BLOCKS);
    group_sums<<<BLOCKS, WIDTH>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("group_sums", out, BLOCKS);
    rs_done();
    return 0;
}
