// global_realloc_between_kernels_norace.cu: a kernel fills a buffer block by block; the
// buffer is freed and a new one of the same size allocated (usually at the same
// address); a second kernel fills it with the blocks in reverse order, so each address
// is written by a different block than before. Kernel boundaries order everything,
// and a freed allocation's history must not follow its address into the next one.
// SCORD-CATEGORY: 13
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };

__global__ void fill(int *buf, int reversed, int seed)
{
    int block = reversed ? gridDim.x - 1 - blockIdx.x : blockIdx.x;
    int i = block * THREADS + threadIdx.x;
    buf[i] = buf[i] / 2 + i * seed;
}

int main()
{
    rs_require_device();
    int *first = rs_zeros<int>(N);
    fill<<<BLOCKS, THREADS>>>(first, 0, 3);
    RS_LAUNCHED();
    rs_print_checksum("first", first, N);
    RS_CHECK(cudaFree(first));
    int *second = rs_zeros<int>(N);
    fill<<<BLOCKS, THREADS>>>(second, 1, 5);
    RS_LAUNCHED();
    rs_print_checksum("second", second, N);
    RS_CHECK(cudaFree(second));
    rs_done();
    return 0;
}
