// SCORD-PTX-TARGETS: sm_75 sm_90
// CUB block and warp reductions: templates, inlined device functions and
// shared temporary storage.
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>

__global__ void cub_sums(const int *in, int *block_out, int *warp_out)
{
    typedef cub::BlockReduce<int, 128> BlockReduce;
    typedef cub::WarpReduce<int> WarpReduce;
    __shared__ typename BlockReduce::TempStorage block_tmp;
    __shared__ typename WarpReduce::TempStorage warp_tmp[4];
    int v = in[blockIdx.x * 128 + threadIdx.x];
    int sum = BlockReduce(block_tmp).Sum(v);
    int wsum = WarpReduce(warp_tmp[threadIdx.x / 32]).Sum(v);
    if (threadIdx.x == 0)
        block_out[blockIdx.x] = sum;
    if ((threadIdx.x & 31) == 0)
        warp_out[blockIdx.x * 4 + threadIdx.x / 32] = wsum;
}
