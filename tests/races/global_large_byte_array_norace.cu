// global_large_byte_array_norace.cu: an in-place transform of 16 MiB of bytes, one byte per
// thread, so that every word of the array needs a history per byte (four threads of a
// warp own its four bytes); the byte near the end that another thread writes is read
// by a second launch, which the kernel boundary orders after the first (the last byte of
// its word).
// SCORD-CATEGORY: 14
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { N = 1 << 24, THREADS = 256, PEEK = N - 1001 };

__global__ void transform(unsigned char *bytes)
{
    unsigned i = blockIdx.x * THREADS + threadIdx.x;
    unsigned char c = bytes[i];
    bytes[i] = (unsigned char)(c * 3u + 1u);
}

__global__ void peek(const unsigned char *bytes, unsigned char *sink)
{
    unsigned i = PEEK;
    *sink = bytes[i + THREADS];
}

int main()
{
    rs_require_device();
    unsigned char *bytes = rs_fill<unsigned char>(N, [](size_t i) { return (unsigned char)(i * 7u); });
    unsigned char *sink = rs_zeros<unsigned char>(1);
    transform<<<N / THREADS, THREADS>>>(bytes);
    peek<<<1, 1>>>(bytes, sink);
    RS_LAUNCHED();
    rs_print_checksum("bytes", bytes, N);
    rs_done();
    return 0;
}
