// global_mp_release_only_race.cu: message passing between two blocks through a libcu++
// cuda::atomic_ref flag: block 0 writes a value and stores the flag with
// memory_order_release; block 1 loads the flag with memory_order_relaxed until it is set
// and reads the value. A relaxed load is no acquire and no fence follows it: the release
// orders nothing before the read.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include <cuda/atomic>

#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 32 };

using flag_ref = cuda::atomic_ref<int, cuda::thread_scope_device>;

__global__ void pass_message(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0)
        return;
    flag_ref ready(*flag);
    if (blockIdx.x == 0) {
        *data = 42;      // race(A) write global
        ready.store(1, cuda::memory_order_release);
    } else if (rs_spin_until([&] { return ready.load(cuda::memory_order_relaxed) != 0; })) {
        *out = *data;    // race(A) read global
    }
}

int main()
{
    rs_require_device();
    int *data = rs_zeros<int>(1), *flag = rs_zeros<int>(1), *out = rs_zeros<int>(1);
    pass_message<<<BLOCKS, THREADS>>>(data, flag, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("message", out, 1);
    rs_done();
    return 0;
}
