/* driver_ptx.c: driver API only; the kernels come as PTX text, once embedded in the
 * program (cuModuleLoadData) and once from the .ptx file beside it (cuModuleLoad). */
#include "pt_drv.h"

#include "drv_kernels_ptx.h"

int main(void)
{
    pt_drv_init();
    PtDrvKernels k;

    CUmodule embedded;
    PT_DRV(cuModuleLoadData(&embedded, drv_kernels_ptx));
    pt_drv_kernels_from_module(embedded, &k);
    pt_drv_workload(&k, 11, "embedded ptx");

    char path[4096];
    pt_sibling_path(path, sizeof path, "drv_kernels.ptx");
    CUmodule from_file;
    PT_DRV(cuModuleLoad(&from_file, path));
    pt_drv_kernels_from_module(from_file, &k);
    pt_drv_workload(&k, 12, "ptx file");

    PT_DRV(cuModuleUnload(embedded));
    PT_DRV(cuModuleUnload(from_file));
    printf("driver_ptx: ok\n");
    return 0;
}
