/* intercept_graph_plan.c: a graph read into a plan (intercept_graph_plan.h). */
#include "intercept/intercept_graph_plan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* NULL when scord can issue the node: a kernel the device cannot update, a copy, a
 * memset, a host function, an event record or wait, an empty node (a child graph's
 * nodes are asked one by one); else what it is, for the diagnostic. */
static const char *node_refused(const ScGraphQueries *q, CUgraphNode node, CUgraphNodeType type)
{
    CUkernelNodeAttrValue v;
    switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        memset(&v, 0, sizeof v);
        return q->kernel_attr(node, CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &v) == CUDA_SUCCESS &&
                       v.deviceUpdatableKernelNode.deviceUpdatable
                   ? "a kernel node the device may update"
                   : NULL;
    case CU_GRAPH_NODE_TYPE_GRAPH:
    case CU_GRAPH_NODE_TYPE_MEMCPY:
    case CU_GRAPH_NODE_TYPE_MEMSET:
    case CU_GRAPH_NODE_TYPE_HOST:
    case CU_GRAPH_NODE_TYPE_EMPTY:
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return NULL;
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
        return "an external semaphore signal node";
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
        return "an external semaphore wait node";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        return "a memory allocation node";
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        return "a memory free node";
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        return "a batch memory operation node";
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        return "a conditional node";
    default:
        return "a node of a type scord does not know";
    }
}

static const char *unsupported(const ScGraphQueries *q, CUgraph graph, int depth)
{
    size_t n = 0;
    if (depth > 16)
        return "child graphs nested more than 16 deep";
    if (q->get_nodes(graph, NULL, &n) != CUDA_SUCCESS)
        return "the driver did not list its nodes";
    CUgraphNode *nodes = calloc(n ? n : 1, sizeof *nodes);
    const char *why = !nodes                                                 ? "out of memory"
                      : n && q->get_nodes(graph, nodes, &n) != CUDA_SUCCESS ? "the driver did not list its nodes"
                                                                             : NULL;
    for (size_t i = 0; !why && i < n; i++) {
        CUgraphNodeType type;
        CUgraph child;
        if (q->node_type(nodes[i], &type) != CUDA_SUCCESS)
            why = "the driver did not tell a node's type";
        else if (type != CU_GRAPH_NODE_TYPE_GRAPH)
            why = node_refused(q, nodes[i], type);
        else
            why = q->child_graph(nodes[i], &child) != CUDA_SUCCESS ? "the driver did not give a child graph"
                                                                   : unsupported(q, child, depth + 1);
    }
    free(nodes);
    return why;
}

const char *sc_graph_unsupported(const ScGraphQueries *q, CUgraph graph)
{
    return unsupported(q, graph, 0);
}

void sc_graph_plan_free(ScGraphPlan *plan)
{
    if (!plan)
        return;
    for (size_t i = 0; i < plan->n_ops; i++)
        free(plan->ops[i].preds);
    free(plan->ops);
    free(plan->key_space);
    free(plan);
}

static size_t plan_add(ScGraphPlan *plan, CUgraphNodeType type)
{
    if (plan->n_ops == plan->cap_ops) {
        size_t cap = plan->cap_ops ? 2 * plan->cap_ops : 16;
        ScGraphOp *v = realloc(plan->ops, cap * sizeof *v);
        if (!v)
            return SIZE_MAX;
        plan->ops = v;
        plan->cap_ops = cap;
    }
    plan->ops[plan->n_ops] = (ScGraphOp){.type = type};
    return plan->n_ops++;
}

static bool op_wait(ScGraphPlan *plan, size_t op, size_t pred)
{
    ScGraphOp *o = &plan->ops[op];
    size_t *v = realloc(o->preds, (o->n_preds + 1) * sizeof *v);
    if (!v)
        return false;
    v[o->n_preds++] = pred;
    o->preds = v;
    return true;
}

/* Records the first query that failed; false, for the callers to return. */
static bool failed(ScGraphPlanError *err, const char *what, CUresult code)
{
    if (!err->what)
        *err = (ScGraphPlanError){what, code};
    return false;
}

/* Whether the query succeeded; if not, records it as the failure. */
static bool asked(ScGraphPlanError *err, const char *query, CUresult code)
{
    return code == CUDA_SUCCESS || failed(err, query, code);
}

/* Reads one node into the plan: [*first, *last] are the ops that stand for it (an
 * entry and an exit around a child graph's ops). */
static bool plan_node(const ScGraphQueries *q, ScGraphPlan *plan, CUgraphNode node, size_t *first, size_t *last,
                      int depth, ScGraphPlanError *err);

/* Reads a graph's nodes and edges into the plan; entry: the op its first nodes wait
 * for (SIZE_MAX: none), *exit_op: an op that waits for all its last nodes. */
static bool plan_graph(const ScGraphQueries *q, ScGraphPlan *plan, CUgraph graph, size_t entry, size_t *exit_op,
                       int depth, ScGraphPlanError *err)
{
    size_t n = 0, n_edges = 0;
    if (depth > 16)
        return failed(err, "child graphs nested more than 16 deep", CUDA_SUCCESS);
    if (!asked(err, "cuGraphGetNodes", q->get_nodes(graph, NULL, &n)) ||
        !asked(err, "cuGraphGetEdges", q->get_edges(graph, NULL, NULL, NULL, &n_edges)))
        return false;
    CUgraphNode *nodes = calloc(n ? n : 1, sizeof *nodes), *from = calloc(n_edges ? n_edges : 1, sizeof *from),
                *to = calloc(n_edges ? n_edges : 1, sizeof *to);
    CUgraphEdgeData *data = calloc(n_edges ? n_edges : 1, sizeof *data);
    size_t *first = calloc(n ? n : 1, sizeof *first), *last = calloc(n ? n : 1, sizeof *last);
    bool *has_pred = calloc(n ? n : 1, sizeof *has_pred), *has_succ = calloc(n ? n : 1, sizeof *has_succ);
    bool ok = (nodes && from && to && data && first && last && has_pred && has_succ) ||
              failed(err, "out of memory", CUDA_SUCCESS);
    /* Asked for none, the driver refuses arrays (CUDA 13.0 says CUDA_ERROR_INVALID_VALUE
     * to a graph without edges). */
    ok = ok && (!n || asked(err, "cuGraphGetNodes", q->get_nodes(graph, nodes, &n))) &&
         (!n_edges || asked(err, "cuGraphGetEdges", q->get_edges(graph, from, to, data, &n_edges)));
    for (size_t i = 0; ok && i < n; i++)
        ok = plan_node(q, plan, nodes[i], &first[i], &last[i], depth, err);
    /* Every edge orders its nodes whole, a programmatic one included: the nodes run one
     * after the other. */
    for (size_t e = 0; ok && e < n_edges; e++) {
        size_t u = n, v = n;
        for (size_t i = 0; i < n; i++) {
            u = nodes[i] == from[e] ? i : u;
            v = nodes[i] == to[e] ? i : v;
        }
        ok = (u < n && v < n) || failed(err, "an edge to or from a node the graph does not list", CUDA_SUCCESS);
        ok = ok && (op_wait(plan, first[v], last[u]) || failed(err, "out of memory", CUDA_SUCCESS));
        if (ok)
            has_pred[v] = has_succ[u] = true;
    }
    size_t exit = ok ? plan_add(plan, CU_GRAPH_NODE_TYPE_EMPTY) : SIZE_MAX;
    ok = ok && (exit != SIZE_MAX || failed(err, "out of memory", CUDA_SUCCESS));
    for (size_t i = 0; ok && i < n; i++) {
        if (!has_pred[i] && entry != SIZE_MAX)
            ok = op_wait(plan, first[i], entry);
        if (ok && !has_succ[i])
            ok = op_wait(plan, exit, last[i]);
        ok = ok || failed(err, "out of memory", CUDA_SUCCESS);
    }
    *exit_op = exit;
    free(nodes);
    free(from);
    free(to);
    free(data);
    free(first);
    free(last);
    free(has_pred);
    free(has_succ);
    return ok;
}

static bool plan_node(const ScGraphQueries *q, ScGraphPlan *plan, CUgraphNode node, size_t *first, size_t *last,
                      int depth, ScGraphPlanError *err)
{
    CUgraphNodeType type;
    if (!asked(err, "cuGraphNodeGetType", q->node_type(node, &type)))
        return false;
    if (type == CU_GRAPH_NODE_TYPE_GRAPH) {
        CUgraph child;
        size_t entry = plan_add(plan, CU_GRAPH_NODE_TYPE_EMPTY);
        *first = entry;
        return (entry != SIZE_MAX || failed(err, "out of memory", CUDA_SUCCESS)) &&
               asked(err, "cuGraphChildGraphNodeGetGraph", q->child_graph(node, &child)) &&
               plan_graph(q, plan, child, entry, last, depth + 1, err);
    }
    const char *refused = node_refused(q, node, type);
    if (refused)
        return failed(err, refused, CUDA_SUCCESS);
    size_t i = plan_add(plan, type);
    if (i == SIZE_MAX)
        return failed(err, "out of memory", CUDA_SUCCESS);
    *first = *last = i;
    ScGraphOp *o = &plan->ops[i];
    CUkernelNodeAttrValue v;
    switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        if (!asked(err, "cuGraphKernelNodeGetParams", q->kernel_params(node, &o->u.kernel.p)))
            return false;
        o->u.kernel.func = o->u.kernel.p.func;
        if (!o->u.kernel.func && !o->u.kernel.p.kern)
            return failed(err, "a kernel node with neither a function nor a kernel", CUDA_SUCCESS);
        if (!o->u.kernel.func &&
            !asked(err, "cuKernelGetFunction", q->kernel_function(&o->u.kernel.func, o->u.kernel.p.kern)))
            return false;
        memset(&v, 0, sizeof v);
        o->u.kernel.cooperative = q->kernel_attr(node, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v) == CUDA_SUCCESS &&
                                  v.cooperative;
        memset(&v, 0, sizeof v);
        if (q->kernel_attr(node, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &v) == CUDA_SUCCESS) {
            o->u.kernel.cluster[0] = v.clusterDim.x;
            o->u.kernel.cluster[1] = v.clusterDim.y;
            o->u.kernel.cluster[2] = v.clusterDim.z;
        }
        return true;
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return asked(err, "cuGraphMemcpyNodeGetParams", q->memcpy_params(node, &o->u.copy));
    case CU_GRAPH_NODE_TYPE_MEMSET:
        if (!asked(err, "cuGraphMemsetNodeGetParams", q->memset_params(node, &o->u.set)))
            return false;
        return o->u.set.elementSize == 1 || o->u.set.elementSize == 2 || o->u.set.elementSize == 4 ||
               failed(err, "a memset node of an element size other than 1, 2 or 4", CUDA_SUCCESS);
    case CU_GRAPH_NODE_TYPE_HOST:
        return asked(err, "cuGraphHostNodeGetParams", q->host_params(node, &o->u.host));
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return asked(err, "cuGraphEventRecordNodeGetEvent", q->record_event(node, &o->u.event));
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return asked(err, "cuGraphEventWaitNodeGetEvent", q->wait_event(node, &o->u.event));
    default: /* an empty node: node_refused let no other type through */
        return true;
    }
}

/* Orders the ops so that each comes after the ops it waits for (Kahn); false on a
 * cycle, which a graph cannot have. */
static bool plan_sort(ScGraphPlan *plan)
{
    size_t n = plan->n_ops, *order = malloc((n ? n : 1) * sizeof *order), *indeg = calloc(n ? n : 1, sizeof *indeg),
           *map = malloc((n ? n : 1) * sizeof *map), done = 0;
    bool ok = order && indeg && map;
    for (size_t i = 0; ok && i < n; i++)
        indeg[i] = plan->ops[i].n_preds;
    while (ok && done < n) {
        size_t pick = n;
        for (size_t i = 0; i < n && pick == n; i++)
            if (indeg[i] == 0)
                pick = i;
        if (pick == n) {
            ok = false;
            break;
        }
        indeg[pick] = SIZE_MAX;
        order[done++] = pick;
        for (size_t j = 0; j < n; j++)
            for (size_t k = 0; k < plan->ops[j].n_preds; k++)
                if (plan->ops[j].preds[k] == pick)
                    indeg[j]--;
    }
    if (ok) {
        ScGraphOp *sorted = malloc((n ? n : 1) * sizeof *sorted);
        ok = sorted != NULL;
        for (size_t i = 0; ok && i < n; i++)
            map[order[i]] = i;
        for (size_t i = 0; ok && i < n; i++) {
            sorted[i] = plan->ops[order[i]];
            for (size_t k = 0; k < sorted[i].n_preds; k++)
                sorted[i].preds[k] = map[sorted[i].preds[k]];
        }
        if (ok) {
            free(plan->ops);
            plan->ops = sorted;
            plan->cap_ops = n;
        }
    }
    free(order);
    free(indeg);
    free(map);
    return ok;
}

ScGraphPlan *sc_graph_plan_make(const ScGraphQueries *q, CUgraph graph, ScGraphPlanError *err)
{
    *err = (ScGraphPlanError){0};
    ScGraphPlan *plan = calloc(1, sizeof *plan);
    size_t exit;
    bool ok = plan ? plan_graph(q, plan, graph, SIZE_MAX, &exit, 0, err) : failed(err, "out of memory", CUDA_SUCCESS);
    ok = ok && (plan_sort(plan) || failed(err, "a cycle of edges", CUDA_SUCCESS));
    ok = ok && ((plan->key_space = malloc(plan->n_ops ? plan->n_ops : 1)) != NULL ||
                failed(err, "out of memory", CUDA_SUCCESS));
    if (!ok) {
        sc_graph_plan_free(plan);
        return NULL;
    }
    return plan;
}
