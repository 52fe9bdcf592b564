// sgemm_tiled.cu: C = A * B for 1024 x 1024 single-precision matrices, the classic
// shared-memory tiling: each 32 x 32 block stages a tile of A and a tile of B in shared
// memory, synchronizes, accumulates, and synchronizes again before the next tiles.
// One thread per element of C; one launch per run. The host side (data, exact check)
// is sgemm.h's.
#include "sgemm.h"

enum { TILE = SGEMM_TILE };

__global__ void sgemm_tiled(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        a_tile[ty][tx] = a[row * n + t + tx];
        b_tile[ty][tx] = b[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += a_tile[ty][k] * b_tile[k][tx];
        // The next tiles overwrite what other threads may still be reading.
        __syncthreads();
    }
    c[row * n + col] = acc;
}

int main(int argc, char **argv)
{
    return sgemm_main(argc, argv, "sgemm_tiled", sgemm_tiled);
}
