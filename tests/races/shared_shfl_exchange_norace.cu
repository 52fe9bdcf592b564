// shared_shfl_exchange_norace.cu: each lane stores a value in shared memory, the warp
// broadcasts lane 0's value with __shfl_sync(), and each lane loads its neighbour's
// shared cell after a __syncwarp(), which orders the stores before the loads.
// SCORD-CATEGORY: 4
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void neighbour_plus_leader(const int *in, int *out)
{
    __shared__ int s[THREADS];
    int lane = threadIdx.x, i = blockIdx.x * THREADS + lane;
    int v = in[i];
    s[lane] = v;
    int leader = __shfl_sync(0xffffffffu, v, 0);
    __syncwarp();
    out[i] = s[(lane + 1) % THREADS] + leader;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 11); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    neighbour_plus_leader<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("neighbour_plus_leader", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
