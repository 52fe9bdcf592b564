// global_device_counter_race.cu: blocks count their elements above a threshold into a
// module-scope __device__ counter with a plain read-modify-write (not atomic): an
// inter-block race on a __device__ variable, read against write and write against write. The twin uses atomicAdd.
// SCORD-CATEGORY: 2
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A unsynchronized_blocks
// SCORD-CAUSE: B unsynchronized_blocks
#include "rs_common.h"

__device__ int above;

__global__ void count(const int *in, int n, int threshold)
{
    __shared__ int local;
    if (threadIdx.x == 0)
        local = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > threshold)
        atomicAdd(&local, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        above = above + local; // race(A) read,write global race(B) write,write global
}

int main()
{
    rs_require_device();
    const int n = 1 << 16;
    int *in = rs_fill<int>(n, [](size_t i) { return (int)((i * 2654435761u) % 1000); });
    count<<<n / 256, 256>>>(in, n, 500);
    RS_LAUNCHED();
    int total = 0;
    RS_CHECK(cudaMemcpyFromSymbol(&total, above, sizeof total));
    printf("counted (racy): %s\n", total > 0 ? "some" : "none");
    rs_done();
    return 0;
}
