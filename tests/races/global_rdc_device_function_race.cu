// global_rdc_device_function_race.cu: built with -rdc=true, so its fat binary holds
// relocatable code that is linked when loaded. A non-inlined device function called by
// one thread of each block stores the block's index into one shared global cell: the
// stores of different blocks are not ordered.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A unsynchronized_blocks
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 32 };

__device__ __noinline__ void publish(int *cells, int block)
{
    cells[0] = block;                   // race(A) write,write global
}

__global__ void stamp(int *cells)
{
    if (threadIdx.x == 0)
        publish(cells, blockIdx.x);
}

int main()
{
    rs_require_device();
    int *cells = rs_zeros<int>(BLOCKS);
    stamp<<<BLOCKS, THREADS>>>(cells);
    RS_LAUNCHED();
    rs_print_checksum("cells", cells + 1, BLOCKS - 1);
    rs_done();
    return 0;
}
