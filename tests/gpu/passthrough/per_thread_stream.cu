// per_thread_stream.cu: built with --default-stream per-thread, so every launch and
// copy on the default stream takes the per-thread (_ptsz) entry points; two host threads
// work on their own buffers in their own default streams.
#include <thread>

#include "pt_rt.h"

enum { N = 1u << 18, WORKERS = 2 };

__global__ void fill(unsigned *v, unsigned n, unsigned seed)
{
    PT_FOR_EACH(i, n) v[i] = pt_mix32(i ^ seed);
}

__global__ void twist(unsigned *v, unsigned n, unsigned k)
{
    PT_FOR_EACH(i, n) v[i] = (v[i] << 7 | v[i] >> 25) + k;
}

static void work(unsigned seed, unsigned *host)
{
    unsigned *v;
    PT_RT(cudaMalloc(&v, N * sizeof *v));
    PT_RT(cudaMemsetAsync(v, 0xff, N * sizeof *v, 0));
    fill<<<64, 256>>>(v, N, seed);
    PT_RT_LAUNCHED();
    twist<<<64, 256>>>(v, N, seed * 3u);
    PT_RT_LAUNCHED();
    PT_RT(cudaMemcpyAsync(host, v, N * sizeof *v, cudaMemcpyDeviceToHost, cudaStreamPerThread));
    PT_RT(cudaStreamSynchronize(cudaStreamPerThread));
    PT_RT(cudaFree(v));
}

int main()
{
    pt_rt_require_device();
    unsigned *results[WORKERS + 1];
    for (unsigned t = 0; t <= WORKERS; t++)
        results[t] = (unsigned *)pt_xmalloc(N * sizeof(unsigned));
    std::thread workers[WORKERS];
    for (unsigned t = 0; t < WORKERS; t++)
        workers[t] = std::thread(work, 100u + t, results[t]);
    work(100u + WORKERS, results[WORKERS]);
    for (unsigned t = 0; t < WORKERS; t++)
        workers[t].join();

    unsigned *want = (unsigned *)pt_xmalloc(N * sizeof *want);
    for (unsigned t = 0; t <= WORKERS; t++) {
        unsigned seed = 100u + t;
        for (unsigned i = 0; i < N; i++) {
            unsigned x = pt_mix32(i ^ seed);
            want[i] = (x << 7 | x >> 25) + seed * 3u;
        }
        char label[32];
        snprintf(label, sizeof label, "thread %u", t);
        pt_expect_u32(label, results[t], want, N);
        pt_print_u32(label, results[t], N);
        free(results[t]);
    }
    free(want);
    printf("per_thread_stream: ok\n");
    return 0;
}
