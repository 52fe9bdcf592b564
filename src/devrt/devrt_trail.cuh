/* devrt_trail.cuh: trails: the history a word restated relative to a recorder, and the
 * look for an acquired release that orders the recorder (__scord_acquired_cover). Part
 * of the device runtime: devrt.cu includes the parts in order, as one unit. */

/* ---- trails (docs/rules.md section 11, "Trails") ------------------------------------ */

/* One of the two sets of SC_DEV_TRAILS_WAYS entries where the word's trail may be
 * (k = 0, 1): with one, the sets that 131,072 words of Rule 110 filled lost a word's
 * trail about once a step. */
static __device__ __forceinline__ ScDevTrail *trail_set(const ScDevLaunch *l, const uint64_t *word,
                                                         uint32_t k)
{
    uint32_t sets = (1u << SC_DEV_TRAILS_BITS) / SC_DEV_TRAILS_WAYS;
    uint64_t h = mix64((uint64_t)word ^ (k ? 0x9e3779b97f4a7c15ull : 0u));
    return (ScDevTrail *)l->trails + (h & (sets - 1u)) * SC_DEV_TRAILS_WAYS;
}

/* An entry's key: the shadow word's address (below 2^48), and the launch's tag in the
 * bits above, so that an entry of an earlier launch is free by its key alone. 0: the
 * word has no key (its trail is not kept). Tags 2^16 launches apart look alike: such
 * an entry stays taken, and serves only a word whose shadow holds its `now` exactly. */
static __device__ __forceinline__ uint64_t trail_key(const ScDevLaunch *l, const uint64_t *word)
{
    uint64_t a = (uint64_t)word;
    return a >> 48 ? 0 : a | (uint64_t)(l->launch_tag & 0xffffu) << 48;
}

/* The entry that holds the word's trail, or 0. */
static __device__ ScDevTrail *trail_find(const ScDevLaunch *l, const uint64_t *word, uint64_t key)
{
    for (uint32_t k = 0; key && k < 2; k++) {
        ScDevTrail *set = trail_set(l, word, k);
        for (uint32_t i = 0; i < SC_DEV_TRAILS_WAYS; i++)
            if (load_gpu64(&set[i].key) == key)
                return &set[i];
    }
    return 0;
}

/* A fence between the accesses to a trail's entry: at gpu scope for a word of global
 * memory or of a cluster's shared memory, at block scope for a word of a block's own
 * shared memory, whose trail only that block's threads read (a gpu-scope fence there
 * made every tile read of transpose_mbarrier that began a trail pay for three). */
static __device__ __forceinline__ void trail_fence(bool gpu)
{
    if (gpu)
        __threadfence();
    else
        __threadfence_block();
}

/* The trail that led `word` to `now`, in *t: false when there is none (or it was not
 * kept). The thread that wrote the entry held the word and let it go with a release;
 * the caller read the word, and this fence orders that read before the entry's. */
static __device__ bool trail_of(const ScDevLaunch *l, const uint64_t *word, uint64_t now, ScRulesTrail *t,
                                bool gpu)
{
    trail_fence(gpu);
    ScDevTrail *e = trail_find(l, word, trail_key(l, word));
    if (!e || load_gpu64(&e->now) != now)
        return false;
    trail_fence(gpu);
    t->before = load_gpu64(&e->before);
    t->before_site = load_gpu64(&e->before_site);
    t->lost = (uint32_t)load_gpu64(&e->lost);
    t->n_after = 0;
    for (uint32_t k = 0; k < SC_RULES_TRAIL_MAX; k++) {
        t->after[k] = load_gpu64(&e->after[k]);
        if (t->after[k])
            t->n_after = k + 1;
    }
    trail_fence(gpu);
    return load_gpu64(&e->now) == now;
}

/* The entry that holds the trail of `word`, which the caller holds: the word's own,
 * else one it claims (compare-and-swap on the key) from an earlier launch, in the first
 * of its two sets that has one; 0 when every entry of both holds another word's. An
 * entry of this launch is never taken from another word, even one whose trail has
 * ended: telling that takes two loads (the word, its site word), and a thread that
 * took an entry between them from a word whose trail began meanwhile would lose that
 * trail. Each word keeps its entry for the launch. */
static __device__ ScDevTrail *trail_entry(const ScDevLaunch *l, const uint64_t *word)
{
    uint64_t key = trail_key(l, word), tag = key >> 48;
    ScDevTrail *e = trail_find(l, word, key);
    for (uint32_t k = 0; key && !e && k < 2; k++) {
        ScDevTrail *set = trail_set(l, word, k);
        for (uint32_t i = 0; !e && i < SC_DEV_TRAILS_WAYS; i++) {
            uint64_t seen = load_gpu64(&set[i].key);
            if (seen >> 48 != tag && atomicCAS((unsigned long long *)&set[i].key, seen, key) == seen)
                e = &set[i];
        }
    }
    return e;
}

/* The calling thread as the rules relate it to a recorder: who it is and its clocks
 * (passed as values: a pointer to the caller's ScRulesAccess, in local memory, makes
 * the compiler clone the callee). */
static __device__ __forceinline__ ScRulesAccess thread_clocks(uint32_t bar_now, uint32_t bar_own,
                                                              const uint16_t *bar_seen, uint32_t sync_now,
                                                              uint32_t sync_floor, const uint16_t *sync_seen)
{
    ScRulesAccess c;
    c.cls = c.scope = c.mask = 0;
    c.tid = thread_linear();
    c.blk = block_linear();
    c.bar_now = (uint16_t)bar_now;
    c.bar_own = (uint16_t)bar_own;
    c.bar_seen = bar_seen;
    c.sync_now = (uint16_t)sync_now;
    c.sync_floor = (uint16_t)sync_floor;
    c.sync_seen = sync_seen;
    c.hint = 0; /* blocks that share the word's block bits are taken as one */
    c.acq = 0;
    c.n_acq = 0;
    c.moved = 0;
    c.cluster = 0;
    c.shared = 0;
    return c;
}

/* Takes record `taken`, which reaches this thread, for each access of trail t it covers
 * that no record did before (bit i of `unsettled`: access i, bit SC_RULES_TRAIL_MAX:
 * the word it began with, `before`); returns what is left. */
static __device__ uint32_t settle_trail(const ScRulesTrail *t, const ScRulesState *before, uint64_t taken,
                                        uint32_t unsettled, uint64_t *before_rec, uint64_t *after_rec)
{
    if (((unsettled >> SC_RULES_TRAIL_MAX) & 1u) &&
        sc_rules_release_covers(taken, before) == SC_RULES_COVERS_ALL) {
        *before_rec = taken;
        unsettled &= ~(1u << SC_RULES_TRAIL_MAX);
    }
    for (uint32_t i = 0; i < t->n_after; i++) {
        if (!((unsettled >> i) & 1u))
            continue;
        ScRulesState st = sc_rules_decode(sc_rules_stamp_word(t->after[i]));
        if ((sc_rules_release_covers(taken, &st) >> SC_RULES_POS_SELF) & 1) {
            after_rec[i] = taken;
            unsettled &= ~(1u << i);
        }
    }
    return unsettled;
}

/* The release of the recorder of state s on the chain of `head`, when the recorder is
 * a thread of this block that published it (0 otherwise): found among the recorder's
 * latest releases (ScDevThread.rel_nodes) by the node's place on the chain, not by
 * walking the chain. The walk stops after ACQ_WALK nodes, and a phase of an mbarrier
 * in a block of 1024 threads is a chain of 1024 arrivals: every thread that waited
 * and then read what another warp wrote before arriving walked most of a phase. Of
 * the records that cover every position of s, the rules use none but its coverage
 * (barrier records aside: a cluster barrier's is not published here), so this one
 * serves as well as the first the walk would meet. */
static __device__ uint64_t own_release_in(const ScDevLaunch *l, uint32_t slot, const ScRulesState *s, uint32_t head)
{
    uint32_t tid = s->warp * WARP_SIZE + s->lane;
    if (s->blk != (block_linear() & ((1u << SC_RULES_BLK_BITS) - 1u)) || tid >= l->threads_per_block)
        return 0;
    /* Read as read_node reads: the fields, then whether the ring reused the node. */
    const ScDevSyncNode *h = sync_node(l, head);
    uint32_t start = load_gpu32(&h->start), depth = load_gpu32(&h->depth);
    if (!start || load_gpu32(&h->self) != head)
        return 0;
    const ScDevThread *rt = thread_state_of(l, slot, tid);
    for (uint32_t i = 0; i < SC_DEV_REL_NODES; i++) {
        uint32_t seq = load_gpu32(&rt->rel_nodes[i]);
        if (!seq)
            continue;
        const ScDevSyncNode *n = sync_node(l, seq);
        uint64_t rec = load_gpu64(&n->rec);
        uint32_t n_start = load_gpu32(&n->start), n_depth = load_gpu32(&n->depth);
        if (load_gpu32(&n->self) != seq || n_start != start || n_depth > depth)
            continue;
        if (!(rec & SC_RULES_REC_SET) || (rec & SC_DEV_REC_WEAK))
            continue;
        uint64_t taken = rec & ~SC_DEV_REC_FLAGS;
        if (!(taken & SC_RULES_REC_BARRIER) && sc_rules_release_covers(taken, s) == SC_RULES_COVERS_ALL)
            return taken;
    }
    return 0;
}

/* settle_trail with the releases of the trail's own threads on the chain of `head`
 * (own_release_in): the records the walk would meet there, found without walking it.
 * In an mbarrier's chain (every thread of the block releases at each phase) a word
 * with a trail otherwise walked the chain for each of its checks: 99.9% of
 * `transpose_mbarrier`'s access time (results/2026-11-29-profile-abi-h200.md). */
static __device__ uint32_t settle_own(const ScDevLaunch *l, uint32_t slot, const ScRulesTrail *t,
                                      const ScRulesState *before, uint32_t head, uint32_t unsettled,
                                      uint64_t *before_rec, uint64_t *after_rec)
{
    uint64_t rec;
    if (((unsettled >> SC_RULES_TRAIL_MAX) & 1u) && (rec = own_release_in(l, slot, before, head)))
        unsettled = settle_trail(t, before, rec, unsettled, before_rec, after_rec);
    for (uint32_t i = 0; i < t->n_after && unsettled; i++) {
        if (!((unsettled >> i) & 1u))
            continue;
        ScRulesState st = sc_rules_decode(sc_rules_stamp_word(t->after[i]));
        if ((rec = own_release_in(l, slot, &st, head)))
            unsettled = settle_trail(t, before, rec, unsettled, before_rec, after_rec);
    }
    return unsettled;
}

/* The release this thread has taken, or its block's threads took before a barrier or
 * __syncwarp it passed since, that covers the accesses of the recorder (s) of the
 * shadow word `old`, looked for only when the rules need one. The usable chains are
 * read newest first, every node the scopes let reach this thread, and the chains those
 * writers had taken before (transitively, each link checked by the thread that took
 * it); the walk stops at the first record that covers s, so a long release sequence
 * (the last of 1024 blocks that counted a ticket) costs its length once, in the check
 * that would otherwise report. Returns that record (else the first that covers what
 * was ordered before the recorder's own access: SC_RULES_COVERS_BEFORE), else 0; the
 * walk leaves in ScDevThread.acq_flags (ACQ_*): a chain was taken through cas/exch (a lock), one held a record of s's block
 * that does not cover s, one held a record that would cover s but whose scope (the
 * release's, or the flag write's) does not reach this thread, the broken link's cause
 * + 1 << 8 when a chain passed one on, the cause + 1 << 16 of another thread's failed
 * attempt ordered before this one (the block's lock its thread 0 did not get). How far
 * it reads depends on the access's class `cls` (below). `word` is the shadow word's
 * address when its site word says it has a trail (else 0): the walk then also looks for
 * records that cover the trail's accesses, and the answer carries SC_DEV_COVER_MOVED,
 * ScDevThread.trail_classes and trail_named saying what the trail orders and names.
 * The caller's clocks come as values (and pointers to the clock rows): not inlined, and
 * with no pointer to the caller's locals (nvcc clones such a function under a name the
 * runtime's linking refuses); inlined, it made every instrumented kernel need 212
 * registers on sm_90, against 143 without it. */
#define ACQ_LOCK 1u
#define ACQ_RECORDER_BLOCK 2u
#define ACQ_NARROW 4u
#define ACQ_TRUSTED (1u << 31)
extern "C" __device__ __noinline__ uint64_t __scord_acquired_cover(const ScDevLaunch *l, uint32_t slot,
                                                                  const uint64_t *word, uint64_t old, int cls,
                                                                  uint32_t bar_now, uint32_t bar_own,
                                                                  const uint16_t *bar_seen, uint32_t sync_now,
                                                                  uint32_t sync_floor, const uint16_t *sync_seen,
                                                                  bool shared)
{
    ScDevBlock *b = block_state(l, slot);
    uint32_t n_set = load_cta32(&b->acq_next), flags = 0, budget = ACQ_WALK_QUIET;
    ScRulesAccess clocks = thread_clocks(bar_now, bar_own, bar_seen, sync_now, sync_floor, sync_seen);
    const ScRulesAccess *r = &clocks;
    ScRulesState st = sc_rules_decode(old);
    const ScRulesState *s = &st;
    thread_state(l, slot)->acq_flags = 0;
    bool other = st.blk != (clocks.blk & ((1u << SC_RULES_BLK_BITS) - 1u)) ||
                 st.warp * WARP_SIZE + st.lane != clocks.tid;
    if ((!n_set && !word) || !(old & ~SC_RULES_MASK_FIELD) || sc_rules_is_split(old))
        return 0;
    /* A recorder the thread's barriers and __syncwarps order (or the thread itself)
     * needs no release (the common case in a block that took one: its threads'
     * accesses to one another's words), unless on shared memory a class they do not
     * order conflicts (other blocks' atomics at GRID): a cluster barrier's release that
     * covers the recorder orders the whole history (SC_RULES_REC_BARRIER), or the word
     * has a trail that may order such a class. */
    RulesRel rel = rules_relate_clocks(s, r);
    bool ordered = !other || rules_ordered_clocks(&rel, SC_RULES_POS_SELF);
    if (ordered && !shared && !word)
        return 0;
    /* The chains are read whole only when the access would race without a release:
     * one that only hands the word to this thread's record (reads after reads) reads a
     * few nodes, so that what a release ordered before the old recorder stays ordered
     * before the new one (ACQ_MOVE) where that is cheap. Read whole for every such
     * access, they made each read of a word its block's other threads had read walk
     * the whole set for nothing (reduce_last_block 6.9x slower at 883c4e7). */
    for (int c = 0; c < SC_RULES_NCLS; c++)
        if ((rules_is_write(c) || rules_is_write(cls)) && !rules_ordered_clocks(&rel, s->reach[c]))
            budget = ACQ_WALK_TOTAL;
    if (ordered && budget != ACQ_WALK_TOTAL)
        return 0;
    /* The word's trail, when a class its clocks do not order would race: the records
     * that cover the word it began with (before_rec) and each access since
     * (after_rec), where the thread's clocks do not order them already. */
    ScRulesTrail trail;
    bool trailed = word && budget == ACQ_WALK_TOTAL &&
                   trail_of(l, word, old, &trail, !shared || launch_clusters(b));
    ScRulesState before_st = sc_rules_decode(trailed ? trail.before : 0);
    uint64_t before_rec = 0, after_rec[SC_RULES_TRAIL_MAX];
    uint32_t unsettled = 0; /* bit i: access i; bit SC_RULES_TRAIL_MAX: the word it began with */
    if (trailed) {
        int held = 0;
        for (int c = 0; c < SC_RULES_NCLS; c++)
            held |= 1 << before_st.reach[c];
        if ((held & ~1 & ~sc_rules_ordered_positions(trail.before, &clocks)) != 0)
            unsettled |= 1u << SC_RULES_TRAIL_MAX;
        for (uint32_t i = 0; i < trail.n_after; i++) {
            after_rec[i] = 0;
            uint64_t one = sc_rules_stamp_word(trail.after[i]);
            if (!((sc_rules_ordered_positions(one, &clocks) >> SC_RULES_POS_SELF) & 1))
                unsettled |= 1u << i;
        }
    }
    uint32_t w = r->tid / WARP_SIZE;
    uint64_t partial = 0, found = 0;
    /* First the chain this thread took last, which the block's set may have lost to
     * its other threads' takes (every waiter of an mbarrier takes one); then the set,
     * newest first. */
    const ScDevThread *th = thread_state(l, slot);
    uint32_t own = th->last_acq;
    bool done = false;
    for (uint32_t k = 0; k <= SC_DEV_ACQ_SET && k <= n_set && budget && !done; k++) {
        uint32_t head = own, meta = th->last_acq_meta;
        if (k > 0) {
            uint32_t i = (n_set - k) % SC_DEV_ACQ_SET;
            meta = load_cta32(&b->acq_meta[i]);
            if (!meta)
                continue;
            __threadfence_block();
            head = load_cta32(&b->acq_head[i]);
            uint32_t who = SC_DEV_ACQ_TID(meta);
            if (who == r->tid && head == own)
                continue; /* walked first */
            if (who != r->tid) {
                uint32_t aw = who / WARP_SIZE;
                uint32_t known = aw == w ? r->bar_own : r->bar_seen ? r->bar_seen[aw] : r->bar_now;
                bool ordered = sc_rules_newer(r->bar_now, known, SC_DEV_ACQ_BAR(meta), SC_RULES_BAR_MOD);
                if (!ordered && aw == w) {
                    uint32_t ks = r->sync_seen ? r->sync_seen[who % WARP_SIZE] : r->sync_now;
                    ordered = sc_rules_newer(r->sync_now, ks, SC_DEV_ACQ_SYNC(meta), SC_RULES_SYNC_MOD);
                }
                if (!ordered)
                    continue;
            }
            if (head & SC_DEV_ACQ_FAILED) {
                /* Another thread's failed attempt (this thread's own is its attempt). */
                if (who != r->tid && !(flags >> 16))
                    flags |= (head & 0xffu) << 16;
                flags |= SC_DEV_ACQ_LOCK(meta) ? ACQ_LOCK : 0u;
                continue;
            }
        } else if (!head) {
            continue;
        }
        flags |= SC_DEV_ACQ_LOCK(meta) ? ACQ_LOCK : 0u;
        /* The recorder's and the trail's threads' own releases on the chain, looked up
         * directly: when they answer all the walk looks for, it is not needed. (A
         * recorder the clocks order is still walked for: the walk's answer is then the
         * first record that covers part of its history, which may order more.) */
        if (!ordered && budget == ACQ_WALK_TOTAL && (found || (found = own_release_in(l, slot, s, head)))) {
            if (unsettled)
                unsettled = settle_own(l, slot, &trail, &before_st, head, unsettled, &before_rec, after_rec);
            if ((done = !unsettled))
                break;
        }
        uint32_t stack[4], sp = 0, walked = 0;
        stack[sp++] = head;
        while (sp && walked < ACQ_WALK && budget && !done) {
            uint32_t item = stack[--sp], seq = item & ~ACQ_TRUSTED;
            for (; seq && walked < ACQ_WALK && budget; walked++, budget--) {
                uint64_t rec;
                uint32_t prev, also, broken;
                if (!read_node(l, seq, &rec, &prev))
                    break;
                read_node_links(l, seq, &also, &broken);
                int needed = span_needed(b, sc_rules_rec_blk(rec));
                bool reaches = (item & ACQ_TRUSTED) || needed == SC_RULES_SPAN_BLOCK ||
                               (sc_rules_rec_span(rec) >= needed && (int)SC_DEV_ACQ_SPAN(meta) >= needed &&
                                flag_span(rec) >= needed);
                if ((rec & SC_RULES_REC_SET) && !(rec & SC_DEV_REC_WEAK)) {
                    uint64_t taken = rec & ~SC_DEV_REC_FLAGS;
                    if (unsettled && reaches)
                        unsettled = settle_trail(&trail, &before_st, taken, unsettled, &before_rec, after_rec);
                    int covers = sc_rules_release_covers(taken, s);
                    if (!found && covers == SC_RULES_COVERS_ALL && reaches &&
                        (!ordered || (taken & SC_RULES_REC_BARRIER))) {
                        found = taken;
                    } else if (covers && reaches) {
                        /* The release came before the recorder's own access: what
                         * it does not cover names a fence missing after that. */
                        if (!partial)
                            partial = taken; /* unless a later one covers all */
                        flags |= ACQ_RECORDER_BLOCK;
                    } else if (covers) {
                        flags |= ACQ_NARROW;
                    } else if (reaches && (sc_rules_rec_blk(taken) & ((1u << SC_RULES_BLK_BITS) - 1u)) == s->blk) {
                        flags |= ACQ_RECORDER_BLOCK;
                    }
                    if ((done = found && !unsettled))
                        break; /* the walk stops at the first record that covers s */
                }
                if (broken && !((flags >> 8) & 0xffu))
                    flags |= broken << 8;
                if (also && sp < 4)
                    stack[sp++] = also | ACQ_TRUSTED;
                seq = prev;
            }
        }
    }
    thread_state(l, slot)->acq_flags = found ? 0u : flags;
    uint64_t answer = found ? found : partial;
    if (trailed) {
        clocks.acq = &before_rec;
        clocks.n_acq = before_rec ? 1u : 0u;
        int before_ordered = sc_rules_ordered_positions(trail.before, &clocks);
        unsigned after_ordered = 0;
        for (uint32_t i = 0; i < trail.n_after; i++) {
            clocks.acq = &after_rec[i];
            clocks.n_acq = after_rec[i] ? 1u : 0u;
            uint64_t one = sc_rules_stamp_word(trail.after[i]);
            after_ordered |= ((sc_rules_ordered_positions(one, &clocks) >> SC_RULES_POS_SELF) & 1u) << i;
        }
        ScDevThread *me = thread_state(l, slot);
        unsigned classes = sc_rules_trail_classes(&trail, before_ordered, after_ordered);
        me->trail_classes = classes;
        for (int c = 0; c < SC_RULES_NCLS; c++)
            me->trail_named[c] =
                (classes >> c) & 1u ? 0 : sc_rules_trail_partner(&trail, c, before_ordered, after_ordered);
        answer |= SC_DEV_COVER_MOVED;
    }
    return answer;
}

/* The cause of a race the rules name by the threads' relation alone (other blocks, or
 * other warps with no barrier), when this thread's synchronization through memory
 * says more: a weak write that took a release like a flag, raced by a strong access;
 * the thread's latest failed attempt; a taken release that would order the other
 * side but whose scope does not reach this thread (fence_scope); a release taken from
 * the other side's block that came before the other access (a fence missing after
 * it); a lock taken that does not order the other side. */
static __device__ int scoped_cause(const ScDevLaunch *l, uint32_t slot, const ScRulesVerdict *v,
                                   bool weak_flag, uint32_t acq_flags, int cause)
{
    if (cause != DEV_CAUSE_UNSYNCHRONIZED_BLOCKS && cause != DEV_CAUSE_MISSING_BARRIER)
        return cause;
    if (weak_flag && rules_is_strong(v->prev_cls))
        return DEV_CAUSE_NON_STRONG_SYNC;
    const ScDevThread *th = thread_state(l, slot);
    uint32_t attempt = latest_attempt(l, slot, th, cause == DEV_CAUSE_UNSYNCHRONIZED_BLOCKS);
    if (attempt)
        return (int)attempt - 1;
    bool lock = th->lock_user || (acq_flags & ACQ_LOCK);
    /* v names the recorder, whose block the walk compared records with. */
    if (acq_flags & ACQ_NARROW)
        return lock ? DEV_CAUSE_LOCK_SCOPE : DEV_CAUSE_FENCE_SCOPE;
    if (acq_flags & ACQ_RECORDER_BLOCK)
        return lock ? DEV_CAUSE_LOCK_NO_FENCE : DEV_CAUSE_MISSING_FENCE;
    if ((acq_flags >> 8) & 0xffu)
        return (int)((acq_flags >> 8) & 0xffu) - 1;
    if (acq_flags >> 16)
        return (int)(acq_flags >> 16) - 1;
    if (lock && cause == DEV_CAUSE_UNSYNCHRONIZED_BLOCKS)
        return DEV_CAUSE_LOCK_MISSING;
    /* Warps of one block that synchronize through memory (an mbarrier, a flag): the
     * pattern lacks a release or an acquire (a wait), not a barrier. Either side may be
     * the one that has used one by then: which access of the pair a run checks second
     * varies. prev_tid names the recorder, a thread of this block. */
    if (cause == DEV_CAUSE_MISSING_BARRIER) {
        const ScDevThread *o = th - thread_linear() + (v->prev_tid < l->threads_per_block ? v->prev_tid : 0);
        if (th->release || th->last_acq || th->mbar_used || o->release || o->last_acq || o->mbar_used)
            return lock ? DEV_CAUSE_LOCK_NO_FENCE : DEV_CAUSE_MISSING_FENCE;
    }
    return cause;
}
