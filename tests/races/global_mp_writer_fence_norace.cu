// global_mp_writer_fence_norace.cu: message passing between two blocks: block 0 writes a
// value, fences (__threadfence()) and raises a volatile flag; block 1 waits for the flag,
// fences and reads the value. Fence then strong flag store is a release pattern, strong
// flag load then fence an acquire pattern, both at gpu scope: the write is ordered before
// the read.
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
        __threadfence();
        *(volatile int *)flag = 1;
    } else if (rs_spin_until([&] { return *(volatile int *)flag != 0; })) {
        __threadfence();
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
