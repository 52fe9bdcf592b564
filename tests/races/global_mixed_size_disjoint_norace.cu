// global_mixed_size_disjoint_norace.cu: accesses of different sizes to the same words of
// a global array, from different blocks and unordered, that never share a byte: block 0
// writes byte 3 of each word, block 1 writes byte 2, block 2 reads the low 2-byte half.
// SCORD-CATEGORY: 3
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { WORDS = 256 };

__global__ void split_word(unsigned *words, unsigned short *low)
{
    unsigned char *bytes = reinterpret_cast<unsigned char *>(words);
    for (int w = threadIdx.x; w < WORDS; w += blockDim.x) {
        if (blockIdx.x == 0)
            bytes[4 * w + 3] = (unsigned char)w;
        else if (blockIdx.x == 1)
            bytes[4 * w + 2] = (unsigned char)(w + 1);
        else
            low[w] = reinterpret_cast<const unsigned short *>(words)[2 * w];
    }
}

int main()
{
    rs_require_device();
    unsigned *words = rs_fill<unsigned>(WORDS, [](size_t i) { return unsigned(i * 0x9e37u); });
    unsigned short *low = rs_zeros<unsigned short>(WORDS);
    split_word<<<3, 64>>>(words, low);
    RS_LAUNCHED();
    rs_print_checksum("words", words, WORDS);
    rs_print_checksum("low", low, WORDS);
    rs_done();
    return 0;
}
