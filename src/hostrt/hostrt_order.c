/* hostrt_order.c: vector clocks of streams, events and the host (hostrt_order.h). */
#include "hostrt/hostrt_order.h"

#include <stdlib.h>
#include <string.h>

/* Beyond this many streams (created over the run, destroyed ones included: their work
 * may still be pending) the model gives up and orders everything: the clocks grow with
 * the square of the count. */
#define MAX_STREAMS 4096u

/* tick[i]: how much of stream i's work is ordered before (0 for none); entries past n
 * are 0. */
typedef struct Clock {
    uint64_t *tick;
    uint32_t n;
} Clock;

typedef struct Stream {
    uint64_t key;
    bool live; /* still named by key: a destroyed stream stays for its pending work */
    ScStreamKind kind;
    Clock clock;
} Stream;

typedef struct Event {
    uint64_t key;
    bool known; /* the clock is what its latest record captured */
    Clock clock;
} Event;

struct ScOrder {
    Stream *streams;
    uint32_t n_streams, cap_streams;
    Event *events;
    size_t n_events, cap_events;
    Clock host;
    bool broken; /* out of memory or streams: everything is ordered */
};

static bool grow(Clock *c, uint32_t n)
{
    if (n <= c->n)
        return true;
    uint64_t *t = realloc(c->tick, n * sizeof *t);
    if (!t)
        return false;
    memset(t + c->n, 0, (n - c->n) * sizeof *t);
    c->tick = t;
    c->n = n;
    return true;
}

static bool join(Clock *dst, const Clock *src)
{
    if (!grow(dst, src->n))
        return false;
    for (uint32_t i = 0; i < src->n; i++)
        if (src->tick[i] > dst->tick[i])
            dst->tick[i] = src->tick[i];
    return true;
}

static bool join_all(ScOrder *o, Clock *dst)
{
    for (uint32_t i = 0; i < o->n_streams; i++)
        if (!join(dst, &o->streams[i].clock))
            return false;
    return true;
}

/* Returns false after marking the model broken, for the callers' `return fail(o)`. */
static bool fail(ScOrder *o)
{
    o->broken = true;
    return false;
}

ScOrder *sc_order_new(void)
{
    return calloc(1, sizeof(ScOrder));
}

void sc_order_free(ScOrder *o)
{
    if (!o)
        return;
    for (uint32_t i = 0; i < o->n_streams; i++)
        free(o->streams[i].clock.tick);
    for (size_t i = 0; i < o->n_events; i++)
        free(o->events[i].clock.tick);
    free(o->streams);
    free(o->events);
    free(o->host.tick);
    free(o);
}

/* The live stream named key, made at its first use; NULL when the model is broken. */
static Stream *stream_at(ScOrder *o, uint64_t key, ScStreamKind kind)
{
    if (o->broken)
        return NULL;
    for (uint32_t i = 0; i < o->n_streams; i++)
        if (o->streams[i].live && o->streams[i].key == key)
            return &o->streams[i];
    if (o->n_streams == MAX_STREAMS)
        return fail(o), NULL;
    if (o->n_streams == o->cap_streams) {
        uint32_t cap = o->cap_streams ? 2 * o->cap_streams : 16;
        Stream *s = realloc(o->streams, cap * sizeof *s);
        if (!s)
            return fail(o), NULL;
        o->streams = s;
        o->cap_streams = cap;
    }
    Stream *s = &o->streams[o->n_streams++];
    *s = (Stream){.key = key, .live = true, .kind = kind};
    return s;
}

static uint32_t index_of(const ScOrder *o, const Stream *s)
{
    return (uint32_t)(s - o->streams);
}

static Event *event_find(ScOrder *o, uint64_t key)
{
    for (size_t i = o->n_events; i-- > 0;)
        if (o->events[i].key == key)
            return &o->events[i];
    return NULL;
}

/* What the stream's next operation waits for besides its own earlier work: all the
 * host has seen complete, and the legacy stream's implicit barrier. */
static bool implicit_waits(ScOrder *o, Stream *s)
{
    if (!join(&s->clock, &o->host))
        return false;
    for (uint32_t i = 0; i < o->n_streams; i++) {
        Stream *b = &o->streams[i];
        bool waits = s->kind == SC_STREAM_LEGACY     ? b->kind == SC_STREAM_BLOCKING
                     : s->kind == SC_STREAM_BLOCKING ? b->kind == SC_STREAM_LEGACY
                                                     : false;
        if (waits && b != s && !join(&s->clock, &b->clock))
            return false;
    }
    return true;
}

bool sc_order_work(ScOrder *o, uint64_t stream, ScStreamKind kind, ScWork *out)
{
    *out = (ScWork){0};
    Stream *s = stream_at(o, stream, kind);
    if (!s)
        return false;
    uint32_t i = index_of(o, s);
    if (!implicit_waits(o, s) || !grow(&s->clock, i + 1))
        return fail(o);
    *out = (ScWork){.stream = i + 1, .tick = ++s->clock.tick[i]};
    return true;
}

bool sc_order_record(ScOrder *o, uint64_t event, uint64_t stream, ScStreamKind kind)
{
    Stream *s = stream_at(o, stream, kind);
    if (!s)
        return false;
    /* A record is an operation of the stream, so it waits as work does. */
    if (!implicit_waits(o, s))
        return fail(o);
    Event *e = event_find(o, event);
    if (!e) {
        if (o->n_events == o->cap_events) {
            size_t cap = o->cap_events ? 2 * o->cap_events : 16;
            Event *ev = realloc(o->events, cap * sizeof *ev);
            if (!ev)
                return fail(o);
            o->events = ev;
            o->cap_events = cap;
        }
        e = &o->events[o->n_events++];
        *e = (Event){.key = event};
    }
    e->known = true;
    if (e->clock.n)
        memset(e->clock.tick, 0, e->clock.n * sizeof *e->clock.tick);
    return join(&e->clock, &s->clock) || fail(o);
}

bool sc_order_stream_waits_event(ScOrder *o, uint64_t stream, ScStreamKind kind, uint64_t event)
{
    Stream *s = stream_at(o, stream, kind);
    if (!s)
        return false;
    const Event *e = event_find(o, event);
    bool ok = e && e->known ? join(&s->clock, &e->clock) : join_all(o, &s->clock);
    return ok || fail(o);
}

bool sc_order_stream_waits_all(ScOrder *o, uint64_t stream, ScStreamKind kind)
{
    Stream *s = stream_at(o, stream, kind);
    if (!s)
        return false;
    return join_all(o, &s->clock) || fail(o);
}

bool sc_order_host_waits_stream(ScOrder *o, uint64_t stream, ScStreamKind kind)
{
    Stream *s = stream_at(o, stream, kind);
    if (!s)
        return false;
    return join(&o->host, &s->clock) || fail(o);
}

bool sc_order_host_waits_event(ScOrder *o, uint64_t event)
{
    if (o->broken)
        return false;
    const Event *e = event_find(o, event);
    bool ok = e && e->known ? join(&o->host, &e->clock) : join_all(o, &o->host);
    return ok || fail(o);
}

bool sc_order_host_waits_all(ScOrder *o)
{
    if (o->broken)
        return false;
    return join_all(o, &o->host) || fail(o);
}

void sc_order_events_unknown(ScOrder *o)
{
    for (size_t i = 0; i < o->n_events; i++)
        o->events[i].known = false;
}

void sc_order_forget_stream(ScOrder *o, uint64_t stream)
{
    for (uint32_t i = 0; i < o->n_streams; i++)
        if (o->streams[i].live && o->streams[i].key == stream)
            o->streams[i].live = false;
}

void sc_order_forget_event(ScOrder *o, uint64_t event)
{
    Event *e = event_find(o, event);
    if (!e)
        return;
    free(e->clock.tick);
    *e = o->events[--o->n_events];
}

bool sc_order_next(ScWork earlier, ScWork later)
{
    return earlier.stream && later.stream == earlier.stream && later.tick == earlier.tick + 1;
}

bool sc_order_before(const ScOrder *o, ScWork earlier, ScWork later)
{
    if (o->broken || !earlier.stream || !later.stream || later.stream > o->n_streams)
        return true;
    const Clock *c = &o->streams[later.stream - 1].clock;
    uint32_t i = earlier.stream - 1;
    return i < c->n && c->tick[i] >= earlier.tick;
}
