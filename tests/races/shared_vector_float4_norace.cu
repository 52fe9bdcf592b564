// shared_vector_float4_norace.cu: each thread stores a float4 (one 16-byte vector store) in
// shared memory and loads one float of the vector stored by the thread 32 places on,
// in another warp, after a __syncthreads().
// SCORD-CATEGORY: 3
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

__global__ void pick_z(const float4 *in, float *out)
{
    __shared__ float4 v[THREADS];
    int t = threadIdx.x;
    v[t] = in[blockIdx.x * THREADS + t];
    __syncthreads();
    const float *f = reinterpret_cast<const float *>(v);
    out[blockIdx.x * THREADS + t] = f[4 * ((t + 32) % THREADS) + 2];
}

int main()
{
    rs_require_device();
    float4 *in = rs_fill<float4>(BLOCKS * THREADS, [](size_t i) {
        return make_float4(float(i), float(i) + 0.25f, float(i) + 0.5f, float(i) + 0.75f);
    });
    float *out = rs_zeros<float>(BLOCKS * THREADS);
    pick_z<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("pick_z", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
