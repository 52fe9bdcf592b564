// global_mp_fence_direction_race.cu: message passing between two blocks with the one-way
// fences of sm_90: block 0 writes a value, fence.acquire.gpu (inline PTX), raises a
// volatile flag; block 1 waits for the flag, fence.acquire.gpu, reads the value. An
// acquire fence cannot start a release pattern (only release and acq_rel fences do), so
// the writer releases nothing: the read races the write.
// SCORD-CATEGORY: 6
// SCORD-REQUIRES: sm_90
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
        asm volatile("fence.acquire.gpu;" ::: "memory");
        *(volatile int *)flag = 1;
    } else if (rs_spin_until([&] { return *(volatile int *)flag != 0; })) {
        asm volatile("fence.acquire.gpu;" ::: "memory");
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
