// global_mp_last_block_race.cu: the last-block pattern: each of four blocks stores its
// partial result, then takes a ticket with atomicAdd; the block that draws the last
// ticket fences and sums every partial result. The blocks have no fence between their
// store and their ticket, so no release pattern covers the stores: the last block's reads
// race the other blocks' stores. (The racy side is the writers' on purpose: a last block
// without its acquire fence still has its own __threadfence() before its ticket, and that
// fence.sc would leave the verdict to the Fence-SC order.)
// SCORD-CATEGORY: 6
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void sum_blocks(int *partial, int *arrived, int *total)
{
    if (threadIdx.x != 0)
        return;
    partial[blockIdx.x] = int(blockIdx.x) * 10 + 1;    // race(A) write global
    if (atomicAdd(arrived, 1) != BLOCKS - 1)
        return;
    __threadfence();
    int sum = 0;
    for (int b = 0; b < BLOCKS; b++)
        sum += partial[b];                             // race(A) read global
    *total = sum;
}

int main()
{
    rs_require_device();
    int *partial = rs_zeros<int>(BLOCKS), *arrived = rs_zeros<int>(1), *total = rs_zeros<int>(1);
    sum_blocks<<<BLOCKS, THREADS>>>(partial, arrived, total);
    RS_LAUNCHED();
    rs_print_checksum("total", total, 1);
    rs_done();
    return 0;
}
