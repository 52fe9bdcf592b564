// rdc_b.cu: the other half of the -rdc pair (see rdc_a.cu).
__device__ int scaled(int x) { return 3 * x + 1; }

__global__ void rdc_own(int *p) { p[threadIdx.x] += 1; }
