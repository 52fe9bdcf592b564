// shared_ballot_exchange_race.cu: each lane stores a value in shared memory, the warp
// counts the positive values with __ballot_sync(), and each lane loads the cell of the
// mirrored lane. A ballot synchronizes execution but orders no memory accesses.
// SCORD-CATEGORY: 4
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_syncwarp
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void mirror_and_count(const int *in, int *out)
{
    __shared__ int s[THREADS];
    int lane = threadIdx.x, i = blockIdx.x * THREADS + lane;
    int v = in[i];
    s[lane] = v;                                            // race(A) write shared
    unsigned positive = __ballot_sync(0xffffffffu, v > 0);
    out[i] = s[THREADS - 1 - lane] * __popc(positive);      // race(A) read shared
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i % 7) - 3; });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    mirror_and_count<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("mirror_and_count", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
