// ldst.cu: ld/st in every state space, every .sem/.scope, .volatile, .mmio,
// the non-coherent and uniform read-only loads, cache operators, eviction and
// prefetch hints, vectors and 128-bit accesses, from C++ and from inline asm.
#include "stress.cuh"

struct Params {
    int a[4];
    double d;
};

__constant__ int c_table[64];
__device__ int d_global[256];

#define LD_SEM_SCOPE(SEM, SCOPE)                                                        \
    asm volatile("ld" SEM SCOPE ".global.u32 %0, [%1];" : "=r"(r) : "l"(g) : "memory"); \
    acc += r;                                                                           \
    asm volatile("ld.global" SEM SCOPE ".b64 %0, [%1];" : "=l"(r64) : "l"(g64) : "memory"); \
    acc += (unsigned)r64;                                                               \
    asm volatile("ld.shared" SCOPE SEM ".u16 %0, [%1];" : "=h"(r16) : "r"(s) : "memory"); \
    acc += r16;                                                                         \
    asm volatile("ld" SEM SCOPE ".v2.u32 {%0, %1}, [%2];" : "=r"(r), "=r"(r2) : "l"(g) : "memory"); \
    acc += r + r2;

#define ST_SEM_SCOPE(SEM, SCOPE)                                                        \
    asm volatile("st" SEM SCOPE ".global.u32 [%0], %1;" ::"l"(g), "r"(acc) : "memory"); \
    asm volatile("st.global" SCOPE SEM ".v4.u32 [%0], {%1, %1, %1, %1};" ::"l"(g), "r"(acc) : "memory"); \
    asm volatile("st" SEM SCOPE ".shared.u8 [%0], %1;" ::"r"(s), "h"((unsigned short)acc) : "memory"); \
    asm volatile("st.b64" SEM SCOPE " [%0], %1;" ::"l"(g64), "l"((unsigned long long)acc) : "memory");

#define SCOPES(M, SEM) M(SEM, ".cta") M(SEM, ".gpu") M(SEM, ".sys")

__global__ void ldst_sem_scope(unsigned *g, unsigned long long *g64, unsigned *out)
{
    __shared__ unsigned sh[64];
    unsigned s = (unsigned)__cvta_generic_to_shared(&sh[threadIdx.x % 32]);
    unsigned r, r2, acc = 0;
    unsigned long long r64;
    unsigned short r16;
    sh[threadIdx.x % 64] = threadIdx.x;
    __syncthreads();
    SCOPES(LD_SEM_SCOPE, ".relaxed")
    SCOPES(LD_SEM_SCOPE, ".acquire")
    SCOPES(ST_SEM_SCOPE, ".relaxed")
    SCOPES(ST_SEM_SCOPE, ".release")
#if STRESS_SM90
    LD_SEM_SCOPE(".relaxed", ".cluster")
    LD_SEM_SCOPE(".acquire", ".cluster")
    ST_SEM_SCOPE(".relaxed", ".cluster")
    ST_SEM_SCOPE(".release", ".cluster")
#endif
    // Explicit .weak, .volatile and .mmio.
    asm volatile("ld.weak.global.u32 %0, [%1];" : "=r"(r) : "l"(g) : "memory");
    acc += r;
    asm volatile("st.weak.shared.b32 [%0], %1;" ::"r"(s), "r"(acc) : "memory");
    asm volatile("ld.volatile.global.v4.u32 {%0, %1, %0, %1}, [%2];" : "=r"(r), "=r"(r2) : "l"(g) : "memory");
    acc += r + r2;
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=h"(r16) : "r"(s) : "memory");
    acc += r16;
    asm volatile("st.volatile.global.u8 [%0], %1;" ::"l"(g), "h"((unsigned short)acc) : "memory");
    asm volatile("ld.volatile.u64 %0, [%1];" : "=l"(r64) : "l"(g64) : "memory");
    acc += (unsigned)r64;
    asm volatile("ld.mmio.relaxed.sys.global.u32 %0, [%1];" : "=r"(r) : "l"(g) : "memory");
    acc += r;
    asm volatile("st.mmio.relaxed.sys.global.u32 [%0], %1;" ::"l"(g), "r"(acc) : "memory");
    asm volatile("st.global.mmio.relaxed.sys.b16 [%0], %1;" ::"l"(g), "h"((unsigned short)acc) : "memory");
    out[threadIdx.x] = acc;
}

__global__ void ldst_cache(const float4 *__restrict__ in4, const int *__restrict__ in, int *g,
                           float4 *o4, double2 *od, unsigned *gu, unsigned long long *g64)
{
    int i = threadIdx.x;
    int acc = 0;
    unsigned r;
    float f0, f1, f2, f3;
    float4 v = __ldg(&in4[i]); // ld.global.nc.v4.f32
    acc += __ldg(&in[i]);      // ld.global.nc.u32
    acc += __ldca(&in[i + 1]);
    acc += __ldcg(&in[i + 2]);
    acc += __ldcs(&in[i + 3]);
    acc += __ldlu(&in[i + 4]);
    acc += __ldcv(&in[i + 5]);
    __stwb(&g[i], acc);
    __stcg(&g[i + 1], acc);
    __stcs(&g[i + 2], acc);
    __stwt(&g[i + 3], acc);
    float4 w = __ldcg(&in4[i + 1]);
    __stcs(&o4[i], w);
    asm volatile("ldu.global.u32 %0, [%1];" : "=r"(r) : "l"(gu) : "memory");
    acc += r;
    asm volatile("ldu.global.v2.f32 {%0, %1}, [%2];" : "=f"(f0), "=f"(f1) : "l"(gu) : "memory");
    acc += (int)(f0 + f1);
    asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(f0), "=f"(f1), "=f"(f2), "=f"(f3) : "l"(in4) : "memory");
    acc += (int)(f0 + f1 + f2 + f3);
    asm volatile("ld.global.cg.nc.b32 %0, [%1];" : "=r"(r) : "l"(in) : "memory");
    acc += r;
    asm volatile("ld.global.nc.L1::no_allocate.b32 %0, [%1];" : "=r"(r) : "l"(in) : "memory");
    acc += r;
    asm volatile("ld.global.L1::evict_last.u32 %0, [%1];" : "=r"(r) : "l"(gu) : "memory");
    acc += r;
    asm volatile("ld.global.L2::128B.b32 %0, [%1];" : "=r"(r) : "l"(gu) : "memory");
    acc += r;
    asm volatile("st.global.L1::no_allocate.b32 [%0], %1;" ::"l"(gu), "r"(acc) : "memory");
    asm volatile("prefetch.global.L2 [%0];" ::"l"(gu));
    asm volatile("prefetch.L1 [%0];" ::"l"(gu));
    asm volatile("prefetchu.L1 [%0];" ::"l"(gu));
#if STRESS_SM80
    {
        unsigned long long pol;
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 0.5;" : "=l"(pol));
        asm volatile("ld.global.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(r) : "l"(gu), "l"(pol) : "memory");
        acc += r;
        asm volatile("st.global.L2::cache_hint.b32 [%0], %1, %2;" ::"l"(gu), "r"(acc), "l"(pol) : "memory");
        asm volatile("ld.global.nc.L2::cache_hint.L2::64B.b32 %0, [%1], %2;" : "=r"(r) : "l"(in), "l"(pol) : "memory");
        acc += r;
        asm volatile("ld.global.ca.L2::256B.v2.u32 {%0, %0}, [%1];" : "=r"(r) : "l"(gu) : "memory");
        acc += r;
        asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"(gu));
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(g64) : "memory");
        asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(g64) : "memory");
    }
#endif
    // 128-bit accesses.
    asm volatile("{ .reg .b128 q; ld.global.b128 q, [%0]; st.global.b128 [%0+16], q; }" ::"l"(g64) : "memory");
    asm volatile("{ .reg .b128 q; ld.relaxed.gpu.global.b128 q, [%0]; st.release.sys.b128 [%0+32], q; }" ::"l"(g64) : "memory");
    asm volatile("ld.global.v2.u64 {%0, %0}, [%1];" : "=l"(*(g64 + 8)) : "l"(g64) : "memory");
    od[i] = make_double2(v.x, w.y);
    g[i + 4] = acc;
}

__device__ __noinline__ int generic_sum(const int *p, int n)
{
    int s = 0;
    for (int k = 0; k < n; k++)
        s += p[k]; // generic: callers pass global and shared pointers
    return s;
}

__global__ void ldst_spaces(Params prm, int *g, volatile int *vg, char *gc, short *gs,
                            long long *gl, int2 *g2, int n)
{
    __shared__ int sh[128];
    __shared__ double shd[32];
    extern __shared__ unsigned char dyn[];
    int local[32];
    int i = threadIdx.x;
    for (int k = 0; k < 32; k++)
        local[k] = g[(k * 7 + i) % 256] + k; // local array indexed at run time
    sh[i % 128] = prm.a[i % 4] + (int)prm.d;
    shd[i % 32] = prm.d;
    dyn[i] = (unsigned char)i;
    __syncthreads();
    int acc = local[(i + n) % 32] + c_table[i % 64] + c_table[n % 64] + d_global[i % 256];
    acc += sh[(i + 1) % 128] + (int)shd[(i + 3) % 32] + dyn[(i + 5) % 32];
    acc += generic_sum(g, n) + generic_sum(sh, 4);
    acc += vg[i];   // ld.volatile.global
    vg[i + 1] = acc; // st.volatile.global
    acc += gc[i] + gs[i] + (int)gl[i];
    gc[i + 1] = (char)acc;
    gs[i + 1] = (short)acc;
    gl[i + 1] = acc;
    int2 q = g2[i];
    g2[i + 1] = make_int2(q.y, q.x + acc);
    d_global[i % 256] = acc;
    local[n % 32] = acc;
    g[i] = local[(n + 1) % 32];
}

#if STRESS_SM90
__global__ void __cluster_dims__(2, 1, 1) ldst_cluster(unsigned *out)
{
    __shared__ unsigned sh[32];
    unsigned s = (unsigned)__cvta_generic_to_shared(&sh[threadIdx.x % 32]);
    unsigned remote, r, acc = 0;
    sh[threadIdx.x % 32] = threadIdx.x;
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(s), "r"(1));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(r) : "r"(remote) : "memory");
    acc += r;
    asm volatile("ld.acquire.cluster.shared::cluster.u32 %0, [%1];" : "=r"(r) : "r"(remote) : "memory");
    acc += r;
    asm volatile("st.shared::cluster.relaxed.cluster.u32 [%0], %1;" ::"r"(remote), "r"(acc) : "memory");
    asm volatile("st.shared::cluster.v2.u32 [%0], {%1, %1};" ::"r"(remote & ~7u), "r"(acc) : "memory");
    asm volatile("ld.shared::cta.u32 %0, [%1];" : "=r"(r) : "r"(s) : "memory");
    acc += r;
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
    out[threadIdx.x] = acc;
}

// Multicast memory (NVLink SHARP): one address, every device's copy.
__global__ void ldst_multimem(unsigned *mc, float *mcf)
{
    unsigned r, acc = 0;
    float f0, f1;
    asm volatile("multimem.ld_reduce.global.add.u32 %0, [%1];" : "=r"(r) : "l"(mc) : "memory");
    acc += r;
    asm volatile("multimem.ld_reduce.acquire.gpu.global.min.u32 %0, [%1];" : "=r"(r) : "l"(mc) : "memory");
    acc += r;
    asm volatile("multimem.ld_reduce.weak.global.add.v2.f32 {%0, %1}, [%2];" : "=f"(f0), "=f"(f1) : "l"(mcf) : "memory");
    acc += (unsigned)(f0 + f1);
    asm volatile("multimem.st.global.u32 [%0], %1;" ::"l"(mc), "r"(acc) : "memory");
    asm volatile("multimem.st.release.sys.global.v2.f32 [%0], {%1, %1};" ::"l"(mcf), "f"(f0) : "memory");
    asm volatile("multimem.red.global.add.u32 [%0], %1;" ::"l"(mc), "r"(acc) : "memory");
    asm volatile("multimem.red.relaxed.cluster.global.max.u32 [%0], %1;" ::"l"(mc), "r"(acc) : "memory");
    asm volatile("multimem.red.release.gpu.global.add.f32 [%0], %1;" ::"l"(mcf), "f"(f1) : "memory");
}
#endif
