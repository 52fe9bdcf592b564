// SCORD-PTX-TARGETS: sm_75 sm_90
// Warp-synchronous code: shuffles, votes, __syncwarp with full and partial
// masks, and a warp-level exchange through shared memory.
__global__ void warp_ops(const int *in, int *out)
{
    __shared__ int slots[32];
    unsigned lane = threadIdx.x & 31;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    slots[lane] = v;
    __syncwarp(); // SITE: syncwarp_full
    int neighbour = slots[(lane + 1) & 31];
    __syncwarp();
    unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    int x = __shfl_xor_sync(half, v, 1);
    __syncwarp(half); // SITE: syncwarp_half
    unsigned ballot = __ballot_sync(0xffffffffu, x > neighbour);
    if (__all_sync(0xffffffffu, v >= 0))
        out[blockIdx.x * blockDim.x + threadIdx.x] = x + neighbour + __popc(ballot);
}
