/* test_model_scoped.c: the reference model's scoped synchronization (detector part 2)
 * on litmus programs whose verdicts follow from the PTX memory model (ISA chapter 8,
 * SPEC.md "What counts as a race"): release patterns (a release operation, or a release
 * fence before a strong write) synchronize with acquire patterns (an acquire operation,
 * or a strong read before an acquire fence) when the flag write and read are morally
 * strong and the first operation of the release side and the last of the acquire side
 * include each other's thread. Each program runs in one interleaving, the one written;
 * the data is bytes 0-3 of the modelled memory and the flags are bytes 4-7 and 8-11.
 * The exhaustive checker (test_model.c) compares the rules with the model on programs
 * without fences or release/acquire semantics; these programs wait for the rules to
 * learn them (docs/rules.md, "Scoped synchronization"). */
#include "sc_test.h"

#include "model/model_ref.h"

enum { DATA = 0x00f, FLAG = 0x0f0, FLAG2 = 0xf00 };

static MrModel m;
static MrResult r;

/* Threads 0, 1, 2 in blocks `blocks[t]`, each its own warp. */
static void start(int b0, int b1, int b2)
{
    const MrThread th[3] = {{b0, 0, 0}, {b1, b1 == b0 ? 1 : 0, 0}, {b2, 2, 0}};
    mr_init(&m, 3, th);
    m.scoped_causes = 1;
}

static int op(int t, MrKind kind, MrSem sem, MrScope scope, unsigned bytes)
{
    mr_access_sem(&m, t, kind, sem, scope, bytes, &r);
    return r.nrace;
}

static int rd(int t) { return op(t, MR_READ, MR_SEM_RELAXED, MR_SCOPE_NONE, DATA); }
static int wr(int t) { return op(t, MR_WRITE, MR_SEM_RELAXED, MR_SCOPE_NONE, DATA); }

/* Thread 0 writes the data and publishes a flag; thread 1 waits for the flag (its
 * read observes the flag write) and reads the data. */
static int message_passing(MrSem writer_fence, MrScope writer_scope, MrSem reader_fence,
                           MrScope reader_scope)
{
    CHECK_INT(0, wr(0));
    if (writer_scope != MR_SCOPE_NONE)
        mr_fence(&m, 0, writer_fence, writer_scope);
    CHECK_INT(0, op(0, MR_SWRITE, MR_SEM_RELAXED, MR_SCOPE_GPU, FLAG));
    CHECK_INT(0, op(1, MR_SREAD, MR_SEM_RELAXED, MR_SCOPE_GPU, FLAG));
    if (reader_scope != MR_SCOPE_NONE)
        mr_fence(&m, 1, reader_fence, reader_scope);
    return rd(1);
}

TEST(message_passing_with_device_fences_is_race_free)
{
    start(0, 1, 2);
    CHECK_INT(0, message_passing(MR_SEM_ACQ_REL, MR_SCOPE_GPU, MR_SEM_ACQ_REL, MR_SCOPE_GPU));
    /* Release on one side, acquire on the other, is enough. */
    start(0, 1, 2);
    CHECK_INT(0, message_passing(MR_SEM_RELEASE, MR_SCOPE_GPU, MR_SEM_ACQUIRE, MR_SCOPE_GPU));
}

TEST(message_passing_missing_a_fence_races)
{
    start(0, 1, 2);
    CHECK_INT(1, message_passing(0, MR_SCOPE_NONE, MR_SEM_ACQ_REL, MR_SCOPE_GPU));
    CHECK_STR("missing_fence", r.race[0].cause);
    start(0, 1, 2);
    CHECK_INT(1, message_passing(MR_SEM_ACQ_REL, MR_SCOPE_GPU, 0, MR_SCOPE_NONE));
    CHECK_STR("missing_fence", r.race[0].cause);
    /* Fences of the wrong direction: an acquire fence cannot head a release pattern. */
    start(0, 1, 2);
    CHECK_INT(1, message_passing(MR_SEM_ACQUIRE, MR_SCOPE_GPU, MR_SEM_ACQ_REL, MR_SCOPE_GPU));
    CHECK_STR("missing_fence", r.race[0].cause);
    start(0, 1, 2);
    CHECK_INT(1, message_passing(MR_SEM_ACQ_REL, MR_SCOPE_GPU, MR_SEM_RELEASE, MR_SCOPE_GPU));
    CHECK_STR("missing_fence", r.race[0].cause);
}

TEST(block_fences_order_a_block_but_not_the_grid)
{
    start(0, 0, 1);
    CHECK_INT(0, message_passing(MR_SEM_ACQ_REL, MR_SCOPE_CTA, MR_SEM_ACQ_REL, MR_SCOPE_CTA));
    start(0, 1, 2);
    CHECK_INT(1, message_passing(MR_SEM_ACQ_REL, MR_SCOPE_CTA, MR_SEM_ACQ_REL, MR_SCOPE_GPU));
    CHECK_STR("fence_scope", r.race[0].cause);
    start(0, 1, 2);
    CHECK_INT(1, message_passing(MR_SEM_ACQ_REL, MR_SCOPE_GPU, MR_SEM_ACQ_REL, MR_SCOPE_CTA));
    CHECK_STR("fence_scope", r.race[0].cause);
}

TEST(release_and_acquire_operations)
{
    start(0, 1, 2);
    CHECK_INT(0, wr(0));
    CHECK_INT(0, op(0, MR_SWRITE, MR_SEM_RELEASE, MR_SCOPE_GPU, FLAG));
    CHECK_INT(0, op(1, MR_SREAD, MR_SEM_ACQUIRE, MR_SCOPE_GPU, FLAG));
    CHECK_INT(0, rd(1));
    /* An access after the release is not released by it. */
    CHECK_INT(0, op(0, MR_WRITE, MR_SEM_RELAXED, MR_SCOPE_NONE, FLAG2));
    CHECK_INT(1, op(1, MR_READ, MR_SEM_RELAXED, MR_SCOPE_NONE, FLAG2));
    /* A block-scope release across blocks. */
    start(0, 1, 2);
    CHECK_INT(0, wr(0));
    CHECK_INT(0, op(0, MR_SWRITE, MR_SEM_RELEASE, MR_SCOPE_CTA, FLAG));
    CHECK_INT(1, op(1, MR_SREAD, MR_SEM_ACQUIRE, MR_SCOPE_GPU, FLAG));
    CHECK_STR("atomic_scope", r.race[0].cause); /* the flag pair is not morally strong */
    CHECK_INT(1, rd(1));
    CHECK_STR("fence_scope", r.race[0].cause);
}

TEST(weak_flag_is_not_synchronization)
{
    start(0, 1, 2);
    CHECK_INT(0, wr(0));
    mr_fence(&m, 0, MR_SEM_ACQ_REL, MR_SCOPE_GPU);
    CHECK_INT(0, op(0, MR_WRITE, MR_SEM_RELAXED, MR_SCOPE_NONE, FLAG));
    CHECK_INT(1, op(1, MR_READ, MR_SEM_RELAXED, MR_SCOPE_NONE, FLAG));
    CHECK_STR("non_strong_sync", r.race[0].cause);
    mr_fence(&m, 1, MR_SEM_ACQ_REL, MR_SCOPE_GPU);
    CHECK_INT(1, rd(1));
    CHECK_STR("non_strong_sync", r.race[0].cause);
}

/* 0 -> 1 -> 2 through two flags, thread 1 acquiring at scope `acq` and releasing at
 * `rel`: race-free when every link is sound (HRF-indirect), racy when one is too
 * narrow for the two threads it joins. */
static int chain(MrScope acq, MrScope rel)
{
    CHECK_INT(0, wr(0));
    mr_fence(&m, 0, MR_SEM_ACQ_REL, MR_SCOPE_GPU);
    CHECK_INT(0, op(0, MR_SWRITE, MR_SEM_RELAXED, MR_SCOPE_GPU, FLAG));
    CHECK_INT(0, op(1, MR_SREAD, MR_SEM_RELAXED, MR_SCOPE_GPU, FLAG));
    mr_fence(&m, 1, MR_SEM_ACQUIRE, acq);
    mr_fence(&m, 1, MR_SEM_RELEASE, rel);
    CHECK_INT(0, op(1, MR_SWRITE, MR_SEM_RELAXED, MR_SCOPE_GPU, FLAG2));
    CHECK_INT(0, op(2, MR_SREAD, MR_SEM_RELAXED, MR_SCOPE_GPU, FLAG2));
    mr_fence(&m, 2, MR_SEM_ACQ_REL, MR_SCOPE_GPU);
    return rd(2);
}

TEST(transitive_chains)
{
    start(0, 1, 2);
    CHECK_INT(0, chain(MR_SCOPE_GPU, MR_SCOPE_GPU));
    start(0, 1, 2);
    CHECK_INT(1, chain(MR_SCOPE_CTA, MR_SCOPE_GPU));
    start(0, 1, 2);
    CHECK_INT(1, chain(MR_SCOPE_GPU, MR_SCOPE_CTA));
    /* A narrow link between two threads of one block is sound. */
    start(0, 1, 1);
    CHECK_INT(0, chain(MR_SCOPE_GPU, MR_SCOPE_CTA));
    start(0, 0, 2);
    CHECK_INT(0, chain(MR_SCOPE_CTA, MR_SCOPE_GPU));
}

/* Two threads take a spin lock (an atomic exchange that observes the other's release),
 * update the data and give the lock back. */
static int lock_handoff(MrScope lock_scope, MrScope fence_scope)
{
    CHECK_INT(0, op(0, MR_ATOMIC, MR_SEM_RELAXED, lock_scope, FLAG));
    mr_fence(&m, 0, MR_SEM_ACQ_REL, fence_scope);
    CHECK_INT(0, wr(0));
    mr_fence(&m, 0, MR_SEM_ACQ_REL, fence_scope);
    CHECK_INT(0, op(0, MR_ATOMIC, MR_SEM_RELAXED, lock_scope, FLAG));
    int lock_races = op(1, MR_ATOMIC, MR_SEM_RELAXED, lock_scope, FLAG);
    mr_fence(&m, 1, MR_SEM_ACQ_REL, fence_scope);
    return lock_races + wr(1);
}

TEST(locks)
{
    start(0, 1, 2);
    CHECK_INT(0, lock_handoff(MR_SCOPE_GPU, MR_SCOPE_GPU));
    start(0, 0, 2);
    CHECK_INT(0, lock_handoff(MR_SCOPE_CTA, MR_SCOPE_CTA));
    /* A block-scope lock across blocks: the lock word (against both of thread 0's
     * atomics) and the data race. */
    start(0, 1, 2);
    CHECK_INT(3, lock_handoff(MR_SCOPE_CTA, MR_SCOPE_CTA));
    CHECK_STR("fence_scope", r.race[0].cause);
    /* A device-scope lock with block fences. */
    start(0, 1, 2);
    CHECK_INT(1, lock_handoff(MR_SCOPE_GPU, MR_SCOPE_CTA));
    CHECK_STR("fence_scope", r.race[0].cause);
}

/* The last block to arrive at a counter reads every block's data: each block fences
 * and increments; the counter's atomics continue each other's release sequences. */
TEST(release_sequence_through_atomics)
{
    for (int fenced0 = 0; fenced0 < 2; fenced0++) {
        start(0, 1, 2);
        CHECK_INT(0, wr(0));
        if (fenced0)
            mr_fence(&m, 0, MR_SEM_ACQ_REL, MR_SCOPE_GPU);
        CHECK_INT(0, op(0, MR_ATOMIC, MR_SEM_RELAXED, MR_SCOPE_GPU, FLAG));
        CHECK_INT(0, op(1, MR_WRITE, MR_SEM_RELAXED, MR_SCOPE_NONE, FLAG2));
        mr_fence(&m, 1, MR_SEM_ACQ_REL, MR_SCOPE_GPU);
        CHECK_INT(0, op(1, MR_ATOMIC, MR_SEM_RELAXED, MR_SCOPE_GPU, FLAG));
        CHECK_INT(0, op(2, MR_ATOMIC, MR_SEM_RELAXED, MR_SCOPE_GPU, FLAG));
        mr_fence(&m, 2, MR_SEM_ACQ_REL, MR_SCOPE_GPU);
        CHECK_INT(0, op(2, MR_READ, MR_SEM_RELAXED, MR_SCOPE_NONE, FLAG2));
        CHECK_INT(!fenced0, rd(2));
    }
}

/* Without scoped causes, and without fences, the model is detector part 1's. */
TEST(part_one_causes_without_fences)
{
    start(0, 1, 2);
    m.scoped_causes = 0;
    CHECK_INT(1, message_passing(0, MR_SCOPE_NONE, 0, MR_SCOPE_NONE));
    CHECK_STR("unsynchronized_blocks", r.race[0].cause);
    /* Two strong accesses whose scopes include each other never race. */
    start(0, 1, 2);
    CHECK_INT(0, op(0, MR_SWRITE, MR_SEM_RELAXED, MR_SCOPE_GPU, DATA));
    CHECK_INT(0, op(1, MR_SREAD, MR_SEM_RELAXED, MR_SCOPE_GPU, DATA));
}

/* ---- properties over every small program ---------------------------------------- */

/* A thread's op: an access of the data or the flag, or a fence (acq_rel). */
typedef enum Op { OP_WD, OP_RD, OP_SWF, OP_SRF, OP_FCTA, OP_FGPU, OP_NONE, N_OPS = OP_NONE } Op;

enum { PROG_LEN = 3, MAX_PAIRS = 64 };

/* The racing pairs of one run, as (access, earlier access) indices. */
typedef struct Races {
    int n;
    unsigned char pair[MAX_PAIRS][2];
} Races;

/* Runs programs p0 (thread 0) and p1 (thread 1) interleaved by `order` (bit i: step i
 * is thread 1's), the threads in blocks b0 and b1. */
static void run_program(const Op *p0, const Op *p1, unsigned order, int b0, int b1, Races *out)
{
    const MrThread th[2] = {{b0, 0, 0}, {b1, b1 == b0 ? 1 : 0, 0}};
    mr_init(&m, 2, th);
    m.scoped_causes = 1;
    out->n = 0;
    int next[2] = {0, 0};
    const Op *prog[2] = {p0, p1};
    for (int step = 0; step < 2 * PROG_LEN; step++) {
        int t = (order >> step) & 1u;
        Op o = prog[t][next[t]++];
        int y = m.naccess;
        switch (o) {
        case OP_FCTA:
        case OP_FGPU:
            mr_fence(&m, t, MR_SEM_ACQ_REL, o == OP_FCTA ? MR_SCOPE_CTA : MR_SCOPE_GPU);
            continue;
        case OP_NONE:
            continue;
        case OP_WD:
            op(t, MR_WRITE, MR_SEM_RELAXED, MR_SCOPE_NONE, DATA);
            break;
        case OP_RD:
            op(t, MR_READ, MR_SEM_RELAXED, MR_SCOPE_NONE, DATA);
            break;
        case OP_SWF:
            op(t, MR_SWRITE, MR_SEM_RELAXED, MR_SCOPE_GPU, FLAG);
            break;
        case OP_SRF:
            op(t, MR_SREAD, MR_SEM_RELAXED, MR_SCOPE_GPU, FLAG);
            break;
        }
        for (int i = 0; i < r.nrace && out->n < MAX_PAIRS; i++) {
            out->pair[out->n][0] = (unsigned char)y;
            out->pair[out->n++][1] = (unsigned char)r.race[i].prev;
        }
    }
}

/* Every pair of a is in b. */
static int subset(const Races *a, const Races *b)
{
    for (int i = 0; i < a->n; i++) {
        int found = 0;
        for (int j = 0; j < b->n && !found; j++)
            found = a->pair[i][0] == b->pair[j][0] && a->pair[i][1] == b->pair[j][1];
        if (!found)
            return 0;
    }
    return 1;
}

static void decode(int code, Op *p)
{
    for (int i = 0; i < PROG_LEN; i++, code /= N_OPS)
        p[i] = (Op)(code % N_OPS);
}

/* Synchronization only removes races: over every pair of 3-op programs and every
 * interleaving, widening a fence from .cta to .gpu, putting the threads in one block,
 * and adding a fence (an op where the smaller program has none) never add a racing
 * pair. The first counterexample of each kind is printed. */
TEST(more_synchronization_never_adds_a_race)
{
    int programs = 1;
    for (int i = 0; i < PROG_LEN; i++)
        programs *= N_OPS;
    long runs = 0, bad_scope = 0, bad_block = 0, bad_fence = 0;
    for (int c0 = 0; c0 < programs; c0++)
        for (int c1 = 0; c1 < programs; c1++) {
            Op p0[PROG_LEN], p1[PROG_LEN];
            decode(c0, p0);
            decode(c1, p1);
            for (unsigned order = 0; order < 1u << (2 * PROG_LEN); order++) {
                if (__builtin_popcount(order) != PROG_LEN)
                    continue;
                Races base, other;
                run_program(p0, p1, order, 0, 1, &base);
                runs++;
                Races same_block;
                run_program(p0, p1, order, 0, 0, &same_block);
                if (!subset(&same_block, &base) && !bad_block++)
                    printf("one block adds a race: programs %d %d order %#x\n", c0, c1, order);
                for (int t = 0; t < 2; t++)
                    for (int i = 0; i < PROG_LEN; i++) {
                        Op *p = t ? p1 : p0, saved = p[i];
                        if (saved == OP_FCTA) {
                            p[i] = OP_FGPU;
                            run_program(p0, p1, order, 0, 1, &other);
                            if (!subset(&other, &base) && !bad_scope++)
                                printf("a wider fence adds a race: programs %d %d order %#x\n",
                                       c0, c1, order);
                        }
                        if (saved == OP_FCTA || saved == OP_FGPU) {
                            p[i] = OP_NONE;
                            run_program(p0, p1, order, 0, 1, &other);
                            if (!subset(&base, &other) && !bad_fence++)
                                printf("a fence adds a race: programs %d %d order %#x\n", c0, c1,
                                       order);
                        }
                        p[i] = saved;
                    }
            }
        }
    printf("monotonicity: %ld executions; counterexamples: scope %ld, block %ld, fence %ld\n",
           runs, bad_scope, bad_block, bad_fence);
    CHECK_INT(0, bad_scope);
    CHECK_INT(0, bad_block);
    CHECK_INT(0, bad_fence);
}

int main(void)
{
    RUN(message_passing_with_device_fences_is_race_free);
    RUN(message_passing_missing_a_fence_races);
    RUN(block_fences_order_a_block_but_not_the_grid);
    RUN(release_and_acquire_operations);
    RUN(weak_flag_is_not_synchronization);
    RUN(transitive_chains);
    RUN(locks);
    RUN(release_sequence_through_atomics);
    RUN(part_one_causes_without_fences);
    RUN(more_synchronization_never_adds_a_race);
    return TEST_REPORT();
}
