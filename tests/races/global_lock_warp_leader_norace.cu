// global_lock_warp_leader_norace.cu: a warp-leader lock: in each of four one-warp blocks,
// lane 0 takes a spin lock (atomicCAS + __threadfence()) for the warp, __syncwarp(),
// every lane adds to its own slot of a row of totals, __syncwarp(), and lane 0 gives the
// lock back (__threadfence() + atomicExch). The __syncwarp()s order the lanes' updates
// after lane 0's acquire and before its release: every update is in the critical section.
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

// One warp per block updates a row of 32 totals; lane 0 takes the lock for the warp.
__global__ void add_rows(int *mutex, int *totals)
{
    int lane = threadIdx.x;
    bool held = __shfl_sync(0xffffffffu, lane == 0 && lock(mutex), 0);
    __syncwarp();
    if (!held)
        return;
    totals[lane] += int(blockIdx.x) + lane;
    __syncwarp();
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
