// shared_mbarrier_block_late_write_race.cu: in each of six rounds every thread writes
// its cell of one of two shared buffers, arrives on a block-scoped cuda::barrier whose
// count is the block's thread count, waits for the phase and reads the cell of the
// thread 32 after it (another warp); the buffers alternate, so one phase per round
// also orders the reads of a round before the writes two rounds later. Here each
// thread writes its cell once more after its arrive and before its wait (the same
// value): the arrive released only what came before it, so the reader's read after its
// wait races that write. Cause: missing_fence, a write after the release that should
// publish it.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include <cuda/barrier>
#include <cuda/std/utility>

#include "rs_common.h"

#pragma nv_diag_suppress static_var_with_dynamic_init

enum { BLOCKS = 16, THREADS = 128, ROUNDS = 6 };

__global__ void rounds(const int *in, int *out)
{
    __shared__ int cells[2][THREADS];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, THREADS);
    __syncthreads();
    int v = in[blockIdx.x * THREADS + t];
    for (int r = 0; r < ROUNDS; r++) {
        int *cur = cells[r & 1];
        cur[t] = v;
        auto token = bar.arrive();
        cur[t] = v;                                        // race(A) write shared
        bar.wait(cuda::std::move(token));
        v = (cur[(t + 32) % THREADS] * 3 + v) % 1009; // race(A) read shared
    }
    out[blockIdx.x * THREADS + t] = v;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 13 + 5) % 1009; });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    rounds<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("rounds", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
