// sgemm.h: the host side the SGEMM workloads share: 1024 x 1024 single-precision
// matrices with integer entries from -2 to 2, one launch of the workload's kernel per
// run on 32 x 32 blocks, and the exact check of C. Every partial sum is an integer of at
// most 4096 in magnitude, exact in float whatever the order or FMA contraction: the
// result is checked in full through an invariant (the sum of C is the sum over k of A's
// column sums times B's row sums) and element by element at sampled positions.
#ifndef SGEMM_H
#define SGEMM_H

#include "bench.h"

enum { SGEMM_N = 1024, SGEMM_TILE = 32, SGEMM_SAMPLES = 4096 };

typedef void (*SgemmKernel)(const float *a, const float *b, float *c, int n);

typedef struct Sgemm {
    SgemmKernel kernel;
    float *a, *b, *c;
} Sgemm;

static void sgemm_pipeline(BenchRun *run, void *ctx)
{
    Sgemm *s = (Sgemm *)ctx;
    s->kernel<<<dim3(SGEMM_N / SGEMM_TILE, SGEMM_N / SGEMM_TILE), dim3(SGEMM_TILE, SGEMM_TILE)>>>(s->a, s->b,
                                                                                                s->c, SGEMM_N);
    BENCH_LAUNCHED(run);
}

// The workload's main: fills A and B, times `kernel`, checks C and prints its lines.
static int sgemm_main(int argc, char **argv, const char *name, SgemmKernel kernel)
{
    static_assert(SGEMM_N % SGEMM_TILE == 0, "the kernels have no edge handling");
    const int n = SGEMM_N;
    BenchRun run;
    bench_init(&run, name, argc, argv);
    size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
    float *a = (float *)bench_host_alloc(&run, bytes);
    float *b = (float *)bench_host_alloc(&run, bytes);
    float *c = (float *)bench_host_alloc(&run, bytes);
    uint64_t seed = 0x5eed0001;
    for (size_t i = 0; i < elems; i++)
        a[i] = (float)((int)(bench_rand(&seed) % 5) - 2);
    for (size_t i = 0; i < elems; i++)
        b[i] = (float)((int)(bench_rand(&seed) % 5) - 2);

    Sgemm s;
    s.kernel = kernel;
    s.a = (float *)bench_alloc(&run, bytes);
    s.b = (float *)bench_alloc(&run, bytes);
    s.c = (float *)bench_alloc(&run, bytes);
    BENCH_CUDA(cudaMemcpy(s.a, a, bytes, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(s.b, b, bytes, cudaMemcpyHostToDevice));
    bench_load((const void *)kernel);
    bench_time(&run, sgemm_pipeline, &s);
    BENCH_CUDA(cudaMemcpy(c, s.c, bytes, cudaMemcpyDeviceToHost));

    long long want_sum = 0, got_sum = 0;
    for (int k = 0; k < n; k++) {
        long long col_a = 0, row_b = 0;
        for (int i = 0; i < n; i++) {
            col_a += (long long)a[(size_t)i * n + k];
            row_b += (long long)b[(size_t)k * n + i];
        }
        want_sum += col_a * row_b;
    }
    for (size_t i = 0; i < elems; i++) {
        if (c[i] != (float)(long long)c[i])
            bench_die("%s: C[%zu] = %g is not an integer", name, i, (double)c[i]);
        got_sum += (long long)c[i];
    }
    if (got_sum != want_sum)
        bench_die("%s: the elements of C add up to %lld, expected %lld", name, got_sum, want_sum);
    uint64_t pick = 0x5eed0002;
    for (int p = 0; p < SGEMM_SAMPLES; p++) {
        size_t row = bench_rand(&pick) % n, col = bench_rand(&pick) % n;
        float want = 0.0f;
        for (int k = 0; k < n; k++)
            want += a[row * n + k] * b[(size_t)k * n + col];
        if (c[row * n + col] != want)
            bench_die("%s: C[%zu][%zu] = %g, expected %g", name, row, col, (double)c[row * n + col],
                      (double)want);
    }
    bench_checksum(&run, bench_fnv1a(c, bytes));
    printf("%s: ok (%dx%d, sum of C %lld, %d elements checked one by one)\n", name, n, n, want_sum,
           SGEMM_SAMPLES);
    BENCH_CUDA(cudaFree(s.a));
    BENCH_CUDA(cudaFree(s.b));
    BENCH_CUDA(cudaFree(s.c));
    free(a);
    free(b);
    free(c);
    return 0;
}

#endif
