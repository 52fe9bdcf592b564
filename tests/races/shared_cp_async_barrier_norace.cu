// shared_cp_async_barrier_norace.cu: cuda::memcpy_async into shared memory completed
// through a cuda::barrier (on sm_80 and later: cp.async, then cp.async.mbarrier.arrive,
// whose arrive-on fires once the thread's copies have landed, then the barrier's own
// arrive). Every thread copies its 16-byte row, and after arrive_and_wait() reads the
// row of the thread 32 places on, in another warp: the wait acquires every thread's
// arrive-on, which the copies' completion released.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_80
// SCORD-PTX-TARGETS: sm_80 sm_90 sm_90a
// SCORD-EXPECT: no race
#include <cooperative_groups.h>
#include <cuda/barrier>

#include "rs_common.h"

namespace cg = cooperative_groups;

enum { BLOCKS = 4, THREADS = 128 };

__global__ void rotate_rows(const int4 *in, int *out)
{
    __shared__ int4 tile[THREADS];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> landed;
    cg::thread_block block = cg::this_thread_block();
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    if (t == 0)
        init(&landed, THREADS);
    block.sync();
    cuda::memcpy_async(&tile[t], &in[i], cuda::aligned_size_t<16>(sizeof(int4)), landed);
    landed.arrive_and_wait();
    int4 r = tile[(t + 32) % THREADS];
    out[i] = r.x + r.y + r.z + r.w;
}

int main()
{
    rs_require_device();
    int4 *in = rs_fill<int4>(BLOCKS * THREADS, [](size_t i) {
        return make_int4(int(i * 2), int(i * 3 + 1), int(i * 5 + 2), int(i * 7 + 3));
    });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    rotate_rows<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("rotate_rows", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
