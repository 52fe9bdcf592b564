// sync.cu: fences (fence.sc/acq_rel/acquire/release at every scope, membar,
// fence.proxy.*), CTA barriers (bar/barrier .sync/.arrive/.red, with and
// without thread counts, .aligned or not), bar.warp.sync and cluster barriers,
// from the CUDA intrinsics and from inline asm.
#include <cooperative_groups.h>
#include "stress.cuh"

#define FENCE_SCOPES(SEM)                                                               \
    asm volatile("fence" SEM ".cta;" ::: "memory");                                     \
    asm volatile("fence" SEM ".gpu;" ::: "memory");                                     \
    asm volatile("fence" SEM ".sys;" ::: "memory");

__global__ void fences(int *g, int *out)
{
    int i = threadIdx.x;
    g[i] = i;
    __threadfence_block(); // membar.cta
    g[i + 1] = i;
    __threadfence(); // membar.gl
    g[i + 2] = i;
    __threadfence_system(); // membar.sys
    asm volatile("membar.cta;" ::: "memory");
    asm volatile("membar.gl;" ::: "memory");
    asm volatile("membar.sys;" ::: "memory");
    FENCE_SCOPES(".sc")
    FENCE_SCOPES(".acq_rel")
    FENCE_SCOPES("") // no .sem: acq_rel
    asm volatile("fence.proxy.alias;" ::: "memory");
    asm volatile("membar.proxy.alias;" ::: "memory");
#if STRESS_SM90
    asm volatile("fence.acquire.sync_restrict::shared::cluster.cluster;" ::: "memory");
    asm volatile("fence.release.sync_restrict::shared::cta.cluster;" ::: "memory");
    asm volatile("fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;" ::: "memory");
    asm volatile("fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;" ::: "memory");
    FENCE_SCOPES(".acquire")
    FENCE_SCOPES(".release")
    asm volatile("fence.sc.cluster;" ::: "memory");
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
    asm volatile("fence.acquire.cluster;" ::: "memory");
    asm volatile("fence.release.cluster;" ::: "memory");
    asm volatile("fence.cluster;" ::: "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async;" ::: "memory");
    asm volatile("fence.proxy.async.global;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cluster;" ::: "memory");
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(g) : "memory");
    asm volatile("fence.proxy.tensormap::generic.release.cta;" ::: "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.sys [%0], 128;" ::"l"(g) : "memory");
#endif
    out[i] = g[i + 3];
}

__global__ void cta_barriers(int *g, int *out, int n)
{
    __shared__ int sh[256];
    int i = threadIdx.x;
    sh[i] = g[i];
    __syncthreads(); // barrier.sync 0 / bar.sync 0
    int acc = sh[(i + 1) % 256];
    acc += __syncthreads_count(acc > n);
    acc += __syncthreads_and(acc > n);
    acc += __syncthreads_or(acc > n);
    __syncwarp();
    __syncwarp(0x0000ffffu);
    if (i < 128) {
        asm volatile("bar.sync 1, 128;" ::: "memory");
        asm volatile("barrier.sync 2, 128;" ::: "memory");
        asm volatile("barrier.sync.aligned 3, 128;" ::: "memory");
        asm volatile("bar.cta.sync 4, 128;" ::: "memory");
        asm volatile("barrier.cta.sync.aligned 5;" ::: "memory");
    } else {
        asm volatile("bar.arrive 1, 128;" ::: "memory");
        asm volatile("barrier.arrive 2, 128;" ::: "memory");
        asm volatile("barrier.arrive.aligned 3, 128;" ::: "memory");
        asm volatile("bar.cta.arrive 4, 128;" ::: "memory");
    }
    asm volatile("bar.sync %0;" ::"r"(6) : "memory");
    asm volatile("bar.sync %0, %1;" ::"r"(7), "r"(256) : "memory");
    asm volatile("barrier.cta.sync %0, %1;" ::"r"(8), "r"(256) : "memory");
    {
        unsigned c;
        int p;
        asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0;\n\t"
                     "bar.red.popc.u32 %0, 9, q; }"
                     : "=r"(c) : "r"(acc & 1) : "memory");
        acc += c;
        asm volatile("{ .reg .pred q, r; setp.ne.u32 q, %1, 0;\n\t"
                     "barrier.red.popc.aligned.u32 %0, 10, 256, !q; }"
                     : "=r"(c) : "r"(acc) : "memory");
        acc += c;
        asm volatile("{ .reg .pred q, r; setp.ne.u32 q, %1, 0;\n\t"
                     "bar.red.and.pred r, 11, q;\n\t"
                     "selp.u32 %0, 1, 0, r; }"
                     : "=r"(p) : "r"(acc) : "memory");
        acc += p;
        asm volatile("{ .reg .pred q, r; setp.ne.u32 q, %1, 0;\n\t"
                     "barrier.cta.red.or.pred r, 12, 256, q;\n\t"
                     "selp.u32 %0, 1, 0, r; }"
                     : "=r"(p) : "r"(acc) : "memory");
        acc += p;
        asm volatile("{ .reg .pred q, r; setp.ne.u32 q, %1, 0;\n\t"
                     "barrier.red.and.aligned.pred r, 13, !q;\n\t"
                     "selp.u32 %0, 1, 0, r; }"
                     : "=r"(p) : "r"(acc) : "memory");
        acc += p;
    }
    asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
    asm volatile("bar.warp.sync %0;" ::"r"(__activemask()) : "memory");
    out[i] = acc;
}

// Divergent barrier use that needs the non-.aligned form.
__global__ void divergent_barrier(int *g)
{
    __shared__ int sh[64];
    int i = threadIdx.x;
    if (i & 1) {
        sh[i % 64] = g[i];
        asm volatile("barrier.sync 0;" ::: "memory");
    } else {
        asm volatile("barrier.sync 0;" ::: "memory");
        g[i] = sh[(i + 1) % 64];
    }
}

#if STRESS_SM90
__global__ void __cluster_dims__(2, 1, 1) cluster_barriers(int *g)
{
    namespace cg = cooperative_groups;
    __shared__ int sh[32];
    cg::cluster_group cluster = cg::this_cluster();
    sh[threadIdx.x % 32] = (int)cluster.block_rank();
    cluster.sync(); // barrier.cluster.arrive + wait
    int *remote = cluster.map_shared_rank(sh, (cluster.block_rank() + 1) % 2);
    g[threadIdx.x] = remote[threadIdx.x % 32];
    asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    cluster.sync();
}
#endif
