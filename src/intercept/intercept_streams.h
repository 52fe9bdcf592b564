/* intercept_streams.h: the order of the program's stream-ordered work (hostrt_order.h),
 * followed through the driver calls that issue, order and wait for it
 * (intercept_streams.c). */
#ifndef SC_INTERCEPT_STREAMS_H
#define SC_INTERCEPT_STREAMS_H

#include <cuda.h>
#include <stdbool.h>

#include "hostrt/hostrt_order.h"

/* Work the program issued on the stream (a launch, a copy); false, with *out the zero
 * work, when detection is off, the stream is being captured or the order was lost. */
bool sc_streams_work(CUstream stream, ScWork *out);
/* Whether earlier happens before later, the latest work of its stream; true when the
 * order cannot say. */
bool sc_streams_before(ScWork earlier, ScWork later);
/* A graph launched on the stream: work of the stream, and any event may have been
 * recorded by its nodes. */
void sc_streams_graph_launch(CUstream stream);
/* A call on the stream that returned r and, when it succeeded, made the stream's later
 * work wait for work the order cannot name: a wait on memory another stream may write
 * (stream memory operations), or an allocation from a pool whose memory another
 * stream freed (the driver may add the dependency itself). So it waits for all. */
void sc_streams_stream_waits_all(CUresult r, CUstream stream);
/* A call that returned r and, when it succeeded, waited for all the device's work. */
void sc_streams_host_waits_all(CUresult r);

#endif
