// global_same_store_lanes_norace.cu: every lane of a warp stores its block's result word
// in global memory with one store instruction, all of them the same value (benign).
// SCORD-CATEGORY: 4
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 32 };

__global__ void publish(const int *in, int *out)
{
    int v = in[blockIdx.x];
    out[blockIdx.x] = v + 1;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS, [](size_t i) { return int(i * 100); });
    int *out = rs_zeros<int>(BLOCKS);
    publish<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("publish", out, BLOCKS);
    rs_done();
    return 0;
}
