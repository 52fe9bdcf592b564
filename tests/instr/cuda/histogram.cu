// SCORD-PTX-TARGETS: sm_75 sm_90
// Histogram with shared-memory atomics, global atomics at every scope and
// byte-sized input.
#define BINS 256

__global__ void histogram(const unsigned char *data, unsigned n, unsigned *bins, unsigned *total)
{
    __shared__ unsigned local[BINS];
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u); // SITE: count
    __syncthreads();
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned v = local[b];
        if (v) {
            atomicAdd(&bins[b], v); // SITE: merge
            atomicAdd_block(&total[0], v);
            atomicAdd_system(&total[1], v);
            atomicMax(&total[2], v);
        }
    }
}
