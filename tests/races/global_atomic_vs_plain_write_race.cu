// global_atomic_vs_plain_write_race.cu: blocks 1-3 set their bit of a global flag word
// with atomicOr while block 0 sets its bit with a plain store, which races with them.
// SCORD-CATEGORY: 2
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_vs_plain
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void set_flags(unsigned *flags)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0)
            *flags = 1u;                            // race(A) write global
    } else {
        atomicOr(flags, 1u << blockIdx.x);          // race(A) atomic.gpu global
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
