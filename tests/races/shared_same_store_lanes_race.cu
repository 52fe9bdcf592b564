// shared_same_store_lanes_race.cu: every lane of a warp stores to the same shared word
// with one store instruction, each lane a different value (its lane number): which
// value survives is unspecified.
// SCORD-CATEGORY: 4
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A same_store_lanes
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void elect(int *out)
{
    __shared__ int owner;
    int lane = threadIdx.x;
    owner = lane;                   // race(A) write,write shared
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
