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

/* Memory-ordering semantics of a strong access or a fence. fence.sc and membar are
 * MR_SEM_ACQ_REL fences (SPEC.md: an acq_rel fence at their scope). */
typedef enum MrSem { MR_SEM_RELAXED, MR_SEM_ACQUIRE, MR_SEM_RELEASE, MR_SEM_ACQ_REL } MrSem;

/* Release patterns are kept per scope of their first operation: index 0 for .cta,
 * 1 for .gpu (.sys is .gpu on one device). */
#define MR_LEVELS 2

typedef struct MrThread {
    int block, warp, lane;
} MrThread;

/* What a release pattern makes visible: the releasing thread's vector clock when its
 * first operation (the release fence, or the release operation itself) ran. */
typedef struct MrRelease {
    int valid;
    uint32_t vc[MR_MAX_THREADS];
} MrRelease;

typedef struct MrAccess {
    int thread;
    MrKind kind;
    MrScope scope;
    unsigned bytes; /* bit i: byte i of the modelled memory */
    uint32_t clock; /* the thread's own vector-clock entry when it made the access */
    MrSem sem;
    /* A write's release patterns, by releasing thread and scope level: its own (a
     * release operation, or a strong write after a release fence of its thread), and,
     * for an atomic, those of the write it read (a read-modify-write continues the
     * release sequences it observes). */
    MrRelease carry[MR_MAX_THREADS][MR_LEVELS];
} MrAccess;

typedef struct MrModel {
    int nthreads;
    MrThread thread[MR_MAX_THREADS];
    uint32_t vc[MR_MAX_THREADS][MR_MAX_THREADS]; /* vc[t][u]: what thread t knows of u */
    int naccess;
    MrAccess access[MR_MAX_ACCESSES];
    /* Scoped synchronization through memory (detector part 2). */
    MrRelease fence_rel[MR_MAX_THREADS][MR_LEVELS]; /* each thread's latest release fence */
    /* pending[t][p][l]: release patterns of thread p that thread t's strong reads
     * observed and no acquire fence of t has taken yet. */
    MrRelease pending[MR_MAX_THREADS][MR_MAX_THREADS][MR_LEVELS];
    /* failed[t][p]: why the latest attempt of t to synchronize with p through memory
     * failed (a cause name), or NULL. */
    const char *failed[MR_MAX_THREADS][MR_MAX_THREADS];
    /* Name the causes of scoped synchronization (missing_fence, fence_scope,
     * non_strong_sync) where an attempt failed; off, the causes are detector part 1's. */
    int scoped_causes;
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

static inline int mr_carries(const MrAccess *x, int p)
{
    for (int l = 0; l < MR_LEVELS; l++)
        if (x->carry[p][l].valid)
            return 1;
    return 0;
}

/* The contract's cause of a racing pair: the pair's kinds first (scopes, atomics),
 * then a failed attempt of the later thread to synchronize with the earlier one through
 * memory (scoped causes), then the threads' relation. */
static inline const char *mr_cause(const MrModel *m, const MrAccess *x, const MrAccess *y)
{
    if (mr_is_strong(x->kind) && mr_is_strong(y->kind) &&
        !(mr_scope_includes(m, x->scope, x->thread, y->thread) &&
          mr_scope_includes(m, y->scope, y->thread, x->thread)))
        return "atomic_scope";
    if ((x->kind == MR_ATOMIC && !mr_is_strong(y->kind)) ||
        (y->kind == MR_ATOMIC && !mr_is_strong(x->kind)))
        return "atomic_vs_plain";
    if (m->scoped_causes) {
        if (m->failed[y->thread][x->thread])
            return m->failed[y->thread][x->thread];
        for (int l = 0; l < MR_LEVELS; l++)
            if (m->pending[y->thread][x->thread][l].valid)
                return "missing_fence"; /* observed a release, never acquired it */
    }
    const MrThread *a = &m->thread[x->thread], *b = &m->thread[y->thread];
    if (a->block != b->block)
        return "unsynchronized_blocks";
    if (a->warp != b->warp)
        return "missing_barrier";
    return "missing_syncwarp";
}

static inline int mr_level(MrScope s)
{
    return s == MR_SCOPE_GPU ? 1 : 0;
}

static inline int mr_sem_releases(MrSem s)
{
    return s == MR_SEM_RELEASE || s == MR_SEM_ACQ_REL;
}

static inline int mr_sem_acquires(MrSem s)
{
    return s == MR_SEM_ACQUIRE || s == MR_SEM_ACQ_REL;
}

static inline void mr_release_join(MrRelease *into, const MrRelease *from)
{
    if (!from->valid)
        return;
    for (int u = 0; u < MR_MAX_THREADS; u++)
        if (!into->valid || from->vc[u] > into->vc[u])
            into->vc[u] = from->vc[u];
    into->valid = 1;
}

static inline void mr_release_of(const MrModel *m, int t, MrRelease *out)
{
    out->valid = 1;
    for (int u = 0; u < MR_MAX_THREADS; u++)
        out->vc[u] = m->vc[t][u];
}

/* Thread t's acquire (operation or fence) of scope s takes release pattern r of thread
 * p, of scope level l: synchronizes-with holds when the first operation of the release
 * pattern and the last of the acquire pattern are morally strong, that is, when each
 * one's scope includes the other's thread. */
static inline void mr_acquire(MrModel *m, int t, MrScope s, int p, int l, const MrRelease *r)
{
    MrScope rs = l ? MR_SCOPE_GPU : MR_SCOPE_CTA;
    if (!r->valid || p == t)
        return;
    if (!mr_scope_includes(m, rs, p, t) || !mr_scope_includes(m, s, t, p)) {
        m->failed[t][p] = "fence_scope";
        return;
    }
    for (int u = 0; u < m->nthreads; u++)
        if (r->vc[u] > m->vc[t][u])
            m->vc[t][u] = r->vc[u];
    m->failed[t][p] = NULL;
}

/* A fence of thread t. Its release half makes everything t did so far visible to the
 * acquire patterns its later strong writes head; its acquire half takes the release
 * patterns t's earlier strong reads observed. */
static inline void mr_fence(MrModel *m, int t, MrSem sem, MrScope scope)
{
    if (mr_sem_acquires(sem))
        for (int p = 0; p < m->nthreads; p++)
            for (int l = 0; l < MR_LEVELS; l++)
                mr_acquire(m, t, scope, p, l, &m->pending[t][p][l]);
    if (mr_sem_releases(sem)) {
        mr_release_of(m, t, &m->fence_rel[t][mr_level(scope)]);
        m->vc[t][t]++;
    }
}

/* The read half of t's read or atomic r: the write it observes (the latest write of
 * the bytes in this interleaving) synchronizes with it, or its release patterns wait
 * for t's next acquire fence, or the attempt fails with a cause (a weak read only
 * ever fails: it can observe a release pattern but not take it). */
static inline void mr_observe(MrModel *m, int t, const MrAccess *r, MrAccess *rmw)
{
    const MrAccess *w = NULL;
    for (int i = m->naccess - 1; i >= 0 && !w; i--)
        if (mr_is_write(m->access[i].kind) && (m->access[i].bytes & r->bytes))
            w = &m->access[i];
    if (!w || w->thread == t)
        return;
    int p = w->thread;
    int strong = mr_is_strong(w->kind) && mr_is_strong(r->kind) && w->bytes == r->bytes;
    if (!strong || !mr_scope_includes(m, w->scope, p, t) ||
        !mr_scope_includes(m, r->scope, t, p)) {
        /* Observation order holds only between morally strong accesses. */
        if (mr_carries(w, p) || mr_sem_acquires(r->sem))
            m->failed[t][p] = strong ? "fence_scope" : "non_strong_sync";
        return;
    }
    int any = 0;
    for (int q = 0; q < m->nthreads; q++)
        for (int l = 0; l < MR_LEVELS; l++) {
            const MrRelease *c = &w->carry[q][l];
            if (!c->valid || q == t)
                continue;
            any = 1;
            if (rmw)
                mr_release_join(&rmw->carry[q][l], c);
            if (mr_sem_acquires(r->sem))
                mr_acquire(m, t, r->scope, q, l, c);
            else
                mr_release_join(&m->pending[t][q][l], c);
        }
    if (!any)
        m->failed[t][p] = "missing_fence"; /* no release pattern on the writer's side */
}

/* Thread t makes an access: every earlier access that conflicts with it (overlapping
 * bytes, another thread, at least one write), is not ordered before it and is not
 * morally strong with it is a race; a morally strong unordered pair of a strong plain
 * write and an atomic is the strong_vs_rmw warning. The access is then recorded: a
 * strong read (or an atomic's read) observes the write before it, a strong write
 * carries the release patterns of its thread. `sem` is that of a strong access. */
static inline void mr_access_sem(MrModel *m, int t, MrKind kind, MrSem sem, MrScope scope,
                                 unsigned bytes, MrResult *res)
{
    MrAccess y;
    memset(&y, 0, sizeof y);
    y.thread = t;
    y.kind = kind;
    y.scope = scope;
    y.bytes = bytes;
    y.clock = m->vc[t][t];
    y.sem = sem;
    /* Before the pairs are checked: an acquire operation is itself ordered after the
     * release pattern it synchronizes with, and a failed attempt names the cause of
     * the races it leaves, its own flag pair's included. */
    if (kind == MR_READ || kind == MR_SREAD || kind == MR_ATOMIC)
        mr_observe(m, t, &y, kind == MR_ATOMIC ? &y : NULL);
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
    if (mr_is_write(kind)) {
        if (mr_is_strong(kind) && mr_sem_releases(sem)) {
            MrRelease own;
            mr_release_of(m, t, &own);
            mr_release_join(&y.carry[t][mr_level(scope)], &own);
        }
        for (int l = 0; l < MR_LEVELS; l++)
            mr_release_join(&y.carry[t][l], &m->fence_rel[t][l]);
    }
    if (m->naccess < MR_MAX_ACCESSES)
        m->access[m->naccess++] = y;
    if (mr_is_strong(kind) && mr_sem_releases(sem))
        m->vc[t][t]++;
}

static inline void mr_access(MrModel *m, int t, MrKind kind, MrScope scope, unsigned bytes,
                             MrResult *res)
{
    mr_access_sem(m, t, kind, MR_SEM_RELAXED, scope, bytes, res);
}

#endif
