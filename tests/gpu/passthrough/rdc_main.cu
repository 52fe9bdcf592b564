// rdc_main.cu: kernels that call a __device__ function and read a __device__ variable
// defined in rdc_lib.cu (separate compilation, device link).
#include "pt_rt.h"

enum { N = 1u << 18 };

extern __device__ unsigned rdc_scale;
__device__ unsigned rdc_apply(unsigned x);
__global__ void rdc_lib_kernel(unsigned *v, unsigned n);

__global__ void rdc_main_kernel(unsigned *v, unsigned n)
{
    PT_FOR_EACH(i, n) v[i] = rdc_apply(i) + 1u;
}

int main()
{
    pt_rt_require_device();
    const unsigned scale = 0x9e3779b9u;
    PT_RT(cudaMemcpyToSymbol(rdc_scale, &scale, sizeof scale));
    unsigned *v;
    PT_RT(cudaMalloc(&v, N * sizeof *v));
    rdc_main_kernel<<<64, 256>>>(v, N);
    PT_RT_LAUNCHED();
    rdc_lib_kernel<<<64, 256>>>(v, N);
    PT_RT_LAUNCHED();

    unsigned *got = (unsigned *)pt_xmalloc(N * sizeof *got);
    unsigned *want = (unsigned *)pt_xmalloc(N * sizeof *want);
    PT_RT(cudaMemcpy(got, v, N * sizeof *got, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < N; i++)
        want[i] = pt_mix32(pt_mix32(i) * scale + 1u) * scale;
    pt_expect_u32("v", got, want, N);
    pt_print_u32("v", got, N);
    free(got);
    free(want);
    PT_RT(cudaFree(v));
    printf("rdc: ok\n");
    return 0;
}
