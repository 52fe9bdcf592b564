// global_devices_threads_norace.cu: one host thread per device (two threads: devices 0
// and 1 of a two-GPU machine, both device 0 where there is one), each making its
// device current and summing its own total there with atomicAdd at the same time as
// the other. Twin of global_devices_threads_race.cu.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: no race
#include <thread>

#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 32 };

__global__ void tally_even(const int *in, int *total)
{
    if (threadIdx.x == 0 && blockIdx.x % 2 == 0)
        atomicAdd(total, in[blockIdx.x]);
}

__global__ void tally_odd(const int *in, int *total)
{
    if (threadIdx.x == 0 && blockIdx.x % 2 == 1)
        atomicAdd(total, in[blockIdx.x]);
}

static void work(int device, bool odd)
{
    RS_CHECK(cudaSetDevice(device));
    int *in = rs_fill<int>(BLOCKS, [](size_t i) { return int(i * 3 + 2); });
    int *total = rs_zeros<int>(1);
    if (odd)
        tally_odd<<<BLOCKS, THREADS>>>(in, total);
    else
        tally_even<<<BLOCKS, THREADS>>>(in, total);
    RS_LAUNCHED();
}

int main()
{
    rs_require_device();
    int count = 0;
    RS_CHECK(cudaGetDeviceCount(&count));
    std::thread even(work, 0, false), odd(work, 1 % count, true);
    even.join();
    odd.join();
    rs_done();
    return 0;
}
