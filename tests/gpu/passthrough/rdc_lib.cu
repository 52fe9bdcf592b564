// rdc_lib.cu: device code that rdc_main.cu uses across translation units; the program
// is built with -rdc=true and device-linked, so its fat binaries take the linked (v2) form.
#include "pt_rt.h"

__device__ unsigned rdc_scale;

__device__ unsigned rdc_apply(unsigned x)
{
    return pt_mix32(x) * rdc_scale;
}

__global__ void rdc_lib_kernel(unsigned *v, unsigned n)
{
    PT_FOR_EACH(i, n) v[i] = rdc_apply(v[i]);
}
