// shared_warp_reduce_norace.cu: a warp-synchronous tree reduction in shared memory. Under
// independent thread scheduling the lanes of a warp are separate threads:
// __syncwarp() after the initial store and after every step orders each lane's store
// before the other lanes' loads.
// SCORD-CATEGORY: 4
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void warp_sum(const int *in, int *out)
{
    __shared__ int s[THREADS];
    int lane = threadIdx.x;
    s[lane] = in[blockIdx.x * THREADS + lane];
    __syncwarp();
    for (int off = 16; off > 0; off /= 2) {
        if (lane < off)
            s[lane] += s[lane + off];
        __syncwarp();
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
