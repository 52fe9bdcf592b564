// global_devices_threads_race.cu: one host thread per device (two threads: devices 0
// and 1 of a two-GPU machine, both device 0 where there is one), each making its
// device current and running its own lost update there at the same time as the other.
// Twin: atomicAdd.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: 4 races
// SCORD-CAUSE: A unsynchronized_blocks
// SCORD-CAUSE: B unsynchronized_blocks
// SCORD-CAUSE: C unsynchronized_blocks
// SCORD-CAUSE: D unsynchronized_blocks
#include <thread>

#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 32 };

__global__ void tally_even(const int *in, int *total)
{
    if (threadIdx.x == 0 && blockIdx.x % 2 == 0)
        *total += in[blockIdx.x];       // race(A) read,write global race(B) write,write global
}

__global__ void tally_odd(const int *in, int *total)
{
    if (threadIdx.x == 0 && blockIdx.x % 2 == 1)
        *total += in[blockIdx.x];       // race(C) read,write global race(D) write,write global
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
