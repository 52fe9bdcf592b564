// shared_packed_chars_norace.cu: four warps fill a shared char array so that the four
// bytes of every word come from four different warps, with no synchronization among
// the writers: adjacent bytes written by different threads are not a race (byte-exact
// checking, no false sharing). A __syncthreads() orders the writes before the reads.
// SCORD-CATEGORY: 3
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

__global__ void interleave(const unsigned char *in, unsigned char *out)
{
    __shared__ unsigned char bytes[THREADS];
    int t = threadIdx.x, warp = t / 32, lane = t % 32;
    bytes[4 * lane + warp] = in[blockIdx.x * THREADS + t] ^ 0x5a;
    __syncthreads();
    out[blockIdx.x * THREADS + t] = bytes[THREADS - 1 - t];
}

int main()
{
    rs_require_device();
    unsigned char *in = rs_fill<unsigned char>(BLOCKS * THREADS, [](size_t i) {
        return (unsigned char)(i * 29 + 3);
    });
    unsigned char *out = rs_zeros<unsigned char>(BLOCKS * THREADS);
    interleave<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("interleave", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
