/* cudalibrary.c: driver API only, through the context-independent library API:
 * cuLibraryLoadData (PTX text) and cuLibraryLoadFromFile (fatbin), kernels from
 * cuLibraryGetKernel launched with cuLaunchKernel through the CUkernel -> CUfunction cast. */
#include "pt_drv.h"

#include "drv_kernels_ptx.h"

static void kernels_from_library(CUlibrary lib, PtDrvKernels *k)
{
    CUkernel kern;
    PT_DRV(cuLibraryGetKernel(&kern, lib, "pt_fill"));
    k->fill = (CUfunction)kern;
    PT_DRV(cuLibraryGetKernel(&kern, lib, "pt_scale_add"));
    k->scale_add = (CUfunction)kern;
    PT_DRV(cuLibraryGetKernel(&kern, lib, "pt_block_sum"));
    k->block_sum = (CUfunction)kern;
    PT_DRV(cuLibraryGetKernel(&kern, lib, "pt_histogram"));
    k->histogram = (CUfunction)kern;
}

int main(void)
{
    pt_drv_init();
    PtDrvKernels k;

    CUlibrary from_data;
    PT_DRV(cuLibraryLoadData(&from_data, drv_kernels_ptx, NULL, NULL, 0, NULL, NULL, 0));
    kernels_from_library(from_data, &k);
    pt_drv_workload(&k, 41, "cuLibraryLoadData ptx");

    char path[4096];
    pt_sibling_path(path, sizeof path, "drv_kernels.fatbin");
    CUlibrary from_file;
    PT_DRV(cuLibraryLoadFromFile(&from_file, path, NULL, NULL, 0, NULL, NULL, 0));
    kernels_from_library(from_file, &k);
    pt_drv_workload(&k, 42, "cuLibraryLoadFromFile fatbin");

    PT_DRV(cuLibraryUnload(from_data));
    PT_DRV(cuLibraryUnload(from_file));
    printf("cudalibrary: ok\n");
    return 0;
}
