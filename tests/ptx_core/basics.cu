// basics.cu: PTX front-end test input. Exercises what nvcc emits for ordinary CUDA:
// templates, extern shared arrays, printf call sequences, function pointers
// (.callprototype), inline asm with its own .reg scope, atomics, barriers,
// shuffles, constant/managed/initialized globals, local arrays and launch bounds.
#include <cstdio>

extern __shared__ float dyn_smem[];
__device__ int table[8] = {1, -2, 3, -4, 5, 6, 7, 0x7fffffff};
__device__ double dtable[3] = {1.5, -0.25, 1e300};
__constant__ float coeff[4] = {1.0f, 0.5f, -2.0f, 3.25f};
__device__ __managed__ unsigned long long counter;
__device__ const char *names[2] = {"alpha", "beta"};

typedef int (*op_t)(int, int);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ op_t ops[2] = {op_add, op_mul};

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __forceinline__ unsigned lane_add(unsigned *p, unsigned v)
{
    unsigned old;
    asm volatile("{\n\t.reg .pred %%q;\n\t.reg .u32 t<2>;\n\t"
                 "setp.ne.u32 %%q, %2, 0;\n\t"
                 "@%%q atom.global.add.u32 %0, [%1], %2;\n\t"
                 "@!%%q mov.u32 %0, 0;\n\t}"
                 : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

template <typename T, int N>
__global__ void __launch_bounds__(256, 2) kernel(T *out, const T *in, unsigned *flags, int n)
{
    __shared__ T tile[N];
    int t = threadIdx.x;
    int local[16];
    for (int i = 0; i < 16; i++)
        local[i] = in[(t + i) % n] > T(0) ? i : -i;
    tile[t % N] = in[t % n] + T(dyn_smem[t]);
    __syncthreads();
    T acc = tile[(t + 1) % N] * T(coeff[t & 3]);
    acc += T(ops[n & 1](local[t & 15], table[t & 7]));
    acc += T(__shfl_xor_sync(0xffffffffu, (int)acc, 1));
    if (__any_sync(0xffffffffu, acc > T(100)))
        acc -= T(dtable[t % 3]);
    if (n == 7)
        printf("thread %d acc %f name %s fib %d\n", t, (double)acc, names[t & 1], fib(n));
    unsigned old = lane_add(flags, (unsigned)t);
    atomicAdd(&counter, 1ull);
    __threadfence();
    out[t] = acc + T(old);
}

template __global__ void kernel<float, 128>(float *, const float *, unsigned *, int);
template __global__ void kernel<double, 64>(double *, const double *, unsigned *, int);
template __global__ void kernel<int, 32>(int *, const int *, unsigned *, int);

__global__ void __launch_bounds__(1024) noparams() { __syncwarp(); }
