// scan.cu: the exclusive prefix sum of 16M unsigned ints (values 0-15), the classic
// three-kernel pipeline:
//   1. scan_tiles: each block scans a tile of 1024 elements in shared memory
//      (work-efficient up-sweep and down-sweep, a barrier before every step) and writes
//      the tile's total to block_sums;
//   2. scan_block_sums: one block turns the 16384 tile totals into their exclusive
//      prefix sums (each thread scans 16 of them serially; the 1024 thread totals are
//      scanned in shared memory);
//   3. add_offsets: every tile adds its offset.
// Three launches per run; the result is compared in full with the host's scan.
#include "bench.h"

enum {
    N = 1 << 24,
    BLOCK = 512,
    TILE = 2 * BLOCK,
    TILES = N / TILE,
    SUM_THREADS = 1024,
};

__global__ void scan_tiles(const unsigned *in, unsigned *out, unsigned *block_sums)
{
    __shared__ unsigned s[TILE];
    unsigned t = threadIdx.x;
    size_t base = (size_t)blockIdx.x * TILE;
    s[t] = in[base + t];
    s[t + BLOCK] = in[base + t + BLOCK];
    unsigned offset = 1;
    for (unsigned active = TILE / 2; active > 0; active >>= 1) {
        __syncthreads();
        if (t < active)
            s[offset * (2 * t + 2) - 1] += s[offset * (2 * t + 1) - 1];
        offset <<= 1;
    }
    // Only thread 0 wrote s[TILE - 1] in the last step above.
    if (t == 0) {
        block_sums[blockIdx.x] = s[TILE - 1];
        s[TILE - 1] = 0;
    }
    for (unsigned active = 1; active < TILE; active <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (t < active) {
            unsigned left = offset * (2 * t + 1) - 1, right = offset * (2 * t + 2) - 1;
            unsigned v = s[left];
            s[left] = s[right];
            s[right] += v;
        }
    }
    __syncthreads();
    out[base + t] = s[t];
    out[base + t + BLOCK] = s[t + BLOCK];
}

// One block of SUM_THREADS threads, sums scanned in place.
__global__ void scan_block_sums(unsigned *sums, unsigned n)
{
    __shared__ unsigned totals[SUM_THREADS];
    unsigned t = threadIdx.x;
    unsigned per = (n + SUM_THREADS - 1) / SUM_THREADS;
    unsigned lo = t * per, hi = lo + per < n ? lo + per : n;
    unsigned mine = 0;
    for (unsigned i = lo; i < hi; i++)
        mine += sums[i];
    totals[t] = mine;
    for (unsigned step = 1; step < SUM_THREADS; step <<= 1) {
        __syncthreads();
        unsigned add = t >= step ? totals[t - step] : 0;
        // Everyone has read this step's values before anyone overwrites them.
        __syncthreads();
        totals[t] += add;
    }
    unsigned running = totals[t] - mine;
    for (unsigned i = lo; i < hi; i++) {
        unsigned v = sums[i];
        sums[i] = running;
        running += v;
    }
}

__global__ void add_offsets(unsigned *out, const unsigned *offsets)
{
    size_t base = (size_t)blockIdx.x * TILE;
    unsigned add = offsets[blockIdx.x];
    out[base + threadIdx.x] += add;
    out[base + threadIdx.x + BLOCK] += add;
}

typedef struct Scan {
    unsigned *in, *out, *block_sums;
} Scan;

static void pipeline(BenchRun *run, void *ctx)
{
    Scan *s = (Scan *)ctx;
    scan_tiles<<<TILES, BLOCK>>>(s->in, s->out, s->block_sums);
    BENCH_LAUNCHED(run);
    scan_block_sums<<<1, SUM_THREADS>>>(s->block_sums, TILES);
    BENCH_LAUNCHED(run);
    add_offsets<<<TILES, BLOCK>>>(s->out, s->block_sums);
    BENCH_LAUNCHED(run);
}

int main(int argc, char **argv)
{
    static_assert(N % TILE == 0, "the kernels have no partial tile");
    BenchRun run;
    bench_init(&run, "scan", argc, argv);
    size_t bytes = (size_t)N * sizeof(unsigned);
    unsigned *in = (unsigned *)bench_host_alloc(&run, bytes);
    unsigned *out = (unsigned *)bench_host_alloc(&run, bytes);
    uint64_t seed = 0x5eed0201;
    for (size_t i = 0; i < (size_t)N; i++)
        in[i] = (unsigned)(bench_rand(&seed) & 0xf);

    Scan s;
    s.in = (unsigned *)bench_alloc(&run, bytes);
    s.out = (unsigned *)bench_alloc(&run, bytes);
    s.block_sums = (unsigned *)bench_alloc(&run, (size_t)TILES * sizeof(unsigned));
    BENCH_CUDA(cudaMemcpy(s.in, in, bytes, cudaMemcpyHostToDevice));
    bench_load((const void *)scan_tiles);
    bench_load((const void *)scan_block_sums);
    bench_load((const void *)add_offsets);
    bench_time(&run, pipeline, &s);
    BENCH_CUDA(cudaMemcpy(out, s.out, bytes, cudaMemcpyDeviceToHost));

    unsigned want = 0;
    for (size_t i = 0; i < (size_t)N; i++) {
        if (out[i] != want)
            bench_die("scan: element %zu is %u, expected %u", i, out[i], want);
        want += in[i];
    }
    bench_checksum(&run, bench_fnv1a(out, bytes));
    printf("scan: ok (%d elements, total %u)\n", N, want);
    BENCH_CUDA(cudaFree(s.in));
    BENCH_CUDA(cudaFree(s.out));
    BENCH_CUDA(cudaFree(s.block_sums));
    free(in);
    free(out);
    return 0;
}
