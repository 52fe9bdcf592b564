// launch_ex.cu: cudaLaunchKernelEx with launch attributes: thread-block clusters of two
// (sm_90) whose blocks read each other's shared memory, and a launch with a stream priority.
#include <cooperative_groups.h>

#include "pt_rt.h"

namespace cg = cooperative_groups;

enum { N = 1u << 16, BLOCK = 256, GRID = 32, CLUSTER = 2 };

// Block b sums its chunk, then adds twice the sum its cluster peer holds in shared memory.
__global__ void cluster_sums(const unsigned *in, unsigned *out, unsigned chunk)
{
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ unsigned part[BLOCK];
    __shared__ unsigned total;
    unsigned acc = 0;
    for (unsigned i = threadIdx.x; i < chunk; i += blockDim.x)
        acc += in[blockIdx.x * chunk + i];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        total = part[0];
    cluster.sync();
    if (threadIdx.x == 0) {
        unsigned peer = (cluster.block_rank() + 1) % cluster.num_blocks();
        out[blockIdx.x] = total + 2u * *cluster.map_shared_rank(&total, peer);
    }
    // The peer reads this block's shared memory: it must stay alive until then.
    cluster.sync();
}

__global__ void fill(unsigned *v, unsigned n)
{
    PT_FOR_EACH(i, n) v[i] = pt_mix32(i);
}

int main()
{
    pt_rt_require_device();
    int dev = 0, clusters = 0;
    PT_RT(cudaGetDevice(&dev));
    PT_RT(cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, dev));
    if (!clusters)
        pt_die("this GPU has no thread-block clusters (needs sm_90 or newer)");
    int least = 0, greatest = 0;
    PT_RT(cudaDeviceGetStreamPriorityRange(&least, &greatest));

    unsigned *in, *out;
    PT_RT(cudaMalloc(&in, N * sizeof *in));
    PT_RT(cudaMalloc(&out, GRID * sizeof *out));

    cudaLaunchAttribute priority[1];
    priority[0].id = cudaLaunchAttributePriority;
    priority[0].val.priority = greatest;
    cudaLaunchConfig_t fill_cfg = {};
    fill_cfg.gridDim = dim3(64);
    fill_cfg.blockDim = dim3(BLOCK);
    fill_cfg.attrs = priority;
    fill_cfg.numAttrs = 1;
    PT_RT(cudaLaunchKernelEx(&fill_cfg, fill, in, (unsigned)N));

    cudaLaunchAttribute cluster[1];
    cluster[0].id = cudaLaunchAttributeClusterDimension;
    cluster[0].val.clusterDim.x = CLUSTER;
    cluster[0].val.clusterDim.y = 1;
    cluster[0].val.clusterDim.z = 1;
    cudaLaunchConfig_t sum_cfg = {};
    sum_cfg.gridDim = dim3(GRID);
    sum_cfg.blockDim = dim3(BLOCK);
    sum_cfg.attrs = cluster;
    sum_cfg.numAttrs = 1;
    const unsigned *in_c = in;
    PT_RT(cudaLaunchKernelEx(&sum_cfg, cluster_sums, in_c, out, (unsigned)(N / GRID)));
    PT_RT(cudaDeviceSynchronize());

    unsigned got[GRID], sums[GRID], want[GRID];
    PT_RT(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (unsigned b = 0; b < GRID; b++) {
        sums[b] = 0;
        for (unsigned i = 0; i < N / GRID; i++)
            sums[b] += pt_mix32(b * (N / GRID) + i);
    }
    for (unsigned b = 0; b < GRID; b++) {
        unsigned base = b - b % CLUSTER, peer = base + (b % CLUSTER + 1) % CLUSTER;
        want[b] = sums[b] + 2u * sums[peer];
    }
    pt_expect_u32("cluster sums", got, want, GRID);
    pt_print_u32("cluster sums", got, GRID);
    PT_RT(cudaFree(in));
    PT_RT(cudaFree(out));
    printf("launch_ex: ok\n");
    return 0;
}
