// reduce_last_block.cu: the sum of 16M unsigned ints in one launch with no second
// kernel: each block reduces its share in shared memory, thread 0 publishes the block's
// partial sum, __threadfence() and takes a ticket with atomicAdd; the block that takes
// the last ticket fences again and sums the partials (the classic threadFenceReduction
// pattern: release through a fence, a release sequence through the ticket counter, an
// acquire fence in the last block). One memset and one launch per run; the total is
// checked against the host's sum.
#include "bench.h"

enum { N = 1 << 24, BLOCK = 256, BLOCKS = 1024 };

// The block's sum, for every thread; the block may call it again at once.
__device__ unsigned long long block_sum(unsigned long long v)
{
    __shared__ unsigned long long s[BLOCK];
    s[threadIdx.x] = v;
    __syncthreads();
    for (unsigned half = BLOCK / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half)
            s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    unsigned long long sum = s[0];
    __syncthreads();
    return sum;
}

__global__ void reduce_last_block(const unsigned *in, unsigned *partial, unsigned *ticket,
                                  unsigned long long *total)
{
    __shared__ bool last;
    unsigned v = 0;
    for (unsigned i = blockIdx.x * BLOCK + threadIdx.x; i < N; i += BLOCKS * BLOCK)
        v += in[i];
    unsigned sum = (unsigned)block_sum(v);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sum;
        __threadfence();
        last = atomicAdd(ticket, 1u) == BLOCKS - 1;
        if (last)
            __threadfence();
    }
    __syncthreads();
    if (!last)
        return;
    unsigned long long mine = 0;
    for (unsigned b = threadIdx.x; b < BLOCKS; b += BLOCK)
        mine += partial[b];
    unsigned long long sum_all = block_sum(mine);
    if (threadIdx.x == 0)
        *total = sum_all;
}

typedef struct Reduce {
    unsigned *in, *partial, *ticket;
    unsigned long long *total;
} Reduce;

static void pipeline(BenchRun *run, void *ctx)
{
    Reduce *r = (Reduce *)ctx;
    BENCH_CUDA(cudaMemsetAsync(r->ticket, 0, sizeof *r->ticket));
    reduce_last_block<<<BLOCKS, BLOCK>>>(r->in, r->partial, r->ticket, r->total);
    BENCH_LAUNCHED(run);
}

int main(int argc, char **argv)
{
    BenchRun run;
    bench_init(&run, "reduce_last_block", argc, argv);
    size_t bytes = (size_t)N * sizeof(unsigned);
    unsigned long long want;
    unsigned *in = bench_random_bytes(&run, N, 0x5eed0801, &want);
    Reduce r;
    r.in = (unsigned *)bench_alloc(&run, bytes);
    r.partial = (unsigned *)bench_alloc(&run, BLOCKS * sizeof(unsigned));
    r.ticket = (unsigned *)bench_alloc(&run, sizeof *r.ticket);
    r.total = (unsigned long long *)bench_alloc(&run, sizeof *r.total);
    BENCH_CUDA(cudaMemcpy(r.in, in, bytes, cudaMemcpyHostToDevice));
    bench_load((const void *)reduce_last_block);
    bench_time(&run, pipeline, &r);

    unsigned long long got = 0;
    BENCH_CUDA(cudaMemcpy(&got, r.total, sizeof got, cudaMemcpyDeviceToHost));
    if (got != want)
        bench_die("reduce_last_block: the sum is %llu, expected %llu", got, want);
    bench_checksum(&run, got);
    printf("reduce_last_block: ok (%d elements, sum %llu)\n", N, want);
    BENCH_CUDA(cudaFree(r.in));
    BENCH_CUDA(cudaFree(r.partial));
    BENCH_CUDA(cudaFree(r.ticket));
    BENCH_CUDA(cudaFree(r.total));
    free(in);
    return 0;
}
