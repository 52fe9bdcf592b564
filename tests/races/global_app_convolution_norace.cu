// global_app_convolution_norace.cu: the full 1-D convolution of 2^18 integers with 31
// taps, scattered: each block takes a tile of 1024 inputs and adds w[k] * x[i] into
// y[i + k] in shared memory with atomicAdd_block (block scope is enough there: only the
// block's threads see its shared memory). It stores the outputs that only it produces;
// the 30 outputs on either side of those, which the neighbouring block produces too, it
// adds into global memory with atomicAdd, whose device scope includes that block.
// SCORD-CATEGORY: 5
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { N = 1 << 18, TAPS = 31, TILE = 1024, THREADS = 256 };
enum { BLOCKS = N / TILE, SPAN = TILE + TAPS - 1, OUTPUTS = N + TAPS - 1 };

__global__ void convolve(const int *x, const int *w, int *y)
{
    __shared__ int acc[SPAN];
    __shared__ int taps[TAPS];
    for (int j = threadIdx.x; j < SPAN; j += THREADS)
        acc[j] = 0;
    if (threadIdx.x < TAPS)
        taps[threadIdx.x] = w[threadIdx.x];
    __syncthreads();
    int base = blockIdx.x * TILE;
    for (int i = threadIdx.x; i < TILE; i += THREADS) {
        int xi = x[base + i];
        for (int k = 0; k < TAPS; k++)
            atomicAdd_block(&acc[i + k], taps[k] * xi);
    }
    __syncthreads();
    for (int j = threadIdx.x; j < SPAN; j += THREADS) {
        int *out = &y[base + j];
        if (j < TAPS - 1)
            atomicAdd(out, acc[j]);     // left halo: the previous block adds here too
        else if (j >= TILE)
            atomicAdd(out, acc[j]);     // right halo: the next block adds here too
        else
            *out = acc[j];
    }
}

int main()
{
    rs_require_device();
    static int xs[N], ws[TAPS], ys[OUTPUTS];
    for (int i = 0; i < N; i++)
        xs[i] = int(i * 2654435761u >> 11 & 15) - 8;
    for (int k = 0; k < TAPS; k++)
        ws[k] = (k * 7) % 9 - 4;
    int *x = rs_fill<int>(N, [](size_t i) { return xs[i]; });
    int *w = rs_fill<int>(TAPS, [](size_t k) { return ws[k]; });
    int *y = rs_zeros<int>(OUTPUTS);
    convolve<<<BLOCKS, THREADS>>>(x, w, y);
    RS_LAUNCHED();

    for (int i = 0; i < N; i++)
        for (int k = 0; k < TAPS; k++)
            ys[i + k] += ws[k] * xs[i];
    int *got = rs_download(y, OUTPUTS);
    bool same = memcmp(got, ys, sizeof ys) == 0;
    free(got);
    if (!same)
        rs_die("the convolution differs from the host reference");
    rs_print_checksum("convolution", y, OUTPUTS);
    rs_done();
    return 0;
}
