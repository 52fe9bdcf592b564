// global_atomic_ref_store_scope_race.cu: block 0 stores a value through a
// cuda::atomic_ref<int, thread_scope_block> (relaxed: st.relaxed.cta) while block 1 loads
// it through a thread_scope_device one (ld.relaxed.gpu), with nothing ordering them. Both
// are strong, but the store's block scope does not include block 1: the pair is not
// morally strong, and it races.
// SCORD-CATEGORY: 5
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_scope
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 2, THREADS = 32 };

// The reader keeps only whether it saw the old or the new value, so that the race-free
// twin's output does not depend on the timing.
__global__ void publish(int *slot, int *saw_whole_value)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_block> value(*slot);
        value.store(7, cuda::memory_order_relaxed);        // race(A) write global
    } else {
        cuda::atomic_ref<int, cuda::thread_scope_device> value(*slot);
        int v = value.load(cuda::memory_order_relaxed);    // race(A) read global
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
