// shared_nvrtc_cubin_race.cu: compiles a template kernel at run time with NVRTC to machine
// code for the device (a cubin with no PTX, as CuPy's RawKernel does), finds it by its
// name expression and runs it through the driver API: scord checks it through the PTX
// of the same NVRTC program. The kernel stages scaled values in shared memory and reads
// the value staged 32 places on, in another warp, with no barrier in between.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
#define RS_JIT
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 128 };

// The kernel's source; rs_jit_cubin_module keeps its line numbers those of this file.
static const int kernel_line = __LINE__ + 1;
static const char kernel_src[] = R"(
template <int Scale> __global__ void rotate_scaled(const int *in, int *out)
{
    __shared__ int tile[128];
    int t = threadIdx.x, i = blockIdx.x * 128 + t;
    tile[t] = in[i] * Scale;                    // race(A) write shared
    out[i] = tile[(t + 32) % 128];          // race(A) read shared
}
)";

int main()
{
    rs_require_device();
    RS_CHECK(cudaFree(nullptr));    // makes the primary context current for the driver API
    int *in = rs_fill<int>(BLOCKS * THREADS, [](size_t i) { return int(i); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    std::string name;
    CUmodule mod = rs_jit_cubin_module(kernel_src, kernel_line, __FILE__, "rotate_scaled<7>", &name);
    CUfunction rotate;
    RS_CU(cuModuleGetFunction(&rotate, mod, name.c_str()));
    void *args[] = {&in, &out};
    RS_CU(cuLaunchKernel(rotate, BLOCKS, 1, 1, THREADS, 1, 1, 0, nullptr, args, nullptr));
    RS_LAUNCHED();
    rs_print_checksum("rotate_scaled", out, BLOCKS * THREADS);
    RS_CU(cuModuleUnload(mod));
    rs_done();
    return 0;
}
