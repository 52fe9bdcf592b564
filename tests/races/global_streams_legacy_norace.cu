// global_streams_legacy_norace.cu: the producer runs on a stream created non-blocking
// and the consumer on the legacy default stream, which waits only for blocking streams.
// Twin: the producer's stream is a blocking one (cudaStreamDefault), so the legacy
// stream's implicit barrier orders the launches.
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
    RS_CHECK(cudaGetLastError());
    consume<<<BLOCKS, THREADS, 0, 0>>>(table, out);
    RS_LAUNCHED();
    rs_print_checksum("table", table, N);
    rs_print_checksum("out", out, N);
    rs_done();
    return 0;
}
