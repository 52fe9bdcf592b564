// global_app_convolution_race.cu: the scattered 1-D convolution of
// global_app_convolution_norace.cu, but each block adds its right-hand halo into global
// memory with atomicAdd_block. The next block adds into the same outputs, as its
// left-hand halo, with atomicAdd: the cta scope of the one does not include the other's
// block, so the two are not atomic with respect to each other (atomic_scope).
// SCORD-CATEGORY: 5
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_scope
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
            atomicAdd(out, acc[j]);         // left halo  race(A) atomic.gpu global
        else if (j >= TILE)
            atomicAdd_block(out, acc[j]);   // right halo race(A) atomic.cta global
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
    // An addition the race lost would change the result: report it, do not fail.
    printf("host reference: %s\n", same ? "same" : "differs");
    rs_print_checksum("convolution", y, OUTPUTS);
    rs_done();
    return 0;
}
