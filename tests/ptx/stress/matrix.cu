// matrix.cu: warp-collective matrix memory instructions (ldmatrix, stmatrix,
// wmma load/store through the C++ API), mma, movmatrix, and the sm_90a
// warpgroup instructions (wgmma, setmaxnreg).
#include <mma.h>
#include "stress.cuh"

using namespace nvcuda;

__global__ void wmma_tile(const half *a, const half *b, float *c, float *cs)
{
    __shared__ __align__(32) float stile[16 * 16];
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(stile, fc, 16, wmma::mem_row_major);
    __syncwarp();
    wmma::load_matrix_sync(fc, stile, 16, wmma::mem_col_major);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
    cs[threadIdx.x] = stile[threadIdx.x];
}

__global__ void ldmatrix_family(const unsigned *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[32 * 8 * 4];
    unsigned t = threadIdx.x;
    for (unsigned k = t; k < 32 * 8 * 4; k += blockDim.x)
        tile[k] = (unsigned short)in[k];
    __syncwarp();
    unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(t % 32) * 8]);
    unsigned r0, r1, r2, r3, acc = 0;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(addr));
    acc += r0;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(addr));
    acc += r0 + r1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared::cta.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    acc += r0 + r1 + r2 + r3;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(r1) : "r"(r0));
    acc += r1;
    asm volatile("{ .reg .f32 d<4>; .reg .b32 a<2>;\n\t"
                 "mov.b32 a0, %1; mov.b32 a1, %1;\n\t"
                 "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {d0, d1, d2, d3}, {a0, a1}, {a0}, {d0, d1, d2, d3};\n\t"
                 "cvt.rzi.u32.f32 %0, d0; }"
                 : "=r"(r2) : "r"(r0));
    acc += r2;
#if STRESS_SM90
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(addr), "r"(acc) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 [%0], {%1, %2};" ::"r"(addr), "r"(acc), "r"(r1) : "memory");
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %1, %2, %2};" ::"r"(addr), "r"(acc), "r"(r1) : "memory");
#endif
    __syncwarp();
    out[t] = acc + tile[t];
}

#if STRESS_SM90A
__global__ void __launch_bounds__(256) warpgroup(unsigned long long desc_a, unsigned long long desc_b, float *out)
{
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    if (threadIdx.x < 128)
        asm volatile("setmaxnreg.inc.sync.aligned.u32 240;");
    else
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(desc_a), "l"(desc_b) : "memory");
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    out[threadIdx.x] = d0 + d1 + d2 + d3;
}
#endif
