// global_device_reset_race.cu: a race-free kernel, then cudaDeviceReset, which destroys
// the device's context and every allocation in it, then new allocations and a lost
// update in the context made anew (which may have the old one's handle): checked in
// state of its own, not the destroyed context's. Twin: atomicAdd.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A unsynchronized_blocks
// SCORD-CAUSE: B unsynchronized_blocks
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
        *total += in[blockIdx.x];       // race(A) read,write global race(B) write,write global
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
