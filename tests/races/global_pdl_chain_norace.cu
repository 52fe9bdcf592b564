// global_pdl_chain_norace.cu: a pipeline of three kernels, the second and third launched
// with programmatic stream serialization, each triggering its dependent early. Before its
// cudaGridDependencySynchronize() a stage only reads parameters its predecessor reads
// too and zeroes its own scratch (small allocations, which share shadow chunks with the
// predecessor's); after it, it reads what its predecessor wrote. A last kernel, launched
// the ordinary way, reads every buffer. No race: reads do not conflict, and the wait
// orders the rest.
// SCORD-CATEGORY: 10
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: no race
#include "rs_hopper.h"

enum { BLOCKS = 4, THREADS = 128, N = BLOCKS * THREADS };

__global__ void stage1(const int *params, int *a)
{
    cudaTriggerProgrammaticLaunchCompletion();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = params[i % 4] * i;
}

__global__ void stage2(const int *params, const int *a, int *scratch, int *b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = params[(i + 1) % 4];
    scratch[i] = k;
    cudaGridDependencySynchronize();
    cudaTriggerProgrammaticLaunchCompletion();
    b[i] = a[i] + scratch[i];
}

__global__ void stage3(const int *params, const int *b, int *scratch, int *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    scratch[i] = params[(i + 2) % 4];
    cudaGridDependencySynchronize();
    c[i] = b[(i + 1) % N] - scratch[i];
}

__global__ void total(const int *a, const int *b, const int *c, int *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(sum, a[i] + b[i] + c[i]);
}

int main()
{
    rs_require_device();
    int *params = rs_fill<int>(4, [](size_t i) { return (int)i + 2; });
    int *a = rs_zeros<int>(N), *b = rs_zeros<int>(N), *c = rs_zeros<int>(N);
    int *scratch2 = rs_zeros<int>(N), *scratch3 = rs_zeros<int>(N), *sum = rs_zeros<int>(1);
    cudaStream_t s;
    RS_CHECK(cudaStreamCreate(&s));
    stage1<<<BLOCKS, THREADS, 0, s>>>(params, a);
    RS_CHECK(cudaGetLastError());
    rs_launch_dependent(stage2, dim3(BLOCKS), dim3(THREADS), s, (const int *)params, (const int *)a, scratch2, b);
    rs_launch_dependent(stage3, dim3(BLOCKS), dim3(THREADS), s, (const int *)params, (const int *)b, scratch3, c);
    total<<<BLOCKS, THREADS, 0, s>>>(a, b, c, sum);
    RS_LAUNCHED();
    rs_print_checksum("c", c, N);
    rs_print_checksum("sum", sum, 1);
    rs_done();
    return 0;
}
