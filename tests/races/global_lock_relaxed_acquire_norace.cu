// global_lock_relaxed_acquire_norace.cu: a libcu++ spin lock of device scope guards a
// global total that one thread of each of four blocks adds to; it is taken with
// exchange(1, memory_order_acquire) and given back with exchange(0,
// memory_order_release): each release synchronizes with the next acquire, and the
// critical sections are ordered.
// SCORD-CATEGORY: 7
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_sync.h"

enum { BLOCKS = 4, THREADS = 32 };

using lock_ref = cuda::atomic_ref<int, cuda::thread_scope_device>;

__device__ bool lock(int *mutex)
{
    lock_ref word(*mutex);
    return rs_spin_until([&] { return word.exchange(1, cuda::memory_order_acquire) == 0; });
}

__device__ void unlock(int *mutex)
{
    lock_ref(*mutex).exchange(0, cuda::memory_order_release);
}

// Thread 0 of each block adds its block's share to the total under the lock.
__global__ void add_shares(int *mutex, int *total)
{
    if (threadIdx.x != 0)
        return;
    if (lock(mutex)) {
        *total += int(blockIdx.x) + 1;
        unlock(mutex);
    }
}

int main()
{
    rs_require_device();
    int *mutex = rs_zeros<int>(1), *total = rs_zeros<int>(1);
    add_shares<<<BLOCKS, THREADS>>>(mutex, total);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("total", total, 1);
    rs_done();
    return 0;
}
