// streams.cu: kernels in two streams ordered by events and cudaStreamWaitEvent, with
// stream-ordered allocation (cudaMallocAsync/cudaFreeAsync from the default pool).
#include "pt_rt.h"

enum { N = 1u << 20, GRID = 96, BLOCK = 256 };

__global__ void fill(unsigned *v, unsigned n, unsigned seed)
{
    PT_FOR_EACH(i, n) v[i] = pt_mix32(i ^ seed);
}

__global__ void combine(unsigned *out, const unsigned *x, const unsigned *y, unsigned n)
{
    PT_FOR_EACH(i, n) out[i] = x[i] * 7u + (y[n - 1 - i] ^ 0xa5a5a5a5u);
}

__global__ void square(unsigned *v, unsigned n)
{
    PT_FOR_EACH(i, n) v[i] = v[i] * v[i];
}

int main()
{
    pt_rt_require_device();
    cudaStream_t s1, s2;
    PT_RT(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    PT_RT(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t x_ready, out_ready;
    PT_RT(cudaEventCreateWithFlags(&x_ready, cudaEventDisableTiming));
    PT_RT(cudaEventCreateWithFlags(&out_ready, cudaEventDisableTiming));

    unsigned *x, *y, *out;
    PT_RT(cudaMallocAsync(&x, N * sizeof *x, s1));
    PT_RT(cudaMallocAsync(&y, N * sizeof *y, s2));
    PT_RT(cudaMalloc(&out, N * sizeof *out));

    fill<<<GRID, BLOCK, 0, s1>>>(x, N, 1);
    PT_RT_LAUNCHED();
    square<<<GRID, BLOCK, 0, s1>>>(x, N);
    PT_RT_LAUNCHED();
    PT_RT(cudaEventRecord(x_ready, s1));
    fill<<<GRID, BLOCK, 0, s2>>>(y, N, 2);
    PT_RT_LAUNCHED();
    PT_RT(cudaStreamWaitEvent(s2, x_ready, 0));
    combine<<<GRID, BLOCK, 0, s2>>>(out, x, y, N);
    PT_RT_LAUNCHED();
    PT_RT(cudaEventRecord(out_ready, s2));
    PT_RT(cudaStreamWaitEvent(s1, out_ready, 0));
    square<<<GRID, BLOCK, 0, s1>>>(out, N);
    PT_RT_LAUNCHED();
    PT_RT(cudaFreeAsync(x, s1));
    PT_RT(cudaFreeAsync(y, s1));
    PT_RT(cudaStreamSynchronize(s1));

    unsigned *got = (unsigned *)pt_xmalloc(N * sizeof *got);
    unsigned *want = (unsigned *)pt_xmalloc(N * sizeof *want);
    PT_RT(cudaMemcpy(got, out, N * sizeof *got, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < N; i++) {
        unsigned xi = pt_mix32(i ^ 1u), yi = pt_mix32((N - 1 - i) ^ 2u);
        unsigned o = xi * xi * 7u + (yi ^ 0xa5a5a5a5u);
        want[i] = o * o;
    }
    pt_expect_u32("out", got, want, N);
    pt_print_u32("out", got, N);

    free(got);
    free(want);
    PT_RT(cudaFree(out));
    PT_RT(cudaEventDestroy(x_ready));
    PT_RT(cudaEventDestroy(out_ready));
    PT_RT(cudaStreamDestroy(s1));
    PT_RT(cudaStreamDestroy(s2));
    printf("streams: ok\n");
    return 0;
}
