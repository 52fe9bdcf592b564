// global_volatile_vs_atomic_race.cu: blocks 1-3 set their bits of a global flag word with
// atomicOr while block 0 sets its bit with a volatile store. Both are strong and their
// scopes include each other, so this is no data race, but the store can wipe out bits
// the atomics set: a warning (strong_vs_rmw).
// SCORD-CATEGORY: 2
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A strong_vs_rmw
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void set_flags(unsigned *flags)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0)
            *(volatile unsigned *)flags = 1u;       // race(A) write global
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
