/* pt_drv.h: driver-API helpers of the pass-through programs: checked calls, device and
 * context set-up, and the one workload every driver-API program runs on its kernels. */
#ifndef PT_DRV_H
#define PT_DRV_H

#include <cuda.h>

#include "pt_common.h"

#define PT_DRV(call) pt_drv_check((call), #call, __FILE__, __LINE__)

void pt_drv_check(CUresult r, const char *what, const char *file, int line);

/* cuInit, the first device and its primary context made current. Without a device the
 * program says so and exits 1. */
CUdevice pt_drv_init(void);

/* The kernels of drv_kernels.cu, however the program obtained them. */
typedef struct PtDrvKernels {
    CUfunction fill;
    CUfunction scale_add;
    CUfunction block_sum;
    CUfunction histogram;
} PtDrvKernels;

void pt_drv_kernels_from_module(CUmodule mod, PtDrvKernels *k);

/* Runs fill, scale_add, block_sum and histogram, checks each result against the host
 * reference and prints one line per buffer, prefixed by label. */
void pt_drv_workload(const PtDrvKernels *k, unsigned seed, const char *label);

#endif
