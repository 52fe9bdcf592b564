// global_streams_copy_in_norace.cu: a copy from pinned host memory fills a device buffer
// on one stream and a kernel on another stream reads it, with nothing between the copy
// and the launch: the kernel may read the buffer before, while or after the copy
// writes it. Twin: the kernel's stream waits for an event recorded after the copy.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };

__global__ void consume(const int *input, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = input[N - 1 - i] * 2;
}

int main()
{
    rs_require_device();
    int *input = rs_zeros<int>(N), *out = rs_zeros<int>(N), *host = nullptr;
    RS_CHECK(cudaMallocHost(&host, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        host[i] = i * 7 + 3;
    cudaStream_t s1, s2;
    cudaEvent_t copied;
    RS_CHECK(cudaStreamCreate(&s1));
    RS_CHECK(cudaStreamCreate(&s2));
    RS_CHECK(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));
    RS_CHECK(cudaMemcpyAsync(input, host, N * sizeof(int), cudaMemcpyHostToDevice, s2));
    RS_CHECK(cudaEventRecord(copied, s2));
    RS_CHECK(cudaStreamWaitEvent(s1, copied, 0));
    consume<<<BLOCKS, THREADS, 0, s1>>>(input, out);
    RS_LAUNCHED();
    printf("consumed\n");
    rs_print_checksum("out", out, N);
    RS_CHECK(cudaFreeHost(host));
    rs_done();
    return 0;
}
