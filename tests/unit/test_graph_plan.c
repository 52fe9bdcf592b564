/* test_graph_plan.c: graphs read into the plan scord issues in their place
 * (src/intercept/intercept_graph_plan.h), through fake graph queries: every op comes
 * after the ops it waits for, a child graph's nodes stand between an entry and an exit
 * in the child node's place, and graphs with nodes scord cannot issue are refused. */
#include "intercept/intercept_graph_plan.h"
#include "sc_test.h"

/* A fake graph: nodes 1..n of graph g are the FakeNode entries whose graph is g; an
 * edge is a (from, to) pair of node numbers. Handles are pointers into these arrays. */
typedef struct FakeNode {
    int graph;
    CUgraphNodeType type;
    int child;   /* CU_GRAPH_NODE_TYPE_GRAPH: the child graph's number */
    int kernel;  /* CU_GRAPH_NODE_TYPE_KERNEL: 1 when it names a CUkernel, not a CUfunction */
    CUresult params_result; /* what asking for its parameters returns */
} FakeNode;

static FakeNode nodes[32];
static int n_nodes;
static int edges[32][2];
static int n_edges;
static int graph_ids[8];

static CUgraph graph_of(int g)
{
    return (CUgraph)&graph_ids[g];
}

static int graph_number(CUgraph g)
{
    return (int)((int *)g - graph_ids);
}

static CUgraphNode node_handle(int i)
{
    return (CUgraphNode)&nodes[i];
}

static int add_node(int graph, CUgraphNodeType type)
{
    nodes[n_nodes] = (FakeNode){graph, type, 0, 0, CUDA_SUCCESS};
    return n_nodes++;
}

static void add_edge(int from, int to)
{
    edges[n_edges][0] = from;
    edges[n_edges][1] = to;
    n_edges++;
}

static void reset(void)
{
    n_nodes = n_edges = 0;
}

/* As the CUDA 13.0 driver: arrays for none are refused. */
static CUresult fake_get_nodes(CUgraph g, CUgraphNode *out, size_t *n)
{
    if (out && !*n)
        return CUDA_ERROR_INVALID_VALUE;
    size_t k = 0;
    for (int i = 0; i < n_nodes; i++)
        if (nodes[i].graph == graph_number(g)) {
            if (out && k < *n)
                out[k] = node_handle(i);
            k++;
        }
    *n = k;
    return CUDA_SUCCESS;
}

static CUresult fake_get_edges(CUgraph g, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *data, size_t *n)
{
    if (from && !*n)
        return CUDA_ERROR_INVALID_VALUE;
    size_t k = 0;
    for (int e = 0; e < n_edges; e++)
        if (nodes[edges[e][0]].graph == graph_number(g)) {
            if (from && k < *n) {
                from[k] = node_handle(edges[e][0]);
                to[k] = node_handle(edges[e][1]);
                if (data)
                    data[k] = (CUgraphEdgeData){0};
            }
            k++;
        }
    *n = k;
    return CUDA_SUCCESS;
}

static CUresult fake_node_type(CUgraphNode n, CUgraphNodeType *type)
{
    *type = ((FakeNode *)n)->type;
    return CUDA_SUCCESS;
}

static CUresult fake_kernel_params(CUgraphNode n, CUDA_KERNEL_NODE_PARAMS *p)
{
    *p = (CUDA_KERNEL_NODE_PARAMS){.gridDimX = 1, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 32,
                                   .blockDimY = 1, .blockDimZ = 1};
    if (((FakeNode *)n)->kernel)
        p->kern = (CUkernel)n;
    else
        p->func = (CUfunction)n;
    return ((FakeNode *)n)->params_result;
}

static CUresult fake_kernel_attr(CUgraphNode n, CUkernelNodeAttrID id, CUkernelNodeAttrValue *v)
{
    (void)n;
    if (id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
        v->clusterDim.x = 2;
        v->clusterDim.y = v->clusterDim.z = 1;
    }
    return CUDA_SUCCESS;
}

static CUresult fake_memcpy_params(CUgraphNode n, CUDA_MEMCPY3D *p)
{
    (void)n;
    *p = (CUDA_MEMCPY3D){.WidthInBytes = 64, .Height = 1, .Depth = 1};
    return CUDA_SUCCESS;
}

static CUresult fake_memset_params(CUgraphNode n, CUDA_MEMSET_NODE_PARAMS *p)
{
    (void)n;
    *p = (CUDA_MEMSET_NODE_PARAMS){.elementSize = 4, .width = 16, .height = 1};
    return CUDA_SUCCESS;
}

static CUresult fake_host_params(CUgraphNode n, CUDA_HOST_NODE_PARAMS *p)
{
    (void)n;
    *p = (CUDA_HOST_NODE_PARAMS){0};
    return CUDA_SUCCESS;
}

static CUresult fake_child_graph(CUgraphNode n, CUgraph *g)
{
    *g = graph_of(((FakeNode *)n)->child);
    return CUDA_SUCCESS;
}

static CUresult fake_event(CUgraphNode n, CUevent *e)
{
    *e = (CUevent)n;
    return CUDA_SUCCESS;
}

/* The kernel's function is the CUkernel's node, one byte on: distinguishable. */
static CUresult fake_kernel_function(CUfunction *f, CUkernel k)
{
    *f = (CUfunction)((char *)k + 1);
    return CUDA_SUCCESS;
}

static const ScGraphQueries fake = {
    fake_get_nodes,   fake_get_edges,     fake_node_type,   fake_kernel_params,
    fake_kernel_attr, fake_memcpy_params, fake_memset_params, fake_host_params,
    fake_child_graph, fake_event,         fake_event,       fake_kernel_function,
};

/* The op of the plan that stands for node i (kernels name their node; events too). */
static size_t op_of(const ScGraphPlan *plan, int i)
{
    for (size_t k = 0; k < plan->n_ops; k++) {
        const ScGraphOp *o = &plan->ops[k];
        if ((o->type == CU_GRAPH_NODE_TYPE_KERNEL &&
             (o->u.kernel.func == (CUfunction)node_handle(i) ||
              o->u.kernel.func == (CUfunction)((char *)node_handle(i) + 1))) ||
            ((o->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD || o->type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) &&
             o->u.event == (CUevent)node_handle(i)))
            return k;
    }
    return SIZE_MAX;
}

/* Whether op b waits for op a, directly or through others. */
static bool waits_for(const ScGraphPlan *plan, size_t b, size_t a)
{
    for (size_t k = 0; k < plan->ops[b].n_preds; k++) {
        size_t p = plan->ops[b].preds[k];
        if (p == a || waits_for(plan, p, a))
            return true;
    }
    return false;
}

/* Each op after the ops it waits for, and the last (the graph's exit) after all. */
static bool sorted(const ScGraphPlan *plan)
{
    for (size_t k = 0; k < plan->n_ops; k++)
        for (size_t j = 0; j < plan->ops[k].n_preds; j++)
            if (plan->ops[k].preds[j] >= k)
                return false;
    for (size_t k = 0; k + 1 < plan->n_ops; k++)
        if (!waits_for(plan, plan->n_ops - 1, k))
            return false;
    return plan->n_ops && plan->ops[plan->n_ops - 1].type == CU_GRAPH_NODE_TYPE_EMPTY;
}

TEST(diamond_and_a_lone_node)
{
    reset();
    int a = add_node(0, CU_GRAPH_NODE_TYPE_KERNEL), b = add_node(0, CU_GRAPH_NODE_TYPE_KERNEL),
        c = add_node(0, CU_GRAPH_NODE_TYPE_KERNEL), d = add_node(0, CU_GRAPH_NODE_TYPE_KERNEL),
        lone = add_node(0, CU_GRAPH_NODE_TYPE_KERNEL);
    /* Edges listed so that the nodes' own order is not an order the edges allow. */
    add_edge(d, lone);
    add_edge(b, d);
    add_edge(c, d);
    add_edge(a, b);
    add_edge(a, c);
    add_node(1, CU_GRAPH_NODE_TYPE_KERNEL); /* another graph's node, not this one's */
    CHECK(sc_graph_unsupported(&fake, graph_of(0)) == NULL);
    ScGraphPlanError err;
    ScGraphPlan *plan = sc_graph_plan_make(&fake, graph_of(0), &err);
    CHECK(plan != NULL);
    if (!plan)
        return;
    CHECK_INT(6, plan->n_ops); /* five kernels and the graph's exit */
    CHECK(sorted(plan));
    size_t oa = op_of(plan, a), ob = op_of(plan, b), oc = op_of(plan, c), od = op_of(plan, d),
           ol = op_of(plan, lone);
    CHECK(oa < plan->n_ops && ob < plan->n_ops && oc < plan->n_ops && od < plan->n_ops && ol < plan->n_ops);
    CHECK(waits_for(plan, od, ob) && waits_for(plan, od, oc) && waits_for(plan, od, oa));
    CHECK(!waits_for(plan, ob, oc) && !waits_for(plan, oc, ob));
    CHECK(waits_for(plan, ol, od));
    CHECK_INT(2, plan->ops[od].n_preds);
    CHECK_INT(0, plan->ops[oa].n_preds);
    CHECK_INT(2, plan->ops[oa].u.kernel.cluster[0]);
    sc_graph_plan_free(plan);
}

TEST(child_graph_in_place_of_its_node)
{
    reset();
    int x = add_node(0, CU_GRAPH_NODE_TYPE_KERNEL), child = add_node(0, CU_GRAPH_NODE_TYPE_GRAPH),
        y = add_node(0, CU_GRAPH_NODE_TYPE_EVENT_RECORD), other = add_node(0, CU_GRAPH_NODE_TYPE_MEMSET);
    nodes[child].child = 1;
    int p = add_node(1, CU_GRAPH_NODE_TYPE_KERNEL), q = add_node(1, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
    nodes[p].kernel = 1; /* a CUkernel, whose function is asked for */
    add_edge(x, child);
    add_edge(child, y);
    add_edge(p, q);
    (void)other;
    CHECK(sc_graph_unsupported(&fake, graph_of(0)) == NULL);
    ScGraphPlanError err;
    ScGraphPlan *plan = sc_graph_plan_make(&fake, graph_of(0), &err);
    CHECK(plan != NULL);
    if (!plan)
        return;
    /* x, the child's entry, p, q, the child's exit, y, the memset, the graph's exit. */
    CHECK_INT(8, plan->n_ops);
    CHECK(sorted(plan));
    size_t ox = op_of(plan, x), op = op_of(plan, p), oq = op_of(plan, q), oy = op_of(plan, y);
    CHECK(op < plan->n_ops && plan->ops[op].u.kernel.func == (CUfunction)((char *)node_handle(p) + 1));
    CHECK(waits_for(plan, op, ox) && waits_for(plan, oq, op) && waits_for(plan, oy, oq));
    CHECK(!waits_for(plan, op, oy));
    /* The memset waits for nothing; the graph's exit (last) for every last node. */
    size_t last = plan->n_ops - 1;
    CHECK(plan->ops[last].type == CU_GRAPH_NODE_TYPE_EMPTY);
    CHECK(waits_for(plan, last, oy));
    sc_graph_plan_free(plan);
}

TEST(nodes_scord_cannot_issue_refuse_the_graph)
{
    reset();
    add_node(0, CU_GRAPH_NODE_TYPE_KERNEL);
    int child = add_node(0, CU_GRAPH_NODE_TYPE_GRAPH);
    nodes[child].child = 1;
    add_node(1, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
    CHECK_STR("a memory allocation node", sc_graph_unsupported(&fake, graph_of(0)));
    CHECK_STR("a memory allocation node", sc_graph_unsupported(&fake, graph_of(1)));
    reset();
    add_node(0, CU_GRAPH_NODE_TYPE_CONDITIONAL);
    CHECK_STR("a conditional node", sc_graph_unsupported(&fake, graph_of(0)));
    /* The plan refuses it for the same reason. */
    ScGraphPlanError err;
    CHECK(sc_graph_plan_make(&fake, graph_of(0), &err) == NULL);
    CHECK_STR("a conditional node", err.what);
    CHECK_INT(CUDA_SUCCESS, err.code);
}

TEST(a_cycle_makes_no_plan)
{
    reset();
    int a = add_node(0, CU_GRAPH_NODE_TYPE_KERNEL), b = add_node(0, CU_GRAPH_NODE_TYPE_KERNEL);
    add_edge(a, b);
    add_edge(b, a);
    ScGraphPlanError err;
    CHECK(sc_graph_plan_make(&fake, graph_of(0), &err) == NULL);
    CHECK_STR("a cycle of edges", err.what);
}

/* A graph of lone nodes: no edges to ask for. */
TEST(a_graph_without_edges)
{
    reset();
    add_node(0, CU_GRAPH_NODE_TYPE_KERNEL);
    add_node(0, CU_GRAPH_NODE_TYPE_MEMSET);
    ScGraphPlanError err;
    ScGraphPlan *plan = sc_graph_plan_make(&fake, graph_of(0), &err);
    CHECK(plan != NULL);
    if (!plan)
        return;
    CHECK_INT(3, plan->n_ops);
    CHECK(sorted(plan));
    CHECK_INT(0, plan->ops[0].n_preds);
    CHECK_INT(0, plan->ops[1].n_preds);
    sc_graph_plan_free(plan);
}

/* The diagnostic of a graph that runs unchecked names the query that failed, and the
 * first one only. */
TEST(a_failed_query_is_named)
{
    reset();
    int a = add_node(0, CU_GRAPH_NODE_TYPE_KERNEL), child = add_node(0, CU_GRAPH_NODE_TYPE_GRAPH);
    nodes[child].child = 1;
    int b = add_node(1, CU_GRAPH_NODE_TYPE_KERNEL), c = add_node(1, CU_GRAPH_NODE_TYPE_KERNEL);
    add_edge(a, child);
    nodes[b].params_result = CUDA_ERROR_INVALID_VALUE;
    nodes[c].params_result = CUDA_ERROR_NOT_SUPPORTED;
    ScGraphPlanError err;
    CHECK(sc_graph_plan_make(&fake, graph_of(0), &err) == NULL);
    CHECK_STR("cuGraphKernelNodeGetParams", err.what);
    CHECK_INT(CUDA_ERROR_INVALID_VALUE, err.code);
}

int main(void)
{
    RUN(diamond_and_a_lone_node);
    RUN(child_graph_in_place_of_its_node);
    RUN(nodes_scord_cannot_issue_refuse_the_graph);
    RUN(a_cycle_makes_no_plan);
    RUN(a_graph_without_edges);
    RUN(a_failed_query_is_named);
    return TEST_REPORT();
}
