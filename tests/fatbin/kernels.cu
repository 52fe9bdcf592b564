// kernels.cu: small kernels of every linkage kind, compiled by tests/fatbin/fatbin.mk
// into fat binaries of different -gencode combinations for test_fatbin.
__device__ __noinline__ int twice(int x) { return 2 * x; }

__global__ void add(float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += b[i];
}

__global__ void calls_twice(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }

extern "C" __global__ void c_linkage(float *p) { p[threadIdx.x] *= 0.5f; }

static __global__ void internal_linkage(int *p) { p[threadIdx.x] = -p[threadIdx.x]; }

template <typename T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v; }
template __global__ void fill<int>(int *, int);
template __global__ void fill<double>(double *, double);

void launch_internal(int *p) { internal_linkage<<<1, 32>>>(p); }
