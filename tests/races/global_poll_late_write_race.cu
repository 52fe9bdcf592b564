// global_poll_late_write_race.cu: a poll that meets its racing write only after its first
// load. Block 1 exchanges the flag (a relaxed atomic: the flag's history now names it)
// and says so through `ready`; block 0 then polls the flag with relaxed loads, one load
// instruction in a loop, and after its first load says so through `polling`; only then
// does block 1 store the flag with a plain (weak) store, which races every poll. The
// first poll left the history as it was (a strong read concurrent with an atomic keeps
// the atomic recorded), so the plain store finds no read to race with: only a later
// poll, at the same instruction and the same clocks as the first, meets the store. A
// detector that decides a repeated poll once (scord's kept polls) must still check it
// when the word's history changed. Twin: the store is relaxed (strong), morally strong
// with the loads.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A unsynchronized_blocks
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
            *flag = 2;   // race(A) write global
        return;
    }
    if (!rs_spin_until([&] { return ref(*ready).load(cuda::memory_order_relaxed) != 0; }))
        return;
    bool told = false;
    int seen = 0;
    rs_spin_until([&] {
        seen = ref(*flag).load(cuda::memory_order_relaxed);   // race(A) read global
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
