// global_atomic_system_vs_block_norace.cu: every thread of four blocks counts itself into
// one global counter: blocks 1-3 with atomicAdd_system, block 0 with atomicAdd (device
// scope). Device and system scope both include every thread of the launch: all the
// atomics are atomic with respect to each other.
// SCORD-CATEGORY: 5
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void count_threads(int *counter)
{
    if (blockIdx.x == 0)
        atomicAdd(counter, 1);
    else
        atomicAdd_system(counter, 1);
}

int main()
{
    rs_require_device();
    int *counter = rs_zeros<int>(1);
    count_threads<<<BLOCKS, THREADS>>>(counter);
    RS_LAUNCHED();
    rs_print_checksum("counter", counter, 1);
    rs_done();
    return 0;
}
