// global_atomic_ref_scope_race.cu: every thread of four blocks counts itself with a libcu++
// cuda::atomic_ref<int, cuda::thread_scope_block>::fetch_add (relaxed). Block scope does
// not include the other blocks' threads: the counts of different blocks race.
// SCORD-CATEGORY: 13
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_scope
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void count_threads(int *counter)
{
    cuda::atomic_ref<int, cuda::thread_scope_block> count(*counter);
    count.fetch_add(1, cuda::memory_order_relaxed);     // race(A) atomic.cta,atomic.cta global
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
