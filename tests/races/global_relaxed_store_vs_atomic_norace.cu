// global_relaxed_store_vs_atomic_norace.cu: blocks 1-3 set their bits of a global flag
// word with atomicOr while block 0 sets its bit with a relaxed cuda::atomic_ref fetch_or:
// atomic read-modify-writes of device scope on one word are atomic with respect to each
// other, and no bit is lost.
// SCORD-CATEGORY: 8
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void set_flags(unsigned *flags)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag_word(*flags);
        flag_word.fetch_or(1u, cuda::memory_order_relaxed);
    } else {
        atomicOr(flags, 1u << blockIdx.x);
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
