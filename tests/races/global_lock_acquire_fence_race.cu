// global_lock_acquire_fence_race.cu: a spin lock (atomicCAS to take it, __threadfence()
// then atomicExch to give it back) guards a global total that one thread of each of four
// blocks adds to; taking the lock has no fence after the atomicCAS. The successful
// atomicCAS alone is no acquire pattern, so the previous holder's release orders nothing
// before this holder's critical section: the critical sections race (the read and the
// write of each against the write of another).
// SCORD-CATEGORY: 7
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A lock_no_fence
// SCORD-CAUSE: B lock_no_fence
#include "rs_sync.h"

enum { BLOCKS = 4, THREADS = 32 };

// Takes the lock: spins on atomicCAS until it turns the word from 0 to 1 (and fences
// nothing).
__device__ bool lock(int *mutex)
{
    if (!rs_spin_until([&] { return atomicCAS(mutex, 0, 1) == 0; }))
        return false;
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
        *total += int(blockIdx.x) + 1;    // race(A) read,write global race(B) write,write global
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
