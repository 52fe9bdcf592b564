// global_graph_nodes_norace.cu: a graph of a memset node, a kernel node, a copy node
// and a child graph holding a second kernel, each after the one before, launched
// three times on one stream, then an ordinary kernel on that stream that reads what
// the graph left: every node ordered by an edge, every launch after the one before.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };

__global__ void bump(int *v, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    v[i] = v[i] * 2 + i + k;
}

__global__ void total(const int *v, const int *w, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = v[N - 1 - i] + w[i];
}

static cudaGraphNode_t add_bump(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, void **args)
{
    cudaKernelNodeParams p = {};
    p.func = (void *)bump;
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
    int *v = rs_zeros<int>(N), *w = rs_zeros<int>(N), *out = rs_zeros<int>(N);
    int one = 1, two = 2;
    void *first_args[] = {&v, &one}, *second_args[] = {&w, &two};
    cudaGraph_t g, child;
    RS_CHECK(cudaGraphCreate(&g, 0));
    RS_CHECK(cudaGraphCreate(&child, 0));
    cudaMemsetParams set = {};
    set.dst = v;
    set.value = 0;
    set.elementSize = 4;
    set.width = N;
    set.height = 1;
    cudaGraphNode_t set_node, bump_node, copy_node, child_node;
    RS_CHECK(cudaGraphAddMemsetNode(&set_node, g, nullptr, 0, &set));
    bump_node = add_bump(g, &set_node, 1, first_args);
    RS_CHECK(cudaGraphAddMemcpyNode1D(&copy_node, g, &bump_node, 1, w, v, N * sizeof(int),
                                      cudaMemcpyDeviceToDevice));
    add_bump(child, nullptr, 0, second_args);
    RS_CHECK(cudaGraphAddChildGraphNode(&child_node, g, &copy_node, 1, child));
    cudaGraphExec_t exec;
    RS_CHECK(cudaGraphInstantiate(&exec, g, 0));
    cudaStream_t s;
    RS_CHECK(cudaStreamCreate(&s));
    for (int round = 0; round < 3; round++)
        RS_CHECK(cudaGraphLaunch(exec, s));
    total<<<BLOCKS, THREADS, 0, s>>>(v, w, out);
    RS_LAUNCHED();
    rs_print_checksum("v", v, N);
    rs_print_checksum("w", w, N);
    rs_print_checksum("out", out, N);
    rs_done();
    return 0;
}
