// global_vector_int2_race.cu: each thread stores an int2 (one 8-byte vector store) in its
// block's region of a global scratch array and loads, as an int2, the pair stored by the
// thread 32 places on, in another warp, with no barrier in between.
// SCORD-CATEGORY: 3
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

__global__ void swap_pairs(const int2 *in, int2 *scratch, int2 *out)
{
    int t = threadIdx.x, base = blockIdx.x * THREADS;
    scratch[base + t] = in[base + t];                       // race(A) write global
    int2 p = scratch[base + (t + 32) % THREADS];            // race(A) read global
    out[base + t] = make_int2(p.y, p.x);
}

int main()
{
    rs_require_device();
    int2 *in = rs_fill<int2>(BLOCKS * THREADS, [](size_t i) { return make_int2(int(i), -int(i)); });
    int2 *scratch = rs_zeros<int2>(BLOCKS * THREADS);
    int2 *out = rs_zeros<int2>(BLOCKS * THREADS);
    swap_pairs<<<BLOCKS, THREADS>>>(in, scratch, out);
    RS_LAUNCHED();
    rs_print_checksum("swap_pairs", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
