// global_device_reset_norace.cu: a race-free kernel, then cudaDeviceReset, then new
// allocations and a total summed with atomicAdd in the context made anew. Twin of
// global_device_reset_race.cu.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 32, N = 4096 };

__global__ void fill(int *v)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        v[i] = i * 5 + 3;
}

__global__ void tally(const int *in, int *total)
{
    if (threadIdx.x == 0)
        atomicAdd(total, in[blockIdx.x]);
}

int main()
{
    rs_require_device();
    int *v = rs_zeros<int>(N);
    fill<<<BLOCKS, THREADS>>>(v);
    RS_LAUNCHED();
    rs_print_checksum("filled", v, N);
    RS_CHECK(cudaDeviceReset());
    int *in = rs_fill<int>(BLOCKS, [](size_t i) { return int(i * i + 1); });
    int *total = rs_zeros<int>(1);
    tally<<<BLOCKS, THREADS>>>(in, total);
    RS_LAUNCHED();
    v = rs_zeros<int>(N);
    fill<<<BLOCKS, THREADS>>>(v);
    RS_LAUNCHED();
    rs_print_checksum("filled again", v, N);
    rs_done();
    return 0;
}
