// global_atomic_block_scope_norace.cu: every thread of four blocks counts itself into one
// global counter with atomicAdd, whose device scope includes every thread of the grid.
// SCORD-CATEGORY: 2
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void count_threads(int *counter)
{
    atomicAdd(counter, 1);
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
