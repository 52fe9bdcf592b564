// sgemm_cp_async.cu: the SGEMM of sgemm_tiled.cu with its tiles staged the way
// CUTLASS's multistage main loops stage them on sm_80 and later: two shared buffers,
// each thread copying its element of the next tiles of A and B with cp.async while the
// block multiplies the current ones, one cp.async group per tile step, wait_group 1
// before the barrier that publishes a step's tiles, and a barrier after the products so
// that the next copies into a buffer come after every read of it. Compiled for an older
// target (the compute_75 PTX), the copies are plain loads and stores.
#include "sgemm.h"

enum { TILE = SGEMM_TILE };

__device__ __forceinline__ void stage(float *dst, const float *src)
{
#if __CUDA_ARCH__ >= 800
    uint32_t to = (uint32_t)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(to), "l"(src) : "memory");
#else
    *dst = *src;
#endif
}

__device__ __forceinline__ void commit_step(void)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// Every group but the newest has landed: the current step's tiles.
__device__ __forceinline__ void wait_current_step(void)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group 1;" ::: "memory");
#endif
}

__global__ void sgemm_cp_async(const float *a, const float *b, float *c, int n)
{
    __shared__ float a_tile[2][TILE][TILE];
    __shared__ float b_tile[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    stage(&a_tile[0][ty][tx], &a[row * n + tx]);
    stage(&b_tile[0][ty][tx], &b[ty * n + col]);
    commit_step();
    for (int t = 0, s = 0; t < n; t += TILE, s ^= 1) {
        if (t + TILE < n) {
            stage(&a_tile[s ^ 1][ty][tx], &a[row * n + t + TILE + tx]);
            stage(&b_tile[s ^ 1][ty][tx], &b[(t + TILE + ty) * n + col]);
        }
        commit_step(); // empty in the last step, so that the wait below keeps its count
        wait_current_step();
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += a_tile[s][ty][k] * b_tile[s][k][tx];
        // The next step's copies go into this buffer: every read of it comes first.
        __syncthreads();
    }
    c[row * n + col] = acc;
}

int main(int argc, char **argv)
{
    return sgemm_main(argc, argv, "sgemm_cp_async", sgemm_cp_async);
}
