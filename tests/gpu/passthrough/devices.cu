// devices.cu: work on every device of the machine, each with its own allocations and
// kernels, the devices visited in turn from one thread and then from a thread each;
// then device 0 reset (cudaDeviceReset) and used again, so that its new context may
// take the old one's handle. One device is enough for the reset and the threads.
#include <pthread.h>

#include "pt_rt.h"

enum { N = 1u << 18, GRID = 64, BLOCK = 256 };

__global__ void fill(unsigned *v, unsigned n, unsigned seed)
{
    PT_FOR_EACH(i, n) v[i] = pt_mix32(i ^ seed);
}

__global__ void square(unsigned *v, unsigned n)
{
    PT_FOR_EACH(i, n) v[i] = v[i] * v[i];
}

/* Fills and squares a fresh buffer on the device, checks it and, if `print`, prints
 * it (threads do not: their lines would come in either order). */
static void work_on(int device, unsigned seed, bool print)
{
    PT_RT(cudaSetDevice(device));
    unsigned *v;
    PT_RT(cudaMalloc(&v, N * sizeof *v));
    fill<<<GRID, BLOCK>>>(v, N, seed);
    PT_RT_LAUNCHED();
    square<<<GRID, BLOCK>>>(v, N);
    PT_RT_LAUNCHED();
    unsigned *got = (unsigned *)pt_xmalloc(N * sizeof *got);
    unsigned *want = (unsigned *)pt_xmalloc(N * sizeof *want);
    PT_RT(cudaMemcpy(got, v, N * sizeof *got, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < N; i++) {
        unsigned x = pt_mix32(i ^ seed);
        want[i] = x * x;
    }
    pt_expect_u32("v", got, want, N);
    if (print)
        pt_print_u32("v", got, N);
    free(got);
    free(want);
    PT_RT(cudaFree(v));
}

typedef struct Job {
    int device;
    unsigned seed;
} Job;

static void *thread_work(void *arg)
{
    const Job *job = (const Job *)arg;
    work_on(job->device, job->seed, false);
    return NULL;
}

int main()
{
    pt_rt_require_device();
    int count = 0;
    PT_RT(cudaGetDeviceCount(&count));
    /* The output must not depend on the machine: seeds by step, not by device. */
    for (int round = 0; round < 2; round++)
        for (int d = 0; d < 2; d++)
            work_on(d % count, (unsigned)(round * 2 + d + 1), true);
    Job jobs[2] = {{0, 11}, {1 % count, 12}};
    pthread_t threads[2];
    for (int t = 0; t < 2; t++)
        if (pthread_create(&threads[t], NULL, thread_work, &jobs[t]) != 0)
            pt_die("pthread_create failed");
    for (int t = 0; t < 2; t++)
        pthread_join(threads[t], NULL);
    printf("threads: ok\n");
    PT_RT(cudaSetDevice(0));
    PT_RT(cudaDeviceReset());
    work_on(0, 21, true);
    printf("devices: ok\n");
    return 0;
}
