// global_pdl_atomic_scope_race.cu: each block of a first kernel counts its threads into
// its own counter with atomicAdd_block, and a second kernel, launched with programmatic
// stream serialization, adds to the same counters with atomicAdd before its
// cudaGridDependencySynchronize(). The grids may overlap: two grids' atomics are atomic
// with respect to each other only when both are device-scoped, and block scope never
// includes a thread of another grid. Twin: the first kernel uses atomicAdd.
// SCORD-CATEGORY: 10
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A grid_dependency
#include "rs_hopper.h"

enum { BLOCKS = 8, THREADS = 128 };

__global__ void count_first(int *counts)
{
    cudaTriggerProgrammaticLaunchCompletion();
    atomicAdd_block(&counts[blockIdx.x], 1);     // race(A) atomic.cta global
}

__global__ void count_second(int *counts, int *totals)
{
    atomicAdd(&counts[blockIdx.x], 1);           // race(A) atomic.gpu global
    cudaGridDependencySynchronize();
    if (threadIdx.x == 0)
        atomicAdd(totals, 1);
}

int main()
{
    rs_require_device();
    int *counts = rs_zeros<int>(BLOCKS), *totals = rs_zeros<int>(1);
    cudaStream_t s;
    RS_CHECK(cudaStreamCreate(&s));
    count_first<<<BLOCKS, THREADS, 0, s>>>(counts);
    RS_CHECK(cudaGetLastError());
    rs_launch_dependent(count_second, dim3(BLOCKS), dim3(THREADS), s, counts, totals);
    RS_LAUNCHED();
    rs_print_checksum("counts", counts, BLOCKS);
    rs_print_checksum("totals", totals, 1);
    rs_done();
    return 0;
}
