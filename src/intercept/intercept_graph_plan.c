/* intercept_graph_plan.c: a graph read into a plan (intercept_graph_plan.h). */
#include "intercept/intercept_graph_plan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool supported(const ScGraphQueries *q, CUgraph graph, int depth)
{
    size_t n = 0;
    if (depth > 16 || q->get_nodes(graph, NULL, &n) != CUDA_SUCCESS)
        return false;
    CUgraphNode *nodes = calloc(n ? n : 1, sizeof *nodes);
    bool ok = nodes && q->get_nodes(graph, nodes, &n) == CUDA_SUCCESS;
    for (size_t i = 0; ok && i < n; i++) {
        CUgraphNodeType type;
        CUkernelNodeAttrValue v;
        CUgraph child;
        ok = q->node_type(nodes[i], &type) == CUDA_SUCCESS;
        if (!ok)
            break;
        switch (type) {
        case CU_GRAPH_NODE_TYPE_KERNEL:
            memset(&v, 0, sizeof v);
            ok = q->kernel_attr(nodes[i], CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &v) != CUDA_SUCCESS ||
                 !v.deviceUpdatableKernelNode.deviceUpdatable;
            break;
        case CU_GRAPH_NODE_TYPE_GRAPH:
            ok = q->child_graph(nodes[i], &child) == CUDA_SUCCESS && supported(q, child, depth + 1);
            break;
        case CU_GRAPH_NODE_TYPE_MEMCPY:
        case CU_GRAPH_NODE_TYPE_MEMSET:
        case CU_GRAPH_NODE_TYPE_HOST:
        case CU_GRAPH_NODE_TYPE_EMPTY:
        case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
            break;
        default:
            ok = false;
        }
    }
    free(nodes);
    return ok;
}

bool sc_graph_supported(const ScGraphQueries *q, CUgraph graph)
{
    return supported(q, graph, 0);
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

/* Reads one node into the plan: [*first, *last] are the ops that stand for it (an
 * entry and an exit around a child graph's ops). */
static bool plan_node(const ScGraphQueries *q, ScGraphPlan *plan, CUgraphNode node, size_t *first, size_t *last,
                      int depth);

/* Reads a graph's nodes and edges into the plan; entry: the op its first nodes wait
 * for (SIZE_MAX: none), *exit_op: an op that waits for all its last nodes. */
static bool plan_graph(const ScGraphQueries *q, ScGraphPlan *plan, CUgraph graph, size_t entry, size_t *exit_op,
                       int depth)
{
    size_t n = 0, n_edges = 0;
    if (depth > 16 || q->get_nodes(graph, NULL, &n) != CUDA_SUCCESS ||
        q->get_edges(graph, NULL, NULL, NULL, &n_edges) != CUDA_SUCCESS)
        return false;
    CUgraphNode *nodes = calloc(n ? n : 1, sizeof *nodes), *from = calloc(n_edges ? n_edges : 1, sizeof *from),
                *to = calloc(n_edges ? n_edges : 1, sizeof *to);
    CUgraphEdgeData *data = calloc(n_edges ? n_edges : 1, sizeof *data);
    size_t *first = calloc(n ? n : 1, sizeof *first), *last = calloc(n ? n : 1, sizeof *last);
    bool *has_pred = calloc(n ? n : 1, sizeof *has_pred), *has_succ = calloc(n ? n : 1, sizeof *has_succ);
    bool ok = nodes && from && to && data && first && last && has_pred && has_succ &&
              q->get_nodes(graph, nodes, &n) == CUDA_SUCCESS &&
              q->get_edges(graph, from, to, data, &n_edges) == CUDA_SUCCESS;
    for (size_t i = 0; ok && i < n; i++)
        ok = plan_node(q, plan, nodes[i], &first[i], &last[i], depth);
    /* Every edge orders its nodes whole, a programmatic one included: the nodes run one
     * after the other. */
    for (size_t e = 0; ok && e < n_edges; e++) {
        size_t u = n, v = n;
        for (size_t i = 0; i < n; i++) {
            u = nodes[i] == from[e] ? i : u;
            v = nodes[i] == to[e] ? i : v;
        }
        ok = u < n && v < n && op_wait(plan, first[v], last[u]);
        if (ok)
            has_pred[v] = has_succ[u] = true;
    }
    size_t exit = ok ? plan_add(plan, CU_GRAPH_NODE_TYPE_EMPTY) : SIZE_MAX;
    ok = ok && exit != SIZE_MAX;
    for (size_t i = 0; ok && i < n; i++) {
        if (!has_pred[i] && entry != SIZE_MAX)
            ok = op_wait(plan, first[i], entry);
        if (ok && !has_succ[i])
            ok = op_wait(plan, exit, last[i]);
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
                      int depth)
{
    CUgraphNodeType type;
    if (q->node_type(node, &type) != CUDA_SUCCESS)
        return false;
    if (type == CU_GRAPH_NODE_TYPE_GRAPH) {
        CUgraph child;
        size_t entry = plan_add(plan, CU_GRAPH_NODE_TYPE_EMPTY);
        *first = entry;
        return entry != SIZE_MAX && q->child_graph(node, &child) == CUDA_SUCCESS &&
               plan_graph(q, plan, child, entry, last, depth + 1);
    }
    size_t i = plan_add(plan, type);
    if (i == SIZE_MAX)
        return false;
    *first = *last = i;
    ScGraphOp *o = &plan->ops[i];
    CUkernelNodeAttrValue v;
    switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        if (q->kernel_params(node, &o->u.kernel.p) != CUDA_SUCCESS)
            return false;
        o->u.kernel.func = o->u.kernel.p.func;
        if (!o->u.kernel.func && (!o->u.kernel.p.kern ||
                                  q->kernel_function(&o->u.kernel.func, o->u.kernel.p.kern) != CUDA_SUCCESS))
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
        return q->memcpy_params(node, &o->u.copy) == CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEMSET:
        return q->memset_params(node, &o->u.set) == CUDA_SUCCESS &&
               (o->u.set.elementSize == 1 || o->u.set.elementSize == 2 || o->u.set.elementSize == 4);
    case CU_GRAPH_NODE_TYPE_HOST:
        return q->host_params(node, &o->u.host) == CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return q->record_event(node, &o->u.event) == CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return q->wait_event(node, &o->u.event) == CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EMPTY:
        return true;
    default:
        return false;
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

ScGraphPlan *sc_graph_plan_make(const ScGraphQueries *q, CUgraph graph)
{
    ScGraphPlan *plan = calloc(1, sizeof *plan);
    size_t exit;
    bool ok = plan && plan_graph(q, plan, graph, SIZE_MAX, &exit, 0) && plan_sort(plan) &&
              (plan->key_space = malloc(plan->n_ops ? plan->n_ops : 1)) != NULL;
    if (!ok) {
        sc_graph_plan_free(plan);
        return NULL;
    }
    return plan;
}

