// global_lock_cas_block_race.cu: a spin lock taken with atomicCAS_block guards a global
// total that one thread of each of four blocks adds to (__threadfence() after taking it
// and before giving it back, which is also an atomicCAS_block). Block scope does not
// include the other blocks: the compare-and-swaps of different blocks are not atomic with
// respect to each other (race C on the lock word), the lock does not exclude them, and no
// release of one block synchronizes with another's acquire: the critical sections race
// (A, B). The verdict follows SPEC.md: atomicCAS_block across blocks is a scoped race,
// and __threadfence() is an acq_rel fence that orders nothing by itself.
// SCORD-CATEGORY: 7
// SCORD-EXPECT: 3 races
// SCORD-CAUSE: A lock_scope
// SCORD-CAUSE: B lock_scope
// SCORD-CAUSE: C atomic_scope
#include "rs_sync.h"

enum { BLOCKS = 4, THREADS = 32 };

// Turns the lock word from `from` to `to` if it holds `from`. Taking the lock (0 to 1)
// and giving it back (1 to 0) both go through this line, so that a race between any
// two accesses to the word names it.
__device__ bool flip(int *mutex, int from, int to)
{
    return atomicCAS_block(mutex, from, to) == from;  // race(C) atomic.cta,atomic.cta global
}

__device__ bool lock(int *mutex)
{
    if (!rs_spin_until([&] { return flip(mutex, 0, 1); }))
        return false;
    __threadfence();
    return true;
}

__device__ void unlock(int *mutex)
{
    __threadfence();
    flip(mutex, 1, 0);
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
