// shared_dynamic_transpose_race.cu: a 32x32 tile transpose through dynamically sized
// (extern __shared__) memory. Thread (x,y) reads the element thread (y,x) wrote, which
// sits in another warp whenever x != y; no barrier separates the two.
// SCORD-CATEGORY: 1
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 3, DIM = 32 };

__global__ void transpose(const float *in, float *out)
{
    extern __shared__ float tile[];
    int x = threadIdx.x, y = threadIdx.y;
    const float *src = in + blockIdx.x * DIM * DIM;
    float *dst = out + blockIdx.x * DIM * DIM;
    tile[y * DIM + x] = src[y * DIM + x];       // race(A) write shared
    dst[y * DIM + x] = tile[x * DIM + y];       // race(A) read shared
}

int main()
{
    rs_require_device();
    float *in = rs_fill<float>(BLOCKS * DIM * DIM, [](size_t i) { return float(i) * 0.5f; });
    float *out = rs_zeros<float>(BLOCKS * DIM * DIM);
    transpose<<<BLOCKS, dim3(DIM, DIM), DIM * DIM * sizeof(float)>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("transpose", out, BLOCKS * DIM * DIM);
    rs_done();
    return 0;
}
