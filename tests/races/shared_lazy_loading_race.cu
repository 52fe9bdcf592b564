// shared_lazy_loading_race.cu: runs with CUDA_MODULE_LOADING=LAZY (set before the first
// CUDA call), so each kernel is loaded when first launched. The module holds three
// kernels: one never launched, one launched first, and the one launched last, in which
// each thread reads the shared cell of the thread mirrored in the block, in another
// warp, with no barrier after the writes.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 256 };

__global__ void never_launched(int *v)
{
    v[threadIdx.x] = -1;
}

__global__ void square(int *v)
{
    int i = blockIdx.x * THREADS + threadIdx.x;
    v[i] = v[i] * v[i];
}

__global__ void mirror(const int *in, int *out)
{
    __shared__ int tile[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    tile[t] = in[i];                            // race(A) write shared
    out[i] = tile[THREADS - 1 - t] - in[i];     // race(A) read shared
}

int main()
{
    if (setenv("CUDA_MODULE_LOADING", "LAZY", 1) != 0)
        rs_die("setenv failed");
    rs_require_device();
    int *v = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i % 1000); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    square<<<BLOCKS, THREADS>>>(v);
    RS_LAUNCHED();
    mirror<<<BLOCKS, THREADS>>>(v, out);
    RS_LAUNCHED();
    rs_print_checksum("mirror", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
