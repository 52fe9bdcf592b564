// reduce_block.cu: the sum of 16M unsigned ints (values 0-255), a block reduction:
// each thread adds two elements as it loads them, the block halves its partial sums in
// shared memory with a barrier after every step, and thread 0 adds the block's sum to
// the total with one global atomicAdd. One memset and one launch per run; the total is
// checked against the host's sum.
#include "bench.h"

enum { N = 1 << 24, BLOCK = 256, PER_BLOCK = 2 * BLOCK };

__global__ void reduce_block(const unsigned *in, unsigned long long *total, unsigned n)
{
    __shared__ unsigned partial[BLOCK];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * PER_BLOCK + t;
    unsigned v = 0;
    if (i < n)
        v = in[i];
    if (i + BLOCK < n)
        v += in[i + BLOCK];
    partial[t] = v;
    __syncthreads();
    for (unsigned half = BLOCK / 2; half > 0; half >>= 1) {
        if (t < half)
            partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(total, (unsigned long long)partial[0]);
}

typedef struct Reduce {
    unsigned *in;
    unsigned long long *total;
} Reduce;

static void pipeline(BenchRun *run, void *ctx)
{
    Reduce *r = (Reduce *)ctx;
    BENCH_CUDA(cudaMemsetAsync(r->total, 0, sizeof *r->total));
    reduce_block<<<(N + PER_BLOCK - 1) / PER_BLOCK, BLOCK>>>(r->in, r->total, N);
    BENCH_LAUNCHED(run);
}

int main(int argc, char **argv)
{
    BenchRun run;
    bench_init(&run, "reduce_block", argc, argv);
    size_t bytes = (size_t)N * sizeof(unsigned);
    unsigned long long want;
    unsigned *in = bench_random_bytes(&run, N, 0x5eed0101, &want);

    Reduce r;
    r.in = (unsigned *)bench_alloc(&run, bytes);
    r.total = (unsigned long long *)bench_alloc(&run, sizeof *r.total);
    BENCH_CUDA(cudaMemcpy(r.in, in, bytes, cudaMemcpyHostToDevice));
    bench_load((const void *)reduce_block);
    bench_time(&run, pipeline, &r);

    unsigned long long got = 0;
    BENCH_CUDA(cudaMemcpy(&got, r.total, sizeof got, cudaMemcpyDeviceToHost));
    if (got != want)
        bench_die("reduce_block: the sum is %llu, expected %llu", got, want);
    bench_checksum(&run, got);
    printf("reduce_block: ok (%d elements, sum %llu)\n", N, want);
    BENCH_CUDA(cudaFree(r.in));
    BENCH_CUDA(cudaFree(r.total));
    free(in);
    return 0;
}
