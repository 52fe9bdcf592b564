// global_streams_atomic_counter_norace.cu: two kernels on two streams, unordered, count
// into one counter with device-scope atomicAdd: atomics of the same scope are atomic
// with each other across kernels too, so this is no race.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 128 };

__global__ void count(unsigned *counter, unsigned step)
{
    atomicAdd(counter, step);
}

int main()
{
    rs_require_device();
    unsigned *counter = rs_zeros<unsigned>(1);
    cudaStream_t s1, s2;
    RS_CHECK(cudaStreamCreate(&s1));
    RS_CHECK(cudaStreamCreate(&s2));
    count<<<BLOCKS, THREADS, 0, s1>>>(counter, 1);
    RS_CHECK(cudaGetLastError());
    count<<<BLOCKS, THREADS, 0, s2>>>(counter, 2);
    RS_LAUNCHED();
    rs_print_checksum("counter", counter, 1);
    rs_done();
    return 0;
}
