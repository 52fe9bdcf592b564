// histogram_locked.cu: 256 bins over 16M bytes, privatized per block in shared memory
// (block-scope atomicAdd), then merged into the global histogram under one device-wide
// spin lock: thread 0 takes it (atomicCAS, then __threadfence), a barrier, every thread
// adds its bin with a plain read and write, a barrier, thread 0 gives it back
// (__threadfence, then atomicExch). Lock-protected plain updates from every block: the
// acquire and release a detector must follow across blocks. One memset and one launch
// per run; the bins are checked against the host's.
#include "bench.h"

enum { N = 1 << 24, BLOCK = 256, BLOCKS = 1024, BINS = 256 };

__global__ void histogram_locked(const unsigned char *in, unsigned *hist, int *lock)
{
    __shared__ unsigned bins[BINS];
    bins[threadIdx.x] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * BLOCK + threadIdx.x; i < N; i += BLOCKS * BLOCK)
        atomicAdd_block(&bins[in[i]], 1u);
    __syncthreads();
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0)
            __nanosleep(32);
        __threadfence();
    }
    __syncthreads();
    hist[threadIdx.x] += bins[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicExch(lock, 0);
    }
}

typedef struct Histogram {
    unsigned char *in;
    unsigned *hist;
    int *lock;
} Histogram;

static void pipeline(BenchRun *run, void *ctx)
{
    Histogram *h = (Histogram *)ctx;
    BENCH_CUDA(cudaMemsetAsync(h->hist, 0, BINS * sizeof *h->hist));
    histogram_locked<<<BLOCKS, BLOCK>>>(h->in, h->hist, h->lock);
    BENCH_LAUNCHED(run);
}

int main(int argc, char **argv)
{
    BenchRun run;
    bench_init(&run, "histogram_locked", argc, argv);
    unsigned char *in = (unsigned char *)bench_host_alloc(&run, N);
    unsigned want[BINS] = {0};
    uint64_t seed = 0x5eed0901;
    for (size_t i = 0; i < N; i++) {
        in[i] = (unsigned char)(bench_rand(&seed) & 0xff);
        want[in[i]]++;
    }
    Histogram h;
    h.in = (unsigned char *)bench_alloc(&run, N);
    h.hist = (unsigned *)bench_alloc(&run, BINS * sizeof *h.hist);
    h.lock = (int *)bench_alloc(&run, sizeof *h.lock);
    BENCH_CUDA(cudaMemcpy(h.in, in, N, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemset(h.lock, 0, sizeof *h.lock));
    bench_load((const void *)histogram_locked);
    bench_time(&run, pipeline, &h);

    unsigned got[BINS];
    BENCH_CUDA(cudaMemcpy(got, h.hist, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BINS; b++)
        if (got[b] != want[b])
            bench_die("histogram_locked: bin %d holds %u, expected %u", b, got[b], want[b]);
    bench_checksum(&run, bench_fnv1a(got, sizeof got));
    printf("histogram_locked: ok (%d bytes, %d bins)\n", N, BINS);
    BENCH_CUDA(cudaFree(h.in));
    BENCH_CUDA(cudaFree(h.hist));
    BENCH_CUDA(cudaFree(h.lock));
    free(in);
    return 0;
}
