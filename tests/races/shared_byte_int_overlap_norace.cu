// shared_byte_int_overlap_norace.cu: warp 1 patches byte 1 of each shared word while warp 0
// reads the whole words. A 1-byte store and a 4-byte load of the same word overlap;
// a __syncthreads() orders them.
// SCORD-CATEGORY: 3
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void patch_bytes(const unsigned *in, unsigned *out)
{
    __shared__ unsigned words[32];
    int t = threadIdx.x;
    if (t < 32)
        words[t] = in[blockIdx.x * 32 + t];
    __syncthreads();
    if (t >= 32)
        reinterpret_cast<unsigned char *>(words)[4 * (t - 32) + 1] = 0xab;
    __syncthreads();
    if (t < 32)
        out[blockIdx.x * 32 + t] = words[t];
}

int main()
{
    rs_require_device();
    unsigned *in = rs_fill<unsigned>(BLOCKS * 32, [](size_t i) { return unsigned(i * 0x01010101u); });
    unsigned *out = rs_zeros<unsigned>(BLOCKS * 32);
    patch_bytes<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("patch_bytes", out, BLOCKS * 32);
    rs_done();
    return 0;
}
