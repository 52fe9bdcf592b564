// global_large_byte_array_race.cu: an in-place transform of 16 MiB of bytes, one byte per
// thread, so that every word of the array needs a history per byte (four threads of a
// warp own its four bytes); near the end of the array one thread also reads the byte
// that a thread of the next block writes in the same launch, with nothing between (the
// last byte of its word: a word split before the read).
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A unsynchronized_blocks
#include "rs_common.h"

enum { N = 1 << 24, THREADS = 256, PEEK = N - 1001 };

__global__ void transform(unsigned char *bytes, unsigned char *sink)
{
    unsigned i = blockIdx.x * THREADS + threadIdx.x;
    unsigned char c = bytes[i];
    bytes[i] = (unsigned char)(c * 3u + 1u);          // race(A) write global
    if (i == PEEK)
        *sink = bytes[i + THREADS];                   // race(A) read global
}

int main()
{
    rs_require_device();
    unsigned char *bytes = rs_fill<unsigned char>(N, [](size_t i) { return (unsigned char)(i * 7u); });
    unsigned char *sink = rs_zeros<unsigned char>(1);
    transform<<<N / THREADS, THREADS>>>(bytes, sink);
    RS_LAUNCHED();
    rs_print_checksum("bytes", bytes, N);
    rs_done();
    return 0;
}
