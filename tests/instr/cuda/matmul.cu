// SCORD-PTX-TARGETS: sm_75 sm_90
// Tiled matrix multiply through shared memory: the instrumentation tests
// check that its shared and global accesses and both barriers are sites
// with the right source lines (the SITE comments name them).
#define TILE 16

extern "C" __global__ void matmul(const float *a, const float *b, float *c, int n)
{
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        ta[ty][tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0.0f; // SITE: load_a
        tb[ty][tx] = col < n && t + ty < n ? b[(t + ty) * n + col] : 0.0f;
        __syncthreads(); // SITE: sync_loaded
        for (int k = 0; k < TILE; k++)
            acc += ta[ty][k] * tb[k][tx]; // SITE: use_tiles
        __syncthreads(); // SITE: sync_used
    }
    if (row < n && col < n)
        c[row * n + col] = acc; // SITE: store_c
}
