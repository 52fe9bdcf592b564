// global_aliased_params_race.cu: kernels that read through one pointer parameter and
// write through another, launched with both in one allocation: the same array (race A)
// and an array and itself shifted by one block's elements (race B). Thread i reads the
// element thread i + THREADS, of the next block, writes. scord leaves out the reads of a
// parameter that points into memory no written parameter points into
// (docs/instrumentation.md, "Reads of unwritten allocations"); here the launch's own
// arguments make them meet, and both races are found.
// SCORD-CATEGORY: 11
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A unsynchronized_blocks
// SCORD-CAUSE: B unsynchronized_blocks
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64, N = BLOCKS * THREADS };

__global__ void scale_next(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + THREADS < n)
        out[i] = 3 * in[i + THREADS];       // race(A) read,write global
}

__global__ void scale_same(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 5 * in[i];                 // race(B) read,write global
}

int main()
{
    rs_require_device();
    int *a = rs_fill<int>(N + THREADS, [](size_t i) { return int(i); });
    scale_next<<<BLOCKS, THREADS>>>(a, a, N);
    RS_LAUNCHED();
    scale_same<<<BLOCKS, THREADS>>>(a + THREADS, a, N);
    RS_LAUNCHED();
    rs_print_checksum("a", a, N + THREADS);
    rs_done();
    return 0;
}
