// rs_common.h: host helpers every race-suite program shares: checked CUDA calls, device
// buffers, a checksum of results, and the closing DONE line the runner looks for; with
// RS_JIT defined, also compiling and loading kernels at run time (NVRTC, driver API).
#ifndef RS_COMMON_H
#define RS_COMMON_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

[[noreturn]] static inline void rs_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("race-suite: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

#define RS_CHECK(call) rs_check((call), #call, __FILE__, __LINE__)
// A launch reports a bad configuration at the next error query, a fault at the next sync.
#define RS_LAUNCHED() (RS_CHECK(cudaGetLastError()), RS_CHECK(cudaDeviceSynchronize()))

static inline void rs_check(cudaError_t e, const char *what, const char *file, int line)
{
    if (e != cudaSuccess)
        rs_die("%s:%d: %s failed: %s", file, line, what, cudaGetErrorString(e));
}

static inline void rs_require_device(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0)
        rs_die("no CUDA device found (cudaGetDeviceCount: %s)",
               e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
}

// A zeroed device array of n elements.
template <class T> static inline T *rs_zeros(size_t n)
{
    T *p = nullptr;
    RS_CHECK(cudaMalloc(&p, n * sizeof(T)));
    RS_CHECK(cudaMemset(p, 0, n * sizeof(T)));
    return p;
}

// A device array holding f(0) .. f(n-1).
template <class T, class F> static inline T *rs_fill(size_t n, F f)
{
    T *host = (T *)malloc(n * sizeof(T));
    if (!host)
        rs_die("out of host memory");
    for (size_t i = 0; i < n; i++)
        host[i] = f(i);
    T *p = nullptr;
    RS_CHECK(cudaMalloc(&p, n * sizeof(T)));
    RS_CHECK(cudaMemcpy(p, host, n * sizeof(T), cudaMemcpyHostToDevice));
    free(host);
    return p;
}

template <class T> static inline T *rs_download(const T *dev, size_t n)
{
    T *host = (T *)malloc(n * sizeof(T) + 1);
    if (!host)
        rs_die("out of host memory");
    RS_CHECK(cudaMemcpy(host, dev, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}

// Prints "<what>: <n> values, fnv1a <hash>" for a device array: one line that changes
// whenever any byte of the result does.
template <class T> static inline void rs_print_checksum(const char *what, const T *dev, size_t n)
{
    unsigned char *host = (unsigned char *)rs_download(dev, n);
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n * sizeof(T); i++)
        h = (h ^ host[i]) * 16777619u;
    printf("%s: %zu values, fnv1a %08x\n", what, n, (unsigned)h);
    free(host);
}

// The last line of every program: the runner treats a run without it as a crash.
static inline void rs_done(void)
{
    printf("DONE\n");
    fflush(stdout);
}

#ifdef RS_JIT
#include <cuda.h>
#include <initializer_list>
#include <nvrtc.h>
#include <string>
#include <vector>

#define RS_CU(call) rs_cu_check((call), #call, __FILE__, __LINE__)

static inline void rs_cu_check(CUresult r, const char *what, const char *file, int line)
{
    if (r != CUDA_SUCCESS) {
        const char *msg = nullptr;
        cuGetErrorString(r, &msg);
        rs_die("%s:%d: %s failed: %s", file, line, what, msg ? msg : "unknown error");
    }
}

// Compiles CUDA C source with NVRTC, with the options given and line info; name_expr, if
// not null, is a name expression added first. The source starts with a #line directive
// naming `line` of `file`, so that reports name the lines of the .cu file that holds the
// source text.
static inline nvrtcProgram rs_nvrtc_compile(const char *src, int line, const char *file,
                                            std::initializer_list<const char *> options, const char *name_expr)
{
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    std::string text = "#line " + std::to_string(line) + " \"" + base + "\"\n" + src;
    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, text.c_str(), base, 0, nullptr, nullptr) != NVRTC_SUCCESS ||
        (name_expr && nvrtcAddNameExpression(prog, name_expr) != NVRTC_SUCCESS))
        rs_die("nvrtcCreateProgram failed for %s", base);
    std::vector<const char *> opts;
    for (const char *o : options)
        if (o)
            opts.push_back(o);
    opts.push_back("-lineinfo");
    nvrtcResult r = nvrtcCompileProgram(prog, (int)opts.size(), opts.data());
    if (r != NVRTC_SUCCESS) {
        size_t n = 0;
        nvrtcGetProgramLogSize(prog, &n);
        std::string log(n, '\0');
        nvrtcGetProgramLog(prog, &log[0]);
        rs_die("NVRTC could not compile the kernel of %s: %s\n%s", base, nvrtcGetErrorString(r), log.c_str());
    }
    return prog;
}

// Compiles CUDA C source with NVRTC to PTX for compute_75 and loads it as a module of the
// current (primary) context. option is one more NVRTC option, or null.
static inline CUmodule rs_jit_module(const char *src, int line, const char *file, const char *option)
{
    nvrtcProgram prog = rs_nvrtc_compile(src, line, file, {"--gpu-architecture=compute_75", option}, nullptr);
    size_t n = 0;
    nvrtcGetPTXSize(prog, &n);
    std::string ptx(n, '\0');
    nvrtcGetPTX(prog, &ptx[0]);
    nvrtcDestroyProgram(&prog);
    CUmodule mod;
    RS_CU(cuModuleLoadData(&mod, ptx.c_str()));
    return mod;
}

// Compiles CUDA C source with NVRTC to machine code (a cubin) for the current device, as
// CuPy's RawKernel does, and loads it; *kernel gets the lowered name of name_expr (a
// template instance the source defines).
static inline CUmodule rs_jit_cubin_module(const char *src, int line, const char *file, const char *name_expr,
                                           std::string *kernel)
{
    int dev = 0, major = 0, minor = 0;
    RS_CHECK(cudaGetDevice(&dev));
    RS_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    RS_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    std::string arch = "--gpu-architecture=sm_" + std::to_string(major * 10 + minor);
    nvrtcProgram prog = rs_nvrtc_compile(src, line, file, {arch.c_str()}, name_expr);
    const char *lowered = nullptr;
    size_t n = 0;
    if (nvrtcGetLoweredName(prog, name_expr, &lowered) != NVRTC_SUCCESS || nvrtcGetCUBINSize(prog, &n) != NVRTC_SUCCESS)
        rs_die("NVRTC gave no cubin for %s", file);
    *kernel = lowered;
    std::string cubin(n, '\0');
    nvrtcGetCUBIN(prog, &cubin[0]);
    nvrtcDestroyProgram(&prog);
    CUmodule mod;
    RS_CU(cuModuleLoadData(&mod, cubin.data()));
    return mod;
}
#endif

#endif
