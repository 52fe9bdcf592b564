// stencil_2d.cu: four Jacobi sweeps of a 5-point stencil over a 4096 x 4096 grid of
// ints. Each 32 x 16 block loads its tile and a one-cell halo (the threads on the tile's
// edges load the neighbours' cells) into shared memory, synchronizes, and writes the
// rounded weighted mean (4 * centre + the four neighbours) / 8 of every interior cell;
// the grid's border keeps its values. Sweeps ping-pong between two grids and never
// write the input, so every run computes the same thing. Integer arithmetic keeps the
// result exact; four launches per run, compared in full with the host's sweeps.
#include "bench.h"

enum { N = 4096, BX = 32, BY = 16, SWEEPS = 4 };

__global__ void jacobi_sweep(const int *in, int *out, int n)
{
    __shared__ int tile[BY + 2][BX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BX + tx, y = blockIdx.y * BY + ty;
    int up = y > 0 ? y - 1 : 0, down = y < n - 1 ? y + 1 : n - 1;
    int left = x > 0 ? x - 1 : 0, right = x < n - 1 ? x + 1 : n - 1;
    tile[ty + 1][tx + 1] = in[y * n + x];
    if (ty == 0)
        tile[0][tx + 1] = in[up * n + x];
    if (ty == BY - 1)
        tile[BY + 1][tx + 1] = in[down * n + x];
    if (tx == 0)
        tile[ty + 1][0] = in[y * n + left];
    if (tx == BX - 1)
        tile[ty + 1][BX + 1] = in[y * n + right];
    __syncthreads();
    int centre = tile[ty + 1][tx + 1];
    int v = centre;
    if (x > 0 && y > 0 && x < n - 1 && y < n - 1)
        v = (4 * centre + tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] +
             tile[ty + 1][tx + 2] + 4) >> 3;
    out[y * n + x] = v;
}

typedef struct Stencil {
    int *input, *a, *b;
} Stencil;

static void pipeline(BenchRun *run, void *ctx)
{
    Stencil *s = (Stencil *)ctx;
    const int *src = s->input;
    int *dst = s->a;
    for (int sweep = 0; sweep < SWEEPS; sweep++) {
        jacobi_sweep<<<dim3(N / BX, N / BY), dim3(BX, BY)>>>(src, dst, N);
        BENCH_LAUNCHED(run);
        src = dst;
        dst = dst == s->a ? s->b : s->a;
    }
}

// The same sweeps on the host; returns the grid holding the result.
static int *host_sweeps(int *cur, int *next)
{
    for (int sweep = 0; sweep < SWEEPS; sweep++) {
        for (int y = 0; y < N; y++) {
            for (int x = 0; x < N; x++) {
                const int *c = &cur[(size_t)y * N + x];
                int v = *c;
                if (x > 0 && y > 0 && x < N - 1 && y < N - 1)
                    v = (4 * v + c[-N] + c[N] + c[-1] + c[1] + 4) >> 3;
                next[(size_t)y * N + x] = v;
            }
        }
        int *t = cur;
        cur = next;
        next = t;
    }
    return cur;
}

int main(int argc, char **argv)
{
    static_assert(N % BX == 0 && N % BY == 0, "the kernel has no partial tile");
    static_assert(SWEEPS % 2 == 0, "the result is taken from the second grid");
    BenchRun run;
    bench_init(&run, "stencil_2d", argc, argv);
    size_t cells = (size_t)N * N, bytes = cells * sizeof(int);
    int *grid = (int *)bench_host_alloc(&run, bytes);
    int *spare = (int *)bench_host_alloc(&run, bytes);
    int *got = (int *)bench_host_alloc(&run, bytes);
    uint64_t seed = 0x5eed0401;
    for (size_t i = 0; i < cells; i++)
        grid[i] = (int)(bench_rand(&seed) & 0xffff);

    Stencil s;
    s.input = (int *)bench_alloc(&run, bytes);
    s.a = (int *)bench_alloc(&run, bytes);
    s.b = (int *)bench_alloc(&run, bytes);
    BENCH_CUDA(cudaMemcpy(s.input, grid, bytes, cudaMemcpyHostToDevice));
    bench_load((const void *)jacobi_sweep);
    bench_time(&run, pipeline, &s);
    BENCH_CUDA(cudaMemcpy(got, s.b, bytes, cudaMemcpyDeviceToHost));

    const int *want = host_sweeps(grid, spare);
    for (size_t i = 0; i < cells; i++)
        if (got[i] != want[i])
            bench_die("stencil_2d: cell (%zu, %zu) is %d, expected %d", i / N, i % N, got[i],
                      want[i]);
    bench_checksum(&run, bench_fnv1a(got, bytes));
    printf("stencil_2d: ok (%dx%d, %d sweeps)\n", N, N, SWEEPS);
    BENCH_CUDA(cudaFree(s.input));
    BENCH_CUDA(cudaFree(s.a));
    BENCH_CUDA(cudaFree(s.b));
    free(grid);
    free(spare);
    free(got);
    return 0;
}
