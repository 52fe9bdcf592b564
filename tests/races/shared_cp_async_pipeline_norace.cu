// shared_cp_async_pipeline_norace.cu: a double-buffered pipeline of cp.async groups, as
// CUTLASS's multistage main loops run it: the copy of round r + 1 into one stage is in
// flight while the block reads round r from the other, and every round commits a group
// (an empty one in the last). cp.async.wait_group 1 completes round r's group before the
// barrier and the reads; a second barrier keeps round r + 2's copy into the stage behind
// the reads.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_80
// SCORD-PTX-TARGETS: sm_80 sm_90 sm_90a
// SCORD-EXPECT: no race
#include <cstdint>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64, ROUNDS = 6, STAGES = 2 };

__device__ __forceinline__ void copy_row(int4 *dst, const int4 *src)
{
    uint32_t to = (uint32_t)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(src) : "memory");
}

__global__ void pipeline(const int4 *in, int *out)
{
    __shared__ int4 stage[STAGES][THREADS];
    int t = threadIdx.x;
    const int4 *rows = in + (size_t)blockIdx.x * ROUNDS * THREADS;
    copy_row(&stage[0][t], &rows[t]);
    asm volatile("cp.async.commit_group;" ::: "memory");
    int sum = 0;
    for (int r = 0; r < ROUNDS; r++) {
        if (r + 1 < ROUNDS)
            copy_row(&stage[(r + 1) % STAGES][t], &rows[(r + 1) * THREADS + t]);
        asm volatile("cp.async.commit_group;" ::: "memory");
        asm volatile("cp.async.wait_group 1;" ::: "memory");
        __syncthreads();
        int4 v = stage[r % STAGES][(t + 32) % THREADS];
        sum = sum * 31 + (v.x ^ v.y ^ v.z ^ v.w);
        __syncthreads();
    }
    out[blockIdx.x * THREADS + t] = sum;
}

int main()
{
    rs_require_device();
    int4 *in = rs_fill<int4>(BLOCKS * ROUNDS * THREADS, [](size_t i) {
        return make_int4(int(i), int(i * 11 + 3), int(i * 13 + 5), int(i * 17 + 7));
    });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    pipeline<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("pipeline", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
