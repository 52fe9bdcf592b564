// SCORD-PTX-TARGETS: sm_75 sm_90
// Block reduction: shared-memory tree, warp shuffles for the last warp, and
// the barrier reductions __syncthreads_count/_and/_or (bar.red).
__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

__global__ void reduce(const float *in, float *out, int *stats, int n)
{
    extern __shared__ float buf[];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + t;
    float v = 0.0f;
    if (i < n)
        v = in[i];
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    buf[t] = v; // SITE: fill
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t < 32) {
        v = buf[t] + buf[t + 32];
        v = warp_sum(v);
        if (t == 0)
            out[blockIdx.x] = v;
    }
    int positive = __syncthreads_count(v > 0.0f); // SITE: count
    int all = __syncthreads_and(v >= 0.0f);
    int any = __syncthreads_or(v < 0.0f);
    if (t == 0) {
        stats[3 * blockIdx.x] = positive;
        stats[3 * blockIdx.x + 1] = all;
        stats[3 * blockIdx.x + 2] = any;
    }
}
