// link_a.cu: the device function that link_b.cu calls across PTX modules (compiled -rdc).
#include "pt_math.h"

extern "C" __device__ unsigned pt_link_mix(unsigned x, unsigned k)
{
    return pt_mix32(x) ^ k;
}
