// graph.cu: CUDA graphs: one captured from a stream (several kernels), one built
// explicitly with a memset node and kernel nodes, each launched several times, one
// kernel node's arguments updated between launches, and one captured with a
// stream-ordered allocation and free in it (graph memory nodes), which scord must not
// track with driver calls of its own while the capture lasts.
#include "pt_rt.h"

enum { N = 1u << 18, GRID = 64, BLOCK = 256 };

__global__ void fill(unsigned *v, unsigned n, unsigned seed)
{
    PT_FOR_EACH(i, n) v[i] = pt_mix32(i ^ seed);
}

__global__ void add(unsigned *v, unsigned n, unsigned c)
{
    PT_FOR_EACH(i, n) v[i] += c;
}

__global__ void mix(unsigned *v, unsigned n)
{
    PT_FOR_EACH(i, n) v[i] = pt_mix32(v[i]);
}

static void host_add(unsigned *v, unsigned c)
{
    for (unsigned i = 0; i < N; i++)
        v[i] += c;
}

static void host_mix(unsigned *v)
{
    for (unsigned i = 0; i < N; i++)
        v[i] = pt_mix32(v[i]);
}

static void check(const char *label, const unsigned *dev, const unsigned *want)
{
    unsigned *got = (unsigned *)pt_xmalloc(N * sizeof *got);
    PT_RT(cudaMemcpy(got, dev, N * sizeof *got, cudaMemcpyDeviceToHost));
    pt_expect_u32(label, got, want, N);
    pt_print_u32(label, got, N);
    free(got);
}

static cudaGraphNode_t add_kernel_node(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n_deps,
                                       void *func, void **args)
{
    cudaKernelNodeParams p = {};
    p.func = func;
    p.gridDim = dim3(GRID);
    p.blockDim = dim3(BLOCK);
    p.kernelParams = args;
    cudaGraphNode_t node;
    PT_RT(cudaGraphAddKernelNode(&node, g, deps, n_deps, &p));
    return node;
}

int main()
{
    pt_rt_require_device();
    cudaStream_t s;
    PT_RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned *a, *b;
    PT_RT(cudaMalloc(&a, N * sizeof *a));
    PT_RT(cudaMalloc(&b, N * sizeof *b));
    unsigned *want = (unsigned *)pt_xmalloc(N * sizeof *want);

    // Captured graph: add 3, mix, add 5, applied to a four times.
    fill<<<GRID, BLOCK, 0, s>>>(a, N, 7);
    PT_RT_LAUNCHED();
    cudaGraph_t captured;
    PT_RT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    add<<<GRID, BLOCK, 0, s>>>(a, N, 3);
    mix<<<GRID, BLOCK, 0, s>>>(a, N);
    add<<<GRID, BLOCK, 0, s>>>(a, N, 5);
    PT_RT(cudaStreamEndCapture(s, &captured));
    cudaGraphExec_t captured_exec;
    PT_RT(cudaGraphInstantiate(&captured_exec, captured, 0));
    for (int r = 0; r < 4; r++)
        PT_RT(cudaGraphLaunch(captured_exec, s));
    PT_RT(cudaStreamSynchronize(s));
    for (unsigned i = 0; i < N; i++)
        want[i] = pt_mix32(i ^ 7u);
    for (int r = 0; r < 4; r++) {
        host_add(want, 3);
        host_mix(want);
        host_add(want, 5);
    }
    check("captured graph x4", a, want);

    // Explicit graph: memset b to zero, add c, mix; three launches, the third with c = 9.
    cudaGraph_t built;
    PT_RT(cudaGraphCreate(&built, 0));
    cudaMemsetParams ms = {};
    ms.dst = b;
    ms.value = 0;
    ms.elementSize = sizeof(unsigned);
    ms.width = N;
    ms.height = 1;
    cudaGraphNode_t memset_node;
    PT_RT(cudaGraphAddMemsetNode(&memset_node, built, NULL, 0, &ms));
    unsigned n = N, c = 2;
    void *add_args[] = {&b, &n, &c};
    void *mix_args[] = {&b, &n};
    cudaGraphNode_t add_node = add_kernel_node(built, &memset_node, 1, (void *)add, add_args);
    add_kernel_node(built, &add_node, 1, (void *)mix, mix_args);
    cudaGraphExec_t built_exec;
    PT_RT(cudaGraphInstantiate(&built_exec, built, 0));
    PT_RT(cudaGraphLaunch(built_exec, s));
    PT_RT(cudaGraphLaunch(built_exec, s));
    PT_RT(cudaStreamSynchronize(s));
    for (unsigned i = 0; i < N; i++)
        want[i] = pt_mix32(2);
    check("built graph x2", b, want);

    c = 9;
    cudaKernelNodeParams p = {};
    p.func = (void *)add;
    p.gridDim = dim3(GRID);
    p.blockDim = dim3(BLOCK);
    p.kernelParams = add_args;
    PT_RT(cudaGraphExecKernelNodeSetParams(built_exec, add_node, &p));
    PT_RT(cudaGraphLaunch(built_exec, s));
    PT_RT(cudaStreamSynchronize(s));
    for (unsigned i = 0; i < N; i++)
        want[i] = pt_mix32(9);
    check("built graph updated", b, want);

    // Captured graph with a scratch buffer allocated and freed inside it: fill it with
    // seed 11, add 1, copy it to b; launched twice.
    cudaGraph_t with_alloc;
    PT_RT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    unsigned *scratch;
    PT_RT(cudaMallocAsync(&scratch, N * sizeof *scratch, s));
    fill<<<GRID, BLOCK, 0, s>>>(scratch, N, 11);
    add<<<GRID, BLOCK, 0, s>>>(scratch, N, 1);
    PT_RT(cudaMemcpyAsync(b, scratch, N * sizeof *scratch, cudaMemcpyDeviceToDevice, s));
    PT_RT(cudaFreeAsync(scratch, s));
    PT_RT(cudaStreamEndCapture(s, &with_alloc));
    cudaGraphExec_t alloc_exec;
    PT_RT(cudaGraphInstantiate(&alloc_exec, with_alloc, 0));
    PT_RT(cudaGraphLaunch(alloc_exec, s));
    PT_RT(cudaGraphLaunch(alloc_exec, s));
    PT_RT(cudaStreamSynchronize(s));
    for (unsigned i = 0; i < N; i++)
        want[i] = pt_mix32(i ^ 11u) + 1;
    check("captured graph with an allocation x2", b, want);

    PT_RT(cudaGraphExecDestroy(alloc_exec));
    PT_RT(cudaGraphDestroy(with_alloc));
    PT_RT(cudaGraphExecDestroy(captured_exec));
    PT_RT(cudaGraphExecDestroy(built_exec));
    PT_RT(cudaGraphDestroy(captured));
    PT_RT(cudaGraphDestroy(built));
    PT_RT(cudaFree(a));
    PT_RT(cudaFree(b));
    PT_RT(cudaStreamDestroy(s));
    free(want);
    printf("graph: ok\n");
    return 0;
}
