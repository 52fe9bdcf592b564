// global_lock_cas_block_norace.cu: a spin lock taken and given back with atomicCAS
// (device scope) guards a global total that one thread of each of four blocks adds to,
// with __threadfence() after taking it and before giving it back: the critical sections
// are ordered.
// SCORD-CATEGORY: 7
// SCORD-EXPECT: no race
#include "rs_sync.h"

enum { BLOCKS = 4, THREADS = 32 };

// Turns the lock word from `from` to `to` if it holds `from`. Taking the lock (0 to 1)
// and giving it back (1 to 0) both go through this line, so that a race between any
// two accesses to the word names it.
__device__ bool flip(int *mutex, int from, int to)
{
    return atomicCAS(mutex, from, to) == from;
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
