// global_lock_acquire_fence_norace.cu: a spin lock guards a global total that one thread
// of each of four blocks adds to: atomicCAS then __threadfence() to take it (an acquire
// pattern), __threadfence() then atomicExch to give it back (a release pattern), all at
// gpu scope. Each critical section is ordered after the one that released the lock before
// it.
// SCORD-CATEGORY: 7
// SCORD-EXPECT: no race
#include "rs_sync.h"

enum { BLOCKS = 4, THREADS = 32 };

// Takes the lock: spins on atomicCAS until it turns the word from 0 to 1, then fences so
// that the critical section comes after the acquire.
__device__ bool lock(int *mutex)
{
    if (!rs_spin_until([&] { return atomicCAS(mutex, 0, 1) == 0; }))
        return false;
    __threadfence();
    return true;
}

// Gives the lock back: fences so that the critical section comes before the release,
// then clears the word.
__device__ void unlock(int *mutex)
{
    __threadfence();
    atomicExch(mutex, 0);
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
