// histogram_shared.cu: a 256-bin histogram of 16M bytes, privatized per block: each
// block clears its bins in shared memory, counts its share of the input (four bytes
// per load, grid-stride) with shared-memory atomicAdd, and after a barrier adds its
// non-zero bins to the global bins with global atomicAdd. The bytes follow a
// triangular distribution (the mean of two uniform bytes), so the middle bins are hot,
// as in image data. One memset and one launch per run; the bins are compared with the
// host's count.
#include "bench.h"

enum { N = 1 << 24, BINS = 256, BLOCK = 256, GRID = 1024 };

__global__ void histogram_shared(const uchar4 *in, unsigned n4, unsigned *bins)
{
    __shared__ unsigned local[BINS];
    local[threadIdx.x] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * BLOCK + threadIdx.x; i < n4; i += gridDim.x * BLOCK) {
        uchar4 v = in[i];
        atomicAdd(&local[v.x], 1u);
        atomicAdd(&local[v.y], 1u);
        atomicAdd(&local[v.z], 1u);
        atomicAdd(&local[v.w], 1u);
    }
    __syncthreads();
    unsigned count = local[threadIdx.x];
    if (count)
        atomicAdd(&bins[threadIdx.x], count);
}

typedef struct Histogram {
    uchar4 *in;
    unsigned *bins;
} Histogram;

static void pipeline(BenchRun *run, void *ctx)
{
    Histogram *h = (Histogram *)ctx;
    BENCH_CUDA(cudaMemsetAsync(h->bins, 0, BINS * sizeof(unsigned)));
    histogram_shared<<<GRID, BLOCK>>>(h->in, N / 4, h->bins);
    BENCH_LAUNCHED(run);
}

int main(int argc, char **argv)
{
    static_assert(BLOCK == BINS, "each thread clears and merges one bin");
    static_assert(N % 4 == 0, "the input is read as uchar4");
    BenchRun run;
    bench_init(&run, "histogram_shared", argc, argv);
    unsigned char *in = (unsigned char *)bench_host_alloc(&run, N);
    unsigned want[BINS] = {0}, got[BINS];
    uint64_t seed = 0x5eed0301;
    for (size_t i = 0; i < (size_t)N; i++) {
        uint64_t r = bench_rand(&seed);
        in[i] = (unsigned char)(((r & 0xff) + ((r >> 8) & 0xff)) / 2);
        want[in[i]]++;
    }

    Histogram h;
    h.in = (uchar4 *)bench_alloc(&run, N);
    h.bins = (unsigned *)bench_alloc(&run, BINS * sizeof(unsigned));
    BENCH_CUDA(cudaMemcpy(h.in, in, N, cudaMemcpyHostToDevice));
    bench_load((const void *)histogram_shared);
    bench_time(&run, pipeline, &h);
    BENCH_CUDA(cudaMemcpy(got, h.bins, sizeof got, cudaMemcpyDeviceToHost));

    for (int i = 0; i < BINS; i++)
        if (got[i] != want[i])
            bench_die("histogram_shared: bin %d holds %u, expected %u", i, got[i], want[i]);
    unsigned fullest = 0;
    for (int i = 1; i < BINS; i++)
        if (want[i] > want[fullest])
            fullest = (unsigned)i;
    bench_checksum(&run, bench_fnv1a(got, sizeof got));
    printf("histogram_shared: ok (%d bytes, fullest bin %u with %u)\n", N, fullest, want[fullest]);
    BENCH_CUDA(cudaFree(h.in));
    BENCH_CUDA(cudaFree(h.bins));
    free(in);
    return 0;
}
