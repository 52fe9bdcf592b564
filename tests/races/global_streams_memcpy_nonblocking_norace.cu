// global_streams_memcpy_nonblocking_norace.cu: a kernel fills a table on a non-blocking
// stream, the host synchronizes that stream, then reads the table back with a
// synchronous cudaMemcpy. Twin of global_streams_memcpy_nonblocking_race.cu.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };

__global__ void produce(int *table)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    table[i] = i * 7 + 2;
}

int main()
{
    rs_require_device();
    int *table = rs_zeros<int>(N);
    static int host[N];
    cudaStream_t s;
    RS_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    produce<<<BLOCKS, THREADS, 0, s>>>(table);
    RS_CHECK(cudaGetLastError());
    RS_CHECK(cudaStreamSynchronize(s));
    RS_CHECK(cudaMemcpy(host, table, N * sizeof(int), cudaMemcpyDeviceToHost));
    uint32_t h = 2166136261u;
    for (int i = 0; i < N; i++)
        h = (h ^ (uint32_t)host[i]) * 16777619u;
    printf("host: %d values, fnv1a %08x\n", N, (unsigned)h);
    rs_print_checksum("table", table, N);
    rs_done();
    return 0;
}
