/* nvrtc.c: the kernels of drv_kernels.cu compiled at run time by NVRTC to PTX for the
 * device's virtual architecture, then loaded with cuModuleLoadDataEx and JIT options. */
#include <nvrtc.h>

#include "pt_drv.h"

#include "drv_kernels_src.h"
#include "pt_math_src.h"

#define PT_NVRTC(call) check_nvrtc((call), #call, __LINE__)

static void check_nvrtc(nvrtcResult r, const char *what, int line)
{
    if (r != NVRTC_SUCCESS)
        pt_die("%s:%d: %s failed: %s", __FILE__, line, what, nvrtcGetErrorString(r));
}

static char *compile(int major, int minor)
{
    nvrtcProgram prog;
    const char *headers[] = {(const char *)pt_math_src};
    const char *header_names[] = {"pt_math.h"};
    PT_NVRTC(nvrtcCreateProgram(&prog, (const char *)drv_kernels_src, "drv_kernels.cu", 1,
                                headers, header_names));
    char arch[64];
    snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d%d", major, minor);
    const char *opts[] = {arch, "-lineinfo"};
    nvrtcResult r = nvrtcCompileProgram(prog, 2, opts);
    if (r != NVRTC_SUCCESS) {
        size_t log_size = 0;
        PT_NVRTC(nvrtcGetProgramLogSize(prog, &log_size));
        char *log = pt_xmalloc(log_size + 1);
        PT_NVRTC(nvrtcGetProgramLog(prog, log));
        log[log_size] = '\0';
        pt_die("NVRTC could not compile drv_kernels.cu for %s: %s\n%s", arch,
               nvrtcGetErrorString(r), log);
    }
    size_t ptx_size = 0;
    PT_NVRTC(nvrtcGetPTXSize(prog, &ptx_size));
    char *ptx = pt_xmalloc(ptx_size);
    PT_NVRTC(nvrtcGetPTX(prog, ptx));
    PT_NVRTC(nvrtcDestroyProgram(&prog));
    return ptx;
}

int main(void)
{
    CUdevice dev = pt_drv_init();
    int major = 0, minor = 0;
    PT_DRV(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    PT_DRV(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    char *ptx = compile(major, minor);

    /* The logs are never printed on success: their text may differ under scord. */
    static char info_log[16384], error_log[16384];
    CUjit_option opts[] = {
        CU_JIT_INFO_LOG_BUFFER,  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_GENERATE_LINE_INFO,
    };
    void *values[] = {
        info_log,  (void *)(uintptr_t)sizeof info_log,
        error_log, (void *)(uintptr_t)sizeof error_log,
        (void *)(uintptr_t)4, (void *)(uintptr_t)1,
    };
    CUmodule mod;
    CUresult r = cuModuleLoadDataEx(&mod, ptx, (unsigned)(sizeof opts / sizeof opts[0]), opts,
                                    values);
    if (r != CUDA_SUCCESS)
        fprintf(stderr, "JIT error log:\n%s\n", error_log);
    PT_DRV(r);

    PtDrvKernels k;
    pt_drv_kernels_from_module(mod, &k);
    pt_drv_workload(&k, 51, "nvrtc");
    PT_DRV(cuModuleUnload(mod));
    free(ptx);
    printf("nvrtc: ok\n");
    return 0;
}
