// global_atomic_mixed_scope_norace.cu: block 0 counts into a global counter with
// atomicAdd like the other blocks (the scope fixed to device on both sides).
// SCORD-CATEGORY: 2
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void count_mixed(int *counter)
{
    if (blockIdx.x == 0)
        atomicAdd(counter, 2);
    else
        atomicAdd(counter, 1);
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
