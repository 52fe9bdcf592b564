// transpose.h: the host side both transpose workloads share: an N x N matrix of random
// unsigned ints, one launch per run of the workload's kernel, and the result compared
// in full with the input.
#ifndef TRANSPOSE_H
#define TRANSPOSE_H

#include "bench.h"

enum { N = 4096, TILE = 32, ROWS = 8 };

typedef struct Transpose {
    unsigned *in, *out;
} Transpose;

// Runs workload `name`: `kernel` is its kernel (loaded before the timed runs) and
// `pipeline` launches it on a Transpose.
static inline int transpose_main(int argc, char **argv, const char *name, uint64_t seed,
                                 const void *kernel, BenchPipeline pipeline)
{
    BenchRun run;
    bench_init(&run, name, argc, argv);
    size_t elems = (size_t)N * N, bytes = elems * sizeof(unsigned);
    unsigned *in = (unsigned *)bench_host_alloc(&run, bytes);
    unsigned *out = (unsigned *)bench_host_alloc(&run, bytes);
    for (size_t i = 0; i < elems; i++)
        in[i] = (unsigned)bench_rand(&seed);

    Transpose t;
    t.in = (unsigned *)bench_alloc(&run, bytes);
    t.out = (unsigned *)bench_alloc(&run, bytes);
    BENCH_CUDA(cudaMemcpy(t.in, in, bytes, cudaMemcpyHostToDevice));
    bench_load(kernel);
    bench_time(&run, pipeline, &t);
    BENCH_CUDA(cudaMemcpy(out, t.out, bytes, cudaMemcpyDeviceToHost));

    for (size_t row = 0; row < N; row++)
        for (size_t col = 0; col < N; col++)
            if (out[row * N + col] != in[col * N + row])
                bench_die("%s: out[%zu][%zu] is %u, expected %u", name, row, col, out[row * N + col],
                          in[col * N + row]);
    bench_checksum(&run, bench_fnv1a(out, bytes));
    printf("%s: ok (%dx%d)\n", name, N, N);
    BENCH_CUDA(cudaFree(t.in));
    BENCH_CUDA(cudaFree(t.out));
    free(in);
    free(out);
    return 0;
}

#endif
