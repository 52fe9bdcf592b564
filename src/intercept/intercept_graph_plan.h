/* intercept_graph_plan.h: a CUDA graph read into the list of operations scord issues in
 * its place (intercept_graphs.c): its nodes in an order its edges allow, a child
 * graph's nodes in place of the child node. Only queries: the driver's, or a test's. */
#ifndef SC_INTERCEPT_GRAPH_PLAN_H
#define SC_INTERCEPT_GRAPH_PLAN_H

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>

/* The graph queries a plan is read through (the driver's entry points of those names). */
typedef struct ScGraphQueries {
    CUresult (*get_nodes)(CUgraph, CUgraphNode *, size_t *);
    CUresult (*get_edges)(CUgraph, CUgraphNode *, CUgraphNode *, CUgraphEdgeData *, size_t *);
    CUresult (*node_type)(CUgraphNode, CUgraphNodeType *);
    CUresult (*kernel_params)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS *);
    CUresult (*kernel_attr)(CUgraphNode, CUkernelNodeAttrID, CUkernelNodeAttrValue *);
    CUresult (*memcpy_params)(CUgraphNode, CUDA_MEMCPY3D *);
    CUresult (*memset_params)(CUgraphNode, CUDA_MEMSET_NODE_PARAMS *);
    CUresult (*host_params)(CUgraphNode, CUDA_HOST_NODE_PARAMS *);
    CUresult (*child_graph)(CUgraphNode, CUgraph *);
    CUresult (*record_event)(CUgraphNode, CUevent *);
    CUresult (*wait_event)(CUgraphNode, CUevent *);
    CUresult (*kernel_function)(CUfunction *, CUkernel);
} ScGraphQueries;

/* One node of the flattened graph: a child graph's nodes are the graph's own, between
 * an entry and an exit that stand for the child node. */
typedef struct ScGraphOp {
    CUgraphNodeType type; /* CU_GRAPH_NODE_TYPE_EMPTY for an entry or exit */
    union {
        struct {
            CUfunction func;
            CUDA_KERNEL_NODE_PARAMS p;
            bool cooperative;
            unsigned cluster[3];
        } kernel;
        CUDA_MEMCPY3D copy;
        CUDA_MEMSET_NODE_PARAMS set;
        CUDA_HOST_NODE_PARAMS host;
        CUevent event;
    } u;
    size_t *preds; /* indices of the ops it waits for */
    size_t n_preds;
} ScGraphOp;

/* What an executable graph is issued as: ops in an order the edges allow (each after
 * the ops it waits for), the last the graph's exit, which follows every other op. key_space: one byte per op, whose addresses name each op's
 * stream and event in the order of stream work (no driver handle can have them). */
typedef struct ScGraphPlan {
    ScGraphOp *ops;
    size_t n_ops, cap_ops;
    char *key_space;
} ScGraphPlan;

/* NULL when every node of the graph (child graphs included) is one scord can issue: a
 * kernel the device cannot update, a copy, a memset, a host function, an event record
 * or wait, an empty node or a child graph of those; else why not, for a diagnostic
 * ("a memory allocation node"). */
const char *sc_graph_unsupported(const ScGraphQueries *q, CUgraph graph);
/* Why a graph has no plan: the query that failed (its driver entry point's name, or
 * what was wrong, such as "out of memory") and what it returned. */
typedef struct ScGraphPlanError {
    const char *what;
    CUresult code; /* CUDA_SUCCESS where no query failed */
} ScGraphPlanError;

/* The plan of a graph sc_graph_unsupported accepts; NULL, with *err said, when a query
 * fails. */
ScGraphPlan *sc_graph_plan_make(const ScGraphQueries *q, CUgraph graph, ScGraphPlanError *err);
void sc_graph_plan_free(ScGraphPlan *plan);

#endif
