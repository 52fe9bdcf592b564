// global_large_grid_race.cu: a tiny kernel on 2^22 blocks: thread 0 of block b increments
// slot b mod 2^21, so blocks b and b + 2^21 share a slot
// and their plain read-modify-writes race (millions of occurrences of two races).
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A unsynchronized_blocks
// SCORD-CAUSE: B unsynchronized_blocks
#include "rs_common.h"

enum { BLOCKS = 1 << 22, THREADS = 32, SLOTS = BLOCKS / 2 };

__global__ void tick(int *slots)
{
    if (threadIdx.x == 0)
        slots[blockIdx.x % SLOTS] += 1;         // race(A) read,write global race(B) write,write global
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
