// cluster.cu: PTX front-end test input for sm_90: thread block clusters with
// distributed shared memory, cluster barriers and the cluster launch directives.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) dsmem(int *out)
{
    __shared__ int buf[64];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    buf[threadIdx.x % 64] = (int)(rank * 100 + threadIdx.x);
    cluster.sync();
    int *peer = cluster.map_shared_rank(buf, (rank + 1) % 2);
    out[blockIdx.x * blockDim.x + threadIdx.x] = peer[threadIdx.x % 64];
    cluster.sync();
}

__global__ void __launch_bounds__(128, 1, 4) bounded(float *out)
{
    out[threadIdx.x] = __fsqrt_rn((float)threadIdx.x);
}
