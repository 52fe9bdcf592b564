// global_mp_system_scope_norace.cu: three messages from block 0 to block 1, each
// published at system scope, wider than the two blocks need: __threadfence_system()
// around volatile flag accesses; a cuda::atomic_ref<int, thread_scope_system> flag stored
// with release and loaded with acquire; fence.acq_rel.sys (inline PTX) before
// atomicExch_system, and atomicAdd_system polls followed by fence.sc.sys. A scope wider
// than needed still includes both threads: every write is ordered before its read.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 32, MESSAGES = 3 };

using system_ref = cuda::atomic_ref<int, cuda::thread_scope_system>;

__global__ void pass_messages(int *data, int *flags, int *out)
{
    if (threadIdx.x != 0)
        return;
    volatile int *volatile_flag = &flags[0];
    system_ref ordered_flag(flags[1]);
    int *atomic_flag = &flags[2];
    if (blockIdx.x == 0) {
        data[0] = 11;
        __threadfence_system();
        *volatile_flag = 1;
        data[1] = 22;
        ordered_flag.store(1, cuda::memory_order_release);
        data[2] = 33;
        asm volatile("fence.acq_rel.sys;" ::: "memory");
        atomicExch_system(atomic_flag, 1);
        return;
    }
    if (!rs_spin_until([&] { return *volatile_flag != 0; }))
        return;
    __threadfence_system();
    out[0] = data[0];
    if (!rs_spin_until([&] { return ordered_flag.load(cuda::memory_order_acquire) != 0; }))
        return;
    out[1] = data[1];
    if (!rs_spin_until([&] { return atomicAdd_system(atomic_flag, 0) != 0; }))
        return;
    asm volatile("fence.sc.sys;" ::: "memory");
    out[2] = data[2];
}

int main()
{
    rs_require_device();
    int *data = rs_zeros<int>(MESSAGES), *flags = rs_zeros<int>(MESSAGES);
    int *out = rs_zeros<int>(MESSAGES);
    pass_messages<<<BLOCKS, THREADS>>>(data, flags, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("messages", out, MESSAGES);
    rs_done();
    return 0;
}
