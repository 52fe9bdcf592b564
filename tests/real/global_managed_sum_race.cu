// global_managed_sum_race.cu: every block adds its index to a module-scope __managed__
// variable with a plain read-modify-write: an inter-block race on managed memory the
// program never allocated itself. The twin uses atomicAdd.
// SCORD-CATEGORY: 2
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A unsynchronized_blocks
// SCORD-CAUSE: B unsynchronized_blocks
#include "rs_common.h"

__managed__ unsigned long long sum;

__global__ void add_index()
{
    if (threadIdx.x == 0)
        sum = sum + blockIdx.x; // race(A) read,write global race(B) write,write global
}

int main()
{
    rs_require_device();
    sum = 0;
    add_index<<<256, 64>>>();
    RS_LAUNCHED();
    RS_CHECK(cudaDeviceSynchronize());
    printf("sum (racy): %s\n", sum > 0 ? "some" : "none");
    rs_done();
    return 0;
}
