// global_cluster_atomic_race.cu: every thread of two clusters of four blocks (sm_90)
// counts itself into one global counter with atom.add.relaxed.cluster. Cluster scope
// does not include the other cluster's blocks, so their atomics are not atomic with
// respect to each other. Cause: atomic_scope.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_scope
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 64, CLUSTER = 4 };

__global__ void __cluster_dims__(CLUSTER, 1, 1) count_threads(int *counters)
{
    int *counter = &counters[0];
    asm volatile("red.relaxed.cluster.global.add.s32 [%0], 1;" ::"l"(counter) : "memory"); // race(A) atomic.cluster,atomic.cluster global
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
