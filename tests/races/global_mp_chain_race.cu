// global_mp_chain_race.cu: a message passed along a chain of three blocks: block 0 writes
// a value, __threadfence_block(), raises flag 0; block 1 waits for flag 0,
// __threadfence(), raises flag 1; block 2 waits for flag 1, __threadfence(), reads the
// value. The first link is broken: block 0's release pattern starts with a .cta fence,
// which does not include block 1, so it synchronizes with nothing, and block 2's read
// races block 0's write although the second link is sound.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A fence_scope
#include "rs_sync.h"

enum { BLOCKS = 3, THREADS = 32 };

// Block 0 hands the value to block 1 through flags[0], block 1 hands it on to block 2
// through flags[1]; block 2, which never looks at flags[0], reads it.
__global__ void pass_along(int *data, int *flags, int *out)
{
    if (threadIdx.x != 0)
        return;
    volatile int *flag = flags;
    if (blockIdx.x == 0) {
        *data = 42;      // race(A) write global
        __threadfence_block();
        flag[0] = 1;
    } else if (blockIdx.x == 1) {
        if (!rs_spin_until([&] { return flag[0] != 0; }))
            return;
        __threadfence();
        flag[1] = 1;
    } else if (rs_spin_until([&] { return flag[1] != 0; })) {
        __threadfence();
        *out = *data;    // race(A) read global
    }
}

int main()
{
    rs_require_device();
    int *data = rs_zeros<int>(1), *flags = rs_zeros<int>(2), *out = rs_zeros<int>(1);
    pass_along<<<BLOCKS, THREADS>>>(data, flags, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("message", out, 1);
    rs_done();
    return 0;
}
