// global_graph_capture_race.cu: a graph captured from two streams: the capture forks
// from s1 to s2 through an event, a kernel on s1 fills a table and a kernel on s2
// reads it, and s2 joins s1 again before the capture ends, so the two kernels are
// nodes with no path between them. Twin: s2 also waits for an event recorded after
// the first kernel. The graph is replayed twice.
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

__global__ void consume(const int *table, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = table[N - 1 - i] * 2;               // race(A) read global
}

int main()
{
    rs_require_device();
    int *table = rs_zeros<int>(N), *out = rs_zeros<int>(N);
    cudaStream_t s1, s2;
    cudaEvent_t fork, filled, join;
    RS_CHECK(cudaStreamCreate(&s1));
    RS_CHECK(cudaStreamCreate(&s2));
    RS_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    RS_CHECK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
    RS_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    cudaGraph_t g;
    RS_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    RS_CHECK(cudaEventRecord(fork, s1));
    RS_CHECK(cudaStreamWaitEvent(s2, fork, 0));
    produce<<<BLOCKS, THREADS, 0, s1>>>(table);
    consume<<<BLOCKS, THREADS, 0, s2>>>(table, out);
    RS_CHECK(cudaEventRecord(join, s2));
    RS_CHECK(cudaStreamWaitEvent(s1, join, 0));
    RS_CHECK(cudaStreamEndCapture(s1, &g));
    cudaGraphExec_t exec;
    RS_CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int round = 0; round < 2; round++)
        RS_CHECK(cudaGraphLaunch(exec, s1));
    RS_CHECK(cudaStreamSynchronize(s1));
    RS_LAUNCHED();
    // The table only: what the consumer read of it may differ from run to run.
    rs_print_checksum("table", table, N);
    rs_done();
    return 0;
}
