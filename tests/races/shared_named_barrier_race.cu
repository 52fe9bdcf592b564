// shared_named_barrier_race.cu: warp 0 hands a slot of shared memory to warp 1 through
// named barrier 1 with a count of 64 threads (bar.arrive by the producer, bar.sync by
// the consumer) while warp 2 works on its own. bar.arrive releases only what its thread
// wrote before it; here the producer arrives first and writes afterwards.
// SCORD-CATEGORY: 1
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 2, THREADS = 96 };

__device__ __forceinline__ void named_arrive(unsigned id, unsigned count)
{
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(count) : "memory");
}

__device__ __forceinline__ void named_sync(unsigned id, unsigned count)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}

__global__ void handoff(const int *in, int *out)
{
    __shared__ int slot[32];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int i = blockIdx.x * 32 + lane;
    if (warp == 0) {
        named_arrive(1, 64);
        slot[lane] = in[i] * 3;             // race(A) write shared
    } else if (warp == 1) {
        named_sync(1, 64);
        out[i] = slot[31 - lane];           // race(A) read shared
    } else {
        out[BLOCKS * 32 + i] = in[i] + 1;
    }
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * 32, [](size_t i) { return int(i + 11); });
    int *out = rs_zeros<int>(2 * BLOCKS * 32);
    handoff<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("handoff", out, 2 * BLOCKS * 32);
    rs_done();
    return 0;
}
