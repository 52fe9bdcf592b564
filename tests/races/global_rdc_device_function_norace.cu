// global_rdc_device_function_norace.cu: built with -rdc=true, so its fat binary holds
// relocatable code that is linked when loaded. A non-inlined device function called by
// one thread of each block stores the block's index into the block's own global cell.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 32 };

__device__ __noinline__ void publish(int *cells, int block)
{
    cells[block] = block;
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
    rs_print_checksum("cells", cells, BLOCKS);
    rs_done();
    return 0;
}
