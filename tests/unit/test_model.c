/* test_model.c: the exhaustive model checker of the race rules. It enumerates every
 * small execution of a set of suites (threads placed in one warp, in two warps of a
 * block, in two or three blocks; per-thread programs of accesses, barriers,
 * __syncwarp, and fences around a flag; every legal interleaving, a synchronization
 * completing only when all its participants arrived) and compares, at every access,
 * the verdict of src/rules/rules.h (driven the way the device runtime drives it: shadow
 * words, byte cells, block and warp clocks, release records and the chains acquires
 * take) with the reference model of tests/model/model_ref.h. Every disagreement
 * is minimized and printed as a litmus program with its interleaving. Environment:
 *   SC_MODEL_DEEP=1      one more op per thread in every suite (not part of make check)
 *   SC_MODEL_ONLY=a,b    only the suites whose names start with a or b */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned long cov_hits[64];
#define SC_RULES_COV(id) (cov_hits[SC_RULES_COV_##id]++)
#include "model/model_ref.h"
#include "model/trail_judge.h"
#include "rules/rules.h"
#include "sc_test.h"

/* ---- Programs ---------------------------------------------------------------------- */

enum { OP_ACCESS, OP_BAR, OP_SYNCWARP, OP_FENCE };

typedef struct Op {
    uint8_t type;
    uint8_t kind;   /* MrKind; OP_FENCE: MrSem */
    uint8_t scope;  /* MrScope */
    uint8_t bytes;  /* over the 8 modelled bytes (two 4-byte words) */
    uint32_t lanes; /* OP_SYNCWARP: its mask, 0xffffffff the full warp; OP_BAR: the
                       participating warps of a named barrier, 0 the whole block;
                       OP_ACCESS: FENCED_* (a fence.acq_rel.gpu made with it in one step) */
} Op;
#define FENCED_BEFORE 1u /* a release pattern's fence and write */
#define FENCED_AFTER 2u  /* an acquire pattern's read and fence */

#define FULL 0xffffffffu
#define ACC(k, s, b) {OP_ACCESS, k, s, b, 0}
#define BAR {OP_BAR, 0, 0, 0, 0}
#define NAMED_BAR(warps) {OP_BAR, 0, 0, 0, warps}
#define SYNCW(m) {OP_SYNCWARP, 0, 0, 0, m}
#define FENCE(sem, s) {OP_FENCE, sem, s, 0, 0}
#define ACCF(k, s, b, f) {OP_ACCESS, k, s, b, f}

typedef struct Place {
    int block, warp, lane; /* in the model: block index < 3, warp < 2 */
    uint32_t blk;          /* the linear block index the rules see */
} Place;

typedef struct Suite {
    const char *name;
    int nthreads;
    Place thr[MR_MAX_THREADS];
    const Op *ops;
    int nops;
    int max_ops;          /* per thread */
    uint32_t bar_start;   /* initial block clocks (wrap-around suites start near the end) */
    uint32_t sync_start;  /* initial warp clocks */
    int lone_sync;        /* also synchronizations whose only modelled participant is the
                             thread itself (they only move its clocks) */
    int aliased;          /* block indices alias in the word: misses and mislabels are the
                             documented approximation, false alarms still disagreements */
    int scoped;           /* fences and a flag: release and acquire through memory, the
                             rules given the releases the runtime's chains would give */
} Suite;

/* ---- Disagreements ----------------------------------------------------------------- */

enum {
    D_NONE,
    D_MISS,             /* the reference has a race, the rules none */
    D_FALSE_ALARM,      /* the rules report a race the reference does not have */
    D_CAUSE,            /* both race, the rules' cause is no racing pair's cause */
    D_PREV,             /* the rules name an exact previous access that does not race */
    D_WARN_MISS,        /* strong_vs_rmw missed */
    D_WARN_FALSE,       /* strong_vs_rmw where there is none */
    D_FALSE_AFTER_RACE, /* after a race on the word: a race the reference does not have */
    D_COUNT
};
static const char *const d_name[D_COUNT] = {
    "none", "missed race", "false alarm", "wrong cause", "wrong previous access",
    "missed warning", "false warning", "false alarm after an earlier race",
};

/* The deliberate approximations of docs/rules.md, each recognised from what the rules
 * declare or from the execution; anything else is a disagreement. */
enum {
    A_NONE,
    A_UNSURE_CAUSE, /* the verdict agrees; the cause came from a summary the rules flag
                       as possibly holding the thread's own access (no CAUSE_SURE) */
    A_UNSURE_WARN,  /* strong_vs_rmw withheld, flagged WARN_UNSURE */
    A_SREAD_CTA,    /* missed: every racing earlier access is a cta-scoped strong read
                       of another block (the word has no bit for its scope) */
    A_NONTILE_MASK, /* false alarm in an execution with a partial __syncwarp whose mask
                       is no aligned power-of-two tile, or leaves out a lane of the warp
                       that accessed the word (the lane tile over-approximates) */
    A_MIXED_SIZES,  /* false alarm where earlier strong accesses to the bytes had two
                       footprints (a byte cell keeps one) */
    A_NAMED_BARRIER, /* missed, in an execution with a barrier of some warps only: a
                        summary takes it for a block-wide one */
    A_BLOCK_ALIAS,  /* missed or mislabelled: two blocks share the word's block bits */
    A_WIDE_STRONG,  /* missed: every racing pair is two strong accesses of different
                       sizes that cover the same whole words (the rules see one word) */
    A_ACQ_LATE,     /* missed, in an execution where an acquire took a flag's chain
                       written after the flag was read (the runtime reads the chain at
                       the acquire) */
    A_ONE_RECORDER, /* false alarm on a word where an acquired release ordered an access
                       before the recorder: the word keeps one recorder, and a second
                       thread that took the release is not ordered after the first */
    A_ACQ_CAUSE,    /* wrong cause or previous access on such a word: a position names
                       the relation to a recorder the release ordered, not the partner */
    A_READERS,      /* false alarm by a thread that took the release of a thread that
                       read the word: the word recorded another reader after it, and
                       the first one's read, summarized relative to that one, is not
                       covered (the one-recorder limit again) */
    A_COUNT
};
static const char *const a_name[A_COUNT] = {
    "none",
    "cause from an unsure summary (flagged)",
    "strong_vs_rmw withheld, partner unsure (flagged)",
    "earlier cta-scoped strong read across blocks",
    "false alarm, partial mask, lanes beyond one tile",
    "false alarm, strong accesses of two sizes",
    "missed, barrier of some warps only",
    "missed or mislabelled, block indices alias",
    "missed, strong accesses wider than a word",
    "missed, an acquire took a release written after its read",
    "false alarm, several threads took one release (one recorder)",
    "cause or previous access, after an acquired release",
    "false alarm, the release of an earlier reader (one recorder)",
};

static unsigned long acount[A_COUNT];
/* Races both sides agree on, by what the rules could say of the other access. */
static unsigned long race_exact, race_named, race_sure, race_unsure;

/* Is a __syncwarp mask an aligned tile of 2^k lanes? */
static int is_tile(uint32_t m)
{
    if (m == FULL)
        return 1;
    int start = __builtin_ctz(m), n = __builtin_popcount(m);
    return m == ((1u << n) - 1u) << start && (n & (n - 1)) == 0 && start % n == 0;
}

/* ---- The simulation: the reference and the rules side by side ---------------------- */

#define MAX_BLOCKS 3
#define MAX_WARPS 2
#define MAX_EVENTS 40

/* One step of an execution: an access by a thread, or a completed synchronization. */
typedef struct Ev {
    int8_t thread; /* -1: a synchronization */
    Op op;
    uint32_t participants;
} Ev;

/* The runtime's release and acquire (devrt_sync.cuh, docs/rules.md section 11), for one flag
 * (the second word): a chain holds the records a flag write carried, and those its
 * writer had taken (trusted: scope-checked by the thread that took them). */
#define CHAIN_MAX 12
#define SET_MAX 8
typedef struct Chain {
    int n;
    uint64_t rec[CHAIN_MAX];
    uint8_t trusted[CHAIN_MAX];
} Chain;

typedef struct Taken {
    int thread;
    uint32_t bar, sync; /* the taker's barrier instance and warp clock then */
    int gpu;            /* the acquire's scope includes other blocks */
    Chain chain;
} Taken;

typedef struct SyncState {
    uint64_t release[MR_MAX_THREADS]; /* latest release record, 0: none */
    Chain last_acq[MR_MAX_THREADS];   /* the chain each thread took last */
    Chain also[MR_MAX_THREADS];       /* last_acq when it released */
    int pending[MR_MAX_THREADS];      /* read the flag strongly since its last acquire */
    int read_version[MR_MAX_THREADS]; /* the flag's version then */
    int version;                      /* flag writes so far */
    int late;                         /* an acquire took a chain written after its read */
    Chain flag;
    Taken set[MAX_BLOCKS][SET_MAX];
    int nset[MAX_BLOCKS];
} SyncState;

typedef struct Mem {
    uint64_t word[2];
    uint64_t cell[2][4];
    uint64_t site[2];     /* the site words the runtime keeps next to them */
    uint64_t csite[2][4];
    uint8_t split[2];
    uint8_t taint[2]; /* a race was decided on the word: from then on only soundness */
    uint8_t acquired[2]; /* an acquired release ordered an access of the word's history */
    /* The runtime's trails (devrt_shadow.cuh, __scord_note_trail): per word, its trail and
     * the word the trail led to; the site word's SC_RULES_SITE_TRAIL says it has one. */
    ScRulesTrail trail[2];
    uint64_t trail_now[2];
    SyncState sync;
} Mem;

typedef struct Sim {
    const Suite *suite;
    MrModel ref;
    ScRulesBlockClk bclk[MAX_BLOCKS];
    ScRulesWarpClk wclk[MAX_BLOCKS][MAX_WARPS];
    Mem mem;
    int nwarps[MAX_BLOCKS];
    /* Scheduling: next[t] is the index of thread t's next op, END or UNDECIDED. */
    int next[MR_MAX_THREADS];
    int done[MR_MAX_THREADS];
    Ev trace[MAX_EVENTS];
    int ntrace;
    /* The reference's index of the access the site word named as the verdict's exact
     * partner (site ids are access indices here), SC_RULES_SITE_NONE when none. */
    uint32_t named;
} Sim;

#define END (-1)
#define UNDECIDED (-2)

static void sim_init(Sim *s, const Suite *su)
{
    MrThread th[MR_MAX_THREADS];
    memset(s, 0, sizeof *s);
    s->suite = su;
    for (int t = 0; t < su->nthreads; t++) {
        th[t].block = su->thr[t].block;
        th[t].warp = su->thr[t].warp;
        th[t].lane = su->thr[t].lane;
        if (su->thr[t].warp + 1 > s->nwarps[su->thr[t].block])
            s->nwarps[su->thr[t].block] = su->thr[t].warp + 1;
        s->next[t] = UNDECIDED;
    }
    mr_init(&s->ref, su->nthreads, th);
    for (int b = 0; b < MAX_BLOCKS; b++) {
        sc_rules_block_clk_init(&s->bclk[b], su->bar_start);
        for (int w = 0; w < MAX_WARPS; w++)
            sc_rules_warp_clk_init(&s->wclk[b][w], su->sync_start);
    }
}

static const int rules_cls[] = {
    [MR_READ] = SC_RULES_CLS_READ,     [MR_WRITE] = SC_RULES_CLS_WRITE,
    [MR_SREAD] = SC_RULES_CLS_SREAD,   [MR_SWRITE] = SC_RULES_CLS_SWRITE,
    [MR_ATOMIC] = SC_RULES_CLS_ATOMIC,
};
static const int rules_scope[] = {
    [MR_SCOPE_NONE] = SC_SCOPE_NONE,
    [MR_SCOPE_CTA] = SC_SCOPE_CTA,
    [MR_SCOPE_GPU] = SC_SCOPE_GPU,
};

static const char *rules_cause_name(int c)
{
    switch (c) {
    case SC_RULES_CAUSE_MISSING_BARRIER: return "missing_barrier";
    case SC_RULES_CAUSE_MISSING_SYNCWARP: return "missing_syncwarp";
    case SC_RULES_CAUSE_UNSYNCHRONIZED_BLOCKS: return "unsynchronized_blocks";
    case SC_RULES_CAUSE_ATOMIC_VS_PLAIN: return "atomic_vs_plain";
    case SC_RULES_CAUSE_ATOMIC_SCOPE: return "atomic_scope";
    case SC_RULES_CAUSE_STRONG_VS_RMW: return "strong_vs_rmw";
    default: return "none";
    }
}

/* The runtime passes NULL while a clock row holds nothing but `now`: it exercises the
 * rules' uniform path exactly where the contract allows it. */
static ScRulesAccess sut_access_desc(const Sim *s, int t, const Op *op, unsigned mask)
{
    const Place *p = &s->suite->thr[t];
    const ScRulesBlockClk *b = &s->bclk[p->block];
    const ScRulesWarpClk *w = &s->wclk[p->block][p->warp];
    ScRulesAccess a;
    a.cls = (uint8_t)rules_cls[op->kind];
    a.scope = (uint8_t)rules_scope[op->scope];
    a.mask = (uint8_t)mask;
    a.blk = p->blk;
    a.tid = (uint32_t)(p->warp * 32 + p->lane);
    a.bar_now = b->now;
    a.bar_own = b->own[p->warp];
    int uniform = b->own[p->warp] == b->now;
    for (int x = 0; x < 32 && uniform; x++)
        uniform = b->seen[p->warp][x] == b->now;
    a.bar_seen = uniform ? NULL : b->seen[p->warp];
    a.sync_now = w->now;
    a.sync_floor = w->floor;
    uniform = w->floor == w->now;
    for (int m = 0; m < 32 && uniform; m++)
        uniform = w->seen[p->lane][m] == w->now;
    a.sync_seen = uniform ? NULL : w->seen[p->lane];
    a.hint = 0;
    a.acq = NULL;
    a.n_acq = 0;
    a.moved = 0;
    a.cluster = NULL; /* the reference model has no clusters */
    a.shared = 0;
    return a;
}

/* ---- Release and acquire, as the device runtime keeps them -------------------------- */

#define FLAG_BYTES 0xf0u

static void chain_add(Chain *c, uint64_t rec, int trusted)
{
    if (c->n < CHAIN_MAX) {
        c->rec[c->n] = rec;
        c->trusted[c->n++] = (uint8_t)trusted;
    }
}

/* A release fence of thread t (__scord_release): a one-lane __syncwarp, then the record
 * of what it covers, which the thread's next flag writes carry. */
static void sut_release(Sim *s, int t, int scope)
{
    const Place *p = &s->suite->thr[t];
    ScRulesWarpClk *w = &s->wclk[p->block][p->warp];
    const ScRulesBlockClk *b = &s->bclk[p->block];
    sc_rules_warp_sync(w, 1u << p->lane, 0);
    uint32_t known = b->now;
    for (int x = 0; x < s->nwarps[p->block]; x++)
        if (sc_rules_age(b->now, b->seen[p->warp][x], SC_RULES_BAR_MOD) >
            sc_rules_age(b->now, known, SC_RULES_BAR_MOD))
            known = b->seen[p->warp][x];
    s->mem.sync.release[t] = sc_rules_release_record(p->blk, (uint32_t)(p->warp * 32 + p->lane), w->now,
                                                     known, w->floor,
                                                     scope == MR_SCOPE_GPU ? SC_RULES_SPAN_GPU : SC_RULES_SPAN_BLOCK);
    s->mem.sync.also[t] = s->mem.sync.last_acq[t];
}

/* An acquire fence of thread t (__scord_acquire): it takes the flag's chain if it read
 * the flag strongly since its last acquire and the scopes let the two synchronize. */
static void sut_acquire(Sim *s, int t, int scope)
{
    SyncState *y = &s->mem.sync;
    const Place *p = &s->suite->thr[t];
    if (!y->pending[t])
        return;
    y->pending[t] = 0;
    if (!y->flag.n)
        return; /* nothing written to the flag yet */
    if (y->read_version[t] != y->version)
        y->late = 1;
    uint64_t head = y->flag.rec[0];
    int gpu = scope == MR_SCOPE_GPU;
    if (!(head & SC_RULES_REC_SET) ||
        (sc_rules_rec_blk(head) != p->blk && (!(head & SC_RULES_REC_GPU) || !gpu))) {
        /* A failed attempt: it only names causes. When only the fence's scope fell
         * short, the read still makes an acquire pattern with a later, wider fence. */
        y->pending[t] = (head & SC_RULES_REC_SET) && (head & SC_RULES_REC_GPU);
        return;
    }
    y->last_acq[t] = y->flag;
    /* A taken chain steps the taker's warp clock, as a release does: what it orders
     * before the taker's later accesses came after its earlier releases. */
    sc_rules_warp_sync(&s->wclk[p->block][p->warp], 1u << p->lane, 0);
    const ScRulesBlockClk *b = &s->bclk[p->block];
    Taken *e;
    if (y->nset[p->block] == SET_MAX) {
        memmove(&y->set[p->block][0], &y->set[p->block][1], sizeof(Taken) * (SET_MAX - 1));
        y->nset[p->block]--;
    }
    e = &y->set[p->block][y->nset[p->block]++];
    e->thread = t;
    e->bar = b->own[p->warp];
    e->sync = s->wclk[p->block][p->warp].now;
    e->gpu = gpu;
    e->chain = y->flag;
}

/* What a flag access does before it is checked (__scord_sync_access): a strong write
 * starts the flag's chain with the writer's latest release and the chain it had
 * taken then (or with nothing, if it released nothing); a strong read notes the flag
 * for the next acquire. */
static void sut_flag_access(Sim *s, int t, const Op *op)
{
    SyncState *y = &s->mem.sync;
    if (!s->suite->scoped || !(op->bytes & FLAG_BYTES))
        return;
    if (op->kind == MR_SREAD) {
        y->pending[t] = 1;
        y->read_version[t] = y->version;
    } else if (op->kind == MR_SWRITE) {
        const Place *p = &s->suite->thr[t];
        y->version++;
        memset(&y->flag, 0, sizeof y->flag);
        if (!y->release[t]) {
            chain_add(&y->flag, (uint64_t)p->blk | (uint64_t)(p->warp * 32 + p->lane) << 23, 0);
            return;
        }
        chain_add(&y->flag, y->release[t], 0);
        for (int i = 0; i < y->also[t].n; i++)
            chain_add(&y->flag, y->also[t].rec[i], 1);
    }
}

/* The records thread t's access may use (acquired_cover's reading, every record): the
 * chains its block's threads took that it took itself or that a barrier or __syncwarp
 * orders before it, their records whose scopes reach it. */
static uint32_t sut_acquired(const Sim *s, int t, const ScRulesAccess *a, uint64_t *out)
{
    const SyncState *y = &s->mem.sync;
    const Place *p = &s->suite->thr[t];
    uint32_t n = 0;
    for (int k = y->nset[p->block] - 1; k >= 0; k--) {
        const Taken *e = &y->set[p->block][k];
        if (e->thread != t) {
            const Place *q = &s->suite->thr[e->thread];
            uint32_t known = q->warp == p->warp ? a->bar_own : a->bar_seen ? a->bar_seen[q->warp] : a->bar_now;
            int ordered = sc_rules_newer(a->bar_now, known, e->bar, SC_RULES_BAR_MOD);
            if (!ordered && q->warp == p->warp) {
                uint32_t ks = a->sync_seen ? a->sync_seen[q->lane] : a->sync_now;
                ordered = sc_rules_newer(a->sync_now, ks, e->sync, SC_RULES_SYNC_MOD);
            }
            if (!ordered)
                continue;
        }
        for (int i = 0; i < e->chain.n && n < 2 * CHAIN_MAX * SET_MAX; i++) {
            uint64_t r = e->chain.rec[i];
            int reaches = e->chain.trusted[i] || sc_rules_rec_blk(r) == p->blk ||
                          ((r & SC_RULES_REC_GPU) && e->gpu);
            if ((r & SC_RULES_REC_SET) && reaches)
                out[n++] = r;
        }
    }
    return n;
}

/* The abstract states (positions, xcta, tile: bits 4..22) the words and cells reach. */
static uint8_t seen_state[1u << 16];

static void note_state(uint64_t w)
{
    uint32_t k = (uint32_t)(w >> SC_RULES_REACH_SHIFT) & 0x7ffffu;
    seen_state[k >> 3] |= (uint8_t)(1u << (k & 7u));
}

/* The record the runtime's walk returns for access a on word w (__scord_acquired_cover):
 * none when the thread's clocks order the recorder; else the first of a's records that
 * covers all of it, or else the first that covers part of it. */
static uint64_t sut_cover(uint64_t w, const ScRulesAccess *a)
{
    if (sc_rules_is_split(w) || !(w & ~SC_RULES_MASK_FIELD))
        return 0;
    ScRulesState st = sc_rules_decode(w);
    RulesRel rel = rules_relate_clocks(&st, a);
    if (rel.same_thr || rules_ordered_clocks(&rel, SC_RULES_POS_SELF))
        return 0;
    uint64_t partial = 0, all = 0;
    unsigned long hits[64];
    memcpy(hits, cov_hits, sizeof hits); /* the rules' branches as decisions reach them */
    for (uint32_t i = 0; i < a->n_acq && !all; i++) {
        int c = sc_rules_release_covers(a->acq[i], &st);
        if (c == SC_RULES_COVERS_ALL)
            all = a->acq[i];
        if (c && !partial)
            partial = a->acq[i];
    }
    memcpy(cov_hits, hits, sizeof hits);
    return all ? all : partial;
}

/* The classes of word w the runtime lets access a take as ordered through the word's
 * trail (ScRulesAccess.moved; __scord_acquired_cover): when the site word says w has
 * a trail and a class that conflicts with a is not
 * ordered by a's clocks; the word the trail began with is judged with the first of a's
 * records that covers all of its recorder, each access since with the first that
 * covers it. */
static unsigned sut_trail_classes(const Sim *s, int t, int w, const ScRulesAccess *a)
{
    const Mem *m = &s->mem;
    uint64_t now = m->word[w];
    if (!(m->site[w] & SC_RULES_SITE_TRAIL) ||
        m->trail_now[w] != now || sc_rules_is_split(now) || !(now & ~SC_RULES_MASK_FIELD))
        return 0;
    unsigned long hits[64];
    memcpy(hits, cov_hits, sizeof hits); /* not decisions of the rules */
    ScRulesState st = sc_rules_decode(now);
    RulesRel rel = rules_relate_clocks(&st, a);
    int conflicts = 0;
    for (int c = 0; c < SC_RULES_NCLS; c++)
        conflicts |= (rules_is_write(c) || rules_is_write(a->cls)) && !rules_ordered_clocks(&rel, st.reach[c]);
    unsigned classes = 0;
    if (conflicts) {
        const ScRulesTrail *tr = &m->trail[w];
        unsigned after_ordered;
        int before_ordered = trail_judge(tr, a, &after_ordered);
        classes = sc_rules_trail_classes(tr, before_ordered, after_ordered);
    }
    memcpy(cov_hits, hits, sizeof hits);
    return classes;
}

/* After access a of thread t turned word w from `old` into `next` (no race), with the
 * site word `site` (sc_rules_site_next's: its trail bit clear unless the word stayed): keep the
 * word's trail or begin one, as the runtime does for a word of global memory
 * (devrt_shadow.cuh, may_trail and __scord_note_trail). Returns the site word with the trail
 * bit as the runtime leaves it. */
static uint64_t sut_note_trail(Sim *s, int t, int w, const ScRulesAccess *a, uint32_t id, uint64_t old,
                               uint64_t next, uint64_t site)
{
    Mem *m = &s->mem;
    int trailed = (m->site[w] & SC_RULES_SITE_TRAIL) != 0;
    if (next == old || a->cls == SC_RULES_CLS_WRITE)
        return site;
    unsigned long hits[64];
    memcpy(hits, cov_hits, sizeof hits); /* not decisions of the rules */
    int begin = 0, released = 0;
    for (int u = 0; u < s->suite->nthreads; u++)
        released |= m->sync.release[u] != 0;
    if (!trailed)
        begin = (released && (a->cls == SC_RULES_CLS_READ || a->cls == SC_RULES_CLS_SREAD) &&
                 (old & ~SC_RULES_MASK_FIELD)) ||
                (sut_cover(old, a) && sc_rules_restated(next));
    memcpy(cov_hits, hits, sizeof hits);
    if (!trailed && !begin)
        return site;
    ScRulesTrail *tr = &m->trail[w];
    if (!trailed || m->trail_now[w] != old) {
        tr->before = old;
        tr->before_site = m->site[w];
        tr->n_after = 0;
        tr->lost = 0;
    }
    sc_rules_trail_add(tr, sc_rules_stamp(a, id));
    m->trail_now[w] = next;
    return site | SC_RULES_SITE_TRAIL;
}

/* Runs one access through the shadow as the runtime would: word, or byte cells once
 * the word is split. The verdict is the first race, else the first warning. */
/* Executions and accesses explored; words the quick decision decided. */
static unsigned long n_exec, n_checks, n_quick;

static int sut_access(Sim *s, int t, const Op *op, ScRulesVerdict *out)
{
    int res = SC_RULES_OK;
    memset(out, 0, sizeof *out);
    out->result = SC_RULES_OK;
    s->named = SC_RULES_SITE_NONE;
    uint64_t acquired[2 * CHAIN_MAX * SET_MAX];
    uint32_t n_acquired = 0;
    sut_flag_access(s, t, op);
    for (int w = 0; w < 2; w++) {
        unsigned mask = (op->bytes >> (4 * w)) & 0xfu;
        if (!mask)
            continue;
        ScRulesAccess a = sut_access_desc(s, t, op, mask);
        unsigned long acq_hits = cov_hits[SC_RULES_COV_ACQ_ORDERED] + cov_hits[SC_RULES_COV_ACQ_MOVE] + cov_hits[SC_RULES_COV_ACQ_BEFORE];
        if (s->suite->scoped) {
            n_acquired = sut_acquired(s, t, &a, acquired);
            a.acq = acquired;
            a.n_acq = n_acquired;
        }
        ScRulesVerdict v;
        uint64_t n;
        int r[4], nr = 0;
        ScRulesVerdict vs[4];
        uint32_t nm[4];
        uint32_t id = (uint32_t)s->ref.naccess - 1; /* mr_access went first */
        /* Like the runtime, always ask the word first: a split word says so. */
        a.hint = s->mem.site[w];
        a.moved = (uint8_t)(s->suite->scoped && !s->mem.split[w] ? sut_trail_classes(s, t, w, &a) : 0);
        /* The runtime asks the quick decision first: where it decides, the rules must
         * agree (no race, the same word). */
        uint64_t quick = 0;
        int quick_decided = sc_rules_quick(s->mem.word[w], &a, &quick);
        n_quick += (unsigned long)quick_decided;
        r[0] = sc_rules_access(s->mem.word[w], &a, &n, &v);
        if (quick_decided && ((r[0] != SC_RULES_OK && r[0] != SC_RULES_UNCHANGED) || n != quick))
            return -1;
        if (s->mem.split[w] && r[0] != SC_RULES_SPLIT)
            return -1;
        if (!s->mem.split[w]) {
            if (r[0] != SC_RULES_SPLIT) {
                if (r[0] == SC_RULES_UNCHANGED && n != s->mem.word[w])
                    return -1; /* the contract: UNCHANGED leaves the word as it is */
                nm[0] = v.prev_exact ? sc_rules_site_of(a.hint, v.prev_cls) : SC_RULES_SITE_NONE;
                uint64_t site = sc_rules_site_next(s->mem.site[w], s->mem.word[w], n, &a, id, 0);
                if (s->suite->scoped && (r[0] == SC_RULES_OK || r[0] == SC_RULES_WARN))
                    site = sut_note_trail(s, t, w, &a, id, s->mem.word[w], n, site);
                s->mem.site[w] = site;
                s->mem.word[w] = n;
                note_state(n);
                vs[0] = v;
                nr = 1;
            } else {
                for (unsigned b = 0; b < 4; b++) {
                    s->mem.cell[w][b] = sc_rules_split_cell(s->mem.word[w], b);
                    s->mem.csite[w][b] = s->mem.cell[w][b] ? s->mem.site[w] : 0;
                }
                s->mem.split[w] = 1;
                s->mem.word[w] = sc_rules_split_word((uint64_t)w);
            }
        }
        if (s->mem.split[w]) {
            for (unsigned b = 0; b < 4; b++) {
                if (!((mask >> b) & 1u))
                    continue;
                a.hint = s->mem.csite[w][b];
                r[nr] = sc_rules_access_cell(s->mem.cell[w][b], &a, &n, &v);
                nm[nr] = v.prev_exact ? sc_rules_site_of(a.hint, v.prev_cls) : SC_RULES_SITE_NONE;
                s->mem.csite[w][b] =
                    sc_rules_site_next(s->mem.csite[w][b], s->mem.cell[w][b], n, &a, id, 1);
                s->mem.cell[w][b] = n;
                note_state(n);
                vs[nr++] = v;
            }
        }
        if (cov_hits[SC_RULES_COV_ACQ_ORDERED] + cov_hits[SC_RULES_COV_ACQ_MOVE] + cov_hits[SC_RULES_COV_ACQ_BEFORE] != acq_hits)
            s->mem.acquired[w] = 1;
        for (int i = 0; i < nr; i++) {
            out->flags |= vs[i].flags & SC_RULES_V_WARN_UNSURE;
            if (r[i] == SC_RULES_RACE && res != SC_RULES_RACE) {
                res = SC_RULES_RACE;
                vs[i].flags |= out->flags & SC_RULES_V_WARN_UNSURE;
                *out = vs[i];
                s->named = nm[i];
            } else if (r[i] == SC_RULES_WARN && res == SC_RULES_OK) {
                res = SC_RULES_WARN;
                vs[i].flags |= out->flags & SC_RULES_V_WARN_UNSURE;
                *out = vs[i];
                s->named = nm[i];
            }
        }
    }
    return res;
}

/* The documented reason for a false alarm of the rules, if any (see A_*). */
static int false_alarm_reason(const Sim *s)
{
    const MrAccess *cur = &s->ref.access[s->ref.naccess - 1];
    const Place *cp = &s->suite->thr[cur->thread];
    uint32_t lanes = 0; /* lanes of the current thread's warp that accessed its words */
    for (int i = 0; i < s->ref.naccess; i++) {
        const MrAccess *x = &s->ref.access[i];
        const Place *q = &s->suite->thr[x->thread];
        unsigned words = 0;
        for (int w = 0; w < 2; w++)
            if ((cur->bytes >> (4 * w)) & 0xfu)
                words |= 0xfu << (4 * w);
        if (q->block == cp->block && q->warp == cp->warp && (x->bytes & words))
            lanes |= 1u << q->lane;
    }
    for (int i = 0; i < s->ntrace; i++) {
        const Ev *e = &s->trace[i];
        if (e->thread < 0 && e->op.type == OP_SYNCWARP && e->op.lanes != FULL &&
            (!is_tile(e->op.lanes) || (lanes & ~e->op.lanes)))
            return A_NONTILE_MASK;
    }
    for (int b = 0; b < 8; b++) {
        unsigned fp = 0;
        if (!((cur->bytes >> b) & 1u))
            continue;
        for (int i = 0; i + 1 < s->ref.naccess; i++) {
            const MrAccess *x = &s->ref.access[i];
            if (!mr_is_strong(x->kind) || !((x->bytes >> b) & 1u))
                continue;
            if (fp && fp != x->bytes)
                return A_MIXED_SIZES;
            fp = x->bytes;
        }
    }
    return A_NONE;
}

/* Has the accessing thread's block taken a chain with the release of a thread that
 * read the accessed words (A_READERS)? */
static int took_reader_release(const Sim *s)
{
    const MrAccess *cur = &s->ref.access[s->ref.naccess - 1];
    const Place *cp = &s->suite->thr[cur->thread];
    const SyncState *y = &s->mem.sync;
    unsigned words = 0;
    for (int w = 0; w < 2; w++)
        if ((cur->bytes >> (4 * w)) & 0xfu)
            words |= 0xfu << (4 * w);
    for (int k = 0; k < y->nset[cp->block]; k++) {
        const Chain *c = &y->set[cp->block][k].chain;
        for (int i = 0; i < c->n; i++) {
            if (!(c->rec[i] & SC_RULES_REC_SET))
                continue;
            for (int j = 0; j + 1 < s->ref.naccess; j++) {
                const MrAccess *x = &s->ref.access[j];
                const Place *q = &s->suite->thr[x->thread];
                if ((x->kind == MR_READ || x->kind == MR_SREAD) && (x->bytes & words) &&
                    sc_rules_rec_blk(c->rec[i]) == q->blk &&
                    sc_rules_rec_tid(c->rec[i]) == (uint32_t)(q->warp * 32 + q->lane))
                    return 1;
            }
        }
    }
    return 0;
}

/* Compares the verdicts of one access: D_NONE, a disagreement D_*, or D_COUNT + A_*
 * for a deliberate approximation of docs/rules.md. */
/* Is thread p where the verdict's position bounds a partner it did not name: the
 * recorder's warp (WSYNC, LSYNC, WARP), its block (BSYNC, BLOCK), anywhere (GRID)? */
static int partner_within(const ScRulesVerdict *v, const Place *p)
{
    int blk = (p->blk & ((1u << SC_RULES_BLK_BITS) - 1u)) == v->prev_blk;
    int warp = blk && (unsigned)p->warp == v->prev_tid / 32u;
    switch ((ScRulesPos)v->prev_pos) {
    case SC_RULES_POS_GRID:
        return 1;
    case SC_RULES_POS_BSYNC:
    case SC_RULES_POS_BLOCK:
        return blk;
    case SC_RULES_POS_WSYNC:
    case SC_RULES_POS_LSYNC:
    case SC_RULES_POS_WARP:
        return warp;
    case SC_RULES_POS_SELF:
    case SC_RULES_POS_NONE:
        break;
    }
    return warp && (unsigned)p->lane == v->prev_tid % 32u;
}

static int compare(const Sim *s, const MrResult *ref, int res, const ScRulesVerdict *v,
                   int tainted)
{
    int rr = ref->nrace > 0, sr = res == SC_RULES_RACE;
    unsigned bytes = s->ref.access[s->ref.naccess - 1].bytes;
    int acquired = ((bytes & 0x0fu) && s->mem.acquired[0]) || ((bytes & 0xf0u) && s->mem.acquired[1]);
    if (res < 0)
        return D_FALSE_ALARM;
    if (sr && !rr) {
        int why = false_alarm_reason(s);
        if (why != A_NONE)
            return D_COUNT + why;
        if (acquired)
            return D_COUNT + A_ONE_RECORDER;
        if (took_reader_release(s))
            return D_COUNT + A_READERS;
        return tainted ? D_FALSE_AFTER_RACE : D_FALSE_ALARM;
    }
    if (tainted)
        return D_NONE;
    if (s->suite->aliased && (rr != sr || rr)) {
        int d = rr && !sr ? D_MISS : D_NONE;
        if (rr && sr) {
            /* Mislabels are part of the approximation; count them with the misses. */
            for (int i = 0; i < ref->nrace; i++)
                if (!strcmp(ref->race[i].cause, rules_cause_name(v->cause)))
                    return D_NONE;
            return D_COUNT + A_BLOCK_ALIAS;
        }
        if (d == D_MISS)
            return D_COUNT + A_BLOCK_ALIAS;
    }
    if (rr && !sr) {
        if (s->mem.sync.late)
            return D_COUNT + A_ACQ_LATE;
        for (int i = 0; i < s->ntrace; i++)
            if (s->trace[i].thread < 0 && s->trace[i].op.type == OP_BAR && s->trace[i].op.lanes)
                return D_COUNT + A_NAMED_BARRIER;
        int sread_cta = 1;
        for (int i = 0; i < ref->nrace && sread_cta; i++) {
            const MrAccess *x = &s->ref.access[ref->race[i].prev];
            sread_cta = x->kind == MR_SREAD && x->scope == MR_SCOPE_CTA &&
                        !strcmp(ref->race[i].cause, "atomic_scope");
        }
        if (sread_cta)
            return D_COUNT + A_SREAD_CTA;
        int wide = 1;
        const MrAccess *cur = &s->ref.access[s->ref.naccess - 1];
        for (int i = 0; i < ref->nrace && wide; i++) {
            const MrAccess *x = &s->ref.access[ref->race[i].prev];
            unsigned both = x->bytes & cur->bytes, words = 0;
            for (int w = 0; w < 2; w++)
                if ((both >> (4 * w)) & 0xfu)
                    words |= 0xfu << (4 * w);
            wide = mr_is_strong(x->kind) && mr_is_strong(cur->kind) &&
                   (x->bytes & words) == words && (cur->bytes & words) == words;
        }
        return wide ? D_COUNT + A_WIDE_STRONG : D_MISS;
    }
    if (rr) {
        int cause_ok = 0, prev_ok = 0, named_ok = s->named == SC_RULES_SITE_NONE;
        for (int i = 0; i < ref->nrace; i++) {
            const MrAccess *x = &s->ref.access[ref->race[i].prev];
            const Place *p = &s->suite->thr[x->thread];
            if (!strcmp(ref->race[i].cause, rules_cause_name(v->cause)))
                cause_ok = 1;
            if ((p->blk & ((1u << SC_RULES_BLK_BITS) - 1u)) == v->prev_blk &&
                (unsigned)(p->warp * 32 + p->lane) == v->prev_tid &&
                rules_cls[x->kind] == v->prev_cls)
                prev_ok = 1;
            /* A partner the word summarized lies where its position bounds it (the
             * report places it so, relative to the recorder). */
            if (!v->prev_exact && partner_within(v, p))
                prev_ok = 2;
            if ((uint32_t)ref->race[i].prev == s->named)
                named_ok = 1;
        }
        if ((!prev_ok || !named_ok) && acquired)
            return D_COUNT + A_ACQ_CAUSE;
        if (!prev_ok || !named_ok)
            return D_PREV;
        if (v->prev_exact && s->named != SC_RULES_SITE_NONE)
            race_named++;
        if (v->prev_exact)
            race_exact++;
        else if (v->flags & SC_RULES_V_CAUSE_SURE)
            race_sure++;
        else
            race_unsure++;
        if (!cause_ok && (v->flags & SC_RULES_V_CAUSE_SURE))
            return acquired ? D_COUNT + A_ACQ_CAUSE : D_CAUSE;
        return cause_ok ? D_NONE : D_COUNT + A_UNSURE_CAUSE;
    }
    int rw = ref->nwarn > 0, sw = res == SC_RULES_WARN;
    if (rw && !sw && (v->flags & SC_RULES_V_WARN_UNSURE))
        return D_COUNT + A_UNSURE_WARN;
    return rw && !sw ? D_WARN_MISS : sw && !rw ? D_WARN_FALSE : D_NONE;
}

/* One access by thread t, on both sides; returns the disagreement, if any. */
static int sim_access(Sim *s, int t, const Op *op)
{
    MrResult ref;
    ScRulesVerdict v;
    int tainted = 0;
    for (int w = 0; w < 2; w++)
        if ((op->bytes >> (4 * w)) & 0xfu)
            tainted |= s->mem.taint[w];
    mr_access(&s->ref, t, (MrKind)op->kind, (MrScope)op->scope, op->bytes, &ref);
    int res = sut_access(s, t, op, &v);
    int d = compare(s, &ref, res, &v, tainted);
    if (ref.nrace || res == SC_RULES_RACE)
        for (int w = 0; w < 2; w++)
            if ((op->bytes >> (4 * w)) & 0xfu)
                s->mem.taint[w] = 1;
    return d;
}

/* A fence of thread t on both sides: acquire half first, as the runtime and the
 * reference both take it. */
static void sim_fence(Sim *s, int t, const Op *op)
{
    mr_fence(&s->ref, t, (MrSem)op->kind, (MrScope)op->scope);
    if (mr_sem_acquires((MrSem)op->kind))
        sut_acquire(s, t, op->scope);
    if (mr_sem_releases((MrSem)op->kind))
        sut_release(s, t, op->scope);
}

static const Op fence_gpu = FENCE(MR_SEM_ACQ_REL, MR_SCOPE_GPU);

/* One event of a thread: an access (its disagreement, if any), with the fence it is
 * made with, or a fence. */
static int sim_step(Sim *s, int t, const Op *op)
{
    if (op->type == OP_FENCE) {
        sim_fence(s, t, op);
        return D_NONE;
    }
    if (op->lanes & FENCED_BEFORE)
        sim_fence(s, t, &fence_gpu);
    int d = sim_access(s, t, op);
    if (op->lanes & FENCED_AFTER)
        sim_fence(s, t, &fence_gpu);
    return d;
}

/* A synchronization completes with `participants` on both sides. */
static void sim_sync(Sim *s, const Op *op, uint32_t participants)
{
    int first = __builtin_ctz(participants);
    const Place *p = &s->suite->thr[first];
    mr_sync(&s->ref, participants);
    if (op->type == OP_BAR)
        sc_rules_block_barrier(&s->bclk[p->block],
                               op->lanes ? op->lanes : (1u << s->nwarps[p->block]) - 1u);
    else
        sc_rules_warp_sync(&s->wclk[p->block][p->warp], op->lanes, op->lanes == FULL);
}

/* Replays a recorded execution from the start and compares at its last event. */
static int replay(const Suite *su, const Ev *ev, int n)
{
    static Sim s;
    int d = D_NONE;
    sim_init(&s, su);
    for (int i = 0; i < n; i++) {
        if (ev[i].thread >= 0)
            d = sim_step(&s, ev[i].thread, &ev[i].op);
        else
            sim_sync(&s, &ev[i].op, ev[i].participants);
    }
    return d;
}

/* ---- Reporting --------------------------------------------------------------------- */

static void op_text(const Op *op, char *buf, size_t n)
{
    static const char *const kind[] = {"ld", "st", "ld.relaxed", "st.relaxed", "atom"};
    static const char *const scope[] = {"", ".cta", ".gpu"};
    if (op->type == OP_BAR) {
        if (op->lanes)
            snprintf(buf, n, "bar.sync 1, %d /* warps 0x%x */", 32 * __builtin_popcount(op->lanes),
                     op->lanes);
        else
            snprintf(buf, n, "bar.sync 0");
        return;
    }
    if (op->type == OP_SYNCWARP) {
        snprintf(buf, n, "bar.warp.sync 0x%x", op->lanes);
        return;
    }
    if (op->type == OP_FENCE) {
        static const char *const sem[] = {"relaxed", "acquire", "release", "acq_rel"};
        snprintf(buf, n, "fence.%s%s", sem[op->kind], scope[op->scope]);
        return;
    }
    int lo = __builtin_ctz(op->bytes), hi = 31 - __builtin_clz(op->bytes);
    snprintf(buf, n, "%s%s%s [%d..%d]%s", op->lanes & FENCED_BEFORE ? "fence.acq_rel.gpu + " : "",
             kind[op->kind], scope[op->scope], lo, hi,
             op->lanes & FENCED_AFTER ? " + fence.acq_rel.gpu" : "");
}

typedef struct Found {
    int kind;
    const Suite *suite;
    Ev ev[MAX_EVENTS];
    int n;
} Found;

#define MAX_FOUND 96
static Found found[MAX_FOUND];
static int nfound;
static unsigned long dcount[D_COUNT];

static void print_litmus(const Found *f)
{
    const Suite *su = f->suite;
    char buf[64];
    if (f->kind < D_COUNT)
        printf("DISAGREEMENT: %s  (suite %s)\n", d_name[f->kind], su->name);
    else
        printf("DELIBERATE: %s  (suite %s)\n", a_name[f->kind - D_COUNT], su->name);
    for (int t = 0; t < su->nthreads; t++) {
        const Place *p = &su->thr[t];
        printf("  T%d (block %d [id %u], warp %d, lane %d):", t, p->block, p->blk, p->warp,
               p->lane);
        for (int i = 0; i < f->n; i++) {
            if (f->ev[i].thread != t && !(f->ev[i].thread < 0 && ((f->ev[i].participants >> t) & 1u)))
                continue;
            op_text(&f->ev[i].op, buf, sizeof buf);
            printf(" %s;", buf);
        }
        printf("\n");
    }
    printf("  interleaving:");
    for (int i = 0; i < f->n; i++) {
        op_text(&f->ev[i].op, buf, sizeof buf);
        if (f->ev[i].thread >= 0)
            printf(" T%d:%s", f->ev[i].thread, buf);
        else
            printf(" {%s by 0x%x}", buf, f->ev[i].participants);
        printf(i + 1 < f->n ? " ->" : "   <== here\n");
    }
    MrResult ref;
    static Sim s;
    sim_init(&s, su);
    for (int i = 0; i + 1 < f->n; i++) {
        if (f->ev[i].thread >= 0)
            sim_step(&s, f->ev[i].thread, &f->ev[i].op);
        else
            sim_sync(&s, &f->ev[i].op, f->ev[i].participants);
    }
    const Ev *last = &f->ev[f->n - 1];
    if (last->op.lanes & FENCED_BEFORE)
        sim_fence(&s, last->thread, &fence_gpu);
    ScRulesVerdict v;
    MrModel saved = s.ref;
    mr_access(&s.ref, last->thread, (MrKind)last->op.kind, (MrScope)last->op.scope,
              last->op.bytes, &ref);
    s.ref = saved;
    int res = sut_access(&s, last->thread, &last->op, &v);
    printf("  reference:");
    if (!ref.nrace && !ref.nwarn)
        printf(" no race");
    for (int i = 0; i < ref.nrace; i++)
        printf(" race(%s with T%d's access #%d)", ref.race[i].cause,
               s.ref.access[ref.race[i].prev].thread, ref.race[i].prev);
    for (int i = 0; i < ref.nwarn; i++)
        printf(" warning(%s with T%d)", ref.warn[i].cause, s.ref.access[ref.warn[i].prev].thread);
    printf("\n  rules:     %s %s (previous: tid %u block %u cls %u%s)\n",
           res == SC_RULES_RACE ? "race" : res == SC_RULES_WARN ? "warning" : "no race",
           rules_cause_name(v.cause), v.prev_tid, v.prev_blk, v.prev_cls,
           v.prev_exact ? ", exact" : "");
}

/* Greedy delta debugging: drop events while the same disagreement remains. */
static void minimize(Found *f)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int i = 0; i + 1 < f->n; i++) {
            Ev tmp[MAX_EVENTS];
            int m = 0;
            for (int j = 0; j < f->n; j++)
                if (j != i)
                    tmp[m++] = f->ev[j];
            if (replay(f->suite, tmp, m) == f->kind) {
                memcpy(f->ev, tmp, sizeof(Ev) * (size_t)m);
                f->n = m;
                changed = 1;
                i--;
            }
        }
    }
}

static int same_found(const Found *a, const Found *b)
{
    if (a->kind != b->kind || a->n != b->n || a->suite != b->suite)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->ev[i].thread != b->ev[i].thread || memcmp(&a->ev[i].op, &b->ev[i].op, sizeof(Op)) ||
            a->ev[i].participants != b->ev[i].participants)
            return 0;
    return 1;
}

static int nfound_kind[D_COUNT + A_COUNT];
static unsigned long tried_kind[D_COUNT + A_COUNT];

/* Keeps minimized examples: a few distinct ones of each disagreement kind, one of each
 * deliberate approximation. Minimizing costs replays: only the first few are tried. */
static void record(const Sim *s, int kind)
{
    if (kind < D_COUNT)
        dcount[kind]++;
    int keep = kind < D_COUNT ? 6 : 1;
    if (++tried_kind[kind] > 64 || nfound_kind[kind] >= keep || nfound == MAX_FOUND)
        return;
    Found f;
    f.kind = kind;
    f.suite = s->suite;
    f.n = s->ntrace;
    memcpy(f.ev, s->trace, sizeof(Ev) * (size_t)s->ntrace);
    minimize(&f);
    for (int i = 0; i < nfound; i++)
        if (same_found(&found[i], &f))
            return;
    found[nfound++] = f;
    nfound_kind[kind]++;
}

/* ---- Enumeration ------------------------------------------------------------------- */

static void decide(Sim *s, int t);

/* Every way the execution can go on from here: one of the threads whose next op is an
 * access makes it, or one of the synchronizations whose participants all arrived
 * completes. With neither, the execution is complete. */
static void explore(Sim *s)
{
    const Suite *su = s->suite;
    int moved = 0;
    if (s->ntrace == MAX_EVENTS) {
        n_exec++;
        return;
    }
    for (int t = 0; t < su->nthreads; t++) {
        if (s->next[t] < 0 || (su->ops[s->next[t]].type != OP_ACCESS &&
                               su->ops[s->next[t]].type != OP_FENCE))
            continue;
        moved = 1;
        const Op *op = &su->ops[s->next[t]];
        const Place *pl = &su->thr[t];
        Mem saved = s->mem;
        int naccess = s->ref.naccess, next = s->next[t];
        /* Scoped suites: the reference's synchronization state and the thread's warp
         * clock (a release's one-lane __syncwarp) change too. */
        static MrModel ref_saved[MAX_EVENTS];
        static ScRulesWarpClk wsaved[MAX_EVENTS];
        if (su->scoped) {
            ref_saved[s->ntrace] = s->ref;
            wsaved[s->ntrace] = s->wclk[pl->block][pl->warp];
        }
        s->trace[s->ntrace].thread = (int8_t)t;
        s->trace[s->ntrace].op = *op;
        s->trace[s->ntrace++].participants = 0;
        n_checks += op->type == OP_ACCESS;
        int d = sim_step(s, t, op);
        if (d >= D_COUNT)
            acount[d - D_COUNT]++;
        if (d)
            record(s, d);
        s->next[t] = UNDECIDED;
        s->done[t]++;
        decide(s, 0);
        s->done[t]--;
        s->next[t] = next;
        s->ntrace--;
        s->ref.naccess = naccess;
        if (su->scoped) {
            s->ref = ref_saved[s->ntrace];
            s->wclk[pl->block][pl->warp] = wsaved[s->ntrace];
        }
        s->mem = saved;
    }
    /* Synchronizations: the lowest participant stands for the instance. */
    for (int t = 0; t < su->nthreads; t++) {
        if (s->next[t] < 0 || su->ops[s->next[t]].type == OP_ACCESS ||
            su->ops[s->next[t]].type == OP_FENCE)
            continue;
        const Op *op = &su->ops[s->next[t]];
        const Place *p = &su->thr[t];
        uint32_t part = 0;
        for (int u = 0; u < su->nthreads; u++) {
            const Place *q = &su->thr[u];
            if (q->block != p->block)
                continue;
            if (op->type == OP_SYNCWARP && (q->warp != p->warp || !((op->lanes >> q->lane) & 1u)))
                continue;
            if (op->type == OP_BAR && op->lanes && !((op->lanes >> q->warp) & 1u))
                continue;
            part |= 1u << u;
        }
        if (__builtin_ctz(part) != t)
            continue;
        int ready = 1;
        for (int u = 0; u < su->nthreads && ready; u++)
            if ((part >> u) & 1u)
                ready = s->next[u] >= 0 && !memcmp(&su->ops[s->next[u]], op, sizeof(Op));
        if (!ready)
            continue;
        moved = 1;
        const Place *q = p;
        ScRulesBlockClk bsave;
        ScRulesWarpClk wsave;
        uint32_t vc[MR_MAX_THREADS][MR_MAX_THREADS];
        int nexts[MR_MAX_THREADS];
        memcpy(vc, s->ref.vc, sizeof vc);
        memcpy(nexts, s->next, sizeof nexts);
        if (op->type == OP_BAR)
            bsave = s->bclk[q->block];
        else
            wsave = s->wclk[q->block][q->warp];
        s->trace[s->ntrace].thread = -1;
        s->trace[s->ntrace].op = *op;
        s->trace[s->ntrace++].participants = part;
        sim_sync(s, op, part);
        for (int u = 0; u < su->nthreads; u++)
            if ((part >> u) & 1u) {
                s->next[u] = UNDECIDED;
                s->done[u]++;
            }
        decide(s, 0);
        for (int u = 0; u < su->nthreads; u++)
            if ((part >> u) & 1u)
                s->done[u]--;
        memcpy(s->next, nexts, sizeof nexts);
        s->ntrace--;
        memcpy(s->ref.vc, vc, sizeof vc);
        if (op->type == OP_BAR)
            s->bclk[q->block] = bsave;
        else
            s->wclk[q->block][q->warp] = wsave;
    }
    if (!moved)
        n_exec++;
}

/* Is thread t the only modelled participant of a synchronization op? */
static int sync_alone(const Suite *su, int t, const Op *op)
{
    const Place *p = &su->thr[t];
    for (int u = 0; u < su->nthreads; u++) {
        const Place *q = &su->thr[u];
        if (u == t || q->block != p->block)
            continue;
        if (op->type == OP_SYNCWARP && q->warp == p->warp && ((op->lanes >> q->lane) & 1u))
            return 0;
        if (op->type == OP_BAR && (!op->lanes || ((op->lanes >> q->warp) & 1u)))
            return 0;
    }
    return 1;
}

/* Picks the next op of every thread that needs one (its program so far is fixed by the
 * path; this extends it by each op of the alphabet, or ends it), then explores. */
static void decide(Sim *s, int t)
{
    const Suite *su = s->suite;
    while (t < su->nthreads && s->next[t] != UNDECIDED)
        t++;
    if (t == su->nthreads) {
        explore(s);
        return;
    }
    s->next[t] = END;
    decide(s, t + 1);
    if (s->done[t] < su->max_ops) {
        for (int i = 0; i < su->nops; i++) {
            const Op *op = &su->ops[i];
            if (op->type == OP_SYNCWARP && !((op->lanes >> su->thr[t].lane) & 1u))
                continue;
            if (op->type == OP_BAR && op->lanes && !((op->lanes >> su->thr[t].warp) & 1u))
                continue;
            if ((op->type == OP_BAR || op->type == OP_SYNCWARP) && !su->lone_sync &&
                sync_alone(su, t, op))
                continue;
            s->next[t] = i;
            decide(s, t + 1);
        }
    }
    s->next[t] = UNDECIDED;
}

/* ---- Suites ------------------------------------------------------------------------ */

/* Memory: two 4-byte words, bytes 0..3 and 4..7. */
#define B4 0x0fu
#define B4B 0xf0u
#define B2 0x03u
#define B2H 0x0cu
#define B1 0x01u
#define B1B 0x02u

/* Every access class on one word, full footprint. */
static const Op ops_classes[] = {
    ACC(MR_READ, MR_SCOPE_NONE, B4),   ACC(MR_WRITE, MR_SCOPE_NONE, B4),
    ACC(MR_SREAD, MR_SCOPE_GPU, B4),   ACC(MR_SWRITE, MR_SCOPE_GPU, B4),
    ACC(MR_ATOMIC, MR_SCOPE_CTA, B4),  ACC(MR_ATOMIC, MR_SCOPE_GPU, B4),
    BAR,                               SYNCW(FULL),
};
/* Scopes: cta-scoped strong plain accesses too. */
static const Op ops_scopes[] = {
    ACC(MR_READ, MR_SCOPE_NONE, B4),   ACC(MR_SREAD, MR_SCOPE_CTA, B4),
    ACC(MR_SWRITE, MR_SCOPE_CTA, B4),  ACC(MR_SREAD, MR_SCOPE_GPU, B4),
    ACC(MR_ATOMIC, MR_SCOPE_CTA, B4),  ACC(MR_ATOMIC, MR_SCOPE_GPU, B4),
    BAR,
};
/* Weak accesses and atomics with the synchronizations of three threads. */
static const Op ops_three[] = {
    ACC(MR_READ, MR_SCOPE_NONE, B4),  ACC(MR_WRITE, MR_SCOPE_NONE, B4),
    ACC(MR_SREAD, MR_SCOPE_GPU, B4),  ACC(MR_ATOMIC, MR_SCOPE_GPU, B4),
    BAR,                              SYNCW(FULL),
};
/* Partial masks over lanes 0, 1 and 5 of one warp: tiles (0x3, 0xff) and not. */
static const Op ops_partial[] = {
    ACC(MR_READ, MR_SCOPE_NONE, B4),  ACC(MR_WRITE, MR_SCOPE_NONE, B4),
    ACC(MR_SREAD, MR_SCOPE_GPU, B4),  ACC(MR_ATOMIC, MR_SCOPE_GPU, B4),
    SYNCW(FULL),
    SYNCW(0x3u),                      SYNCW(0x22u),
    SYNCW(0x21u),                     SYNCW(0x23u),
    SYNCW(0xffu),
};
/* Bytes: footprints that overlap, nest and are disjoint. */
static const Op ops_bytes[] = {
    ACC(MR_READ, MR_SCOPE_NONE, B4),   ACC(MR_WRITE, MR_SCOPE_NONE, B1),
    ACC(MR_WRITE, MR_SCOPE_NONE, B1B), ACC(MR_READ, MR_SCOPE_NONE, B2),
    ACC(MR_WRITE, MR_SCOPE_NONE, B2H), ACC(MR_ATOMIC, MR_SCOPE_GPU, B4),
    ACC(MR_ATOMIC, MR_SCOPE_GPU, B2),  ACC(MR_SREAD, MR_SCOPE_GPU, B2),
    BAR,
};
/* Two locations, and 8-byte accesses over both. */
static const Op ops_two[] = {
    ACC(MR_READ, MR_SCOPE_NONE, B4),   ACC(MR_WRITE, MR_SCOPE_NONE, B4),
    ACC(MR_READ, MR_SCOPE_NONE, B4B),  ACC(MR_WRITE, MR_SCOPE_NONE, B4B),
    ACC(MR_ATOMIC, MR_SCOPE_GPU, B4B), ACC(MR_ATOMIC, MR_SCOPE_GPU, 0xffu),
    ACC(MR_READ, MR_SCOPE_NONE, 0xffu), BAR,
    SYNCW(FULL),
};
/* Bytes with three threads. */
static const Op ops_bytes3[] = {
    ACC(MR_READ, MR_SCOPE_NONE, B4),   ACC(MR_WRITE, MR_SCOPE_NONE, B1),
    ACC(MR_WRITE, MR_SCOPE_NONE, B1B), ACC(MR_SREAD, MR_SCOPE_GPU, B2),
    ACC(MR_ATOMIC, MR_SCOPE_GPU, B2),  BAR,
    SYNCW(FULL),
};

/* Deeper programs over fewer kinds: weak accesses, atomics, both synchronizations. */
static const Op ops_core[] = {
    ACC(MR_READ, MR_SCOPE_NONE, B4),  ACC(MR_WRITE, MR_SCOPE_NONE, B4),
    ACC(MR_ATOMIC, MR_SCOPE_GPU, B4), BAR,
    SYNCW(FULL),
};

/* Named barriers: warps 0 and 1 of a block of three warps, or all. */
static const Op ops_named[] = {
    ACC(MR_READ, MR_SCOPE_NONE, B4),  ACC(MR_WRITE, MR_SCOPE_NONE, B4),
    ACC(MR_ATOMIC, MR_SCOPE_GPU, B4), BAR,
    NAMED_BAR(0x3u),
};

/* Release and acquire through a flag (the second word) with fences around weak data
 * (the first): message passing, its scopes, and fences on one side only. */
static const Op ops_flags[] = {
    ACC(MR_READ, MR_SCOPE_NONE, B4),     ACC(MR_WRITE, MR_SCOPE_NONE, B4),
    ACC(MR_SWRITE, MR_SCOPE_GPU, B4B),   ACC(MR_SREAD, MR_SCOPE_GPU, B4B),
    FENCE(MR_SEM_ACQ_REL, MR_SCOPE_GPU), FENCE(MR_SEM_ACQ_REL, MR_SCOPE_CTA),
};

/* Three threads: a release pattern and an acquire pattern as one step each, so that
 * chains of them (HRF-indirect) and barriers after an acquire fit in two steps. */
static const Op ops_relay[] = {
    ACC(MR_READ, MR_SCOPE_NONE, B4),
    ACC(MR_WRITE, MR_SCOPE_NONE, B4),
    ACCF(MR_SWRITE, MR_SCOPE_GPU, B4B, FENCED_BEFORE),
    ACCF(MR_SREAD, MR_SCOPE_GPU, B4B, FENCED_AFTER),
    BAR,
};

#define P(b, w, l) {b, w, l, (uint32_t)(b)}
#define PA(b, w, l, id) {b, w, l, id}
#define WRAP_BAR (SC_RULES_BAR_MOD - 2)
#define WRAP_SYNC (SC_RULES_SYNC_MOD - 2)
#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

static const Suite suites[] = {
    {"classes/warp", 2, {P(0, 0, 0), P(0, 0, 1)}, ops_classes, N(ops_classes), 3, 0, 0, 0, 0, 0},
    {"classes/block", 2, {P(0, 0, 0), P(0, 1, 0)}, ops_classes, N(ops_classes), 3, 0, 0, 0, 0, 0},
    {"classes/grid", 2, {P(0, 0, 0), P(1, 0, 0)}, ops_classes, N(ops_classes), 3, 0, 0, 1, 0, 0},
    {"classes/wrap", 2, {P(0, 0, 0), P(0, 1, 3)}, ops_classes, N(ops_classes), 3, WRAP_BAR, WRAP_SYNC, 0, 0, 0},
    {"scopes/grid", 2, {P(0, 0, 0), P(1, 0, 0)}, ops_scopes, N(ops_scopes), 3, 0, 0, 0, 0, 0},
    {"scopes/block+grid", 3, {P(0, 0, 0), P(0, 1, 0), P(1, 0, 0)}, ops_scopes, N(ops_scopes), 2, 0, 0, 0, 0, 0},
    {"three/warp", 3, {P(0, 0, 0), P(0, 0, 1), P(0, 0, 2)}, ops_three, N(ops_three), 2, 0, 0, 0, 0, 0},
    {"three/warp+warp", 3, {P(0, 0, 0), P(0, 0, 1), P(0, 1, 0)}, ops_three, N(ops_three), 2, 0, 0, 0, 0, 0},
    {"three/warp+block", 3, {P(0, 0, 0), P(0, 0, 1), P(1, 0, 0)}, ops_three, N(ops_three), 2, 0, 0, 0, 0, 0},
    {"three/block+block", 3, {P(0, 0, 0), P(0, 1, 0), P(1, 0, 0)}, ops_three, N(ops_three), 2, 0, 0, 0, 0, 0},
    {"three/grid", 3, {P(0, 0, 0), P(1, 0, 0), P(2, 0, 0)}, ops_three, N(ops_three), 2, 0, 0, 0, 0, 0},
    {"three/wrap", 3, {P(0, 0, 0), P(0, 0, 1), P(0, 1, 0)}, ops_three, N(ops_three), 2, WRAP_BAR, WRAP_SYNC, 0, 0, 0},
    {"partial/lanes015", 3, {P(0, 0, 0), P(0, 0, 1), P(0, 0, 5)}, ops_partial, N(ops_partial), 2, 0, 0, 0, 0, 0},
    {"partial/wrap", 3, {P(0, 0, 0), P(0, 0, 1), P(0, 0, 5)}, ops_partial, N(ops_partial), 2, 0, WRAP_SYNC, 0, 0, 0},
    {"bytes/warp", 2, {P(0, 0, 0), P(0, 0, 1)}, ops_bytes, N(ops_bytes), 3, 0, 0, 0, 0, 0},
    {"bytes/block", 2, {P(0, 0, 0), P(0, 1, 0)}, ops_bytes, N(ops_bytes), 3, 0, 0, 0, 0, 0},
    {"bytes/grid", 2, {P(0, 0, 0), P(1, 0, 0)}, ops_bytes, N(ops_bytes), 3, 0, 0, 0, 0, 0},
    {"two-words/block", 2, {P(0, 0, 0), P(0, 1, 0)}, ops_two, N(ops_two), 3, 0, 0, 0, 0, 0},
    {"bytes3/warp+block", 3, {P(0, 0, 0), P(0, 0, 1), P(0, 1, 0)}, ops_bytes3, N(ops_bytes3), 2, 0, 0, 0, 0, 0},
    {"deep/warp", 2, {P(0, 0, 0), P(0, 0, 1)}, ops_core, N(ops_core), 4, 0, 0, 0, 0, 0},
    {"deep/block", 2, {P(0, 0, 0), P(0, 1, 0)}, ops_core, N(ops_core), 4, 0, 0, 0, 0, 0},
    {"named/3warps", 3, {P(0, 0, 0), P(0, 1, 0), P(0, 2, 0)}, ops_named, N(ops_named), 2, 0, 0, 0, 0, 0},
    {"alias/blocks", 2, {PA(0, 0, 0, 0), PA(1, 1, 0, 1u << SC_RULES_BLK_BITS)}, ops_three,
     N(ops_three), 3, 0, 0, 0, 1, 0},
    {"flags/grid", 2, {P(0, 0, 0), P(1, 0, 0)}, ops_flags, N(ops_flags), 3, 0, 0, 0, 0, 1},
    {"flags/block", 2, {P(0, 0, 0), P(0, 1, 0)}, ops_flags, N(ops_flags), 3, 0, 0, 0, 0, 1},
    {"flags/warp", 2, {P(0, 0, 0), P(0, 0, 1)}, ops_flags, N(ops_flags), 3, 0, 0, 0, 0, 1},
    {"flags/wrap", 2, {P(0, 0, 0), P(1, 0, 0)}, ops_flags, N(ops_flags), 3, WRAP_BAR, WRAP_SYNC, 0, 0, 1},
    {"relay/grid", 3, {P(0, 0, 0), P(1, 0, 0), P(2, 0, 0)}, ops_relay, N(ops_relay), 2, 0, 0, 0, 0, 1},
    {"relay/block+grid", 3, {P(0, 0, 0), P(1, 0, 0), P(1, 1, 0)}, ops_relay, N(ops_relay), 2, 0, 0, 0, 0, 1},
    {"relay/warp+grid", 3, {P(0, 0, 0), P(1, 0, 0), P(1, 0, 1)}, ops_relay, N(ops_relay), 2, 0, 0, 0, 0, 1},
    {"reread/grid", 2, {P(0, 0, 0), P(1, 0, 0)}, ops_relay, N(ops_relay), 3, 0, 0, 0, 0, 1},
    {"reread/warp", 2, {P(0, 0, 0), P(0, 0, 1)}, ops_relay, N(ops_relay), 3, 0, 0, 0, 0, 1},
};

/* The suites as run (bounds raised by SC_MODEL_DEEP): recorded disagreements point at
 * them. */
static Suite run_copy[sizeof suites / sizeof suites[0]];

static void run_suite(int i, int max_ops)
{
    static Sim s;
    const Suite *su = &suites[i];
    run_copy[i] = *su;
    run_copy[i].max_ops = max_ops;
    unsigned long e0 = n_exec, c0 = n_checks, q0 = n_quick;
    int f0 = nfound;
    clock_t t0 = clock();
    sim_init(&s, &run_copy[i]);
    decide(&s, 0);
    for (int f = f0; f < nfound; f++)
        if (found[f].kind < D_COUNT)
            print_litmus(&found[f]);
    unsigned long dis = 0;
    for (int d = 1; d < D_COUNT; d++)
        dis += dcount[d];
    printf("  %-20s %d threads x %d ops: %10lu executions, %11lu checks (%lu words decided quickly), "
           "%6.1f s, %lu disagreements so far\n",
           su->name, su->nthreads, max_ops, n_exec - e0, n_checks - c0, n_quick - q0,
           (double)(clock() - t0) / CLOCKS_PER_SEC, dis);
    fflush(stdout);
}

/* SC_MODEL_ONLY: comma-separated suite name prefixes (unset: every suite). */
static int selected(const char *name, const char *only)
{
    if (!only)
        return 1;
    for (const char *p = only; *p;) {
        size_t n = strcspn(p, ",");
        if (n && !strncmp(name, p, n))
            return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

TEST(model_agrees_with_reference)
{
    static const char *const cov_name[] = {
#define COV_NAME(n) #n,
        SC_RULES_COV_LIST(COV_NAME)
#undef COV_NAME
    };
    const char *deep = getenv("SC_MODEL_DEEP"), *only = getenv("SC_MODEL_ONLY");
    for (int i = 0; i < N(suites); i++)
        if (selected(suites[i].name, only))
            run_suite(i, suites[i].max_ops + (deep ? 1 : 0));
    unsigned long states = 0;
    for (size_t i = 0; i < sizeof seen_state; i++)
        states += (unsigned long)__builtin_popcount(seen_state[i]);
    printf("checked %lu executions (%lu access verdicts); %lu distinct abstract states\n",
           n_exec, n_checks, states);
    unsigned long total = 0;
    for (int d = 1; d < D_COUNT; d++) {
        if (dcount[d])
            printf("  %-36s %lu\n", d_name[d], dcount[d]);
        total += dcount[d];
    }
    printf("disagreements: %lu (%d distinct minimized)\n", total,
           nfound_kind[D_MISS] + nfound_kind[D_FALSE_ALARM] + nfound_kind[D_CAUSE] +
               nfound_kind[D_PREV] + nfound_kind[D_WARN_MISS] + nfound_kind[D_WARN_FALSE] +
               nfound_kind[D_FALSE_AFTER_RACE]);
    printf("races found by both: %lu name the exact previous access (%lu its instruction), %lu a "
           "certain cause only, %lu an unsure one\n", race_exact, race_named, race_sure, race_unsure);
    printf("deliberate approximations (docs/rules.md), one minimized example each:\n");
    for (int a = 1; a < A_COUNT; a++)
        printf("  %-52s %lu\n", a_name[a], acount[a]);
    for (int i = 0; i < nfound; i++)
        if (found[i].kind >= D_COUNT)
            print_litmus(&found[i]);
    int missing = 0;
    printf("rules branches reached:\n");
    for (int i = 0; i < SC_RULES_COV_COUNT; i++) {
        printf("  %-20s %12lu\n", cov_name[i], cov_hits[i]);
        missing += cov_hits[i] == 0;
    }
    CHECK_INT(0, total);
    if (!only)
        CHECK_INT(0, missing);
}

int main(void)
{
    RUN(model_agrees_with_reference);
    return TEST_REPORT();
}
