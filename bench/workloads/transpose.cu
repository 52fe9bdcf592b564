// transpose.cu: the transpose of a 4096 x 4096 matrix of unsigned ints through a
// shared-memory tile: each 32 x 8 block reads a 32 x 32 tile row by row (coalesced),
// synchronizes, and writes it back transposed, again row by row; the tile has one
// column of padding so that reading it by columns hits 32 different banks. One launch
// per run; the result is compared in full with the input.
#include "bench.h"

enum { N = 4096, TILE = 32, ROWS = 8 };

__global__ void transpose(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

typedef struct Transpose {
    unsigned *in, *out;
} Transpose;

static void pipeline(BenchRun *run, void *ctx)
{
    Transpose *t = (Transpose *)ctx;
    transpose<<<dim3(N / TILE, N / TILE), dim3(TILE, ROWS)>>>(t->in, t->out, N);
    BENCH_LAUNCHED(run);
}

int main(int argc, char **argv)
{
    static_assert(N % TILE == 0 && TILE % ROWS == 0, "the kernel has no partial tile");
    BenchRun run;
    bench_init(&run, "transpose", argc, argv);
    size_t elems = (size_t)N * N, bytes = elems * sizeof(unsigned);
    unsigned *in = (unsigned *)bench_host_alloc(&run, bytes);
    unsigned *out = (unsigned *)bench_host_alloc(&run, bytes);
    uint64_t seed = 0x5eed0601;
    for (size_t i = 0; i < elems; i++)
        in[i] = (unsigned)bench_rand(&seed);

    Transpose t;
    t.in = (unsigned *)bench_alloc(&run, bytes);
    t.out = (unsigned *)bench_alloc(&run, bytes);
    BENCH_CUDA(cudaMemcpy(t.in, in, bytes, cudaMemcpyHostToDevice));
    bench_load((const void *)transpose);
    bench_time(&run, pipeline, &t);
    BENCH_CUDA(cudaMemcpy(out, t.out, bytes, cudaMemcpyDeviceToHost));

    for (size_t row = 0; row < N; row++)
        for (size_t col = 0; col < N; col++)
            if (out[row * N + col] != in[col * N + row])
                bench_die("transpose: out[%zu][%zu] is %u, expected %u", row, col,
                          out[row * N + col], in[col * N + row]);
    bench_checksum(&run, bench_fnv1a(out, bytes));
    printf("transpose: ok (%dx%d)\n", N, N);
    BENCH_CUDA(cudaFree(t.in));
    BENCH_CUDA(cudaFree(t.out));
    free(in);
    free(out);
    return 0;
}
