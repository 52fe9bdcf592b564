// global_divergent_branch_race.cu: odd lanes overwrite the even lanes' cells of a global
// array while the even lanes read their own cells, on the two paths of one divergent
// if/else; nothing orders the two paths.
// SCORD-CATEGORY: 4
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A divergent_branch
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 32 };

__global__ void odd_even(int *cells, int *out)
{
    int lane = threadIdx.x, base = blockIdx.x * THREADS;
    if (lane % 2) {
        cells[base + lane - 1] = lane * 10;         // race(A) write global
    } else {
        out[base + lane] = cells[base + lane] + 1;  // race(A) read global
    }
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
