// global_graph_missing_edge_race.cu: a graph built node by node holds a kernel that
// fills a table and a kernel that reads it, with no edge between them: the driver may
// run the two at once, in either order. Twin: an edge from the first to the second.
// The graph is launched three times.
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

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, void *f, void **args)
{
    cudaKernelNodeParams p = {};
    p.func = f;
    p.gridDim = dim3(BLOCKS);
    p.blockDim = dim3(THREADS);
    p.kernelParams = args;
    cudaGraphNode_t node;
    RS_CHECK(cudaGraphAddKernelNode(&node, g, deps, n, &p));
    return node;
}

int main()
{
    rs_require_device();
    int *table = rs_zeros<int>(N), *out = rs_zeros<int>(N);
    cudaGraph_t g;
    RS_CHECK(cudaGraphCreate(&g, 0));
    void *fill_args[] = {&table}, *read_args[] = {&table, &out};
    cudaGraphNode_t fill_node = add_kernel(g, nullptr, 0, (void *)produce, fill_args);
    add_kernel(g, &fill_node, 0, (void *)consume, read_args);
    cudaGraphExec_t exec;
    RS_CHECK(cudaGraphInstantiate(&exec, g, 0));
    cudaStream_t s;
    RS_CHECK(cudaStreamCreate(&s));
    for (int round = 0; round < 3; round++)
        RS_CHECK(cudaGraphLaunch(exec, s));
    RS_CHECK(cudaStreamSynchronize(s));
    RS_LAUNCHED();
    // The table only: what the consumer read of it may differ from run to run.
    rs_print_checksum("table", table, N);
    rs_done();
    return 0;
}
