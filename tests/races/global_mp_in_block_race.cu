// global_mp_in_block_race.cu: message passing between two warps of one block through
// global memory: warp 0 writes a value and raises a volatile flag; warp 1 waits for the
// flag, __threadfence_block(), reads the value. The writer has no fence between its data
// and its flag, so no release pattern covers the data write: the read races it.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include "rs_sync.h"

enum { BLOCKS = 1, THREADS = 64 };

// Thread 0 (warp 0) hands a value to thread 32 (warp 1) of the same block.
__global__ void pass_message(int *data_at, int *flag_at, int *out)
{
    int &data = *data_at;
    volatile int &flag = *flag_at;
    if (threadIdx.x == 0) {
        data = 42;      // race(A) write global
        flag = 1;
    } else if (threadIdx.x == 32 && rs_spin_until([&] { return flag != 0; })) {
        __threadfence_block();
        *out = data;    // race(A) read global
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
