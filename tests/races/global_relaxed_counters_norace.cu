// global_relaxed_counters_norace.cu: every thread of four blocks bumps global counters
// with relaxed atomics of device scope (atomicAdd, atomicInc, atomicMax and a
// cuda::atomic_ref fetch_add with memory_order_relaxed); a second kernel and the host
// read the totals. Atomics of scopes that include each other are morally strong, so
// relaxed order is enough for counting, and the kernel boundary orders the plain reads
// after all of them.
// SCORD-CATEGORY: 8
// SCORD-EXPECT: no race
#include <cuda/atomic>

#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64, COUNTERS = 4 };

__global__ void count(unsigned *counters)
{
    unsigned t = blockIdx.x * THREADS + threadIdx.x;
    atomicAdd(&counters[0], 1u);
    atomicInc(&counters[1], 1000u);
    atomicMax(&counters[2], t * 37u % 101u);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(counters[3]).fetch_add(
        t, cuda::memory_order_relaxed);
}

// Thread i reads counter i with a plain load: the kernel boundary orders it.
__global__ void copy_out(const unsigned *counters, unsigned *out)
{
    if (threadIdx.x < COUNTERS)
        out[threadIdx.x] = counters[threadIdx.x];
}

int main()
{
    rs_require_device();
    unsigned *counters = rs_zeros<unsigned>(COUNTERS), *out = rs_zeros<unsigned>(COUNTERS);
    count<<<BLOCKS, THREADS>>>(counters);
    RS_LAUNCHED();
    copy_out<<<1, 32>>>(counters, out);
    RS_LAUNCHED();
    rs_print_checksum("counters", counters, COUNTERS);
    rs_print_checksum("copied", out, COUNTERS);
    rs_done();
    return 0;
}
