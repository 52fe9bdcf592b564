// global_volatile_exchange_norace.cu: one block stores a value with a volatile store
// while another block loads it with a volatile load, with nothing ordering them. Volatile
// is relaxed at system scope: the two accesses are strong with scopes that include each
// other (morally strong), which is no data race whichever comes first. The reader keeps
// only whether it saw the old or the new value, so the output does not depend on the
// timing.
// SCORD-CATEGORY: 8
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 2, THREADS = 32 };

__global__ void exchange(int *slot, int *saw_whole_value)
{
    if (threadIdx.x != 0)
        return;
    volatile int *shared_slot = slot;
    if (blockIdx.x == 0) {
        *shared_slot = 7;
    } else {
        int v = *shared_slot;
        *saw_whole_value = v == 0 || v == 7;
    }
}

int main()
{
    rs_require_device();
    int *slot = rs_zeros<int>(1), *saw = rs_zeros<int>(1);
    exchange<<<BLOCKS, THREADS>>>(slot, saw);
    RS_LAUNCHED();
    rs_print_checksum("saw", saw, 1);
    rs_done();
    return 0;
}
