// global_relaxed_load_vs_plain_norace.cu: block 1 loads a value with a relaxed
// cuda::atomic_ref load (ld.relaxed.gpu) while block 0 stores it with a relaxed
// cuda::atomic_ref store (st.relaxed.gpu), with nothing ordering them. Both are strong,
// of device scope, on the same bytes: morally strong, no data race whichever comes first.
// SCORD-CATEGORY: 8
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 2, THREADS = 32 };

using slot_ref = cuda::atomic_ref<int, cuda::thread_scope_device>;

// The reader keeps only whether it saw the old or the new value, so that the race-free
// twin's output does not depend on the timing.
__global__ void publish(int *slot, int *saw_whole_value)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        slot_ref(*slot).store(7, cuda::memory_order_relaxed);
    } else {
        int v = slot_ref(*slot).load(cuda::memory_order_relaxed);
        *saw_whole_value = v == 0 || v == 7;
    }
}

int main()
{
    rs_require_device();
    int *slot = rs_zeros<int>(1), *saw = rs_zeros<int>(1);
    publish<<<BLOCKS, THREADS>>>(slot, saw);
    RS_LAUNCHED();
    rs_print_checksum("saw", saw, 1);
    rs_done();
    return 0;
}
