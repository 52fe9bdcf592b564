// global_divergent_branch_norace.cu: odd lanes overwrite the even lanes' cells of a global
// array while the even lanes read their own cells: the reads come in a second branch,
// after __syncwarp().
// SCORD-CATEGORY: 4
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void odd_even(int *cells, int *out)
{
    int lane = threadIdx.x, base = blockIdx.x * THREADS;
    if (lane % 2)
        cells[base + lane - 1] = lane * 10;
    __syncwarp();
    if (lane % 2 == 0)
        out[base + lane] = cells[base + lane] + 1;
}

int main()
{
    rs_require_device();
    int *cells = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    odd_even<<<BLOCKS, THREADS>>>(cells, out);
    RS_LAUNCHED();
    rs_print_checksum("odd_even", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
