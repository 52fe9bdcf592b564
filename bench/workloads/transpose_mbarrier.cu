// transpose_mbarrier.cu: the 4096 x 4096 transpose of transpose.cu by 1024 blocks that
// each move sixteen 32 x 32 tiles through one shared tile, synchronized by a block-scoped
// cuda::barrier (mbarrier arrive and wait on sm_90) instead of __syncthreads(): a phase
// after the tile is filled, and one after it is read out, before the next tile
// overwrites it. Every word of the tile is written by one thread and read by one other,
// so the barrier's release and acquire are what order them. One launch per run; the
// result is compared in full with the input.
#include <cuda/barrier>

#include "bench.h"

#pragma nv_diag_suppress static_var_with_dynamic_init

enum { N = 4096, TILE = 32, ROWS = 8, TILES = (N / TILE) * (N / TILE), BLOCKS = 1024 };

__global__ void transpose_mbarrier(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned tile[TILE][TILE + 1];
    __shared__ cuda::barrier<cuda::thread_scope_block> phase;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        init(&phase, TILE * ROWS);
    __syncthreads();
    for (int t = blockIdx.x; t < TILES; t += BLOCKS) {
        int tx = t % (N / TILE), ty = t / (N / TILE);
        int x = tx * TILE + threadIdx.x, y = ty * TILE + threadIdx.y;
        for (int j = 0; j < TILE; j += ROWS)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
        phase.arrive_and_wait();
        x = ty * TILE + threadIdx.x;
        y = tx * TILE + threadIdx.y;
        for (int j = 0; j < TILE; j += ROWS)
            out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
        phase.arrive_and_wait();
    }
}

typedef struct Transpose {
    unsigned *in, *out;
} Transpose;

static void pipeline(BenchRun *run, void *ctx)
{
    Transpose *t = (Transpose *)ctx;
    transpose_mbarrier<<<BLOCKS, dim3(TILE, ROWS)>>>(t->in, t->out, N);
    BENCH_LAUNCHED(run);
}

int main(int argc, char **argv)
{
    static_assert(N % TILE == 0 && TILE % ROWS == 0 && TILES % BLOCKS == 0, "no partial tile or round");
    BenchRun run;
    bench_init(&run, "transpose_mbarrier", argc, argv);
    size_t elems = (size_t)N * N, bytes = elems * sizeof(unsigned);
    unsigned *in = (unsigned *)bench_host_alloc(&run, bytes);
    unsigned *out = (unsigned *)bench_host_alloc(&run, bytes);
    uint64_t seed = 0x5eed0a01;
    for (size_t i = 0; i < elems; i++)
        in[i] = (unsigned)bench_rand(&seed);

    Transpose t;
    t.in = (unsigned *)bench_alloc(&run, bytes);
    t.out = (unsigned *)bench_alloc(&run, bytes);
    BENCH_CUDA(cudaMemcpy(t.in, in, bytes, cudaMemcpyHostToDevice));
    bench_load((const void *)transpose_mbarrier);
    bench_time(&run, pipeline, &t);
    BENCH_CUDA(cudaMemcpy(out, t.out, bytes, cudaMemcpyDeviceToHost));

    for (size_t row = 0; row < N; row++)
        for (size_t col = 0; col < N; col++)
            if (out[row * N + col] != in[col * N + row])
                bench_die("transpose_mbarrier: out[%zu][%zu] is %u, expected %u", row, col,
                          out[row * N + col], in[col * N + row]);
    bench_checksum(&run, bench_fnv1a(out, bytes));
    printf("transpose_mbarrier: ok (%dx%d)\n", N, N);
    BENCH_CUDA(cudaFree(t.in));
    BENCH_CUDA(cudaFree(t.out));
    free(in);
    free(out);
    return 0;
}
