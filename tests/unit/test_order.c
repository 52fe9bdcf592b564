/* test_order.c: the happens-before order of stream-ordered work (src/hostrt/hostrt_order.h).
 * Named cases for the orderings a program uses, then random programs whose every
 * answer is checked against a second model written from the definitions: a graph of
 * every operation, its edges drawn as the CUDA programming guide states them, and
 * "before" as reachability. */
#include "hostrt/hostrt_order.h"
#include "sc_test.h"

enum { LEGACY = 0, S1 = 11, S2 = 12, NB = 13, E1 = 21, E2 = 22 };

static ScWork work(ScOrder *o, uint64_t stream, ScStreamKind kind)
{
    ScWork w;
    CHECK(sc_order_work(o, stream, kind, &w));
    return w;
}

TEST(two_streams_are_unordered)
{
    ScOrder *o = sc_order_new();
    ScWork a = work(o, S1, SC_STREAM_BLOCKING), b = work(o, S2, SC_STREAM_BLOCKING);
    CHECK(!sc_order_before(o, a, b));
    ScWork c = work(o, S1, SC_STREAM_BLOCKING);
    CHECK(sc_order_before(o, a, c)); /* one stream */
    CHECK(sc_order_before(o, c, c));
    sc_order_free(o);
}

TEST(event_orders_the_waiting_stream)
{
    ScOrder *o = sc_order_new();
    ScWork a = work(o, S1, SC_STREAM_BLOCKING);
    CHECK(sc_order_record(o, E1, S1, SC_STREAM_BLOCKING));
    ScWork late = work(o, S1, SC_STREAM_BLOCKING); /* after the record */
    CHECK(sc_order_stream_waits_event(o, S2, SC_STREAM_BLOCKING, E1));
    ScWork b = work(o, S2, SC_STREAM_BLOCKING);
    CHECK(sc_order_before(o, a, b));
    CHECK(!sc_order_before(o, late, b));
    /* A record before the work captures none of it. */
    CHECK(sc_order_record(o, E2, NB, SC_STREAM_NONBLOCKING));
    ScWork n = work(o, NB, SC_STREAM_NONBLOCKING);
    CHECK(sc_order_stream_waits_event(o, S2, SC_STREAM_BLOCKING, E2));
    CHECK(!sc_order_before(o, n, work(o, S2, SC_STREAM_BLOCKING)));
    sc_order_free(o);
}

TEST(an_event_never_seen_recorded_orders_everything)
{
    ScOrder *o = sc_order_new();
    ScWork a = work(o, S1, SC_STREAM_BLOCKING);
    CHECK(sc_order_stream_waits_event(o, S2, SC_STREAM_BLOCKING, E1));
    CHECK(sc_order_before(o, a, work(o, S2, SC_STREAM_BLOCKING)));
    /* Recorded, then unknown (a graph may have recorded it since). */
    CHECK(sc_order_record(o, E2, NB, SC_STREAM_NONBLOCKING));
    ScWork n = work(o, NB, SC_STREAM_NONBLOCKING);
    sc_order_events_unknown(o);
    CHECK(sc_order_stream_waits_event(o, S1, SC_STREAM_BLOCKING, E2));
    CHECK(sc_order_before(o, n, work(o, S1, SC_STREAM_BLOCKING)));
    sc_order_free(o);
}

TEST(host_synchronization_orders_later_work)
{
    ScOrder *o = sc_order_new();
    ScWork a = work(o, S1, SC_STREAM_BLOCKING), n = work(o, NB, SC_STREAM_NONBLOCKING);
    CHECK(sc_order_host_waits_stream(o, S1, SC_STREAM_BLOCKING));
    ScWork b = work(o, S2, SC_STREAM_BLOCKING);
    CHECK(sc_order_before(o, a, b));
    CHECK(!sc_order_before(o, n, b));
    CHECK(sc_order_host_waits_all(o));
    CHECK(sc_order_before(o, n, work(o, S2, SC_STREAM_BLOCKING)));
    ScWork c = work(o, S1, SC_STREAM_BLOCKING);
    CHECK(sc_order_record(o, E1, S1, SC_STREAM_BLOCKING));
    CHECK(sc_order_host_waits_event(o, E1));
    CHECK(sc_order_before(o, c, work(o, NB, SC_STREAM_NONBLOCKING)));
    sc_order_free(o);
}

TEST(legacy_stream_barrier)
{
    ScOrder *o = sc_order_new();
    ScWork a = work(o, S1, SC_STREAM_BLOCKING), n = work(o, NB, SC_STREAM_NONBLOCKING);
    ScWork l = work(o, LEGACY, SC_STREAM_LEGACY);
    CHECK(sc_order_before(o, a, l));
    CHECK(!sc_order_before(o, n, l)); /* a non-blocking stream does not meet it */
    ScWork b = work(o, S2, SC_STREAM_BLOCKING);
    CHECK(sc_order_before(o, l, b));
    CHECK(sc_order_before(o, a, b)); /* through the legacy stream */
    CHECK(!sc_order_before(o, l, work(o, NB, SC_STREAM_NONBLOCKING)));
    sc_order_free(o);
}

TEST(a_reused_handle_is_a_new_stream)
{
    ScOrder *o = sc_order_new();
    ScWork a = work(o, S1, SC_STREAM_BLOCKING);
    sc_order_forget_stream(o, S1);
    ScWork b = work(o, S1, SC_STREAM_BLOCKING);
    CHECK(!sc_order_before(o, a, b));
    /* The destroyed stream's pending work still meets the legacy barrier. */
    CHECK(sc_order_before(o, a, work(o, LEGACY, SC_STREAM_LEGACY)));
    sc_order_free(o);
}

/* A synchronous copy, as the interposer enters it: legacy-stream work, then the host
 * waits for the legacy stream. Blocking streams' earlier work is ordered before it and
 * before all the host issues after it; a non-blocking stream's is not. */
TEST(a_synchronous_copy_waits_for_blocking_streams_only)
{
    ScOrder *o = sc_order_new();
    ScWork a = work(o, S1, SC_STREAM_BLOCKING), n = work(o, NB, SC_STREAM_NONBLOCKING);
    ScWork copy = work(o, LEGACY, SC_STREAM_LEGACY);
    CHECK(sc_order_host_waits_stream(o, LEGACY, SC_STREAM_LEGACY));
    CHECK(sc_order_before(o, a, copy));
    CHECK(!sc_order_before(o, n, copy)); /* the copy races the non-blocking kernel */
    ScWork later = work(o, NB, SC_STREAM_NONBLOCKING), other = work(o, S2, SC_STREAM_BLOCKING);
    CHECK(sc_order_before(o, copy, later)); /* the host saw the copy end */
    CHECK(sc_order_before(o, a, other));
    CHECK(!sc_order_before(o, n, other));
    CHECK(sc_order_before(o, n, later)); /* one stream */
    sc_order_free(o);
}

/* The grid a programmatic launch may overlap: the work just before it on its stream,
 * whatever ran on other streams in between; not when other work came between them on
 * the stream, nor on another stream, nor for work the model could not place. */
TEST(next_is_the_work_just_before_on_the_stream)
{
    ScOrder *o = sc_order_new();
    ScWork a = work(o, S1, SC_STREAM_BLOCKING);
    work(o, S2, SC_STREAM_BLOCKING);
    ScWork b = work(o, S1, SC_STREAM_BLOCKING);
    CHECK(sc_order_next(a, b));
    ScWork c = work(o, S1, SC_STREAM_BLOCKING), d = work(o, S1, SC_STREAM_BLOCKING);
    CHECK(!sc_order_next(b, d));
    CHECK(sc_order_next(c, d));
    CHECK(!sc_order_next(d, c));
    ScWork e = work(o, NB, SC_STREAM_NONBLOCKING);
    CHECK(!sc_order_next(d, e));
    CHECK(!sc_order_next((ScWork){0}, (ScWork){0}));
    CHECK(!sc_order_next((ScWork){0}, (ScWork){.stream = 0, .tick = 1}));
    sc_order_free(o);
}

/* The reference: every operation a node, its ancestors a bit set (at most 64 nodes). */
enum { MAX_NODES = 64, N_KEYS = 4, N_EVENTS = 2 };
static const uint64_t stream_keys[N_KEYS] = {LEGACY, S1, S2, NB};
static const ScStreamKind stream_kinds[N_KEYS] = {SC_STREAM_LEGACY, SC_STREAM_BLOCKING,
                                                  SC_STREAM_BLOCKING, SC_STREAM_NONBLOCKING};
static const uint64_t event_keys[N_EVENTS] = {E1, E2};

typedef struct Ref {
    uint64_t anc[MAX_NODES];
    int n;
    /* Streams by identity: a forgotten key starts a new one. */
    int last_op[4 * MAX_NODES];   /* latest node of each stream identity, -1: none */
    bool blocking[4 * MAX_NODES], legacy[4 * MAX_NODES];
    int identity[N_KEYS], n_identities;
    int recorded[N_EVENTS]; /* node of the latest record, -1: none or unknown */
    int host;               /* latest host wait, -1: none */
} Ref;

static uint64_t with(const Ref *r, int node)
{
    return node < 0 ? 0 : r->anc[node] | (uint64_t)1 << node;
}

static uint64_t all_latest(const Ref *r)
{
    uint64_t a = 0;
    for (int i = 0; i < r->n_identities; i++)
        a |= with(r, r->last_op[i]);
    return a;
}

/* A node on stream key k with extra predecessors; implicit: the host's and the legacy
 * barrier's. */
static int ref_op(Ref *r, int k, uint64_t preds, bool implicit)
{
    int id = r->identity[k], node = r->n++;
    preds |= with(r, r->last_op[id]);
    if (implicit) {
        preds |= with(r, r->host);
        for (int i = 0; i < r->n_identities; i++)
            if ((r->legacy[id] && r->blocking[i]) || (r->blocking[id] && r->legacy[i]))
                preds |= with(r, r->last_op[i]);
    }
    r->anc[node] = preds;
    r->last_op[id] = node;
    return node;
}

static void ref_new_identity(Ref *r, int k)
{
    int id = r->n_identities++;
    r->identity[k] = id;
    r->last_op[id] = -1;
    r->legacy[id] = stream_kinds[k] == SC_STREAM_LEGACY;
    r->blocking[id] = stream_kinds[k] == SC_STREAM_BLOCKING;
}

static int ref_host(Ref *r, uint64_t preds)
{
    int node = r->n++;
    r->anc[node] = preds | with(r, r->host);
    r->host = node;
    return node;
}

static uint32_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s >> 11);
}

TEST(random_programs_match_the_reference)
{
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    long compared = 0, ordered = 0, mismatches = 0;
    for (int program = 0; program < 20000; program++) {
        ScOrder *o = sc_order_new();
        Ref r = {.host = -1};
        for (int k = 0; k < N_KEYS; k++)
            ref_new_identity(&r, k);
        for (int e = 0; e < N_EVENTS; e++)
            r.recorded[e] = -1;
        ScWork works[MAX_NODES];
        int work_node[MAX_NODES], n_works = 0;
        while (r.n < MAX_NODES - 1) {
            int k = (int)(rnd(&seed) % N_KEYS), e = (int)(rnd(&seed) % N_EVENTS);
            uint64_t key = stream_keys[k];
            ScStreamKind kind = stream_kinds[k];
            /* Work most often and the waits that order everything rarely, so that both
             * answers stay common. */
            uint32_t op = rnd(&seed) % 24;
            switch (op < 16 ? 0 : op - 14) {
            case 0: {
                ScWork w;
                CHECK(sc_order_work(o, key, kind, &w));
                int node = ref_op(&r, k, 0, true);
                for (int i = 0; i < n_works; i++) {
                    bool want = (r.anc[node] >> work_node[i]) & 1;
                    if (sc_order_before(o, works[i], w) != want && mismatches++ < 10) {
                        printf("program %d: work %d before work %d: model %d, reference %d\n", program, i,
                               n_works, !want, want);
                    }
                    compared++;
                    ordered += want;
                }
                works[n_works] = w;
                work_node[n_works++] = node;
                break;
            }
            case 2:
                CHECK(sc_order_record(o, event_keys[e], key, kind));
                r.recorded[e] = ref_op(&r, k, 0, true);
                break;
            case 3:
                CHECK(sc_order_stream_waits_event(o, key, kind, event_keys[e]));
                ref_op(&r, k, r.recorded[e] < 0 ? all_latest(&r) : with(&r, r.recorded[e]), false);
                break;
            case 4:
                if (rnd(&seed) % 4 == 0) {
                    CHECK(sc_order_stream_waits_all(o, key, kind));
                    ref_op(&r, k, all_latest(&r), false);
                }
                break;
            case 5:
                CHECK(sc_order_host_waits_stream(o, key, kind));
                ref_host(&r, with(&r, r.last_op[r.identity[k]]));
                break;
            case 6:
                CHECK(sc_order_host_waits_event(o, event_keys[e]));
                ref_host(&r, r.recorded[e] < 0 ? all_latest(&r) : with(&r, r.recorded[e]));
                break;
            case 7:
                if (rnd(&seed) % 8 == 0) {
                    CHECK(sc_order_host_waits_all(o));
                    ref_host(&r, all_latest(&r));
                } else {
                    sc_order_events_unknown(o);
                    for (int i = 0; i < N_EVENTS; i++)
                        r.recorded[i] = -1;
                }
                break;
            case 8:
                sc_order_forget_event(o, event_keys[e]);
                r.recorded[e] = -1;
                break;
            case 9:
                if (k != 0 && r.n_identities < 4 * MAX_NODES) { /* the legacy stream is never destroyed */
                    sc_order_forget_stream(o, key);
                    ref_new_identity(&r, k);
                }
                break;
            }
        }
        sc_order_free(o);
    }
    CHECK_INT(0, mismatches);
    /* Both answers are common, or the comparison says little. */
    CHECK(ordered > compared / 10 && ordered < compared - compared / 10);
    printf("random programs: %ld pairs compared, %ld ordered\n", compared, ordered);
}

int main(void)
{
    RUN(two_streams_are_unordered);
    RUN(event_orders_the_waiting_stream);
    RUN(an_event_never_seen_recorded_orders_everything);
    RUN(host_synchronization_orders_later_work);
    RUN(legacy_stream_barrier);
    RUN(a_reused_handle_is_a_new_stream);
    RUN(a_synchronous_copy_waits_for_blocking_streams_only);
    RUN(next_is_the_work_just_before_on_the_stream);
    RUN(random_programs_match_the_reference);
    return TEST_REPORT();
}
