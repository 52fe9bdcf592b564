// sgemm_tiled.cu: C = A * B for 1024 x 1024 single-precision matrices, the classic
// shared-memory tiling: each 32 x 32 block stages a tile of A and a tile of B in shared
// memory, synchronizes, accumulates, and synchronizes again before the next tiles.
// One thread per element of C; one launch per run.
//
// The entries are integers from -2 to 2, so every partial sum is an integer of at most
// 4096 in magnitude, exact in float whatever the order or FMA contraction: the result is
// checked exactly, in full through an invariant (the sum of C is the sum over k of A's
// column sums times B's row sums) and element by element at sampled positions.
#include "bench.h"

enum { N = 1024, TILE = 32, SAMPLES = 4096 };

__global__ void sgemm_tiled(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        a_tile[ty][tx] = a[row * n + t + tx];
        b_tile[ty][tx] = b[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += a_tile[ty][k] * b_tile[k][tx];
        // The next tiles overwrite what other threads may still be reading.
        __syncthreads();
    }
    c[row * n + col] = acc;
}

typedef struct Sgemm {
    float *a, *b, *c;
} Sgemm;

static void pipeline(BenchRun *run, void *ctx)
{
    Sgemm *s = (Sgemm *)ctx;
    sgemm_tiled<<<dim3(N / TILE, N / TILE), dim3(TILE, TILE)>>>(s->a, s->b, s->c, N);
    BENCH_LAUNCHED(run);
}

int main(int argc, char **argv)
{
    static_assert(N % TILE == 0, "the kernel has no edge handling");
    BenchRun run;
    bench_init(&run, "sgemm_tiled", argc, argv);
    size_t elems = (size_t)N * N, bytes = elems * sizeof(float);
    float *a = (float *)bench_host_alloc(&run, bytes);
    float *b = (float *)bench_host_alloc(&run, bytes);
    float *c = (float *)bench_host_alloc(&run, bytes);
    uint64_t seed = 0x5eed0001;
    for (size_t i = 0; i < elems; i++)
        a[i] = (float)((int)(bench_rand(&seed) % 5) - 2);
    for (size_t i = 0; i < elems; i++)
        b[i] = (float)((int)(bench_rand(&seed) % 5) - 2);

    Sgemm s;
    s.a = (float *)bench_alloc(&run, bytes);
    s.b = (float *)bench_alloc(&run, bytes);
    s.c = (float *)bench_alloc(&run, bytes);
    BENCH_CUDA(cudaMemcpy(s.a, a, bytes, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(s.b, b, bytes, cudaMemcpyHostToDevice));
    bench_load((const void *)sgemm_tiled);
    bench_time(&run, pipeline, &s);
    BENCH_CUDA(cudaMemcpy(c, s.c, bytes, cudaMemcpyDeviceToHost));

    long long want_sum = 0, got_sum = 0;
    for (int k = 0; k < N; k++) {
        long long col_a = 0, row_b = 0;
        for (int i = 0; i < N; i++) {
            col_a += (long long)a[(size_t)i * N + k];
            row_b += (long long)b[(size_t)k * N + i];
        }
        want_sum += col_a * row_b;
    }
    for (size_t i = 0; i < elems; i++) {
        if (c[i] != (float)(long long)c[i])
            bench_die("sgemm_tiled: C[%zu] = %g is not an integer", i, (double)c[i]);
        got_sum += (long long)c[i];
    }
    if (got_sum != want_sum)
        bench_die("sgemm_tiled: the elements of C add up to %lld, expected %lld", got_sum,
                  want_sum);
    uint64_t pick = 0x5eed0002;
    for (int n = 0; n < SAMPLES; n++) {
        size_t row = bench_rand(&pick) % N, col = bench_rand(&pick) % N;
        float want = 0.0f;
        for (int k = 0; k < N; k++)
            want += a[row * N + k] * b[(size_t)k * N + col];
        if (c[row * N + col] != want)
            bench_die("sgemm_tiled: C[%zu][%zu] = %g, expected %g", row, col,
                      (double)c[row * N + col], (double)want);
    }
    bench_checksum(&run, bench_fnv1a(c, bytes));
    printf("sgemm_tiled: ok (%dx%d, sum of C %lld, %d elements checked one by one)\n", N, N,
           want_sum, SAMPLES);
    BENCH_CUDA(cudaFree(s.a));
    BENCH_CUDA(cudaFree(s.b));
    BENCH_CUDA(cudaFree(s.c));
    free(a);
    free(b);
    free(c);
    return 0;
}
