// global_aliased_params_norace.cu: the kernels of global_aliased_params_race, reading
// through one pointer parameter (and a pointer inside a struct parameter) and writing
// through another, launched with separate allocations: no read meets a write, and scord
// leaves the reads out (docs/instrumentation.md, "Reads of unwritten allocations").
// SCORD-CATEGORY: 11
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64, N = BLOCKS * THREADS };

struct Scaled {
    int factor;
    const int *table;
};

__global__ void scale_next(const int *in, int *out, int n, Scaled s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + THREADS < n)
        out[i] = s.factor * in[i + THREADS] + s.table[i % 8];
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(N, [](size_t i) { return int(i); });
    int *table = rs_fill<int>(8, [](size_t i) { return int(i * i); });
    int *out = rs_zeros<int>(N);
    scale_next<<<BLOCKS, THREADS>>>(in, out, N, Scaled{3, table});
    RS_LAUNCHED();
    rs_print_checksum("out", out, N);
    rs_done();
    return 0;
}
