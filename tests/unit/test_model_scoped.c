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
    return TEST_REPORT();
}
