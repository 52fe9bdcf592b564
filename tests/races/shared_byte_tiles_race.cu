// shared_byte_tiles_race.cu: 2048 blocks each clear a 16 KiB tile in shared memory a word
// at a time, then fill it a byte per thread and round (every word of the tile then
// needs a history per byte: four threads own its four bytes), then read it back
// reversed after a barrier.
// In the last block, thread 0 also reads the tile's last byte before the barrier:
// thread 255 writes it in its last round, and nothing orders the two.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 2048, THREADS = 256, TILE = 16384 };

__global__ void tiles(unsigned *out, unsigned *sink)
{
    __shared__ __align__(16) unsigned char tile[TILE];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < TILE / 4; i += THREADS)
        reinterpret_cast<unsigned *>(tile)[i] = 0;
    __syncthreads();
    for (unsigned i = t; i < TILE; i += THREADS)
        tile[i] = (unsigned char)(i * 7u + blockIdx.x);      // race(A) write shared
    if (blockIdx.x == BLOCKS - 1 && t == 0)
        *sink = tile[TILE - 1];                              // race(A) read shared
    __syncthreads();
    unsigned sum = 0;
    for (unsigned i = t; i < TILE; i += THREADS)
        sum += tile[TILE - 1 - i];
    out[blockIdx.x * THREADS + t] = sum;
}

int main()
{
    rs_require_device();
    unsigned *out = rs_zeros<unsigned>(BLOCKS * THREADS);
    unsigned *sink = rs_zeros<unsigned>(1);
    tiles<<<BLOCKS, THREADS>>>(out, sink);
    RS_LAUNCHED();
    rs_print_checksum("out", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
