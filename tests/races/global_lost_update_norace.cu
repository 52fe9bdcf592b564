// global_lost_update_norace.cu: one thread of each block adds its block's input to a single
// global total with atomicAdd.
// SCORD-CATEGORY: 2
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 32 };

__global__ void tally(const int *in, int *total)
{
    if (threadIdx.x == 0)
        atomicAdd(total, in[blockIdx.x]);
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS, [](size_t i) { return int(i * i + 1); });
    int *total = rs_zeros<int>(1);
    tally<<<BLOCKS, THREADS>>>(in, total);
    RS_LAUNCHED();
    rs_print_checksum("total", total, 1);
    rs_done();
    return 0;
}
