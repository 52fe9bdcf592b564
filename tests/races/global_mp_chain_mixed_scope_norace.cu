// global_mp_chain_mixed_scope_norace.cu: a message passed along a chain whose links have
// different scopes: warp 0 of block 0 writes a value, __threadfence_block(), raises flag
// 0; warp 1 of block 0 waits for flag 0, __threadfence(), raises flag 1; block 1 waits
// for flag 1, __threadfence(), reads the value. The writer only ever uses block scope,
// yet the read in another block is ordered after the write: each link is morally strong
// (.cta within the block, .gpu across), and causality order is transitive (HRF-indirect).
// SCORD-CATEGORY: 6
// SCORD-EXPECT: no race
#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 64 };

// Thread 0 (warp 0 of block 0) hands the value to thread 32 (warp 1 of block 0)
// through flags[0], which hands it on to thread 0 of block 1 through flags[1].
__global__ void pass_along(int *data, int *flags, int *out)
{
    volatile int *flag = flags;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *data = 42;
        __threadfence_block();
        flag[0] = 1;
    } else if (blockIdx.x == 0 && threadIdx.x == 32) {
        if (!rs_spin_until([&] { return flag[0] != 0; }))
            return;
        __threadfence();
        flag[1] = 1;
    } else if (blockIdx.x == 1 && threadIdx.x == 0) {
        if (!rs_spin_until([&] { return flag[1] != 0; }))
            return;
        __threadfence();
        *out = *data;
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
