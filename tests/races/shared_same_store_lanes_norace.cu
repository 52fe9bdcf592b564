// shared_same_store_lanes_norace.cu: every lane of a warp stores to the same shared word
// with one store instruction, all of them the same value (the block number): a benign
// collision that is not an error.
// SCORD-CATEGORY: 4
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void elect(int *out)
{
    __shared__ int owner;
    int lane = threadIdx.x;
    owner = blockIdx.x;
    __syncwarp();
    out[blockIdx.x * THREADS + lane] = owner + lane;
}

int main()
{
    rs_require_device();
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    elect<<<BLOCKS, THREADS>>>(out);
    RS_LAUNCHED();
    rs_print_checksum("elect", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
