// global_lock_release_fence_race.cu: a spin lock (atomicCAS then __threadfence() to take
// it, atomicExch to give it back) guards a global total that one thread of each of four
// blocks adds to; giving it back has no fence before the atomicExch. The fence and
// atomicExch of the holder still form a release pattern, but its fence is the one from
// taking the lock, before the critical section: the release does not cover the critical
// section, and the critical sections race.
// SCORD-CATEGORY: 7
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A lock_no_fence
// SCORD-CAUSE: B lock_no_fence
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

// Gives the lock back: clears the word (with no fence before it).
__device__ void unlock(int *mutex)
{
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
