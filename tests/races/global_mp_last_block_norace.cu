// global_mp_last_block_norace.cu: the last-block pattern: each of four blocks stores its
// partial result, __threadfence(), then takes a ticket with atomicAdd; the block that
// draws the last ticket fences and sums every partial result. Each block's fence and
// ticket are a release pattern; the last ticket reads the end of a chain of atomic
// read-modify-writes that holds every other block's ticket, and with the fence after it
// forms an acquire pattern that synchronizes with all of them: every partial result is
// ordered before the reads.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void sum_blocks(int *partial, int *arrived, int *total)
{
    if (threadIdx.x != 0)
        return;
    partial[blockIdx.x] = int(blockIdx.x) * 10 + 1;
    __threadfence();
    if (atomicAdd(arrived, 1) != BLOCKS - 1)
        return;
    __threadfence();
    int sum = 0;
    for (int b = 0; b < BLOCKS; b++)
        sum += partial[b];
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
