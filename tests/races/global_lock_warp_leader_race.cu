// global_lock_warp_leader_race.cu: a warp-leader lock: in each of four one-warp blocks,
// lane 0 takes a spin lock (atomicCAS + __threadfence()) for the warp, __syncwarp(),
// every lane adds to its own slot of a row of totals, and lane 0 gives the lock back
// (__threadfence() + atomicExch) with no __syncwarp() before it. The other lanes' updates
// are not ordered before lane 0's release, so the next holder's lanes race them (slots
// 1-31; lane 0's own update is covered). Cause: lock_no_fence, the release that misses
// the synchronization it needs (the race is between blocks, so missing_syncwarp would
// name the wrong threads).
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

// Gives the lock back: fences so that the critical section comes before the release,
// then clears the word.
__device__ void unlock(int *mutex)
{
    __threadfence();
    atomicExch(mutex, 0);
}

// One warp per block updates a row of 32 totals; lane 0 takes the lock for the warp.
__global__ void add_rows(int *mutex, int *totals)
{
    int lane = threadIdx.x;
    bool held = __shfl_sync(0xffffffffu, lane == 0 && lock(mutex), 0);
    __syncwarp();
    if (!held)
        return;
    totals[lane] += int(blockIdx.x) + lane;  // race(A) read,write global race(B) write,write global
    if (lane == 0)
        unlock(mutex);
}

int main()
{
    rs_require_device();
    int *mutex = rs_zeros<int>(1), *totals = rs_zeros<int>(THREADS);
    add_rows<<<BLOCKS, THREADS>>>(mutex, totals);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("totals", totals, THREADS);
    rs_done();
    return 0;
}
