// transpose_mbarrier.cu: the 4096 x 4096 transpose of transpose.cu by 1024 blocks that
// each move sixteen 32 x 32 tiles through one shared tile, synchronized by a block-scoped
// cuda::barrier (mbarrier arrive and wait on sm_90) instead of __syncthreads(): a phase
// after the tile is filled, and one after it is read out, before the next tile
// overwrites it. Every word of the tile is written by one thread and read by one other,
// so the barrier's release and acquire are what order them. One launch per run; the
// result is compared in full with the input.
#include <cuda/barrier>

#include "transpose.h"

#pragma nv_diag_suppress static_var_with_dynamic_init

enum { TILES = (N / TILE) * (N / TILE), BLOCKS = 1024 };

__global__ void transpose_mbarrier(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned tile[TILE][TILE + 1];
    __shared__ cuda::barrier<cuda::thread_scope_block> phase;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        init(&phase, TILE * ROWS);
    __syncthreads();
    for (int t = blockIdx.x; t < TILES; t += BLOCKS) {
        int tx = t % (N / TILE), ty = t / (N / TILE);
        int x = tx * TILE + threadIdx.x, y = ty * TILE + threadIdx.y;
        for (int j = 0; j < TILE; j += ROWS)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
        phase.arrive_and_wait();
        x = ty * TILE + threadIdx.x;
        y = tx * TILE + threadIdx.y;
        for (int j = 0; j < TILE; j += ROWS)
            out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
        phase.arrive_and_wait();
    }
}

static void pipeline(BenchRun *run, void *ctx)
{
    Transpose *t = (Transpose *)ctx;
    transpose_mbarrier<<<BLOCKS, dim3(TILE, ROWS)>>>(t->in, t->out, N);
    BENCH_LAUNCHED(run);
}

int main(int argc, char **argv)
{
    static_assert(N % TILE == 0 && TILE % ROWS == 0 && TILES % BLOCKS == 0, "no partial tile or round");
    return transpose_main(argc, argv, "transpose_mbarrier", 0x5eed0a01, (const void *)transpose_mbarrier,
                          pipeline);
}
