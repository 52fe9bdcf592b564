// global_streams_disjoint_norace.cu: two kernels on two streams, unordered, write the
// two halves of one table: unordered kernels that touch different words are no race.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128, HALF = BLOCKS * THREADS, N = 2 * HALF };

__global__ void fill_half(int *half, int seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    half[i] = i * seed + 1;
}

int main()
{
    rs_require_device();
    int *table = rs_zeros<int>(N);
    cudaStream_t s1, s2;
    RS_CHECK(cudaStreamCreate(&s1));
    RS_CHECK(cudaStreamCreate(&s2));
    fill_half<<<BLOCKS, THREADS, 0, s1>>>(table, 3);
    RS_CHECK(cudaGetLastError());
    fill_half<<<BLOCKS, THREADS, 0, s2>>>(table + HALF, 5);
    RS_LAUNCHED();
    rs_print_checksum("table", table, N);
    rs_done();
    return 0;
}
