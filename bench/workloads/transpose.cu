// transpose.cu: the transpose of a 4096 x 4096 matrix of unsigned ints through a
// shared-memory tile: each 32 x 8 block reads a 32 x 32 tile row by row (coalesced),
// synchronizes, and writes it back transposed, again row by row; the tile has one
// column of padding so that reading it by columns hits 32 different banks. One launch
// per run; the result is compared in full with the input.
#include "transpose.h"

__global__ void transpose(const unsigned *in, unsigned *out, int n)
{
    __shared__ unsigned tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

static void pipeline(BenchRun *run, void *ctx)
{
    Transpose *t = (Transpose *)ctx;
    transpose<<<dim3(N / TILE, N / TILE), dim3(TILE, ROWS)>>>(t->in, t->out, N);
    BENCH_LAUNCHED(run);
}

int main(int argc, char **argv)
{
    static_assert(N % TILE == 0 && TILE % ROWS == 0, "the kernel has no partial tile");
    return transpose_main(argc, argv, "transpose", 0x5eed0601, (const void *)transpose, pipeline);
}
