// static_cudart_aux.cu: the second translation unit (second fat binary) of the
// static_cudart and shared_cudart programs: dynamic shared memory and its own __device__ variable.
#include "pt_rt.h"

__device__ unsigned d_aux_odd;

__global__ void block_sums(const unsigned *in, unsigned n, unsigned *sums)
{
    extern __shared__ unsigned part[];
    unsigned acc = 0, odd = 0;
    PT_FOR_EACH(i, n)
    {
        acc += in[i];
        odd += in[i] & 1u;
    }
    part[threadIdx.x] = acc;
    atomicAdd(&d_aux_odd, odd);
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        sums[blockIdx.x] = part[0];
}

void pt_aux_block_sums(const unsigned *in, unsigned n, unsigned *sums, unsigned blocks,
                       unsigned *odd)
{
    const unsigned threads = 128;
    unsigned zero = 0;
    PT_RT(cudaMemcpyToSymbol(d_aux_odd, &zero, sizeof zero));
    block_sums<<<blocks, threads, threads * sizeof(unsigned)>>>(in, n, sums);
    PT_RT_LAUNCHED();
    PT_RT(cudaMemcpyFromSymbol(odd, d_aux_odd, sizeof *odd));
}
