// SCORD-PTX-TARGETS: sm_75 sm_90
// printf (vprintf and its local buffer), an early return, and a thread that
// leaves through exit in a device function.
#include <cstdio>

__device__ __noinline__ void leave(int *flag)
{
    flag[threadIdx.x] = -1;
    asm volatile("exit;");
}

__global__ void report(const int *in, int *flag, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (in[i] < 0)
        leave(flag);
    printf("thread %d sees %d\n", i, in[i]);
    flag[i] = 1;
}
