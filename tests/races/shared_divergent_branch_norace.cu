// shared_divergent_branch_norace.cu: the lower half of a warp writes shared cells that the
// upper half reads: first the writers' branch, then __syncwarp(), then the readers'
// branch, so every write is ordered before the reads.
// SCORD-CATEGORY: 4
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void split_roles(const int *in, int *out)
{
    __shared__ int s[THREADS];
    int lane = threadIdx.x;
    int v = in[blockIdx.x * THREADS + lane];
    int r = 0;
    if (lane < 16)
        s[lane + 16] = v * v;
    __syncwarp();
    if (lane >= 16)
        r = s[lane];
    out[blockIdx.x * THREADS + lane] = r;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i % 50); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    split_roles<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("split_roles", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
