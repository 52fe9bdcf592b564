// global_mp_block_fence_reader_race.cu: message passing between two blocks where only the
// reader's fence is block-scoped: block 0 writes a value, __threadfence(), raises a
// volatile flag; block 1 waits for the flag, __threadfence_block(), reads the value. The
// acquire pattern ends with a .cta fence, whose scope does not include block 0: the
// writer's release does not synchronize with it, and the read races the write.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A fence_scope
#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 32 };

__global__ void pass_message(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        *data = 42;      // race(A) write global
        __threadfence();
        *(volatile int *)flag = 1;
    } else if (rs_spin_until([&] { return *(volatile int *)flag != 0; })) {
        __threadfence_block();
        *out = *data;    // race(A) read global
    }
}

int main()
{
    rs_require_device();
    int *data = rs_zeros<int>(1), *flag = rs_zeros<int>(1), *out = rs_zeros<int>(1);
    pass_message<<<BLOCKS, THREADS>>>(data, flag, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("message", out, 1);
    rs_done();
    return 0;
}
