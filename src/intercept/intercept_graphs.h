/* intercept_graphs.h: graph launches checked node by node (intercept_graphs.c). */
#ifndef SC_INTERCEPT_GRAPHS_H
#define SC_INTERCEPT_GRAPHS_H

#include <cuda.h>
#include <stdbool.h>

/* Issues the nodes of the executable graph on the stream, each checked as the launch,
 * copy or memset it stands for, and returns true with *result the first failure (or
 * success); false, having issued nothing, when the graph must run as the driver has
 * it (detection off, the stream being captured, a graph scord cannot copy). */
bool sc_graphs_launch(CUgraphExec exec, CUstream stream, CUresult *result);

#endif
