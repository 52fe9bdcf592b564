// global_cluster_barrier_race.cu: the blocks of a cluster of two (sm_90,
// __cluster_dims__) exchange rows through global memory: every thread writes its slot of
// its block's row, the cluster meets at barrier.cluster.arrive.relaxed and
// barrier.cluster.wait, and every thread reads the slot of the other block of its
// cluster. A relaxed arrive synchronizes execution only: it releases nothing, so the
// barrier does not order the write before the other block's read. Cause: missing_fence
// (the arrive needs .release, or a fence.acq_rel.cluster before it).
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 64 };

__global__ void __cluster_dims__(2, 1, 1) swap_rows(const int *in, int *rows, int *out)
{
    int t = threadIdx.x, b = blockIdx.x, i = b * THREADS + t;
    rows[i] = in[i] * 3 + 1;                        // race(A) write global
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\t"
                 "barrier.cluster.wait.aligned;" ::: "memory");
    out[i] = rows[(b ^ 1) * THREADS + t];           // race(A) read global
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 7 % 101); });
    int *rows = rs_zeros<int>(BLOCKS * THREADS), *out = rs_zeros<int>(BLOCKS * THREADS);
    swap_rows<<<BLOCKS, THREADS>>>(in, rows, out);
    RS_LAUNCHED();
    rs_print_checksum("swapped", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
