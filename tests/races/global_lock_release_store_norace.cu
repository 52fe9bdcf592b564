// global_lock_release_store_norace.cu: the textbook C++ spin lock in libcu++:
// compare_exchange_strong(0 -> 1, memory_order_acquire) to take it, store(0,
// memory_order_release) to give it back, on a cuda::atomic_ref of device scope, guarding
// a global total that one thread of each of four blocks adds to. The critical sections
// are ordered. The release store is a strong plain write unordered with the waiters'
// failed compare-and-swaps, but it is neither relaxed nor volatile and it is how every
// lock of this kind is given back: no data race, and no strong_vs_rmw warning either (a
// detector that warns on every strong store meeting an atomic gives a false alarm here).
// SCORD-CATEGORY: 7
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_sync.h"

enum { BLOCKS = 4, THREADS = 32 };

using lock_ref = cuda::atomic_ref<int, cuda::thread_scope_device>;

__device__ bool lock(int *mutex)
{
    lock_ref word(*mutex);
    return rs_spin_until([&] {
        int expected = 0;
        return word.compare_exchange_strong(expected, 1, cuda::memory_order_acquire);
    });
}

__device__ void unlock(int *mutex)
{
    lock_ref(*mutex).store(0, cuda::memory_order_release);
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
