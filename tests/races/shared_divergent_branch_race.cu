// shared_divergent_branch_race.cu: the lower half of a warp writes shared cells that the
// upper half reads, on the two paths of one divergent if/else. The paths of a divergent
// branch run in an unspecified order and nothing orders them.
// SCORD-CATEGORY: 4
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A divergent_branch
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void split_roles(const int *in, int *out)
{
    __shared__ int s[THREADS];
    int lane = threadIdx.x;
    int v = in[blockIdx.x * THREADS + lane];
    int r = 0;
    if (lane < 16) {
        s[lane + 16] = v * v;       // race(A) write shared
    } else {
        r = s[lane];                // race(A) read shared
    }
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
