// global_streams_memset2d_disjoint_norace.cu: norace only. A kernel writes the first
// columns of every row of a pitched 2D table on one stream while a 2D memset on
// another stream, with nothing ordering the two, clears later columns of the same
// rows: the memset's rows and the kernel's columns never share a byte, though the
// memset's rows lie on both sides of the kernel's (its span covers them).
// SCORD-CATEGORY: 10
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { WIDTH = 64, HEIGHT = 32, KERNEL_COLS = 8, SET_X0 = 16, SET_COLS = 32 };

__global__ void fill_left(int *table, size_t pitch)
{
    int x = threadIdx.x, y = blockIdx.x;
    int *row = (int *)((char *)table + y * pitch);
    row[x] = y * 1000 + x;
}

int main()
{
    rs_require_device();
    int *table = nullptr;
    size_t pitch = 0;
    RS_CHECK(cudaMallocPitch(&table, &pitch, WIDTH * sizeof(int), HEIGHT));
    RS_CHECK(cudaMemset2D(table, pitch, 0, WIDTH * sizeof(int), HEIGHT));
    cudaStream_t s1, s2;
    RS_CHECK(cudaStreamCreate(&s1));
    RS_CHECK(cudaStreamCreate(&s2));
    fill_left<<<HEIGHT, KERNEL_COLS, 0, s1>>>(table, pitch);
    RS_CHECK(cudaGetLastError());
    RS_CHECK(cudaMemset2DAsync((char *)table + SET_X0 * sizeof(int), pitch, 0x7f, SET_COLS * sizeof(int), HEIGHT,
                               s2));
    RS_LAUNCHED();
    rs_print_checksum("table", table, pitch / sizeof(int) * HEIGHT);
    rs_done();
    return 0;
}
