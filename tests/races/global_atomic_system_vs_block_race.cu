// global_atomic_system_vs_block_race.cu: every thread of four blocks counts itself into
// one global counter: blocks 1-3 with atomicAdd_system, block 0 with atomicAdd_block.
// Block scope does not include the other blocks' threads, so block 0's atomics are not
// atomic with respect to theirs (the system-scope ones among themselves are).
// SCORD-CATEGORY: 5
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_scope
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void count_threads(int *counter)
{
    if (blockIdx.x == 0)
        atomicAdd_block(counter, 1);     // race(A) atomic.cta global
    else
        atomicAdd_system(counter, 1);    // race(A) atomic.sys global
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
