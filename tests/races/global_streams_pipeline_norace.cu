// global_streams_pipeline_norace.cu: the copy/compute overlap pattern: four streams,
// each copying its chunk in (cudaMemcpyAsync from pinned memory), scaling it in place
// and copying it out, then one kernel on the legacy default stream that sums every
// chunk, which waits for all four blocking streams. The chunks' kernels are unordered
// with each other but touch disjoint words: no race anywhere.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { STREAMS = 4, BLOCKS = 4, THREADS = 128, CHUNK = BLOCKS * THREADS, N = STREAMS * CHUNK };

__global__ void scale(int *chunk, int factor)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    chunk[i] = chunk[i] * factor + 1;
}

__global__ void sum_chunks(const int *data, int *sums)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int total = 0;
    for (int c = 0; c < STREAMS; c++)
        total += data[c * CHUNK + i];
    sums[i] = total;
}

int main()
{
    rs_require_device();
    int *host = nullptr, *data = rs_zeros<int>(N), *sums = rs_zeros<int>(CHUNK);
    RS_CHECK(cudaMallocHost(&host, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        host[i] = i % 97;
    cudaStream_t s[STREAMS];
    for (int c = 0; c < STREAMS; c++) {
        RS_CHECK(cudaStreamCreate(&s[c]));
        int *chunk = data + c * CHUNK, *back = host + c * CHUNK;
        RS_CHECK(cudaMemcpyAsync(chunk, back, CHUNK * sizeof(int), cudaMemcpyHostToDevice, s[c]));
        scale<<<BLOCKS, THREADS, 0, s[c]>>>(chunk, c + 2);
        RS_CHECK(cudaGetLastError());
        RS_CHECK(cudaMemcpyAsync(back, chunk, CHUNK * sizeof(int), cudaMemcpyDeviceToHost, s[c]));
    }
    sum_chunks<<<BLOCKS, THREADS>>>(data, sums);
    RS_LAUNCHED();
    uint32_t h = 2166136261u;
    for (int i = 0; i < N; i++)
        h = (h ^ (uint32_t)host[i]) * 16777619u;
    printf("host: %d values, fnv1a %08x\n", N, (unsigned)h);
    rs_print_checksum("sums", sums, CHUNK);
    RS_CHECK(cudaFreeHost(host));
    rs_done();
    return 0;
}
