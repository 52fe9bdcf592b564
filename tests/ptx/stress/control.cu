// control.cu: control flow (branches, brx.idx, direct and indirect calls,
// recursion, ret, exit, trap), cooperative-groups grid synchronization,
// address-space queries and conversions (isspacep, cvta, mapa, getctarank),
// special registers, printf/malloc/assert, texture and surface access, and
// inline-asm blocks with their own registers and labels.
#include <cassert>
#include <cstdio>
#include <cooperative_groups.h>
#include "stress.cuh"

namespace cg = cooperative_groups;

__device__ __noinline__ int leaf(int x) { return x * 3 + 1; }
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int recurse(int x) { return x <= 1 ? 1 : x * recurse(x - 1); }
__device__ __noinline__ void no_return_trap(void) { __trap(); }

typedef int (*IntFn)(int);
__device__ IntFn d_table[2] = {leaf, twice};

__global__ void calls_and_branches(const int *in, int *out, int sel)
{
    int i = threadIdx.x;
    int v = in[i];
    if (v < 0)
        return; // early ret
    if (v == 12345)
        asm volatile("exit;");
    int acc = leaf(v) + recurse(v & 7);
    IntFn f = d_table[sel & 1];
    acc += f(v); // indirect call through a prototype
    switch (v & 7) { // may become brx.idx
    case 0: acc += 11; break;
    case 1: acc *= 13; break;
    case 2: acc -= 17; break;
    case 3: acc ^= 19; break;
    case 4: acc += leaf(acc); break;
    case 5: acc >>= 1; break;
    case 6: acc |= 0x40; break;
    default: acc = -acc; break;
    }
    for (int k = 0; k < sel; k++)
        if (in[k] == acc)
            break;
    if (acc == 0x7fffffff)
        no_return_trap();
    {
        unsigned r;
        asm volatile("{ .reg .u32 t; .reg .pred p;\n\t"
                     "mov.u32 t, %1;\n\t"
                     "setp.eq.u32 p, t, 0;\n\t"
                     "@p bra.uni Lzero;\n\t"
                     "add.u32 t, t, 1;\n\t"
                     "Lzero:\n\t"
                     "mov.u32 %0, t; }"
                     : "=r"(r) : "r"((unsigned)acc));
        acc = (int)r;
        asm volatile("{ .reg .u32 idx;\n\t"
                     "Ltab: .branchtargets La, Lb;\n\t"
                     "and.b32 idx, %1, 1;\n\t"
                     "brx.idx idx, Ltab;\n\t"
                     "La: add.u32 %0, %1, 1; bra.uni Lend;\n\t"
                     "Lb: add.u32 %0, %1, 2;\n\t"
                     "Lend: }"
                     : "=r"(r) : "r"((unsigned)acc));
        acc = (int)r;
    }
    if (acc == 0x7ffffffe)
        __brkpt();
    assert(acc != 0x7ffffffd);
    out[i] = acc;
}

__global__ void grid_sync(int *g, int *out)
{
    cg::grid_group grid = cg::this_grid();
    g[grid.thread_rank()] = (int)grid.thread_rank();
    grid.sync();
    out[grid.thread_rank()] = g[(grid.thread_rank() + 1) % grid.size()];
}

__global__ void address_spaces(int *gp, int *out)
{
    __shared__ int sh[32];
    int local[4] = {1, 2, 3, 4};
    int *p = (threadIdx.x & 1) ? gp : sh;
    int acc = 0;
    acc += __isGlobal(p) + 2 * __isShared(p) + 4 * __isLocal(local) + 8 * __isConstant(p);
    size_t sa = __cvta_generic_to_shared(sh);
    size_t ga = __cvta_generic_to_global(gp);
    int *back = (int *)__cvta_shared_to_generic(sa);
    back[threadIdx.x % 32] = acc;
    {
        unsigned r;
        asm volatile("{ .reg .pred p; isspacep.global p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(p));
        acc += r;
        asm volatile("{ .reg .pred p; isspacep.shared::cta p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(p));
        acc += r;
        asm volatile("{ .reg .pred p; isspacep.param p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(p));
        acc += r;
        unsigned long long q;
        asm volatile("cvta.to.global.u64 %0, %1;" : "=l"(q) : "l"(p));
        asm volatile("cvta.shared.u64 %0, %1;" : "=l"(q) : "l"((unsigned long long)sa));
        asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(q) : "l"(q));
        acc += (int)q;
        asm volatile("cvta.to.local.u64 %0, %1;" : "=l"(q) : "l"(local));
        acc += (int)q;
#if STRESS_SM90
        asm volatile("{ .reg .pred p; isspacep.shared::cluster p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(p));
        acc += r;
        asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(r) : "r"((unsigned)sa));
        acc += r;
        asm volatile("mapa.u64 %0, %1, 0;" : "=l"(q) : "l"(q));
        acc += (int)q;
#endif
    }
    out[threadIdx.x] = acc + local[threadIdx.x % 4] + sh[(threadIdx.x + 1) % 32] + (int)ga;
}

__global__ void special_registers(unsigned *out)
{
    unsigned lane, warp, sm, nsm, gridid32, dynsmem;
    unsigned long long clk, gt, gridid;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(clk));
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(gridid));
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dynsmem));
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(gridid32));
    unsigned acc = threadIdx.x + blockIdx.y * blockDim.z + gridDim.x + lane + warp + sm + nsm +
                   (unsigned)clk + (unsigned)gt + (unsigned)gridid + dynsmem + gridid32 + clock();
#if STRESS_SM90
    unsigned crank, cid, nc;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(crank));
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(nc));
    acc += crank + cid + nc;
#endif
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void host_services(int *out, int n)
{
    int *scratch = (int *)alloca(sizeof(int) * (n & 15) + 4); // alloca + stack save/restore
    scratch[threadIdx.x % 4] = n;
    {
        unsigned long long sp;
        asm volatile("stacksave.u64 %0;" : "=l"(sp));
        asm volatile("stackrestore.u64 %0;" ::"l"(sp));
    }
    out[blockDim.x + threadIdx.x] = scratch[(threadIdx.x + 1) % 4];
    printf("thread %d of %d: n=%d %f\n", threadIdx.x, blockDim.x, n, 1.5);
    int *heap = (int *)malloc(sizeof(int) * 4);
    if (heap) {
        heap[0] = n;
        out[threadIdx.x] = heap[0];
        free(heap);
    }
}

__global__ void texture_surface(cudaTextureObject_t tex, cudaSurfaceObject_t surf, float *out)
{
    int i = threadIdx.x;
    float v = tex1Dfetch<float>(tex, i);
    v += tex2D<float>(tex, 0.5f, (float)i);
    surf2Dwrite(v, surf, i * (int)sizeof(float), 0);
    float w;
    surf2Dread(&w, surf, i * (int)sizeof(float), 1);
    out[i] = v + w;
}
