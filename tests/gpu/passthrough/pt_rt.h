// pt_rt.h: runtime-API helpers of the pass-through programs: checked calls and the
// device check every program makes first.
#ifndef PT_RT_H
#define PT_RT_H

#include <cuda_runtime.h>

#include "pt_common.h"
#include "pt_math.h"

#define PT_RT(call) pt_rt_check((call), #call, __FILE__, __LINE__)
// A kernel launch reports a bad configuration only through the next error query.
#define PT_RT_LAUNCHED() PT_RT(cudaGetLastError())

static inline void pt_rt_check(cudaError_t e, const char *what, const char *file, int line)
{
    if (e != cudaSuccess)
        pt_die("%s:%d: %s failed: %s (%s)", file, line, what, cudaGetErrorName(e),
               cudaGetErrorString(e));
}

static inline void pt_rt_require_device(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess)
        pt_die("no CUDA device found (cudaGetDeviceCount: %s)", cudaGetErrorString(e));
    if (count == 0)
        pt_die("no CUDA device found (cudaGetDeviceCount: 0 devices)");
}

// Grid-stride loop over [0, n): the results never depend on the grid size.
#define PT_FOR_EACH(i, n)                                                                  \
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += gridDim.x * blockDim.x)

#endif
