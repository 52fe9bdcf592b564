// shared_generic_pointer_race.cu: a non-inlined helper stores and loads through generic
// pointers; the kernel passes it pointers into shared memory (and, once, into global
// memory, so the compiler keeps the accesses generic). The two shared pointers name
// cells of threads in different warps, and nothing orders the store before the load.
// SCORD-CATEGORY: 1
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

// Stores v through mine and returns what theirs holds afterwards.
__device__ __noinline__ int swap_through(int *mine, const int *theirs, int v)
{
    *mine = v;              // race(A) write shared
    return *theirs;         // race(A) read shared
}

__global__ void exchange(const int *in, int *out)
{
    __shared__ int tile[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    int got = swap_through(&tile[t], &tile[(t + 32) % THREADS], in[i]);
    swap_through(&out[i], &out[i], got + 1);
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 3); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    exchange<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("exchange", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
