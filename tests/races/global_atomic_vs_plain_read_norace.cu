// global_atomic_vs_plain_read_norace.cu: blocks 1-3 count with atomicAdd while a thread of
// block 0 samples the count with a relaxed atomic load (cuda::atomic_ref).
// SCORD-CATEGORY: 2
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void progress(unsigned *done, unsigned *sample)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0)
            *sample = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*done).load(
                cuda::memory_order_relaxed);
    } else {
        atomicAdd(done, 1u);
    }
}

int main()
{
    rs_require_device();
    unsigned *done = rs_zeros<unsigned>(1);
    unsigned *sample = rs_zeros<unsigned>(1);
    progress<<<BLOCKS, THREADS>>>(done, sample);
    RS_LAUNCHED();
    // The sample depends on timing; only the final count is printed.
    rs_print_checksum("done", done, 1);
    rs_done();
    return 0;
}
