// global_mp_fence_acq_rel_norace.cu: message passing between two blocks with
// fence.acq_rel.gpu (inline PTX) on both sides: block 0 writes a value, fences, raises a
// volatile flag; block 1 waits for the flag, fences, reads the value. fence.acq_rel is
// the fence the release and acquire patterns name, and .gpu includes both blocks: the
// write is ordered before the read.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: no race
#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 32 };

__global__ void pass_message(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        *data = 42;
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
        *(volatile int *)flag = 1;
    } else if (rs_spin_until([&] { return *(volatile int *)flag != 0; })) {
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
        *out = *data;
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
