// bench.h: what every benchmark workload shares: its two options, checked CUDA calls,
// the device memory it allocates and uses, the timing of its pipeline with events, and
// the lines that scripts/bench.py reads. CUDA C++ kept C-like (docs/benchmark.md).
//
// A workload's main: bench_init, bench_alloc its buffers, bench_load its kernels,
// bench_time its pipeline, then check the result against a host reference, print
// bench_checksum and exit 0; any failure exits 1 with one line on stderr.
#ifndef BENCH_H
#define BENCH_H

#include <cuda_runtime.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_NORETURN __attribute__((noreturn))
#define BENCH_PRINTF(f, a) __attribute__((format(printf, f, a)))

typedef struct BenchRun {
    const char *name;
    int iters;               // timed runs of the whole pipeline
    int warmup;              // untimed runs before them
    size_t app_bytes;        // device memory the workload allocated itself
    size_t used_at_start;    // device memory in use once the context exists
    unsigned long launches;  // kernel launches so far, warm-up included
    int uncounted;           // the pipeline launches through a library (CUB): launches unknown
} BenchRun;

// A pipeline: every kernel (and memset, copy) of one run of the workload, issued to the
// default stream. It counts its launches with BENCH_LAUNCHED.
typedef void (*BenchPipeline)(BenchRun *b, void *ctx);

BENCH_NORETURN BENCH_PRINTF(1, 2) static inline void bench_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

#define BENCH_CUDA(call) bench_cuda_check((call), #call, __FILE__, __LINE__)

static inline void bench_cuda_check(cudaError_t e, const char *what, const char *file, int line)
{
    if (e != cudaSuccess)
        bench_die("%s:%d: %s failed: %s (%s)", file, line, what, cudaGetErrorName(e),
                  cudaGetErrorString(e));
}

static inline size_t bench_device_used(void)
{
    size_t free_bytes = 0, total_bytes = 0;
    BENCH_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    return total_bytes - free_bytes;
}

// Strict decimal: "--iters 1x" is an error, not 1.
static inline int bench_count_arg(const char *option, const char *text, int min)
{
    char *end = NULL;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || !*text || *end || v < min || v > 1000000) {
        fprintf(stderr, "%s needs a whole number from %d to 1000000, not '%s'\n", option, min,
                text ? text : "");
        exit(2);
    }
    return (int)v;
}

// Parses --iters N (default 10) and --warmup W (default 1), creates the context and
// notes the device memory in use before the workload allocates anything.
static inline void bench_init(BenchRun *b, const char *name, int argc, char **argv)
{
    memset(b, 0, sizeof *b);
    b->name = name;
    b->iters = 10;
    b->warmup = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--iters")) {
            b->iters = bench_count_arg("--iters", i + 1 < argc ? argv[i + 1] : NULL, 1);
            i++;
        } else if (!strcmp(argv[i], "--warmup")) {
            b->warmup = bench_count_arg("--warmup", i + 1 < argc ? argv[i + 1] : NULL, 0);
            i++;
        } else {
            fprintf(stderr, "usage: %s [--iters N] [--warmup W]\n", argv[0]);
            exit(2);
        }
    }
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess)
        bench_die("%s: no CUDA device found (cudaGetDeviceCount: %s)", name, cudaGetErrorString(e));
    if (count == 0)
        bench_die("%s: no CUDA device found (cudaGetDeviceCount: 0 devices)", name);
    BENCH_CUDA(cudaSetDevice(0));
    BENCH_CUDA(cudaFree(0));
    b->used_at_start = bench_device_used();
}

// Device memory of the workload's own, counted in app_bytes.
static inline void *bench_alloc(BenchRun *b, size_t bytes)
{
    void *p = NULL;
    BENCH_CUDA(cudaMalloc(&p, bytes));
    b->app_bytes += bytes;
    return p;
}

// Loads a kernel's module now (CUDA loads modules lazily, at the first launch), so that
// the first timed run does not pay for it, even with --warmup 0.
static inline void bench_load(const void *kernel)
{
    cudaFuncAttributes attr;
    BENCH_CUDA(cudaFuncGetAttributes(&attr, kernel));
}

// After each kernel launch: a bad configuration shows only through the next error query,
// which names the launch's own line.
#define BENCH_LAUNCHED(b) bench_launched((b), __FILE__, __LINE__)

static inline void bench_launched(BenchRun *b, const char *file, int line)
{
    bench_cuda_check(cudaGetLastError(), "the kernel launch", file, line);
    b->launches++;
}

static inline int bench_cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

// Runs the pipeline warmup times, then iters times between two events each, and prints
//   bench-start name=<w>            (flushed as the timed runs begin: a runner that has
//                                    to kill a slow run knows how long they had run)
//   bench name=<w> iters=<n> kernel_ms_median=<x> kernel_ms_min=<x> app_bytes=<n>
//         dev_used_bytes=<n> launches=<n>
// dev_used_bytes is the device memory in use after the timed runs minus that in use
// before the first allocation; launches counts every kernel launch so far, and is left
// out where the workload cannot count them (b->uncounted).
static inline void bench_time(BenchRun *b, BenchPipeline pipeline, void *ctx)
{
    for (int i = 0; i < b->warmup; i++)
        pipeline(b, ctx);
    BENCH_CUDA(cudaDeviceSynchronize());
    printf("bench-start name=%s\n", b->name);
    fflush(stdout);

    float *ms = (float *)malloc((size_t)b->iters * sizeof *ms);
    if (!ms)
        bench_die("%s: out of host memory", b->name);
    cudaEvent_t start, stop;
    BENCH_CUDA(cudaEventCreate(&start));
    BENCH_CUDA(cudaEventCreate(&stop));
    for (int i = 0; i < b->iters; i++) {
        BENCH_CUDA(cudaEventRecord(start, 0));
        pipeline(b, ctx);
        BENCH_CUDA(cudaEventRecord(stop, 0));
        BENCH_CUDA(cudaEventSynchronize(stop));
        BENCH_CUDA(cudaEventElapsedTime(&ms[i], start, stop));
    }
    BENCH_CUDA(cudaDeviceSynchronize());
    long long used = (long long)bench_device_used() - (long long)b->used_at_start;

    qsort(ms, (size_t)b->iters, sizeof *ms, bench_cmp_float);
    int mid = b->iters / 2;
    double median = b->iters % 2 ? ms[mid] : 0.5 * ((double)ms[mid - 1] + ms[mid]);
    printf("bench name=%s iters=%d kernel_ms_median=%.4f kernel_ms_min=%.4f app_bytes=%zu "
           "dev_used_bytes=%lld",
           b->name, b->iters, median, (double)ms[0], b->app_bytes, used);
    if (!b->uncounted)
        printf(" launches=%lu", b->launches);
    printf("\n");
    fflush(stdout);
    BENCH_CUDA(cudaEventDestroy(start));
    BENCH_CUDA(cudaEventDestroy(stop));
    free(ms);
}

static inline uint64_t bench_fnv1a(const void *p, size_t n)
{
    const unsigned char *bytes = (const unsigned char *)p;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= bytes[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

// The line the runner compares between the native run and the run under scord: the
// result only, never a time or an address.
static inline void bench_checksum(const BenchRun *b, uint64_t value)
{
    printf("checksum %s %016llx\n", b->name, (unsigned long long)value);
}

// splitmix64: inputs are generated from fixed seeds, the same on every run.
static inline uint64_t bench_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline void *bench_host_alloc(const BenchRun *b, size_t bytes)
{
    void *p = malloc(bytes);
    if (!p)
        bench_die("%s: out of host memory (%zu bytes)", b->name, bytes);
    return p;
}

// n unsigned values of one byte each from `seed` (the reductions' input), and their sum.
static inline unsigned *bench_random_bytes(const BenchRun *b, size_t n, uint64_t seed,
                                           unsigned long long *sum)
{
    unsigned *v = (unsigned *)bench_host_alloc(b, n * sizeof *v);
    *sum = 0;
    for (size_t i = 0; i < n; i++) {
        v[i] = (unsigned)(bench_rand(&seed) & 0xff);
        *sum += v[i];
    }
    return v;
}

#endif
