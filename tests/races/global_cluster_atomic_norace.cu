// global_cluster_atomic_norace.cu: every thread of a cluster of four blocks (sm_90)
// counts itself into its cluster's global counter with atom.add.relaxed.cluster.
// Cluster scope includes every block of the cluster, so the atomics of one counter are
// atomic with respect to each other.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 64, CLUSTER = 4 };

__global__ void __cluster_dims__(CLUSTER, 1, 1) count_threads(int *counters)
{
    int *counter = &counters[blockIdx.x / CLUSTER];
    asm volatile("red.relaxed.cluster.global.add.s32 [%0], 1;" ::"l"(counter) : "memory");
}

int main()
{
    rs_require_device();
    int *counters = rs_zeros<int>(BLOCKS / CLUSTER);
    count_threads<<<BLOCKS, THREADS>>>(counters);
    RS_LAUNCHED();
    rs_print_checksum("counters", counters, BLOCKS / CLUSTER);
    rs_done();
    return 0;
}
