// global_streams_shared_reads_norace.cu: a table filled and synchronized, then read by
// two kernels on two streams at once, each writing an output of its own: reads of
// the same words by unordered kernels are no race, and neither are the disjoint
// outputs.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };

__global__ void produce(int *table)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    table[i] = i * 3 + 1;
}

__global__ void scale(const int *table, int *out, int factor)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = table[N - 1 - i] * factor;
}

int main()
{
    rs_require_device();
    int *table = rs_zeros<int>(N), *twice = rs_zeros<int>(N), *thrice = rs_zeros<int>(N);
    cudaStream_t s1, s2;
    RS_CHECK(cudaStreamCreate(&s1));
    RS_CHECK(cudaStreamCreate(&s2));
    produce<<<BLOCKS, THREADS, 0, s1>>>(table);
    RS_LAUNCHED();
    scale<<<BLOCKS, THREADS, 0, s1>>>(table, twice, 2);
    RS_CHECK(cudaGetLastError());
    scale<<<BLOCKS, THREADS, 0, s2>>>(table, thrice, 3);
    RS_LAUNCHED();
    rs_print_checksum("twice", twice, N);
    rs_print_checksum("thrice", thrice, N);
    rs_done();
    return 0;
}
