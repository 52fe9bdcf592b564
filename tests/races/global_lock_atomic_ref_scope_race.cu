// global_lock_atomic_ref_scope_race.cu: a libcu++ spin lock, cuda::atomic_ref<int,
// thread_scope_block>::exchange with memory_order_acquire to take it and
// memory_order_release to give it back, guards a global total that one thread of each of
// four blocks adds to. Block scope does not include the other blocks: the exchanges of
// different blocks race (C), the lock excludes nothing, and a release of one block does
// not synchronize with another block's acquire: the critical sections race (A, B). No
// fence.sc is involved, so the verdict does not depend on how one reads it.
// SCORD-CATEGORY: 7
// SCORD-EXPECT: 3 races
// SCORD-CAUSE: A lock_scope
// SCORD-CAUSE: B lock_scope
// SCORD-CAUSE: C atomic_scope
#include <cuda/atomic>

#include "rs_sync.h"

enum { BLOCKS = 4, THREADS = 32 };

using lock_ref = cuda::atomic_ref<int, cuda::thread_scope_block>;

// Swaps the lock word. Taking the lock (1, acquire) and giving it back (0, release) both
// go through this line, so that a race between any two accesses to the word names it.
__device__ int swap(int *mutex, int value, cuda::memory_order order)
{
    return lock_ref(*mutex).exchange(value, order);  // race(C) atomic.cta,atomic.cta global
}

__device__ bool lock(int *mutex)
{
    return rs_spin_until([&] { return swap(mutex, 1, cuda::memory_order_acquire) == 0; });
}

__device__ void unlock(int *mutex)
{
    swap(mutex, 0, cuda::memory_order_release);
}

// Thread 0 of each block adds its block's share to the total under the lock.
__global__ void add_shares(int *mutex, int *total)
{
    if (threadIdx.x != 0)
        return;
    if (lock(mutex)) {
        *total += int(blockIdx.x) + 1;       // race(A) read,write global race(B) write,write global
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
