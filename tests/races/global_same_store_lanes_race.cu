// global_same_store_lanes_race.cu: every lane of a warp stores its block's result word
// in global memory with one store instruction, each lane a different value.
// SCORD-CATEGORY: 4
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A same_store_lanes
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 32 };

__global__ void publish(const int *in, int *out)
{
    int v = in[blockIdx.x];
    out[blockIdx.x] = v + threadIdx.x;      // race(A) write,write global
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
