// global_atomic_ref_scope_norace.cu: every thread of four blocks counts itself with a libcu++
// cuda::atomic_ref<int, cuda::thread_scope_device>::fetch_add (relaxed): device scope
// includes every thread of the grid.
// SCORD-CATEGORY: 13
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void count_threads(int *counter)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> count(*counter);
    count.fetch_add(1, cuda::memory_order_relaxed);
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
