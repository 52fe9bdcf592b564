// global_pdl_missing_wait_norace.cu: a producer fills a table and lets the launch that
// depends on it start early (cudaTriggerProgrammaticLaunchCompletion); the consumer,
// launched with programmatic stream serialization, zeroes its own scratch (memory the
// producer never touches, a preamble PDL is meant for) and reads the table before its
// cudaGridDependencySynchronize(): until that call the producer may still run and its
// writes need not be visible. Twin: the table is read after the call.
// SCORD-CATEGORY: 10
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: no race
#include "rs_hopper.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };

__global__ void produce(int *table)
{
    cudaTriggerProgrammaticLaunchCompletion();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    table[i] = i * 3 + 1;
}

__global__ void consume(const int *table, int *scratch, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    scratch[i] = i;
    cudaGridDependencySynchronize();
    int v = table[i];
    out[i] = v * 2 + scratch[i];
}

int main()
{
    rs_require_device();
    int *table = rs_zeros<int>(N), *scratch = rs_zeros<int>(N), *out = rs_zeros<int>(N);
    cudaStream_t s;
    RS_CHECK(cudaStreamCreate(&s));
    produce<<<BLOCKS, THREADS, 0, s>>>(table);
    RS_CHECK(cudaGetLastError());
    rs_launch_dependent(consume, dim3(BLOCKS), dim3(THREADS), s, (const int *)table, scratch, out);
    RS_LAUNCHED();
    // The table only, as in the racy twin.
    rs_print_checksum("table", table, N);
    rs_done();
    return 0;
}
