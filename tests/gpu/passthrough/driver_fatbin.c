/* driver_fatbin.c: driver API only; the kernels come as an nvcc -fatbin image holding
 * PTX for two virtual architectures and SASS for two real ones, loaded with
 * cuModuleLoadFatBinary and with cuModuleLoadData. */
#include "pt_drv.h"

int main(void)
{
    pt_drv_init();
    char path[4096];
    pt_sibling_path(path, sizeof path, "drv_kernels.fatbin");
    size_t size;
    void *image = pt_read_file(path, &size);
    PtDrvKernels k;

    CUmodule fat;
    PT_DRV(cuModuleLoadFatBinary(&fat, image));
    pt_drv_kernels_from_module(fat, &k);
    pt_drv_workload(&k, 31, "cuModuleLoadFatBinary");

    CUmodule data;
    PT_DRV(cuModuleLoadData(&data, image));
    pt_drv_kernels_from_module(data, &k);
    pt_drv_workload(&k, 32, "cuModuleLoadData fatbin");

    PT_DRV(cuModuleUnload(fat));
    PT_DRV(cuModuleUnload(data));
    free(image);
    printf("driver_fatbin: ok\n");
    return 0;
}
