// global_managed_sum_norace.cu: every block adds its index to a module-scope __managed__
// variable; unlike its racy twin with atomicAdd: no race.
// SCORD-CATEGORY: 2
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"

__managed__ unsigned long long sum;

__global__ void add_index()
{
    if (threadIdx.x == 0)
        atomicAdd(&sum, (unsigned long long)blockIdx.x);
}

int main()
{
    rs_require_device();
    sum = 0;
    add_index<<<256, 64>>>();
    RS_LAUNCHED();
    RS_CHECK(cudaDeviceSynchronize());
    printf("sum: %llu\n", sum);
    rs_done();
    return 0;
}
