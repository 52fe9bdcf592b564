// global_cluster_fence_race.cu: message passing between two blocks with cluster-scope
// fences (sm_90, clusters of two): thread 0 of block 0 writes a value,
// fence.acq_rel.cluster, raises a volatile flag; thread 0 of block 2, in the next
// cluster, waits for the flag, fence.acq_rel.cluster, reads the value. Cluster scope
// does not include a block of another cluster, so the read races the write. Cause:
// fence_scope (fence.acq_rel.gpu, or a reader in block 1, would do).
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A fence_scope
#include "rs_sync.h"

enum { BLOCKS = 4, THREADS = 32, READER = 2 };

__global__ void __cluster_dims__(2, 1, 1) pass_message(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        *data = 42;      // race(A) write global
        asm volatile("fence.acq_rel.cluster;" ::: "memory");
        *(volatile int *)flag = 1;
    } else if (blockIdx.x == READER && rs_spin_until([&] { return *(volatile int *)flag != 0; })) {
        asm volatile("fence.acq_rel.cluster;" ::: "memory");
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
