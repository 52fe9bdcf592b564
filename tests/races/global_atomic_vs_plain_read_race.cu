// global_atomic_vs_plain_read_race.cu: blocks 1-3 count with atomicAdd while a thread of
// block 0 samples the count with a plain load, which races with the atomics.
// SCORD-CATEGORY: 2
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_vs_plain
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void progress(unsigned *done, unsigned *sample)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0)
            *sample = *done;                        // race(A) read global
    } else {
        atomicAdd(done, 1u);                        // race(A) atomic.gpu global
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
