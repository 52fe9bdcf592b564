/* probe_stubs.c: stands in for cudart's registration entry points inside the
 * test libraries (libprobe_*.so, linked with -cudart none), recording what the
 * nvcc-generated constructors hand to __cudaRegisterFatBinary and
 * __cudaRegisterFunction so that test_fatbin reads exactly that. */
#include <stddef.h>

#define PROBE_API __attribute__((visibility("default")))
#define PROBE_MAX 64

static const void *wrappers[PROBE_MAX];
static size_t n_wrappers;
static const char *kernels[PROBE_MAX];
static size_t n_kernels;

PROBE_API void **__cudaRegisterFatBinary(void *wrapper)
{
    if (n_wrappers < PROBE_MAX)
        wrappers[n_wrappers++] = wrapper;
    return (void **)&wrappers[n_wrappers - 1];
}

PROBE_API void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }
PROBE_API void __cudaUnregisterFatBinary(void **handle) { (void)handle; }
PROBE_API void __cudaInitModule(void **handle) { (void)handle; }

PROBE_API void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun,
                                      const char *device_name, int thread_limit, void *tid,
                                      void *bid, void *bdim, void *gdim, int *wsize)
{
    (void)handle, (void)host_fun, (void)device_fun, (void)thread_limit, (void)tid, (void)bid;
    (void)bdim, (void)gdim, (void)wsize;
    if (n_kernels < PROBE_MAX)
        kernels[n_kernels++] = device_name;
}

PROBE_API void __cudaRegisterVar(void **handle, char *host_var, char *device_address,
                                 const char *device_name, int ext, size_t size, int constant,
                                 int global)
{
    (void)handle, (void)host_var, (void)device_address, (void)device_name, (void)ext;
    (void)size, (void)constant, (void)global;
}

/* Launch stubs reference these; the tests never launch anything. */
PROBE_API int __cudaPushCallConfiguration(void) { return 0; }
PROBE_API int __cudaPopCallConfiguration(void) { return 0; }
PROBE_API int __cudaLaunchKernel(void) { return 0; }
PROBE_API int __cudaGetKernel(void) { return 0; }

PROBE_API size_t scord_probe_wrappers(const void *const **out)
{
    *out = wrappers;
    return n_wrappers;
}

PROBE_API size_t scord_probe_kernels(const char *const **out)
{
    *out = kernels;
    return n_kernels;
}
