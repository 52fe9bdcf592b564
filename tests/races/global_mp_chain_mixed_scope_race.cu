// global_mp_chain_mixed_scope_race.cu: a message passed along a chain whose links have
// different scopes: warp 0 of block 0 writes a value, __threadfence_block(), raises flag
// 0; warp 1 of block 0 waits for flag 0, __threadfence_block(), raises flag 1; block 1
// waits for flag 1, __threadfence(), reads the value. The first link is sound within the
// block; the second is broken: warp 1's release starts with a .cta fence, which does not
// include block 1, so block 1's read races warp 0's write.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A fence_scope
#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 64 };

// Thread 0 (warp 0 of block 0) hands the value to thread 32 (warp 1 of block 0)
// through flags[0], which hands it on to thread 0 of block 1 through flags[1].
__global__ void pass_along(int *data, int *flags, int *out)
{
    volatile int *flag = flags;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *data = 42;      // race(A) write global
        __threadfence_block();
        flag[0] = 1;
    } else if (blockIdx.x == 0 && threadIdx.x == 32) {
        if (!rs_spin_until([&] { return flag[0] != 0; }))
            return;
        __threadfence_block();
        flag[1] = 1;
    } else if (blockIdx.x == 1 && threadIdx.x == 0) {
        if (!rs_spin_until([&] { return flag[1] != 0; }))
            return;
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
