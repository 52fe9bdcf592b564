// global_atomic_mixed_scope_race.cu: block 0 counts into a global counter with
// atomicAdd_block and the other blocks with atomicAdd. The block-scope atomic does not
// include the other blocks' threads, so the two kinds are not atomic with each other.
// SCORD-CATEGORY: 2
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_scope
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void count_mixed(int *counter)
{
    if (blockIdx.x == 0)
        atomicAdd_block(counter, 2);    // race(A) atomic.cta global
    else
        atomicAdd(counter, 1);          // race(A) atomic.gpu global
}

int main()
{
    rs_require_device();
    int *counter = rs_zeros<int>(1);
    count_mixed<<<BLOCKS, THREADS>>>(counter);
    RS_LAUNCHED();
    rs_print_checksum("counter", counter, 1);
    rs_done();
    return 0;
}
