// global_atomic_ref_mixed_scope_race.cu: every thread of four blocks counts itself into
// one global counter with a libcu++ cuda::atomic_ref fetch_add (relaxed): blocks 1-3
// through thread_scope_device, block 0 through thread_scope_block. Block 0's block scope
// does not include the other blocks: its additions and theirs are not atomic with respect
// to each other.
// SCORD-CATEGORY: 5
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_scope
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void count_threads(int *counter)
{
    if (blockIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_block> count(*counter);
        count.fetch_add(1, cuda::memory_order_relaxed);    // race(A) atomic.cta global
    } else {
        cuda::atomic_ref<int, cuda::thread_scope_device> count(*counter);
        count.fetch_add(1, cuda::memory_order_relaxed);    // race(A) atomic.gpu global
    }
}

int main()
{
    rs_require_device();
    int *counter = rs_zeros<int>(1);
    count_threads<<<BLOCKS, THREADS>>>(counter);
    RS_LAUNCHED();
    rs_print_checksum("counter", counter, 1);
    rs_done();
    return 0;
}
