// global_lost_update_race.cu: one thread of each block adds its block's input to a single
// global total with a plain read-modify-write, so two blocks can read the same old
// value and one addition is lost.
// SCORD-CATEGORY: 2
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A unsynchronized_blocks
// SCORD-CAUSE: B unsynchronized_blocks
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 32 };

__global__ void tally(const int *in, int *total)
{
    if (threadIdx.x == 0)
        *total += in[blockIdx.x];       // race(A) read,write global race(B) write,write global
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
