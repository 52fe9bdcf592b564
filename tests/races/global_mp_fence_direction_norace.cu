// global_mp_fence_direction_norace.cu: message passing between two blocks with the
// one-way fences of sm_90: block 0 writes a value, fence.release.gpu (inline PTX), raises
// a volatile flag; block 1 waits for the flag, fence.acquire.gpu, reads the value. A
// release fence then a strong flag store is a release pattern, a strong flag load then an
// acquire fence an acquire pattern: the write is ordered before the read.
// SCORD-CATEGORY: 6
// SCORD-REQUIRES: sm_90
// SCORD-EXPECT: no race
#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 32 };

__global__ void pass_message(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        *data = 42;
        asm volatile("fence.release.gpu;" ::: "memory");
        *(volatile int *)flag = 1;
    } else if (rs_spin_until([&] { return *(volatile int *)flag != 0; })) {
        asm volatile("fence.acquire.gpu;" ::: "memory");
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
