// global_short_int_overlap_race.cu: warp 0 of a block writes whole 4-byte words of a
// global array and warp 1 then overwrites the upper 2-byte half of each word. The two
// stores overlap in two bytes and nothing orders them.
// SCORD-CATEGORY: 3
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void stamp(unsigned *words)
{
    int t = threadIdx.x;
    unsigned *w = words + blockIdx.x * 32;
    if (t < 32)
        w[t] = 0x11111111u * (t % 16);                                      // race(A) write global
    if (t >= 32)
        reinterpret_cast<unsigned short *>(w)[2 * (t - 32) + 1] = 0xbeef;   // race(A) write global
}

int main()
{
    rs_require_device();
    unsigned *words = rs_zeros<unsigned>(BLOCKS * 32);
    stamp<<<BLOCKS, THREADS>>>(words);
    RS_LAUNCHED();
    rs_print_checksum("stamp", words, BLOCKS * 32);
    rs_done();
    return 0;
}
