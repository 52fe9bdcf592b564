/* model_ref.h: the reference happens-before model the model checker compares the rules
 * with. Written for clarity, not speed, and sharing no code with src/rules: a vector
 * clock per thread, every access kept, and the race definition of the PTX memory model
 * (SPEC.md "What counts as a race") applied literally to every pair. */
#ifndef SC_MODEL_REF_H
#define SC_MODEL_REF_H

#include <stdint.h>
#include <string.h>

#define MR_MAX_THREADS 4
#define MR_MAX_ACCESSES 48

typedef enum MrKind {
    MR_READ,   /* weak load */
    MR_WRITE,  /* weak store */
    MR_SREAD,  /* strong load: ld.relaxed.<scope>, ld.volatile */
    MR_SWRITE, /* strong store: st.relaxed.<scope>, st.volatile */
    MR_ATOMIC, /* atom or red: a strong write (and read) */
} MrKind;

typedef enum MrScope { MR_SCOPE_NONE, MR_SCOPE_CTA, MR_SCOPE_GPU } MrScope;

typedef struct MrThread {
    int block, warp, lane;
} MrThread;

typedef struct MrAccess {
    int thread;
    MrKind kind;
    MrScope scope;
    unsigned bytes; /* bit i: byte i of the modelled memory */
    uint32_t clock; /* the thread's own vector-clock entry when it made the access */
} MrAccess;

typedef struct MrModel {
    int nthreads;
    MrThread thread[MR_MAX_THREADS];
    uint32_t vc[MR_MAX_THREADS][MR_MAX_THREADS]; /* vc[t][u]: what thread t knows of u */
    int naccess;
    MrAccess access[MR_MAX_ACCESSES];
} MrModel;

/* One earlier access that races with (or only warns about) the new one. */
typedef struct MrPair {
    int prev;          /* index into MrModel.access */
    const char *cause; /* contract name: missing_barrier, ... */
} MrPair;

typedef struct MrResult {
    int nrace, nwarn;
    MrPair race[MR_MAX_ACCESSES];
    MrPair warn[MR_MAX_ACCESSES];
} MrResult;

static inline void mr_init(MrModel *m, int nthreads, const MrThread *threads)
{
    memset(m, 0, sizeof *m);
    m->nthreads = nthreads;
    for (int t = 0; t < nthreads; t++) {
        m->thread[t] = threads[t];
        m->vc[t][t] = 1;
    }
}

/* A synchronization instance completed (a barrier, or a __syncwarp) with the threads
 * of `participants` (bit t = thread t): each learns what any of them knew, then starts
 * a new epoch of its own. */
static inline void mr_sync(MrModel *m, unsigned participants)
{
    uint32_t join[MR_MAX_THREADS] = {0};
    for (int t = 0; t < m->nthreads; t++) {
        if (!((participants >> t) & 1u))
            continue;
        for (int u = 0; u < m->nthreads; u++)
            if (m->vc[t][u] > join[u])
                join[u] = m->vc[t][u];
    }
    for (int t = 0; t < m->nthreads; t++) {
        if (!((participants >> t) & 1u))
            continue;
        for (int u = 0; u < m->nthreads; u++)
            m->vc[t][u] = join[u];
        m->vc[t][t]++;
    }
}

static inline int mr_is_write(MrKind k)
{
    return k == MR_WRITE || k == MR_SWRITE || k == MR_ATOMIC;
}

static inline int mr_is_strong(MrKind k)
{
    return k == MR_SREAD || k == MR_SWRITE || k == MR_ATOMIC;
}

/* Access x happens before thread t's next access: program order, or t has learnt x's
 * epoch through synchronization. */
static inline int mr_happens_before(const MrModel *m, const MrAccess *x, int t)
{
    return x->thread == t || x->clock <= m->vc[t][x->thread];
}

/* Scope `s` of an access made by thread a includes thread b. */
static inline int mr_scope_includes(const MrModel *m, MrScope s, int a, int b)
{
    if (s == MR_SCOPE_GPU)
        return 1;
    return s == MR_SCOPE_CTA && m->thread[a].block == m->thread[b].block;
}

static inline int mr_morally_strong(const MrModel *m, const MrAccess *x, const MrAccess *y)
{
    return mr_is_strong(x->kind) && mr_is_strong(y->kind) && x->bytes == y->bytes &&
           mr_scope_includes(m, x->scope, x->thread, y->thread) &&
           mr_scope_includes(m, y->scope, y->thread, x->thread);
}

/* The contract's cause of a racing pair: the pair's kinds first (scopes, atomics),
 * then the threads' relation. */
static inline const char *mr_cause(const MrModel *m, const MrAccess *x, const MrAccess *y)
{
    if (mr_is_strong(x->kind) && mr_is_strong(y->kind) &&
        !(mr_scope_includes(m, x->scope, x->thread, y->thread) &&
          mr_scope_includes(m, y->scope, y->thread, x->thread)))
        return "atomic_scope";
    if ((x->kind == MR_ATOMIC && !mr_is_strong(y->kind)) ||
        (y->kind == MR_ATOMIC && !mr_is_strong(x->kind)))
        return "atomic_vs_plain";
    const MrThread *a = &m->thread[x->thread], *b = &m->thread[y->thread];
    if (a->block != b->block)
        return "unsynchronized_blocks";
    if (a->warp != b->warp)
        return "missing_barrier";
    return "missing_syncwarp";
}

/* Thread t makes an access: every earlier access that conflicts with it (overlapping
 * bytes, another thread, at least one write), is not ordered before it and is not
 * morally strong with it is a race; a morally strong unordered pair of a strong plain
 * write and an atomic is the strong_vs_rmw warning. The access is then recorded. */
static inline void mr_access(MrModel *m, int t, MrKind kind, MrScope scope, unsigned bytes,
                             MrResult *res)
{
    MrAccess y = {t, kind, scope, bytes, m->vc[t][t]};
    res->nrace = res->nwarn = 0;
    for (int i = 0; i < m->naccess; i++) {
        const MrAccess *x = &m->access[i];
        if (x->thread == t || !(x->bytes & y.bytes))
            continue;
        if (!mr_is_write(x->kind) && !mr_is_write(y.kind))
            continue;
        if (mr_happens_before(m, x, t))
            continue;
        if (!mr_morally_strong(m, x, &y)) {
            res->race[res->nrace].prev = i;
            res->race[res->nrace++].cause = mr_cause(m, x, &y);
        } else if ((x->kind == MR_SWRITE && y.kind == MR_ATOMIC) ||
                   (x->kind == MR_ATOMIC && y.kind == MR_SWRITE)) {
            res->warn[res->nwarn].prev = i;
            res->warn[res->nwarn++].cause = "strong_vs_rmw";
        }
    }
    if (m->naccess < MR_MAX_ACCESSES)
        m->access[m->naccess++] = y;
}

#endif
