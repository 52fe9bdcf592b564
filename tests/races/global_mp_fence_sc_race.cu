// global_mp_fence_sc_race.cu: message passing between two blocks with fences of two
// kinds: block 0 writes a value, fence.sc.cta (inline PTX), raises a volatile flag; block
// 1 waits for the flag, fence.acq_rel.gpu, reads the value. fence.sc acts as an acq_rel
// fence at its scope, and .cta does not include block 1: the release pattern does not
// synchronize with block 1's acquire, and the read races the write.
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
        asm volatile("fence.sc.cta;" ::: "memory");
        *(volatile int *)flag = 1;
    } else if (rs_spin_until([&] { return *(volatile int *)flag != 0; })) {
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
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
