// global_many_modules_race.cu: compiles one kernel 16 times at run time with NVRTC, each
// time with another MODULE_ID, loads each PTX as a module of its own with
// cuModuleLoadData and launches every one. In each, a block exchanges values through its
// region of a global scratch array with no __syncthreads() between write and read.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#define RS_JIT
#include "rs_common.h"

enum { MODULES = 16, BLOCKS = 4, THREADS = 128 };

// The kernel's source; rs_jit_module keeps its line numbers those of this file.
static const int kernel_line = __LINE__ + 1;
static const char kernel_src[] = R"(
extern "C" __global__ void rotate(const int *in, int *scratch, int *out)
{
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    scratch[base + t] = in[base + t] + MODULE_ID;                       // race(A) write global
    out[base + t] += scratch[base + (t + 32) % blockDim.x] * MODULE_ID;  // race(A) read global
}
)";

int main()
{
    rs_require_device();
    RS_CHECK(cudaFree(nullptr));    // makes the primary context current for the driver API
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i * 3 + 1); });
    int *scratch = rs_zeros<int>(BLOCKS * THREADS);
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    for (int m = 1; m <= MODULES; m++) {
        std::string define = "-DMODULE_ID=" + std::to_string(m);
        CUmodule mod = rs_jit_module(kernel_src, kernel_line, __FILE__, define.c_str());
        CUfunction rotate;
        RS_CU(cuModuleGetFunction(&rotate, mod, "rotate"));
        void *args[] = {&in, &scratch, &out};
        RS_CU(cuLaunchKernel(rotate, BLOCKS, 1, 1, THREADS, 1, 1, 0, nullptr, args, nullptr));
        RS_LAUNCHED();
        RS_CU(cuModuleUnload(mod));
    }
    printf("rotate: %d modules\n", int(MODULES));
    rs_print_checksum("out", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
