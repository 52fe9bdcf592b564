// global_mp_atomic_flag_norace.cu: message passing between two blocks through an atomic
// flag: block 0 writes a value, __threadfence(), atomicExch(flag, 1); block 1 polls with
// atomicAdd(flag, 0) until it is set, __threadfence(), reads the value. Fence then atomic
// is a release pattern, atomic then fence an acquire pattern: the write is ordered before
// the read.
// SCORD-CATEGORY: 8
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
        atomicExch(flag, 1);
    } else if (rs_spin_until([&] { return atomicAdd(flag, 0) != 0; })) {
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
