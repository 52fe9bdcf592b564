// global_poll_late_write_norace.cu: block 1 exchanges a flag (relaxed atomic) and says
// so through `ready`; block 0 then polls the flag with relaxed loads, one load
// instruction in a loop, and after its first load says so through `polling`; block 1
// then stores the flag with a relaxed store. Every access of the flag is strong and of
// device scope: morally strong, no race. The racy twin's plain store races the polls
// after the first, which a detector that decides a repeated poll once must still check.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 32 };

using ref = cuda::atomic_ref<int, cuda::thread_scope_device>;

__global__ void poll_flag(int *flag, int *ready, int *polling, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 1) {
        ref(*flag).exchange(1, cuda::memory_order_relaxed);
        ref(*ready).store(1, cuda::memory_order_relaxed);
        if (rs_spin_until([&] { return ref(*polling).load(cuda::memory_order_relaxed) != 0; }))
            ref(*flag).store(2, cuda::memory_order_relaxed);
        return;
    }
    if (!rs_spin_until([&] { return ref(*ready).load(cuda::memory_order_relaxed) != 0; }))
        return;
    bool told = false;
    int seen = 0;
    rs_spin_until([&] {
        seen = ref(*flag).load(cuda::memory_order_relaxed);
        if (!told)
            ref(*polling).store(1, cuda::memory_order_relaxed);
        told = true;
        return seen == 2;
    });
    *out = seen;
}

int main()
{
    rs_require_device();
    int *flag = rs_zeros<int>(1), *ready = rs_zeros<int>(1), *polling = rs_zeros<int>(1);
    int *out = rs_zeros<int>(1);
    poll_flag<<<BLOCKS, THREADS>>>(flag, ready, polling, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("flag", out, 1);
    rs_done();
    return 0;
}
