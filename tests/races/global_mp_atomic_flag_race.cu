// global_mp_atomic_flag_race.cu: message passing between two blocks through an atomic
// flag: block 0 writes a value, __threadfence(), atomicExch(flag, 1); block 1 polls with
// atomicAdd(flag, 0) until it is set and reads the value with no fence after the poll. An
// atomic read-modify-write is relaxed, not acquire: without a fence after it there is no
// acquire pattern, and the read races the write. Policy: strict PTX (the legacy reader
// without a fence is reported).
// SCORD-CATEGORY: 8
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 32 };

__global__ void pass_message(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        *data = 42;      // race(A) write global
        __threadfence();
        atomicExch(flag, 1);
    } else if (rs_spin_until([&] { return atomicAdd(flag, 0) != 0; })) {
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
