// global_devices_race.cu: a race-free kernel on device 0, then a lost update on the
// machine's last device (the second of a two-GPU machine, device 0 where there is one),
// then device 0 again: each device's launches are checked in its own context's state.
// Twin: atomicAdd.
// SCORD-CATEGORY: 10
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
    int count = 0;
    RS_CHECK(cudaGetDeviceCount(&count));
    RS_CHECK(cudaSetDevice(0));
    int *v = rs_zeros<int>(N);
    fill<<<BLOCKS, THREADS>>>(v);
    RS_LAUNCHED();
    RS_CHECK(cudaSetDevice(count - 1));
    int *in = rs_fill<int>(BLOCKS, [](size_t i) { return int(i * i + 1); });
    int *total = rs_zeros<int>(1);
    tally<<<BLOCKS, THREADS>>>(in, total);
    RS_LAUNCHED();
    RS_CHECK(cudaSetDevice(0));
    fill<<<BLOCKS, THREADS>>>(v);
    RS_LAUNCHED();
    rs_print_checksum("filled", v, N);
    rs_done();
    return 0;
}
