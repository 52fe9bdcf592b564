// shared_register_limited_race.cu: the stage-and-read-another-warp's-value race of
// shared_missing_syncthreads, in kernels whose register limit is below the 64 registers of
// scord's prebuilt device runtime: one with __launch_bounds__(256, 8) (32 registers), one
// with __maxnreg__(40). The runtime's cubin cannot link into them; scord compiles their
// module and the runtime's PTX within the lowest of their limits, and checks them.
// Eight resident blocks of 256 threads need 2,048 threads per SM (sm_80 and later).
// SCORD-REQUIRES: sm_80
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A missing_barrier
// SCORD-CAUSE: B missing_barrier
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 256 };

__global__ void __launch_bounds__(THREADS, 8) rotate_bounded(const int *in, int *out)
{
    __shared__ int tile[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    tile[t] = in[i] * 3;                      // race(A) write shared
    out[i] = tile[(t + 32) % THREADS];        // race(A) read shared
}

__global__ void __maxnreg__(40) rotate_capped(const int *in, int *out)
{
    __shared__ int tile[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    tile[t] = in[i] * 5;                      // race(B) write shared
    out[i] = tile[(t + 64) % THREADS];        // race(B) read shared
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return (int)i; });
    int *a = rs_zeros<int>(BLOCKS * THREADS), *b = rs_zeros<int>(BLOCKS * THREADS);
    rotate_bounded<<<BLOCKS, THREADS>>>(in, a);
    RS_LAUNCHED();
    rotate_capped<<<BLOCKS, THREADS>>>(in, b);
    RS_LAUNCHED();
    rs_print_checksum("bounded", a, BLOCKS * THREADS);
    rs_print_checksum("capped", b, BLOCKS * THREADS);
    rs_done();
    return 0;
}
