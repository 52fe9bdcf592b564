// global_relaxed_store_vs_atomic_race.cu: blocks 1-3 set their bits of a global flag word
// with atomicOr while block 0 sets its bit with a relaxed cuda::atomic_ref store
// (st.relaxed.gpu). The store is strong and of device scope, so the pair is morally
// strong and no data race, but the store can wipe out bits the atomics set: a warning
// (strong_vs_rmw), as for a volatile store.
// SCORD-CATEGORY: 8
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A strong_vs_rmw
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void set_flags(unsigned *flags)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag_word(*flags);
        flag_word.store(1u, cuda::memory_order_relaxed);    // race(A) write global
    } else {
        atomicOr(flags, 1u << blockIdx.x);                  // race(A) atomic.gpu global
    }
}

int main()
{
    rs_require_device();
    unsigned *flags = rs_zeros<unsigned>(1);
    set_flags<<<BLOCKS, THREADS>>>(flags);
    RS_LAUNCHED();
    rs_print_checksum("flags", flags, 1);
    rs_done();
    return 0;
}
