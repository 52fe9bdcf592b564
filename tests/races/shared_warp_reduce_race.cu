// shared_warp_reduce_race.cu: a warp-synchronous tree reduction in shared memory. Under
// independent thread scheduling the lanes of a warp are separate threads:
// without __syncwarp() nothing orders a lane's store before another lane's load of it,
// neither the initial store nor the partial sums of the previous step.
// SCORD-CATEGORY: 4
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A missing_syncwarp
// SCORD-CAUSE: B missing_syncwarp
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void warp_sum(const int *in, int *out)
{
    __shared__ int s[THREADS];
    int lane = threadIdx.x;
    s[lane] = in[blockIdx.x * THREADS + lane];      // race(A) write shared
    for (int off = 16; off > 0; off /= 2) {
        if (lane < off)
            s[lane] += s[lane + off];               // race(A) read shared race(B) read,write shared
    }
    if (lane == 0)
        out[blockIdx.x] = s[0];
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 3 + 1); });
    int *out = rs_zeros<int>(BLOCKS);
    warp_sum<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("warp_sum", out, BLOCKS);
    rs_done();
    return 0;
}
