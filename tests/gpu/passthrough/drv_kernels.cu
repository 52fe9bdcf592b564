// drv_kernels.cu: the kernels the driver-API programs load as PTX, cubin, fatbin, library
// and NVRTC source. extern "C" so that they are found by their plain names.
#include "pt_math.h"

extern "C" __global__ void pt_fill(unsigned *out, unsigned n, unsigned seed)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = pt_mix32(i ^ seed);
}

extern "C" __global__ void pt_scale_add(unsigned *y, const unsigned *x, unsigned n, unsigned a)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

// One partial sum per block; launched with 256 threads. Integer addition wraps and is
// associative, so the sums do not depend on the order the threads add in.
extern "C" __global__ void pt_block_sum(const unsigned *x, unsigned n, unsigned *sums)
{
    __shared__ unsigned part[256];
    unsigned acc = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += x[i];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        sums[blockIdx.x] = part[0];
}

extern "C" __global__ void pt_histogram(const unsigned *x, unsigned n, unsigned *hist)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[x[i] & 255u], 1u);
}
