/* hostrt_order.h: the happens-before order of stream-ordered work, kept on the host.
 *
 * Every kernel launch is a unit of work on a stream. Two launches are ordered when one
 * stream's work follows the other's: the same stream, an event recorded after the
 * first and waited for by the second's stream, a host synchronize between them, or the
 * legacy default stream's implicit barrier (docs/design.md, "Order between kernels").
 * The model is a vector clock per stream, event and the host: a stream's clock says,
 * for every stream, how much of its work is ordered before the stream's next work.
 *
 * Where the program could have ordered work in a way the model does not see (an event
 * it never saw recorded, a stream memory operation, a graph), the model assumes the
 * work is ordered: a missed order would be a false alarm, an assumed one at worst a
 * missed race. Pure and driver-free, tested on the CPU (test_order). Not thread-safe:
 * the caller serializes. */
#ifndef SC_HOSTRT_ORDER_H
#define SC_HOSTRT_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A stream's relation to the legacy default stream (CUDA programming guide, "Implicit
 * synchronization"): work on the legacy stream waits for all earlier work of blocking
 * streams, and work on a blocking stream for all earlier legacy work. */
typedef enum ScStreamKind {
    SC_STREAM_LEGACY,
    SC_STREAM_BLOCKING,
    SC_STREAM_NONBLOCKING,
} ScStreamKind;

/* One unit of work: the stream's index in the model and its position on the stream
 * (1 for the first). The zero value is no work. */
typedef struct ScWork {
    uint32_t stream;
    uint64_t tick;
} ScWork;

typedef struct ScOrder ScOrder;

ScOrder *sc_order_new(void);
void sc_order_free(ScOrder *o);

/* Streams and events are named by the caller's keys (handles): a key is one stream
 * from its first use until sc_order_forget_stream, so a handle the driver reuses names
 * a new stream. kind is read at a stream's first use. Each call returns false only
 * when memory ran out; the model then orders everything after everything before
 * (sc_order_before is true from then on). */
bool sc_order_work(ScOrder *o, uint64_t stream, ScStreamKind kind, ScWork *out);
bool sc_order_record(ScOrder *o, uint64_t event, uint64_t stream, ScStreamKind kind);
/* The stream's later work waits for what the event captured; for an event never
 * recorded (or recorded where the model could not see it), for all work so far. */
bool sc_order_stream_waits_event(ScOrder *o, uint64_t stream, ScStreamKind kind, uint64_t event);
/* The stream's later work waits for all work so far: a wait the model cannot resolve
 * (stream memory operations, external semaphores). */
bool sc_order_stream_waits_all(ScOrder *o, uint64_t stream, ScStreamKind kind);
/* The host saw the stream's or the event's work complete, or all work (a context
 * synchronize); all work the host issues later follows it. */
bool sc_order_host_waits_stream(ScOrder *o, uint64_t stream, ScStreamKind kind);
bool sc_order_host_waits_event(ScOrder *o, uint64_t event);
bool sc_order_host_waits_all(ScOrder *o);
/* Every event's capture is unknown from now on (work the model did not see, such as a
 * graph launch, may have recorded it): waiting for one waits for all work so far,
 * until it is recorded again. */
void sc_order_events_unknown(ScOrder *o);
void sc_order_forget_stream(ScOrder *o, uint64_t stream);
void sc_order_forget_event(ScOrder *o, uint64_t event);

/* Whether `earlier` happens before `later`, which must be the latest work of its
 * stream (checked as it is issued). Work is ordered after itself. */
bool sc_order_before(const ScOrder *o, ScWork earlier, ScWork later);
/* Whether `later` is the work right after `earlier` on earlier's stream (the grid a
 * programmatic launch may overlap is the one just before it on its stream). */
bool sc_order_next(ScWork earlier, ScWork later);

#endif
