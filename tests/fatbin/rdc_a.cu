// rdc_a.cu: with rdc_b.cu, a relocatable-device-code (-rdc) pair for test_fatbin:
// a kernel here calls a device function defined in the other file.
extern __device__ int scaled(int x);

__global__ void rdc_uses_b(int *p) { p[threadIdx.x] = scaled(p[threadIdx.x]); }
