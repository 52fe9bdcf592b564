// async.cu: asynchronous copies and their completion mechanisms: cp.async
// (.ca/.cg, groups, mbarrier arrive), mbarrier.* with every op, .sem and
// .scope, cp.async.bulk* / cp.reduce.async.bulk* / tensor copies, st.async,
// red.async, tensormap ops and griddepcontrol.
#include <cuda.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include "stress.cuh"

__global__ void cp_async_groups(const int4 *in, int4 *out)
{
#if STRESS_SM80
    __shared__ __align__(16) int4 tile[128];
    __shared__ __align__(8) unsigned long long bar;
    unsigned t = threadIdx.x;
    unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[t % 128]);
    unsigned mbar = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned long long state, pol;
    unsigned done;
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(mbar), "r"(blockDim.x) : "memory");
    __syncthreads();
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(in + t) : "memory");
    asm volatile("cp.async.ca.shared::cta.global [%0], [%1], 8, 4;" ::"r"(dst), "l"(in + t) : "memory");
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(in + t) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" ::"r"(dst), "l"(in + t) : "memory");
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    asm volatile("cp.async.ca.shared.global.L2::cache_hint [%0], [%1], 16, %2;" ::"r"(dst), "l"(in + t), "l"(pol) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 1;" ::: "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(mbar) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(mbar) : "memory");
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(mbar) : "memory");
    asm volatile("{ .reg .pred p; waitLoop: mbarrier.test_wait.shared.b64 p, [%1], %2;\n\t"
                 "@!p bra waitLoop; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(mbar), "l"(state) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(done) : "l"(state));
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(mbar), "r"(0) : "memory");
    asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], 1;" : "=l"(state) : "r"(mbar) : "memory");
    asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(state) : "r"(mbar) : "memory");
    asm volatile("mbarrier.arrive_drop.noComplete.shared::cta.b64 %0, [%1], 1;" : "=l"(state) : "r"(mbar) : "memory");
    __syncthreads();
    if (t == 0)
        asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(mbar) : "memory");
    out[t] = tile[(t + 1) % 128];
    out[t + 1].x = done;
#endif
}

// What the CUDA pipeline APIs lower to.
__global__ void pipeline_api(const float *in, float *out)
{
    __shared__ float buf[256];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&buf[t], &in[t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    auto pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[(t + 1) % 256], &in[t + 256], sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    out[t] = buf[(t + 2) % 256];
    pipe.consumer_release();
}

#if STRESS_SM90
__global__ void __cluster_dims__(2, 1, 1) mbarrier_sem_scope(unsigned *out)
{
    __shared__ __align__(8) unsigned long long bar;
    unsigned mbar = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned long long st;
    unsigned ok, acc = 0, remote;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(mbar), "r"(blockDim.x) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], 16;" ::"r"(mbar) : "memory");
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 16;" ::"r"(mbar) : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], 32;" : "=l"(st) : "r"(mbar) : "memory");
    asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 %0, [%1], 32;" : "=l"(st) : "r"(mbar) : "memory");
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(mbar) : "memory");
    asm volatile("mbarrier.arrive.relaxed.cta.shared::cta.b64 %0, [%1], 2;" : "=l"(st) : "r"(mbar) : "memory");
    asm volatile("mbarrier.arrive.release.cluster.shared.b64 %0, [%1];" : "=l"(st) : "r"(mbar) : "memory");
    asm volatile("mbarrier.arrive_drop.release.cta.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(mbar) : "memory");
    asm volatile("mbarrier.arrive_drop.relaxed.cluster.shared::cta.b64 %0, [%1], 1;" : "=l"(st) : "r"(mbar) : "memory");
    asm volatile("mbarrier.arrive_drop.expect_tx.shared::cta.b64 %0, [%1], 8;" : "=l"(st) : "r"(mbar) : "memory");
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(mbar), "r"(1));
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
    asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0], 1;" ::"r"(remote) : "memory");
    asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], 4;" ::"r"(remote) : "memory");
    asm volatile("{ .reg .pred p; mbarrier.test_wait.acquire.cta.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(mbar), "l"(st) : "memory");
    acc += ok;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.relaxed.cluster.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(mbar), "l"(st) : "memory");
    acc += ok;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(mbar), "l"(st) : "memory");
    acc += ok;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.acquire.cluster.shared::cta.b64 p, [%1], %2, 1000; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(mbar), "l"(st) : "memory");
    acc += ok;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(mbar), "r"(1) : "memory");
    acc += ok;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(mbar), "r"(0) : "memory");
    acc += ok;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(mbar), "r"(0) : "memory");
    acc += ok;
    asm volatile("fence.acquire.cluster;" ::: "memory");
    out[threadIdx.x] = acc;
}

__global__ void __cluster_dims__(2, 1, 1) bulk_copies(const __grid_constant__ CUtensorMap tmap,
                                                        const int4 *in, int4 *out, float *fout)
{
    __shared__ __align__(128) int4 tile[256];
    __shared__ __align__(128) int4 tile2[256];
    __shared__ __align__(8) unsigned long long bar;
    unsigned dst = (unsigned)__cvta_generic_to_shared(tile);
    unsigned src2 = (unsigned)__cvta_generic_to_shared(tile2);
    unsigned mbar = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned long long tm = (unsigned long long)&tmap;
    unsigned long long st, pol;
    unsigned remote, rbar;
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mbar) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(dst), "r"(1));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rbar) : "r"(mbar), "r"(1));
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 4096, [%2];"
                     ::"r"(dst), "l"(in), "r"(mbar) : "memory");
#if STRESS_SM90A // ptxas advises multicast only for sm_90a
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;"
                     ::"r"(dst), "l"(in), "r"(1024), "r"(mbar), "h"((unsigned short)3) : "memory");
#endif
        asm volatile("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];"
                     ::"r"(dst), "l"(in), "r"(mbar) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 512, [%2];"
                     ::"r"(remote), "r"(src2), "r"(rbar) : "memory");
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 4096;" ::"l"(out), "r"(src2) : "memory");
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], 128, %2;"
                     ::"l"(out), "r"(src2), "l"(pol) : "memory");
        asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], 256, [%2];"
                     ::"r"(remote), "r"(src2), "r"(rbar) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 256;"
                     ::"l"(fout), "r"(src2) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [%0], [%1], 64;"
                     ::"l"(out), "r"(src2) : "memory");
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.noftz.add.f16 [%0], [%1], 64;"
                     ::"l"(out), "r"(src2) : "memory");
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], 4096;" ::"l"(in) : "memory");
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                     ::"r"(dst), "l"(tm), "r"(0), "r"(mbar) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %2}], [%3];"
                     ::"r"(dst), "l"(tm), "r"(0), "r"(mbar) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %1}], [%2];"
                     ::"l"(tm), "r"(0), "r"(src2) : "memory");
        asm volatile("cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%0, {%1}], [%2];"
                     ::"l"(tm), "r"(0), "r"(src2) : "memory");
        asm volatile("cp.async.bulk.prefetch.tensor.1d.L2.global.tile [%0, {%1}];" ::"l"(tm), "r"(0) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];"
                     ::"r"(remote), "r"(7), "r"(rbar) : "memory");
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %1, %1, %1}, [%2];"
                     ::"r"(remote), "r"(7), "r"(rbar) : "memory");
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %1}, [%2];"
                     ::"r"(remote), "f"(1.0f), "r"(rbar) : "memory");
        asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];"
                     ::"r"(remote), "r"(1), "r"(rbar) : "memory");
        asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.max.s32 [%0], %1, [%2];"
                     ::"r"(remote), "r"(1), "r"(rbar) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], 4096;" : "=l"(st) : "r"(mbar) : "memory");
        STRESS_USE(st);
    }
    asm volatile("{ .reg .pred p; w: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra w; }" ::"r"(mbar) : "memory");
    out[threadIdx.x] = tile[threadIdx.x % 256];
}

__global__ void tensormap_ops(const __grid_constant__ CUtensorMap tmap, CUtensorMap *gmap)
{
    __shared__ __align__(128) CUtensorMap smap;
    if (threadIdx.x == 0)
        smap = tmap;
    __syncwarp();
    if (threadIdx.x < 32) {
        asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;"
                     ::"l"(gmap), "r"((unsigned)__cvta_generic_to_shared(&smap)) : "memory");
        asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
    }
#if STRESS_SM90A
    if (threadIdx.x == 0)
        asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;"
                     ::"r"((unsigned)__cvta_generic_to_shared(&smap)), "l"((unsigned long long)gmap) : "memory");
#endif
}

// Programmatic dependent launch.
__global__ void dependent_launch(const int *in, int *out)
{
    cudaGridDependencySynchronize(); // griddepcontrol.wait
    out[threadIdx.x] = in[threadIdx.x];
    cudaTriggerProgrammaticLaunchCompletion(); // griddepcontrol.launch_dependents
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}
#endif
