/* pt_math.h: the integer arithmetic of the pass-through kernels, shared by the kernels,
 * the host references that check them and (as an NVRTC header) run-time compiled code. */
#ifndef PT_MATH_H
#define PT_MATH_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define PT_HD __host__ __device__
#else
#define PT_HD
#endif

/* Integer-only on purpose: offline ptxas and the driver's JIT may contract or reorder
 * floating-point code differently, and the native and scord runs must print the same bytes. */
static inline PT_HD unsigned pt_mix32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

#endif
