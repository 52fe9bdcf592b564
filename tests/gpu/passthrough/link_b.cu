// link_b.cu: a kernel calling pt_link_mix, which only link_a.cu defines, so its PTX
// holds an .extern .func that cuLinkComplete must resolve.
extern "C" __device__ unsigned pt_link_mix(unsigned x, unsigned k);

extern "C" __global__ void pt_link_kernel(unsigned *out, unsigned n, unsigned k)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = pt_link_mix(i, k) + i;
}
