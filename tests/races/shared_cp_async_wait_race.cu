// shared_cp_async_wait_race.cu: every thread copies its 16-byte row of a tile from
// global to shared memory with cp.async (the way __pipeline_memcpy_async and CUTLASS
// stage tiles), commits the group, passes __syncthreads() and reads the row of the
// thread 32 places on, in another warp. No cp.async.wait_all before the barrier: the
// barrier orders the copy's issue, not its completion, so the other warp may read the
// row before it lands. Cause: missing_barrier (the two warps are not ordered around the
// write; the wait belongs before the barrier).
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_80
// SCORD-PTX-TARGETS: sm_80 sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include <cstdint>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

__global__ void rotate_rows(const int4 *in, int *out)
{
    __shared__ int4 tile[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    uint32_t row = (uint32_t)__cvta_generic_to_shared(&tile[t]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(row), "l"(&in[i]) : "memory"); // race(A) write shared
    asm volatile("cp.async.commit_group;" ::: "memory");
    __syncthreads();
    int4 r = tile[(t + 32) % THREADS];                                                       // race(A) read shared
    out[i] = r.x + r.y + r.z + r.w;
}

int main()
{
    rs_require_device();
    int4 *in = rs_fill<int4>(BLOCKS * THREADS, [](size_t i) {
        return make_int4(int(i), int(i * 3), int(i * 5 + 1), int(i * 7 + 2));
    });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    rotate_rows<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("rotate_rows", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
