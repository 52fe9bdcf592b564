// global_streams_device_sync_norace.cu: the host synchronizes the device
// (cudaDeviceSynchronize) between the producer on one stream and the consumer on
// another.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };

__global__ void produce(int *table)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    table[i] = i * 3 + 1;
}

__global__ void consume(const int *table, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = table[N - 1 - i] * 2;
}

int main()
{
    rs_require_device();
    int *table = rs_zeros<int>(N), *out = rs_zeros<int>(N);
    cudaStream_t s1, s2;
    cudaEvent_t filled;
    RS_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamDefault));
    RS_CHECK(cudaStreamCreate(&s2));
    RS_CHECK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
    produce<<<BLOCKS, THREADS, 0, s1>>>(table);
    RS_CHECK(cudaDeviceSynchronize());
    consume<<<BLOCKS, THREADS, 0, s2>>>(table, out);
    RS_LAUNCHED();
    rs_print_checksum("table", table, N);
    rs_print_checksum("out", out, N);
    rs_done();
    return 0;
}
