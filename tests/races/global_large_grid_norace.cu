// global_large_grid_norace.cu: a tiny kernel on 2^22 blocks: thread 0 of block b increments
// slot b mod 2^21, so blocks b and b + 2^21 share a slot
// and update it with atomicAdd. No access is out of bounds.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 1 << 22, THREADS = 32, SLOTS = BLOCKS / 2 };

__global__ void tick(int *slots)
{
    if (threadIdx.x == 0)
        atomicAdd(&slots[blockIdx.x % SLOTS], 1);
}

int main()
{
    rs_require_device();
    int *slots = rs_zeros<int>(SLOTS);
    tick<<<BLOCKS, THREADS>>>(slots);
    RS_LAUNCHED();
    rs_print_checksum("slots", slots, SLOTS);
    rs_done();
    return 0;
}
