/* intercept_streams.h: the order of the program's stream-ordered work (hostrt_order.h),
 * followed through the driver calls that issue, order and wait for it
 * (intercept_streams.c). */
#ifndef SC_INTERCEPT_STREAMS_H
#define SC_INTERCEPT_STREAMS_H

#include <cuda.h>
#include <stdbool.h>

#include "hostrt/hostrt_order.h"
#include "intercept/intercept.h"

/* Work the program issued on the stream (a launch, a copy), which the caller knows is
 * not being captured; false, with *out the zero work, when detection is off or the
 * order was lost. */
bool sc_streams_work(CUstream stream, ScWork *out);
/* Whether earlier happens before later, the latest work of its stream; true when the
 * order cannot say. */
bool sc_streams_before(ScWork earlier, ScWork later);
/* A graph launched on the stream: work of the stream, and any event may have been
 * recorded by its nodes. */
void sc_streams_graph_launch(CUstream stream);
/* A call on the stream (not being captured: the caller knows) that returned r and,
 * when it succeeded, made the stream's later work wait for work the order cannot name: a wait on memory another stream may write
 * (stream memory operations), or an allocation from a pool whose memory another
 * stream freed (the driver may add the dependency itself). So it waits for all. */
void sc_streams_stream_waits_all(CUresult r, CUstream stream);
/* A call that returned r and, when it succeeded, waited for all the device's work. */
void sc_streams_host_waits_all(CUresult r);
/* An asynchronous copy or memset on the stream that returned r: work of the stream,
 * and n device ranges it reads or writes, compared with the checked launches around it
 * (sc_rt_copy_issued). */
void sc_streams_copy(CUresult r, CUstream stream, const ScHostCopy *ranges, size_t n);

/* Graph nodes issued one by one on a real stream (intercept_graphs.c) keep the graph's
 * order: each node is a stream of its own, named by a key no driver handle can have,
 * with an event of the same key that its completion records. */
/* This thread's work is the node's until called with 0. */
void sc_streams_as_node(uint64_t node);
void sc_streams_node_waits(uint64_t node, uint64_t event);
void sc_streams_node_done(uint64_t node);
void sc_streams_forget_node(uint64_t node);
/* An event of such a key recorded on a real stream, and a real stream waiting for one. */
void sc_streams_record_real(uint64_t event, CUstream stream);
void sc_streams_real_waits(CUstream stream, uint64_t event);

/* The handlers of event records and waits, which a graph's event nodes are issued
 * through too. */
CUresult on_cuEventRecord(ScReal_cuEventRecord real, CUevent event, CUstream stream);
CUresult on_cuStreamWaitEvent(ScReal_cuStreamWaitEvent real, CUstream stream, CUevent event,
                              unsigned int flags);

#endif
