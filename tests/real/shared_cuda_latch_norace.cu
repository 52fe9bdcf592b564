// shared_cuda_latch_norace.cu: two block-scope cuda::latch objects in shared memory, built
// by thread 0 with placement new before a __syncthreads, hand a tile between the two
// halves of each block of 256 threads: the producers (warps 0-3) load pairs of inputs into
// shared memory and count_down `loaded` without waiting; the consumers (warps 4-7) wait on
// it, combine the pairs into a second shared array and count_down `combined`; the
// producers wait on that and write the results out. Race-free: count_down is a release,
// wait an acquire of the latch's counter, so each latch orders one half's shared writes
// before the other half's reads; no phase needs a __syncthreads. 96 blocks.
// SCORD-CATEGORY: 1
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <cuda/latch>
#include <new>
#include <vector>

enum { THREADS = 256, HALF = THREADS / 2, BLOCKS = 96, PER_BLOCK = 2 * HALF };

using block_latch = cuda::latch<cuda::thread_scope_block>;

__device__ int combine(int a, int b) { return a * 3 + b - (a ^ b) % 7; }

__global__ void pair_combine(const int *in, int *out)
{
    __shared__ int pairs[PER_BLOCK];
    __shared__ int combined_values[HALF];
    // A latch has no default constructor: raw shared storage, constructed in place.
    __shared__ alignas(block_latch) unsigned char loaded_mem[sizeof(block_latch)];
    __shared__ alignas(block_latch) unsigned char combined_mem[sizeof(block_latch)];
    block_latch &loaded = *reinterpret_cast<block_latch *>(loaded_mem);
    block_latch &combined = *reinterpret_cast<block_latch *>(combined_mem);
    if (threadIdx.x == 0) {
        new (&loaded) block_latch(HALF);
        new (&combined) block_latch(HALF);
    }
    __syncthreads();

    const int *src = in + blockIdx.x * PER_BLOCK;
    int t = threadIdx.x;
    if (t < HALF) {
        // Producers: two inputs each, then signal without waiting.
        pairs[2 * t] = src[2 * t];
        pairs[2 * t + 1] = src[2 * t + 1];
        loaded.count_down();
        // ... and collect what the consumers made.
        combined.wait();
        out[blockIdx.x * HALF + t] = combined_values[HALF - 1 - t];
    } else {
        int c = t - HALF;
        loaded.wait();
        combined_values[c] = combine(pairs[2 * c], pairs[2 * c + 1]);
        combined.count_down();
    }
}

int main()
{
    rs_require_device();
    const int n = BLOCKS * PER_BLOCK, m = BLOCKS * HALF;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (int)((i * 2654435761u) >> 22);
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *out = rs_zeros<int>(m);
    pair_combine<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    int *got = rs_download(out, m);
    int bad = 0;
    long long sum = 0;
    for (int b = 0; b < BLOCKS; b++)
        for (int t = 0; t < HALF; t++) {
            int c = HALF - 1 - t, a = h[b * PER_BLOCK + 2 * c], d = h[b * PER_BLOCK + 2 * c + 1];
            int want = a * 3 + d - (a ^ d) % 7;
            bad += got[b * HALF + t] != want;
            sum += want;
        }
    printf("cuda::latch hand-off: %d results, sum %lld, %d wrong\n", m, sum, bad);
    free(got);
    rs_done();
    return bad != 0;
}
