/* intercept_graphs.c: graph launches checked by running the graph's nodes one at a
 * time, in an order its edges allow, on the stream the graph was launched on, unless
 * --check-graphs false (DESIGN.md, "Graph launches").
 *
 * The device runtime has one launch descriptor per context and checks one launch at a
 * time, so a graph whose kernels the driver would start together cannot be checked as
 * it is. scord keeps a copy (cuGraphClone) of the graph each executable graph was
 * instantiated from, and on cuGraphLaunch issues its nodes itself: kernels through the
 * checked launch path, copies, memsets, host functions and event records and waits as
 * the driver calls they stand for. Nodes that the graph leaves unordered stay
 * unordered in the order of stream work (each node is work of a stream of its own,
 * waiting for its predecessors' events), so kernels and copies of the graph that race
 * are reported as unordered_streams. Issuing the nodes in one valid order changes no
 * result a race-free graph computes.
 *
 * A graph runs as the driver has it, unchecked as before, when scord cannot copy it
 * faithfully: it holds a node of another type (memory allocation and free, external
 * semaphores, batch memory operations, conditional nodes), a kernel the device may
 * update, it was instantiated for device launch, or the program changed the
 * executable graph after instantiating it (cuGraphExec*SetParams, cuGraphExecUpdate,
 * cuGraphNodeSetEnabled). */
#include <stdlib.h>
#include <string.h>

#include "intercept/intercept.h"
#include "intercept/intercept_graph_plan.h"
#include "intercept/intercept_graphs.h"
#include "intercept/intercept_streams.h"

/* The driver entry points a graph is copied and issued through: the real ones, not
 * scord's wrappers, which would count and order the nodes a second time. */
typedef struct ScDrvGraph {
    ScGraphQueries q;
    CUresult (*clone)(CUgraph *, CUgraph);
    CUresult (*destroy)(CUgraph);
    CUresult (*launch_ex)(const CUlaunchConfig *, CUfunction, void **, void **);
    ScReal_cuMemcpy3DAsync memcpy3d;
    CUresult (*memset8)(CUdeviceptr, size_t, unsigned char, size_t, size_t, CUstream);
    CUresult (*memset16)(CUdeviceptr, size_t, unsigned short, size_t, size_t, CUstream);
    CUresult (*memset32)(CUdeviceptr, size_t, unsigned int, size_t, size_t, CUstream);
    CUresult (*host_func)(CUstream, CUhostFn, void *);
    ScReal_cuEventRecord event_record;
    ScReal_cuStreamWaitEvent stream_wait;
} ScDrvGraph;

static ScDrvGraph graph_table;
static const char *graph_missing; /* the first entry point not found, NULL if none */

static void graph_resolve(void)
{
    static const struct {
        size_t offset;
        const char *symbol;
    } syms[] = {
        {offsetof(ScDrvGraph, q.get_nodes), "cuGraphGetNodes"},
        {offsetof(ScDrvGraph, q.get_edges), "cuGraphGetEdges_v2"},
        {offsetof(ScDrvGraph, q.node_type), "cuGraphNodeGetType"},
        {offsetof(ScDrvGraph, q.kernel_params), "cuGraphKernelNodeGetParams_v2"},
        {offsetof(ScDrvGraph, q.kernel_attr), "cuGraphKernelNodeGetAttribute"},
        {offsetof(ScDrvGraph, q.memcpy_params), "cuGraphMemcpyNodeGetParams"},
        {offsetof(ScDrvGraph, q.memset_params), "cuGraphMemsetNodeGetParams"},
        {offsetof(ScDrvGraph, q.host_params), "cuGraphHostNodeGetParams"},
        {offsetof(ScDrvGraph, q.child_graph), "cuGraphChildGraphNodeGetGraph"},
        {offsetof(ScDrvGraph, q.record_event), "cuGraphEventRecordNodeGetEvent"},
        {offsetof(ScDrvGraph, q.wait_event), "cuGraphEventWaitNodeGetEvent"},
        {offsetof(ScDrvGraph, q.kernel_function), "cuKernelGetFunction"},
        {offsetof(ScDrvGraph, clone), "cuGraphClone"},
        {offsetof(ScDrvGraph, destroy), "cuGraphDestroy"},
        {offsetof(ScDrvGraph, launch_ex), "cuLaunchKernelEx"},
        {offsetof(ScDrvGraph, memcpy3d), "cuMemcpy3DAsync_v2"},
        {offsetof(ScDrvGraph, memset8), "cuMemsetD2D8Async"},
        {offsetof(ScDrvGraph, memset16), "cuMemsetD2D16Async"},
        {offsetof(ScDrvGraph, memset32), "cuMemsetD2D32Async"},
        {offsetof(ScDrvGraph, host_func), "cuLaunchHostFunc"},
        {offsetof(ScDrvGraph, event_record), "cuEventRecord"},
        {offsetof(ScDrvGraph, stream_wait), "cuStreamWaitEvent"},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(syms) && !graph_missing; i++) {
        void *f = sc_driver_sym(syms[i].symbol);
        if (!f)
            graph_missing = syms[i].symbol;
        memcpy((char *)&graph_table + syms[i].offset, &f, sizeof f);
    }
}

/* The entry points, looked up once; NULL when every one was found, else the name of
 * the first that was not. */
static const char *graph_driver_missing(ScDrvGraph *d)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, graph_resolve);
    *d = graph_table;
    return graph_missing;
}

static bool graph_driver(ScDrvGraph *d)
{
    return graph_driver_missing(d) == NULL;
}

typedef struct ScGraphRec {
    CUgraphExec exec;
    CUgraph copy;      /* the graph as instantiated; NULL: it runs as the driver has it */
    ScGraphPlan *plan; /* made at its first launch */
    bool plan_failed;
} ScGraphRec;

static pthread_mutex_t graphs_lock = PTHREAD_MUTEX_INITIALIZER;
static ScGraphRec *graphs;
static size_t n_graphs, cap_graphs;

static ScGraphRec *graph_find(CUgraphExec exec)
{
    for (size_t i = 0; i < n_graphs; i++)
        if (graphs[i].exec == exec)
            return &graphs[i];
    return NULL;
}

/* Frees a plan, and the streams and events its ops were in the order of stream work. */
static void plan_free(ScGraphPlan *plan)
{
    if (!plan)
        return;
    sc_streams_forget_node((uint64_t)(uintptr_t)plan);
    for (size_t i = 0; plan->key_space && i < plan->n_ops; i++)
        sc_streams_forget_node((uint64_t)(uintptr_t)&plan->key_space[i]);
    sc_graph_plan_free(plan);
}

static void graph_forget(CUgraphExec exec)
{
    ScDrvGraph d;
    pthread_mutex_lock(&graphs_lock);
    ScGraphRec *g = graph_find(exec);
    if (g) {
        if (g->copy && graph_driver(&d))
            d.destroy(g->copy);
        plan_free(g->plan);
        *g = graphs[--n_graphs];
    }
    pthread_mutex_unlock(&graphs_lock);
}

static void graph_record(CUgraphExec exec, CUgraph graph, bool device_launch)
{
    ScDrvGraph d;
    if (!sc_ctx.detect || !sc_ctx.check_graphs)
        return;
    CUgraph copy = NULL;
    const char *missing = device_launch ? NULL : graph_driver_missing(&d);
    const char *why = device_launch ? "it was instantiated for device launch"
                      : missing     ? "the driver lacks an entry point scord issues graphs through"
                                    : sc_graph_unsupported(&d.q, graph);
    CUresult cloned = why ? CUDA_SUCCESS : d.clone(&copy, graph);
    if (cloned != CUDA_SUCCESS) {
        copy = NULL;
        why = "cuGraphClone failed";
    }
    if (why)
        sc_vlog("scord: graph exec %p runs unchecked: %s%s%s\n", (void *)exec, why, missing ? ", " : "",
                missing ? missing : "");
    else
        sc_vlog("scord: graph exec %p is checked node by node\n", (void *)exec);
    pthread_mutex_lock(&graphs_lock);
    ScGraphRec *g = graph_find(exec);
    if (!g && n_graphs == cap_graphs) {
        size_t cap = cap_graphs ? 2 * cap_graphs : 16;
        ScGraphRec *v = realloc(graphs, cap * sizeof *v);
        if (v) {
            graphs = v;
            cap_graphs = cap;
        }
    }
    if (!g && n_graphs < cap_graphs)
        g = &graphs[n_graphs++];
    if (g)
        *g = (ScGraphRec){.exec = exec, .copy = copy};
    pthread_mutex_unlock(&graphs_lock);
    if (!g && copy)
        d.destroy(copy);
}

/* The executable graph changed after it was instantiated: scord's copy no longer says
 * what it runs. */
static void graph_changed(CUresult r, CUgraphExec exec)
{
    ScDrvGraph d;
    if (r != CUDA_SUCCESS)
        return;
    pthread_mutex_lock(&graphs_lock);
    ScGraphRec *g = graph_find(exec);
    if (g && g->copy) {
        if (graph_driver(&d))
            d.destroy(g->copy);
        g->copy = NULL;
        plan_free(g->plan);
        g->plan = NULL;
    }
    pthread_mutex_unlock(&graphs_lock);
}

/* Issues one op on the stream, as the work of its own stream in the order. */
static CUresult op_issue(const ScDrvGraph *d, const ScGraphOp *o, CUstream stream)
{
    CUresult r = CUDA_SUCCESS;
    ScHostCopy ranges[2];
    size_t n = 0;
    switch (o->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        const CUDA_KERNEL_NODE_PARAMS *p = &o->u.kernel.p;
        CUlaunchAttribute attrs[2];
        unsigned n_attrs = 0;
        if (o->u.kernel.cooperative) {
            attrs[n_attrs].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
            attrs[n_attrs++].value.cooperative = 1;
        }
        if (o->u.kernel.cluster[0]) {
            attrs[n_attrs].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
            attrs[n_attrs].value.clusterDim.x = o->u.kernel.cluster[0];
            attrs[n_attrs].value.clusterDim.y = o->u.kernel.cluster[1];
            attrs[n_attrs++].value.clusterDim.z = o->u.kernel.cluster[2];
        }
        CUlaunchConfig config = {
            .gridDimX = p->gridDimX, .gridDimY = p->gridDimY, .gridDimZ = p->gridDimZ,
            .blockDimX = p->blockDimX, .blockDimY = p->blockDimY, .blockDimZ = p->blockDimZ,
            .sharedMemBytes = p->sharedMemBytes, .hStream = stream, .attrs = attrs, .numAttrs = n_attrs,
        };
        const unsigned grid[3] = {p->gridDimX, p->gridDimY, p->gridDimZ};
        const unsigned block[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};
        ScLaunchCheck chk;
        sc_rt_launch_begin(o->u.kernel.func, grid, block, p->sharedMemBytes, stream, false, p->kernelParams, &chk);
        r = d->launch_ex(&config, o->u.kernel.func, p->kernelParams, p->extra);
        if (r == CUDA_SUCCESS)
            __atomic_add_fetch(&sc_ctx.launches, 1, __ATOMIC_RELAXED);
        sc_rt_launch_end(&chk, r, stream);
        return r;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        r = d->memcpy3d(&o->u.copy, stream);
        sc_streams_copy(r, stream, ranges, sc_hostrt_memcpy3d_ranges(&o->u.copy, ranges));
        return r;
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        const CUDA_MEMSET_NODE_PARAMS *s = &o->u.set;
        r = s->elementSize == 1   ? d->memset8(s->dst, s->pitch, (unsigned char)s->value, s->width, s->height, stream)
            : s->elementSize == 2 ? d->memset16(s->dst, s->pitch, (unsigned short)s->value, s->width, s->height,
                                                stream)
                                  : d->memset32(s->dst, s->pitch, s->value, s->width, s->height, stream);
        ranges[n++] = (ScHostCopy){s->dst, s->width * s->elementSize, true, s->height > 1 ? s->pitch : 0, s->height};
        sc_streams_copy(r, stream, ranges, n);
        return r;
    }
    case CU_GRAPH_NODE_TYPE_HOST:
        return d->host_func(stream, o->u.host.fn, o->u.host.userData);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return on_cuEventRecord(d->event_record, o->u.event, stream);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return on_cuStreamWaitEvent(d->stream_wait, stream, o->u.event, 0);
    default:
        return CUDA_SUCCESS;
    }
}

/* Issues the plan's ops on the stream; each op is work of its own stream in the order
 * of stream work, after its predecessors' or, for the first ones, after the stream's
 * work before the launch. The stream's later work follows the graph's exit. */
static CUresult plan_issue(const ScDrvGraph *d, const ScGraphPlan *plan, CUstream stream)
{
    uint64_t start = (uint64_t)(uintptr_t)plan;
    sc_streams_record_real(start, stream);
    CUresult r = CUDA_SUCCESS;
    for (size_t i = 0; i < plan->n_ops && r == CUDA_SUCCESS; i++) {
        const ScGraphOp *o = &plan->ops[i];
        uint64_t key = (uint64_t)(uintptr_t)&plan->key_space[i];
        if (!o->n_preds)
            sc_streams_node_waits(key, start);
        for (size_t k = 0; k < o->n_preds; k++)
            sc_streams_node_waits(key, (uint64_t)(uintptr_t)&plan->key_space[o->preds[k]]);
        sc_streams_as_node(key);
        r = op_issue(d, o, stream);
        sc_streams_as_node(0);
        sc_streams_node_done(key);
    }
    /* The graph's exit, last in the plan, follows every op. */
    if (plan->n_ops)
        sc_streams_real_waits(stream, (uint64_t)(uintptr_t)&plan->key_space[plan->n_ops - 1]);
    return r;
}

bool sc_graphs_launch(CUgraphExec exec, CUstream stream, CUresult *result)
{
    ScDrvGraph d;
    if (!sc_ctx.detect || !sc_ctx.check_graphs || sc_rt_stream_capturing(stream) || !graph_driver(&d))
        return false;
    pthread_mutex_lock(&graphs_lock);
    ScGraphRec *g = graph_find(exec);
    if (g && g->copy && !g->plan && !g->plan_failed) {
        ScGraphPlanError err;
        g->plan = sc_graph_plan_make(&d.q, g->copy, &err);
        g->plan_failed = !g->plan;
        if (g->plan_failed && err.code != CUDA_SUCCESS)
            sc_vlog("scord: graph exec %p runs unchecked: %s returned %d\n", (void *)exec, err.what, (int)err.code);
        else if (g->plan_failed)
            sc_vlog("scord: graph exec %p runs unchecked: %s\n", (void *)exec, err.what);
    }
    static bool unseen_told;
    if (!g && !__atomic_exchange_n(&unseen_told, true, __ATOMIC_RELAXED))
        sc_vlog("scord: graph exec %p runs unchecked: scord did not see it instantiated (this is said "
                "once)\n",
                (void *)exec);
    ScGraphPlan *plan = g && g->copy ? g->plan : NULL;
    /* Held while the ops are issued: a concurrent change of the graph waits. */
    if (plan)
        *result = plan_issue(&d, plan, stream);
    pthread_mutex_unlock(&graphs_lock);
    return plan != NULL;
}

CUresult on_cuGraphInstantiateWithFlags(ScReal_cuGraphInstantiateWithFlags real, CUgraphExec *exec, CUgraph graph,
                                        unsigned long long flags)
{
    CUresult r = real(exec, graph, flags);
    if (r == CUDA_SUCCESS && exec)
        graph_record(*exec, graph, flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH);
    return r;
}

CUresult on_cuGraphInstantiateWithParams(ScReal_cuGraphInstantiateWithParams real, CUgraphExec *exec,
                                         CUgraph graph, CUDA_GRAPH_INSTANTIATE_PARAMS *params)
{
    CUresult r = real(exec, graph, params);
    if (r == CUDA_SUCCESS && exec)
        graph_record(*exec, graph, params && (params->flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH));
    return r;
}

CUresult on_cuGraphInstantiate_v2(ScReal_cuGraphInstantiate_v2 real, CUgraphExec *exec, CUgraph graph,
                                  CUgraphNode *error_node, char *log, size_t log_size)
{
    CUresult r = real(exec, graph, error_node, log, log_size);
    if (r == CUDA_SUCCESS && exec)
        graph_record(*exec, graph, false);
    return r;
}

CUresult on_cuGraphExecDestroy(ScReal_cuGraphExecDestroy real, CUgraphExec exec)
{
    CUresult r = real(exec);
    if (r == CUDA_SUCCESS)
        graph_forget(exec);
    return r;
}

/* The entry points that change an executable graph (SC_HOOK_GRAPH_CHANGE): the real
 * call, then the graph runs as the driver has it. */
#define SC_HOOK(symbol, base, handler, params, args)
#define SC_HOOK_VOID(symbol, base, handler)
#define SC_HOOK_GRAPH_CHANGE(symbol, base, handler, params, args)                                  \
    CUresult on_##handler(ScReal_##handler real, SC_UNPAREN params)                                \
    {                                                                                              \
        CUresult r = real args;                                                                    \
        graph_changed(r, exec);                                                                    \
        return r;                                                                                  \
    }
#include "intercept/intercept_hooks.def"
#undef SC_HOOK
#undef SC_HOOK_VOID
#undef SC_HOOK_GRAPH_CHANGE
