// global_streams_memcpy_nonblocking_race.cu: a kernel fills a table on a non-blocking
// stream and the host reads it back with a synchronous cudaMemcpy, which runs on the
// legacy stream: that stream waits for blocking streams, not for non-blocking ones, so
// the copy may read the table before, while or after the kernel writes it. Twin: the
// host synchronizes the kernel's stream before the copy.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A unordered_streams
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };

__global__ void produce(int *table)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    table[i] = i * 7 + 2;                        // race(A) write global
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
    RS_CHECK(cudaMemcpy(host, table, N * sizeof(int), cudaMemcpyDeviceToHost));   // race(A) copy.read global
    RS_CHECK(cudaStreamSynchronize(s));
    // What the copy took may differ from run to run: the table only.
    rs_print_checksum("table", table, N);
    rs_done();
    return 0;
}
