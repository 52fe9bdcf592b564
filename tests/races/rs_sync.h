// rs_sync.h: what the race-suite programs that synchronize through memory (message
// passing, locks: SPEC categories 5-8) share: a spin-wait with a bound, so that a
// program whose partner never comes fails with a message instead of hanging the suite.
#ifndef RS_SYNC_H
#define RS_SYNC_H

#include "rs_common.h"

// Polls per wait. The partners in these programs are a few blocks, all resident at
// once, and come within thousands of polls even under a detector; a wait that polls
// this often is stuck, and gives up within seconds.
enum { RS_SPIN_LIMIT = 1 << 22 };

// How many waits gave up, for rs_check_spins().
__device__ unsigned rs_spins_given_up;

// Calls ready() until it returns true, at most RS_SPIN_LIMIT times, and says whether it
// did. ready() holds the poll (a flag load, a lock's atomicCAS) so that its line is the
// program's own. A caller that gets false skips its work; rs_check_spins() then fails
// the run.
template <class Ready> __device__ __forceinline__ bool rs_spin_until(Ready ready)
{
    for (int polls = 0; polls < RS_SPIN_LIMIT; polls++)
        if (ready())
            return true;
    atomicAdd(&rs_spins_given_up, 1u);
    return false;
}

// After the kernels: fails the run if any wait gave up.
static inline void rs_check_spins(void)
{
    unsigned given_up = 0;
    RS_CHECK(cudaMemcpyFromSymbol(&given_up, rs_spins_given_up, sizeof given_up));
    if (given_up)
        rs_die("%u spin-wait(s) gave up after %d polls: a partner never came", given_up,
               int(RS_SPIN_LIMIT));
}

#endif
