// global_volatile_vs_atomic_norace.cu: blocks 1-3 set their bits of a global flag word with
// atomicOr, and so does block 0: every update is a read-modify-write.
// SCORD-CATEGORY: 2
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void set_flags(unsigned *flags)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0)
            atomicOr(flags, 1u);
    } else {
        atomicOr(flags, 1u << blockIdx.x);
    }
}

int main()
{
    rs_require_device();
    unsigned *flags = rs_zeros<unsigned>(1);
    set_flags<<<BLOCKS, THREADS>>>(flags);
    RS_LAUNCHED();
    rs_print_checksum("flags", flags, 1);
    rs_done();
    return 0;
}
