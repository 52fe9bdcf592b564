// atom.cu: atom and red with every .sem and .scope, every op and type family,
// in the modifier orders nvcc, CCCL and hand-written asm use, plus the CUDA
// atomic intrinsics (so nvcc's own spellings are in the corpus too).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "stress.cuh"

// One atom.add per (sem, scope) in three modifier orders: the ISA's,
// op-first (as CCCL writes it) and scope-before-sem.
#define ATOM_SEM_SCOPE(SEM, SCOPE)                                                      \
    asm volatile("atom" SEM SCOPE ".global.add.u32 %0, [%1], %2;"                       \
                 : "=r"(r) : "l"(g), "r"(v) : "memory");                                \
    acc += r;                                                                           \
    asm volatile("atom.add" SEM SCOPE ".s32 %0, [%1], %2;"                              \
                 : "=r"(r) : "l"(g + 1), "r"(v) : "memory");                            \
    acc += r;                                                                           \
    asm volatile("atom" SCOPE ".shared" SEM ".exch.b32 %0, [%1], %2;"                   \
                 : "=r"(r) : "r"(s), "r"(v) : "memory");                                \
    acc += r;                                                                           \
    asm volatile("atom" SEM SCOPE ".global.cas.b64 %0, [%1], %2, %3;"                   \
                 : "=l"(r64) : "l"(g64), "l"(v64), "l"(v64 + 1) : "memory");            \
    acc += (unsigned)r64;

#define ATOM_SEM(SEM)                                                                   \
    ATOM_SEM_SCOPE(SEM, ".cta")                                                         \
    ATOM_SEM_SCOPE(SEM, ".gpu")                                                         \
    ATOM_SEM_SCOPE(SEM, ".sys")

#define RED_SEM_SCOPE(SEM, SCOPE)                                                       \
    asm volatile("red" SEM SCOPE ".global.add.u32 [%0], %1;" ::"l"(g), "r"(v)           \
                 : "memory");                                                           \
    asm volatile("red.global" SCOPE SEM ".or.b64 [%0], %1;" ::"l"(g64), "l"(v64)        \
                 : "memory");                                                           \
    asm volatile("red.shared.max" SEM SCOPE ".s32 [%0], %1;" ::"r"(s), "r"(v)           \
                 : "memory");

#define RED_SEM(SEM)                                                                    \
    RED_SEM_SCOPE(SEM, ".cta")                                                          \
    RED_SEM_SCOPE(SEM, ".gpu")                                                          \
    RED_SEM_SCOPE(SEM, ".sys")

__global__ void atom_sem_scope(unsigned *g, unsigned long long *g64, unsigned v,
                               unsigned long long v64, unsigned *out)
{
    __shared__ unsigned sh[64];
    unsigned s = (unsigned)__cvta_generic_to_shared(&sh[threadIdx.x % 64]);
    unsigned r, acc = 0;
    unsigned long long r64;
    ATOM_SEM(".relaxed")
    ATOM_SEM(".acquire")
    ATOM_SEM(".release")
    ATOM_SEM(".acq_rel")
#if STRESS_SM90
    ATOM_SEM_SCOPE(".relaxed", ".cluster")
    ATOM_SEM_SCOPE(".acquire", ".cluster")
    ATOM_SEM_SCOPE(".release", ".cluster")
    ATOM_SEM_SCOPE(".acq_rel", ".cluster")
#endif
    // .sem alone (scope defaults to .gpu) and .scope alone (sem defaults to .relaxed).
    asm volatile("atom.acquire.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(g), "r"(v) : "memory");
    acc += r;
    asm volatile("atom.sys.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(g), "r"(v) : "memory");
    acc += r;
    RED_SEM(".relaxed")
    RED_SEM(".release")
#if STRESS_SM90
    RED_SEM_SCOPE(".relaxed", ".cluster")
    RED_SEM_SCOPE(".release", ".cluster")
#endif
    asm volatile("red.release.global.add.u32 [%0], %1;" ::"l"(g), "r"(v) : "memory");
    asm volatile("red.gpu.global.add.u32 [%0], %1;" ::"l"(g), "r"(v) : "memory");
    out[threadIdx.x] = acc;
}

__global__ void atom_ops(unsigned *g, int *gi, unsigned long long *g64, long long *gi64,
                         float *gf, double *gd, unsigned short *g16, unsigned v, unsigned *out)
{
    __shared__ unsigned sh[64];
    unsigned s = (unsigned)__cvta_generic_to_shared(&sh[threadIdx.x % 64]);
    unsigned r, acc = 0;
    unsigned long long r64;
    float rf;
    double rd;
    unsigned short r16;
    asm volatile("atom.global.and.b32 %0, [%1], %2;" : "=r"(r) : "l"(g), "r"(v) : "memory");
    acc += r;
    asm volatile("atom.global.or.b32 %0, [%1], %2;" : "=r"(r) : "l"(g), "r"(v) : "memory");
    acc += r;
    asm volatile("atom.global.xor.b32 %0, [%1], %2;" : "=r"(r) : "l"(g), "r"(v) : "memory");
    acc += r;
    asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(r) : "l"(g), "r"(v) : "memory");
    acc += r;
    asm volatile("atom.global.dec.u32 %0, [%1], %2;" : "=r"(r) : "l"(g), "r"(v) : "memory");
    acc += r;
    asm volatile("atom.global.min.s32 %0, [%1], %2;" : "=r"(r) : "l"(gi), "r"(v) : "memory");
    acc += r;
    asm volatile("atom.global.max.u64 %0, [%1], %2;" : "=l"(r64) : "l"(g64), "l"((unsigned long long)v) : "memory");
    acc += (unsigned)r64;
    asm volatile("atom.global.min.s64 %0, [%1], %2;" : "=l"(r64) : "l"(gi64), "l"((long long)v) : "memory");
    acc += (unsigned)r64;
    asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(rf) : "l"(gf), "f"(1.0f) : "memory");
    acc += (unsigned)rf;
    asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(rd) : "l"(gd), "d"(1.0) : "memory");
    acc += (unsigned)rd;
    asm volatile("atom.global.exch.b64 %0, [%1], %2;" : "=l"(r64) : "l"(g64), "l"(1ull) : "memory");
    acc += (unsigned)r64;
    asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(g), "r"(v), "r"(v + 1) : "memory");
    acc += r;
    asm volatile("atom.global.cas.b16 %0, [%1], %2, %3;" : "=h"(r16) : "l"(g16), "h"((unsigned short)v), "h"((unsigned short)1) : "memory");
    acc += r16;
    asm volatile("atom.shared::cta.add.u32 %0, [%1], %2;" : "=r"(r) : "r"(s), "r"(v) : "memory");
    acc += r;
    asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "r"(s), "r"(v), "r"(0) : "memory");
    acc += r;
    // Generic address: no state space.
    asm volatile("atom.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(g), "r"(v) : "memory");
    acc += r;
    asm volatile("red.add.u64 [%0], %1;" ::"l"(g64), "l"(1ull) : "memory");
    asm volatile("red.global.add.f32 [%0], %1;" ::"l"(gf), "f"(2.0f) : "memory");
    asm volatile("red.global.and.b32 [%0], %1;" ::"l"(g), "r"(v) : "memory");
    asm volatile("red.global.xor.b32 [%0], %1;" ::"l"(g), "r"(v) : "memory");
    asm volatile("red.global.inc.u32 [%0], %1;" ::"l"(g), "r"(v) : "memory");
    asm volatile("red.global.dec.u32 [%0], %1;" ::"l"(g), "r"(v) : "memory");
    asm volatile("red.global.min.u32 [%0], %1;" ::"l"(g), "r"(v) : "memory");
    asm volatile("red.shared::cta.add.u32 [%0], %1;" ::"r"(s), "r"(v) : "memory");
    // Packed and half-word floating point.
    asm volatile("{ .reg .b16 h; mov.b16 h, %1; atom.global.add.noftz.f16 h, [%0], h; }" ::"l"(g16), "h"((unsigned short)0x3c00) : "memory");
    asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(r) : "l"(g), "r"(0x3c003c00u) : "memory");
    acc += r;
    asm volatile("red.global.add.noftz.f16x2 [%0], %1;" ::"l"(g), "r"(0x3c003c00u) : "memory");
#if STRESS_SM80
    {
        unsigned pol;
        asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(r64));
        asm volatile("atom.global.add.L2::cache_hint.u32 %0, [%1], %2, %3;" : "=r"(r) : "l"(g), "r"(v), "l"(r64) : "memory");
        acc += r;
        asm volatile("red.global.add.L2::cache_hint.u32 [%0], %1, %2;" ::"l"(g), "r"(v), "l"(r64) : "memory");
        pol = (unsigned)r64;
        acc += pol;
    }
#endif
#if STRESS_SM90
    asm volatile("atom.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(r) : "l"(g), "r"(0x3f803f80u) : "memory");
    acc += r;
    asm volatile("red.global.add.noftz.bf16 [%0], %1;" ::"l"(g16), "h"((unsigned short)0x3f80) : "memory");
    {
        float a0, a1, a2, a3;
        asm volatile("atom.global.v2.f32.add {%0, %1}, [%2], {%3, %4};"
                     : "=f"(a0), "=f"(a1) : "l"(gf), "f"(1.0f), "f"(2.0f) : "memory");
        asm volatile("atom.global.v4.f32.add {%0, %1, %2, %3}, [%4], {%5, %5, %5, %5};"
                     : "=f"(a0), "=f"(a1), "=f"(a2), "=f"(a3) : "l"(gf), "f"(1.0f) : "memory");
        acc += (unsigned)(a0 + a1 + a2 + a3);
        asm volatile("red.global.v4.f32.add [%0], {%1, %1, %1, %1};" ::"l"(gf), "f"(1.0f) : "memory");
        asm volatile("red.relaxed.gpu.global.add.v2.f32 [%0], {%1, %1};" ::"l"(gf), "f"(1.0f) : "memory");
    }
    asm volatile("{ .reg .b16 h<8>; mov.b16 h0, %1;\n\t"
                 "atom.global.v8.f16.add.noftz {h0, h1, h2, h3, h4, h5, h6, h7}, [%0], {h0, h0, h0, h0, h0, h0, h0, h0}; }"
                 ::"l"(g16), "h"((unsigned short)0x3c00) : "memory");
    asm volatile("{ .reg .b32 p<2>; atom.global.v2.bf16x2.max.noftz {p0, p1}, [%0], {%1, %1}; }"
                 ::"l"(g), "r"(0x3f803f80u) : "memory");
    // 128-bit exchange and compare-and-swap.
    {
        unsigned long long lo, hi;
        asm volatile("{ .reg .b128 d, b, c;\n\t"
                     "mov.b128 b, {%2, %3};\n\t"
                     "mov.b128 c, {%3, %2};\n\t"
                     "atom.global.cas.b128 d, [%4], b, c;\n\t"
                     "mov.b128 {%0, %1}, d; }"
                     : "=l"(lo), "=l"(hi) : "l"(1ull), "l"(2ull), "l"(g64) : "memory");
        acc += (unsigned)(lo ^ hi);
        asm volatile("{ .reg .b128 d, b;\n\t"
                     "mov.b128 b, {%2, %3};\n\t"
                     "atom.acq_rel.gpu.exch.b128 d, [%4], b;\n\t"
                     "mov.b128 {%0, %1}, d; }"
                     : "=l"(lo), "=l"(hi) : "l"(1ull), "l"(2ull), "l"(g64) : "memory");
        acc += (unsigned)(lo ^ hi);
        asm volatile("{ .reg .b128 d, b;\n\t"
                     "mov.b128 b, {%2, %3};\n\t"
                     "atom.shared::cta.exch.b128 d, [%4], b;\n\t"
                     "mov.b128 {%0, %1}, d; }"
                     : "=l"(lo), "=l"(hi) : "l"(1ull), "l"(2ull), "r"(s & ~15u) : "memory");
        acc += (unsigned)(lo ^ hi);
    }
    // Another CTA's shared memory in the cluster.
    {
        unsigned remote;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(s), "r"(0));
        asm volatile("atom.shared::cluster.add.u32 %0, [%1], %2;" : "=r"(r) : "r"(remote), "r"(v) : "memory");
        acc += r;
        asm volatile("atom.release.cluster.shared::cluster.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "r"(remote), "r"(v), "r"(0) : "memory");
        acc += r;
        asm volatile("red.shared::cluster.relaxed.cluster.or.b32 [%0], %1;" ::"r"(remote), "r"(v) : "memory");
    }
#endif
    out[threadIdx.x] = acc + sh[(threadIdx.x + 1) % 64];
}

// What CUDA's atomic intrinsics lower to.
__global__ void atom_intrinsics(int *gi, unsigned *g, unsigned long long *g64, float *gf,
                                double *gd, __half2 *gh, __nv_bfloat162 *gb, int *out)
{
    __shared__ int sh[32];
    int acc = 0;
    sh[threadIdx.x % 32] = 0;
    __syncthreads();
    acc += atomicAdd(gi, 1);
    atomicAdd(gi + 1, 1); // result unused: nvcc emits red
    acc += atomicAdd_block(gi + 2, 1);
    acc += atomicAdd_system(gi + 3, 1);
    atomicAdd_block(gi + 4, 1);
    atomicAdd_system(gi + 5, 1);
    acc += atomicSub(gi, 2);
    acc += atomicExch(gi, 3);
    acc += atomicExch_block(gi, 3);
    acc += atomicMin(gi, 4);
    acc += atomicMax_system(gi, 5);
    acc += (int)atomicInc(g, 100u);
    acc += (int)atomicDec(g, 100u);
    acc += atomicAnd(gi, 6);
    acc += atomicOr_block(gi, 7);
    acc += atomicXor(gi, 8);
    acc += atomicCAS(gi, 1, 2);
    acc += atomicCAS_block(gi, 1, 2);
    acc += atomicCAS_system(gi, 1, 2);
    acc += (int)atomicAdd(g64, 1ull);
    acc += (int)atomicCAS(g64, 1ull, 2ull);
    acc += (int)atomicAdd(gf, 1.0f);
    acc += (int)atomicAdd(gd, 1.0);
    atomicAdd(gf + 1, 1.0f);
    acc += (int)__low2float(atomicAdd(gh, __floats2half2_rn(1.0f, 1.0f)));
#if STRESS_SM80
    acc += (int)__low2float(atomicAdd(gb, __floats2bfloat162_rn(1.0f, 1.0f)));
#endif
    acc += atomicAdd(&sh[(threadIdx.x + 3) % 32], 1);
    atomicAdd(&sh[threadIdx.x % 32], 1);
    acc += atomicCAS(&sh[0], 0, 1);
    __syncthreads();
    out[threadIdx.x] = acc + sh[threadIdx.x % 32];
}
