/* driver_cubin.c: driver API only; the kernels come as a cubin for the device's
 * architecture (SASS, no PTX), so scord must run them unchanged and report them unchecked. */
#include "pt_drv.h"

int main(void)
{
    CUdevice dev = pt_drv_init();
    int major = 0, minor = 0;
    PT_DRV(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    PT_DRV(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    /* SASS runs on the minor versions of its major: an sm_80 cubin serves sm_86 too. */
    char name[64], path[4096];
    snprintf(name, sizeof name, "drv_kernels.sm_%d0.cubin", major);
    pt_sibling_path(path, sizeof path, name);
    if (access(path, R_OK) != 0)
        pt_die("no cubin for this GPU (sm_%d%d): %s is not built; gpu.mk builds sm_80 and sm_90",
               major, minor, path);

    PtDrvKernels k;
    size_t size;
    void *image = pt_read_file(path, &size);
    CUmodule from_memory;
    PT_DRV(cuModuleLoadData(&from_memory, image));
    pt_drv_kernels_from_module(from_memory, &k);
    pt_drv_workload(&k, 21, "cubin in memory");

    CUmodule from_file;
    PT_DRV(cuModuleLoad(&from_file, path));
    pt_drv_kernels_from_module(from_file, &k);
    pt_drv_workload(&k, 22, "cubin file");

    PT_DRV(cuModuleUnload(from_memory));
    PT_DRV(cuModuleUnload(from_file));
    free(image);
    printf("driver_cubin: ok\n");
    return 0;
}
