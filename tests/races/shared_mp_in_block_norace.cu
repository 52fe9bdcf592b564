// shared_mp_in_block_norace.cu: message passing between two warps of one block through
// shared memory: warp 0 writes a value, __threadfence_block(), raises a volatile flag;
// warp 1 waits for the flag, __threadfence_block(), reads the value. Both threads are in
// the block, so .cta fences are enough: the write is ordered before the read (a detector
// that wants gpu-scope fences for message passing gives a false alarm here).
// SCORD-CATEGORY: 6
// SCORD-EXPECT: no race
#include "rs_sync.h"

enum { BLOCKS = 1, THREADS = 64 };

// Thread 0 (warp 0) hands a value to thread 32 (warp 1) of the same block.
__global__ void pass_message(int value, int *out)
{
    __shared__ int data;
    __shared__ volatile int flag;
    if (threadIdx.x == 0)
        flag = 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        data = value;
        __threadfence_block();
        flag = 1;
    } else if (threadIdx.x == 32 && rs_spin_until([&] { return flag != 0; })) {
        __threadfence_block();
        *out = data;
    }
}

int main()
{
    rs_require_device();
    int *out = rs_zeros<int>(1);
    pass_message<<<BLOCKS, THREADS>>>(42, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("message", out, 1);
    rs_done();
    return 0;
}
