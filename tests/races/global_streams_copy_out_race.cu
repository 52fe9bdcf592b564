// global_streams_copy_out_race.cu: a kernel fills a table on one stream and a copy to
// pinned host memory on another stream reads it back, with nothing between the launch
// and the copy: the copy may take the table before, while or after the kernel writes
// it. Twin: the copy's stream waits for an event recorded after the launch.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A unordered_streams
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };

__global__ void produce(int *table)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    table[i] = i * 3 + 1;                        // race(A) write global
}

int main()
{
    rs_require_device();
    int *table = rs_zeros<int>(N), *host = nullptr;
    RS_CHECK(cudaMallocHost(&host, N * sizeof(int)));
    cudaStream_t s1, s2;
    cudaEvent_t filled;
    RS_CHECK(cudaStreamCreate(&s1));
    RS_CHECK(cudaStreamCreate(&s2));
    RS_CHECK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
    produce<<<BLOCKS, THREADS, 0, s1>>>(table);
    RS_CHECK(cudaGetLastError());
    RS_CHECK(cudaMemcpyAsync(host, table, N * sizeof(int), cudaMemcpyDeviceToHost, s2));   // race(A) copy.read global
    RS_LAUNCHED();
    // The table only: what the copy took of it may differ from run to run.
    rs_print_checksum("table", table, N);
    RS_CHECK(cudaFreeHost(host));
    rs_done();
    return 0;
}
