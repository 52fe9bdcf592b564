// global_check_then_act_norace.cu: one thread per block claims a slot that two blocks share:
// it checks that the slot is free and then claims it with atomicCAS. The check is a
// relaxed atomic load (cuda::atomic_ref), which is morally strong with the atomicCAS.
// SCORD-CATEGORY: 2
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 32, SLOTS = BLOCKS / 2 };

__global__ void claim(int *slots, int *won)
{
    if (threadIdx.x != 0)
        return;
    int *slot = &slots[blockIdx.x % SLOTS];
    if (cuda::atomic_ref<int, cuda::thread_scope_device>(*slot).load(cuda::memory_order_relaxed) == 0)
        won[blockIdx.x] = atomicCAS(slot, 0, int(blockIdx.x) + 1) == 0;
}

int main()
{
    rs_require_device();
    int *slots = rs_zeros<int>(SLOTS);
    int *won = rs_zeros<int>(BLOCKS);
    claim<<<BLOCKS, THREADS>>>(slots, won);
    RS_LAUNCHED();
    // Which block wins a slot varies from run to run; how many slots are won does not.
    int *host = rs_download(won, BLOCKS);
    int winners = 0;
    for (int b = 0; b < BLOCKS; b++)
        winners += host[b];
    printf("claim: %d of %d slots claimed\n", winners, int(SLOTS));
    free(host);
    rs_done();
    return 0;
}
