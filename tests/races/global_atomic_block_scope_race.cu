// global_atomic_block_scope_race.cu: every thread of four blocks counts itself into one
// global counter with atomicAdd_block. Block scope does not include the other blocks'
// threads, so the atomics of different blocks are not atomic with respect to each other.
// SCORD-CATEGORY: 2
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_scope
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void count_threads(int *counter)
{
    atomicAdd_block(counter, 1);        // race(A) atomic.cta,atomic.cta global
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
