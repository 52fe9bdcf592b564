// shared_input_dependent_race.cu: each thread scatters its value into the shared slot
// that an input table names. With a permutation (no arguments) every slot has one
// writer; with --duplicates, the run the suite makes, four threads in four warps share
// each slot and their plain stores race.
// SCORD-CATEGORY: 11
// SCORD-RUN: --duplicates
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

__global__ void scatter(const int *slot_of, const int *in, int *out)
{
    __shared__ int s[THREADS];
    int t = threadIdx.x, i = blockIdx.x * THREADS + t;
    s[t] = -1;
    __syncthreads();
    s[slot_of[t]] = in[i];                  // race(A) write,write shared
    __syncthreads();
    out[i] = s[t];
}

int main(int argc, char **argv)
{
    rs_require_device();
    bool duplicates = argc > 1 && strcmp(argv[1], "--duplicates") == 0;
    int *slot_of = rs_fill<int>(THREADS, [&](size_t t) {
        return duplicates ? int(t % 32) : int(t * 37 % THREADS);
    });
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 5 % 211); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    scatter<<<BLOCKS, THREADS>>>(slot_of, in, out);
    RS_LAUNCHED();
    rs_print_checksum("scatter", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
