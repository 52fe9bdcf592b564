// global_mp_weak_flag_race.cu: message passing between two blocks whose flag store is a
// plain (weak) store: block 0 writes a value, fence.acq_rel.gpu, then flag = 1; block 1
// waits for the flag with volatile loads, fence.acq_rel.gpu, reads the value. A release
// pattern needs a strong flag write: there is none, so nothing orders the data (race A),
// and the weak flag store itself races the flag loads (race B). Both take
// non_strong_sync, the cause that names the weak flag. The fences are fence.acq_rel
// (inline PTX), not __threadfence(): two gpu-scope fence.sc can order the data by the
// Fence-SC order alone, and race A would then depend on how a detector reads fence.sc.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A non_strong_sync
// SCORD-CAUSE: B non_strong_sync
#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 32 };

__global__ void pass_message(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        *data = 42;      // race(A) write global
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
        *flag = 1;       // race(B) write global
    } else if (rs_spin_until([&] { return *(volatile int *)flag != 0; })) {  // race(B) read global
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
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
