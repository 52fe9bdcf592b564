// racy_histogram.cu: scord's bundled example: a byte histogram built per block in shared
// memory and merged into global memory, with two bugs that are real data races: a
// missing __syncthreads() before the merge, and a merge by plain read-modify-write.
// Its result may change from run to run; `make example` runs it under scord.
// SCORD-EXPECT: 3 races
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

enum { N = 1 << 24, BINS = 256, BLOCKS = 128, THREADS = 256 };

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t e_ = (call);                                                     \
        if (e_ != cudaSuccess) {                                                     \
            fprintf(stderr, "racy_histogram: %s failed: %s\n", #call,                \
                    cudaGetErrorString(e_));                                         \
            return 1;                                                                \
        }                                                                            \
    } while (0)

__global__ void histogram(const unsigned char *data, unsigned n, unsigned *hist)
{
    __shared__ unsigned bins[BINS];
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
        bins[b] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1u);      // race(A) atomic shared
    // Bug 1: no __syncthreads() here, so a thread may read a bin that other threads of
    // its block are still counting into.
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned count = bins[b];           // race(A) read shared
        // Bug 2: every block adds to the same global bins without atomicAdd, so two
        // blocks can read the same old value and one of the additions is lost.
        hist[b] += count;                   // race(B) read,write global race(C) write,write global
    }
}

int main()
{
    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess || devices == 0) {
        fprintf(stderr, "racy_histogram: no CUDA device found (cudaGetDeviceCount: %s)\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        return 1;
    }

    unsigned char *host = (unsigned char *)malloc(N);
    if (!host) {
        fprintf(stderr, "racy_histogram: out of host memory\n");
        return 1;
    }
    unsigned want[BINS] = {0};
    unsigned x = 12345;
    for (unsigned i = 0; i < N; i++) {
        x = x * 1664525u + 1013904223u;
        host[i] = (unsigned char)(x >> 24);
        want[host[i]]++;
    }

    unsigned char *data;
    unsigned *hist;
    CHECK(cudaMalloc(&data, N));
    CHECK(cudaMalloc(&hist, BINS * sizeof *hist));
    CHECK(cudaMemcpy(data, host, N, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(hist, 0, BINS * sizeof *hist));
    histogram<<<BLOCKS, THREADS>>>(data, N, hist);
    CHECK(cudaGetLastError());
    unsigned got[BINS];
    CHECK(cudaMemcpy(got, hist, sizeof got, cudaMemcpyDeviceToHost));

    unsigned long long counted = 0;
    unsigned wrong_bins = 0;
    for (unsigned b = 0; b < BINS; b++) {
        counted += got[b];
        wrong_bins += got[b] != want[b];
    }
    printf("racy_histogram: counted %llu of %u bytes; %u of %u bins wrong\n", counted,
           (unsigned)N, wrong_bins, (unsigned)BINS);
    CHECK(cudaFree(data));
    CHECK(cudaFree(hist));
    free(host);
    return 0;
}
