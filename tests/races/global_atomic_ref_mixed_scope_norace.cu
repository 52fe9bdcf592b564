// global_atomic_ref_mixed_scope_norace.cu: every thread of four blocks counts itself into
// one global counter with a libcu++ cuda::atomic_ref fetch_add (relaxed): blocks 1-3
// through thread_scope_device, block 0 through thread_scope_system. The scopes differ but
// each includes every thread of the launch: the additions are atomic with respect to each
// other.
// SCORD-CATEGORY: 5
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void count_threads(int *counter)
{
    if (blockIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_system> count(*counter);
        count.fetch_add(1, cuda::memory_order_relaxed);
    } else {
        cuda::atomic_ref<int, cuda::thread_scope_device> count(*counter);
        count.fetch_add(1, cuda::memory_order_relaxed);
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
