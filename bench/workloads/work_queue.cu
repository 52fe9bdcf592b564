// work_queue.cu: a persistent kernel draining a work queue: as many blocks as the GPU
// holds at once (four per SM), each warp taking the next batch of 32 items from one
// global counter (lane 0's atomicAdd, handed to the warp with a shuffle) until the
// queue runs dry. An item is a task of uneven cost: mix a 32-bit seed for as many
// rounds as its own length says (1 to 256), so that warps finish their batches at
// different times and the queue, not a fixed partition, balances them. Each result is
// written once, by the lane that took the item, and every 1024th item also adds its
// result into one of 64 global bins (atomicAdd), the way a queue kernel reports
// progress. One reset of the counter and bins (a memset) and one launch per run; the
// results and bins are compared with the host's.
#include "bench.h"

enum { ITEMS = 1 << 21, BLOCK = 256, BLOCKS_PER_SM = 4, BINS = 64 };

__host__ __device__ static inline unsigned mix_rounds(unsigned seed, unsigned rounds)
{
    unsigned x = seed;
    for (unsigned r = 0; r < rounds; r++) {
        x ^= x >> 15;
        x *= 0x2c1b3c6du;
        x ^= x >> 12;
        x += r;
    }
    return x;
}

__host__ __device__ static inline unsigned item_rounds(unsigned seed)
{
    return 1 + (seed >> 24);
}

__global__ void drain_queue(const unsigned *seeds, unsigned *results, unsigned *next_item,
                            unsigned long long *bins, unsigned items)
{
    unsigned lane = threadIdx.x % 32;
    for (;;) {
        unsigned first = 0;
        if (lane == 0)
            first = atomicAdd(next_item, 32u);
        first = __shfl_sync(0xffffffffu, first, 0);
        if (first >= items)
            return;
        unsigned i = first + lane;
        if (i < items) {
            unsigned seed = seeds[i];
            unsigned r = mix_rounds(seed, item_rounds(seed));
            results[i] = r;
            if (i % 1024 == 0)
                atomicAdd(&bins[i / 1024 % BINS], (unsigned long long)r);
        }
    }
}

typedef struct Queue {
    unsigned *seeds, *results, *next_item;
    unsigned long long *bins;
    int blocks;
} Queue;

static void pipeline(BenchRun *run, void *ctx)
{
    Queue *q = (Queue *)ctx;
    BENCH_CUDA(cudaMemsetAsync(q->next_item, 0, sizeof(unsigned)));
    BENCH_CUDA(cudaMemsetAsync(q->bins, 0, BINS * sizeof(unsigned long long)));
    drain_queue<<<q->blocks, BLOCK>>>(q->seeds, q->results, q->next_item, q->bins, ITEMS);
    BENCH_LAUNCHED(run);
}

int main(int argc, char **argv)
{
    BenchRun run;
    bench_init(&run, "work_queue", argc, argv);
    int sms = 0;
    BENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    size_t bytes = (size_t)ITEMS * sizeof(unsigned);
    unsigned *seeds = (unsigned *)bench_host_alloc(&run, bytes);
    uint64_t state = 0x5eed0b01;
    for (size_t i = 0; i < ITEMS; i++)
        seeds[i] = (unsigned)bench_rand(&state);

    Queue q;
    q.blocks = sms * BLOCKS_PER_SM;
    q.seeds = (unsigned *)bench_alloc(&run, bytes);
    q.results = (unsigned *)bench_alloc(&run, bytes);
    q.next_item = (unsigned *)bench_alloc(&run, sizeof(unsigned));
    q.bins = (unsigned long long *)bench_alloc(&run, BINS * sizeof(unsigned long long));
    BENCH_CUDA(cudaMemcpy(q.seeds, seeds, bytes, cudaMemcpyHostToDevice));
    bench_load((const void *)drain_queue);
    bench_time(&run, pipeline, &q);

    unsigned *got = (unsigned *)bench_host_alloc(&run, bytes);
    unsigned long long got_bins[BINS], want_bins[BINS];
    BENCH_CUDA(cudaMemcpy(got, q.results, bytes, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(got_bins, q.bins, sizeof got_bins, cudaMemcpyDeviceToHost));
    memset(want_bins, 0, sizeof want_bins);
    unsigned long long rounds = 0;
    for (size_t i = 0; i < ITEMS; i++) {
        unsigned want = mix_rounds(seeds[i], item_rounds(seeds[i]));
        rounds += item_rounds(seeds[i]);
        if (got[i] != want)
            bench_die("work_queue: item %zu is %08x, expected %08x", i, got[i], want);
        if (i % 1024 == 0)
            want_bins[i / 1024 % BINS] += want;
    }
    for (int b = 0; b < BINS; b++)
        if (got_bins[b] != want_bins[b])
            bench_die("work_queue: bin %d is %llu, expected %llu", b, got_bins[b], want_bins[b]);
    bench_checksum(&run, bench_fnv1a(got, bytes) ^ bench_fnv1a(got_bins, sizeof got_bins));
    printf("work_queue: ok (%d items, %llu rounds, %d persistent blocks of %d)\n", ITEMS, rounds,
           q.blocks, BLOCK);
    BENCH_CUDA(cudaFree(q.seeds));
    BENCH_CUDA(cudaFree(q.results));
    BENCH_CUDA(cudaFree(q.next_item));
    BENCH_CUDA(cudaFree(q.bins));
    free(seeds);
    free(got);
    return 0;
}
