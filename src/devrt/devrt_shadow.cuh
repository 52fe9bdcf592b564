/* devrt_shadow.cuh: the access hook and the shadow step: changing a shadow word with
 * its site word, split words, the metadata cache, kept spin decisions, check_access and
 * __scord_access. Part of the device runtime: devrt.cu includes the parts in order,
 * as one unit. */

/* ---- changing a shadow word with its site word ---------------------------------- */

/* A shadow word (or byte cell), its site word right after it (16-byte aligned), and
 * whether the caller holds them already (a metadata cache entry's lock). The words of
 * shared memory's shadow are used by one block only: block scope orders them. */
typedef struct Shadow {
    uint64_t *word, *site;
    bool cell;
    bool held;
} Shadow;

/* The word's value once no other thread holds it (the sm_75 text holds words for
 * every change; the sm_90 text for a split or a trail). */
static __device__ uint64_t load_word(const Access *a, const uint64_t *p)
{
    uint32_t pause = CACHE_PAUSE_MIN_NS;
    uint64_t v;
    while ((v = load_shadow(a, p)) == WORD_HELD) {
        __nanosleep(pause);
        if (pause < CACHE_PAUSE_MAX_NS)
            pause *= 2;
    }
    return v;
}

/* The byte cells of split group `index` (a split marker's sc_rules_split_index): in
 * the split pool, or, with SPLIT_IN_SLOT, in the shared-memory word's own block's part
 * of the slot split area; 0 beyond either's size. */
static __device__ uint64_t *split_group(const Access *a, uint64_t index)
{
    const ScDevLaunch *l = a->l;
    if (index & SPLIT_IN_SLOT) {
        index &= ~SPLIT_IN_SLOT;
        return index < l->slot_split_cap
                   ? (uint64_t *)l->slot_split + ((uint64_t)a->shadow_slot * l->slot_split_cap + index) * SPLIT_GROUP
                   : 0;
    }
    return index < l->split_cap ? (uint64_t *)l->split_pool + index * SPLIT_GROUP : 0;
}

/* The next group of a count of `cap` groups, SPLIT_NONE once they are spent. A spent
 * count is not incremented any more: counting every later attempt could wrap it and
 * give out groups in use. */
static __device__ uint64_t take_group(uint32_t *used, uint32_t cap)
{
    if (load_gpu32(used) >= cap)
        return SPLIT_NONE;
    uint32_t idx = atomicAdd(used, 1u);
    return idx < cap ? idx : SPLIT_NONE;
}

/* The four byte cells of a word whose bytes need histories of their own, filled from
 * the word and its site word: the word's split marker, or 0 when there is no group
 * left (the access then counts in unsplit_accesses). A word of shared memory takes a
 * group of its block's slot first (none are left over from blocks before it: the
 * slot's count restarts at block entry), then one of the pool. */
static __device__ uint64_t split_cells(const Access *a, uint64_t old, uint64_t site)
{
    uint64_t index = SPLIT_NONE;
    if (a->shared && a->l->slot_split_cap) {
        index = take_group(&block_state(a->l, a->shadow_slot)->split_used, a->l->slot_split_cap);
        if (index != SPLIT_NONE)
            index |= SPLIT_IN_SLOT;
    }
    if (index == SPLIT_NONE)
        index = take_group(&a->l->split_used, a->l->split_cap);
    uint64_t *cells = index == SPLIT_NONE ? 0 : split_group(a, index);
    if (!cells) {
        count_unsplit(a->l);
        return 0;
    }
    for (uint32_t byte = 0; byte < 4; byte++) {
        cells[2 * byte] = sc_rules_split_cell(old, byte);
        cells[2 * byte + 1] = cells[2 * byte] ? site : 0;
    }
    /* The cells before the marker: a thread that reads the marker fences before it
     * reads them. */
    __threadfence();
    return sc_rules_split_word(index);
}

#if __CUDA_ARCH__ >= 900
/* sm_90: swaps the pair (word, site word) from (*old, *site) to (next, next_site) in
 * one 128-bit compare-and-swap; on failure *old and *site hold the pair found, read
 * together. */
static __device__ bool swap_pair(bool gpu, uint64_t *word, uint64_t *old, uint64_t *site,
                                 uint64_t next, uint64_t next_site)
{
    uint64_t seen_word, seen_site;
#define SWAP_PAIR(scope)                                                                         \
    asm volatile("{\n\t.reg .b128 cmp, val, got;\n\t"                                           \
                 "mov.b128 cmp, {%2, %3};\n\tmov.b128 val, {%4, %5};\n\t"                       \
                 "atom.relaxed." scope ".cas.b128 got, [%6], cmp, val;\n\t"                       \
                 "mov.b128 {%0, %1}, got;\n\t}"                                                  \
                 : "=l"(seen_word), "=l"(seen_site)                                              \
                 : "l"(*old), "l"(*site), "l"(next), "l"(next_site), "l"(word)                   \
                 : "memory")
    if (gpu)
        SWAP_PAIR("gpu");
    else
        SWAP_PAIR("cta");
#undef SWAP_PAIR
    bool ok = seen_word == *old && seen_site == *site;
    *old = seen_word;
    *site = seen_site;
    return ok;
}
#else
/* Before sm_90: holds the word if it still is `old`, swapping it to WORD_HELD with
 * acquire semantics (the site word its last holder wrote goes with it); else returns
 * false with *now its current value. A holder waits for nothing while it holds a
 * word, so a thread waiting for it (even a lane of its own warp, under independent
 * thread scheduling) always sees it let go. */
static __device__ bool hold_word(const Access *a, uint64_t *p, uint64_t old, uint64_t *now)
{
    uint64_t seen;
    if (a->gpu)
        asm volatile("atom.acquire.gpu.cas.b64 %0, [%1], %2, %3;"
                     : "=l"(seen) : "l"(p), "l"(old), "l"(WORD_HELD) : "memory");
    else
        asm volatile("atom.acquire.cta.cas.b64 %0, [%1], %2, %3;"
                     : "=l"(seen) : "l"(p), "l"(old), "l"(WORD_HELD) : "memory");
    if (seen == old)
        return true;
    *now = seen == WORD_HELD ? load_word(a, p) : seen;
    return false;
}

#endif

/* Lets a held word go with the value v (release: its site word first). */
static __device__ void let_go(const Access *a, uint64_t *p, uint64_t v)
{
    if (a->gpu)
        store_release_gpu64(p, v);
    else
        asm volatile("st.release.cta.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

/* Does the race-free access that turns `old` into `next` keep the word's trail, or
 * begin one (docs/rules.md section 11, "Trails")? It keeps the trail its site word
 * says the word has (`trailed`), but for a weak write, which leaves the word exact. It
 * begins one where a release this thread took covered the recorder of `old` (r->n_acq)
 * and `next` restates part of the history relative to this access, and, in a launch
 * where some thread has released, at each read of global memory that changes a word
 * (the owner warp's lanes that read a cell after the owner's release, or before the
 * neighbour's read; the releaser that rereads what it published). Inline and cheap:
 * most accesses that change a word do none of these. Not every read of shared memory:
 * there every thread of a block that arrives at an mbarrier releases, and each read of
 * a tile would begin a trail. */
static __device__ __forceinline__ bool may_trail(const Access *a, const ScRulesAccess *r, const Shadow *sh,
                                                 int res, uint64_t old, uint64_t next, bool trailed)
{
    if (sh->cell || (res != SC_RULES_OK && res != SC_RULES_WARN) || next == old ||
        r->cls == SC_RULES_CLS_WRITE)
        return false;
    if (trailed)
        return true;
    if (!a->shared && rules_is_read(r->cls) && (old & ~SC_RULES_MASK_FIELD) && load_gpu32(&a->l->released))
        return true;
    return r->n_acq && sc_rules_restated(next);
}

/* Adds this access (`stamp`) to the word's trail, or begins one at `old`, while its
 * thread holds the word: a thread that reads `next` from the shadow (after the
 * holder's release of it) finds the trail, and two threads extend it one after the
 * other (noted beside the swap, a second reader that came in between found none, and
 * one whose swap failed had overwritten the trail of the one whose swap went in). A
 * trail that is gone begins again at `old`: the word as it is and this access are
 * always a trail of `next`. False when the word's set has no entry for it (counted in
 * trails_lost): the word then has no trail. Out of line, with values only: inlined on
 * the path of every access that changes a word, it cost 12-20% of the kernel time of
 * transpose, reduce_block and stencil_2d on the H200. */
extern "C" __device__ __noinline__ bool __scord_note_trail(ScDevLaunch *l, const uint64_t *word, bool trailed,
                                                               uint64_t old, uint64_t old_site, uint64_t next,
                                                               uint64_t stamp, bool gpu)
{
    ScRulesTrail t;
    if (!trailed || !trail_of(l, word, old, &t, gpu)) {
        t.before = old;
        t.before_site = old_site;
        t.n_after = 0;
        t.lost = 0;
    }
    sc_rules_trail_add(&t, stamp);
    volatile ScDevTrail *e = trail_entry(l, word);
    if (!e) {
        atomicAdd(&l->trails_lost, 1u);
        return false;
    }
    e->now = 0;
    trail_fence(gpu);
    e->before = t.before;
    e->before_site = t.before_site;
    e->lost = t.lost;
    for (uint32_t i = 0; i < SC_RULES_TRAIL_MAX; i++)
        e->after[i] = i < t.n_after ? t.after[i] : 0;
    trail_fence(gpu);
    e->now = next;
    return true;
}

/* The site word for `next`, made from `site` that went with `old`, for this access. */
static __device__ __forceinline__ uint64_t site_after(const Access *a, const ScRulesAccess *r, const Shadow *sh,
                                                      uint64_t site, uint64_t old, uint64_t next)
{
    return sc_rules_site_next(site, old, next, r, a->cur.site, sh->cell);
}

static __device__ __forceinline__ int decide(const ScRulesAccess *r, bool cell, uint64_t old,
                                             uint64_t *next, ScRulesVerdict *v)
{
    return cell ? sc_rules_access_cell(old, r, next, v) : sc_rules_access(old, r, next, v);
}

/* Writes the new pair (next, its site word) for the pair (*old, *site) it was decided
 * on: false when the pair changed meanwhile (then *old and *site hold what it is now,
 * and the caller decides again). sm_90 swaps the two words at once; before it the word
 * is held while the site word is written, and a site word that differs from the one
 * decided on is decided on again, holding. Either way the site word the report gets is
 * the one that went with *old. A split installs its marker instead of next. */
static __device__ bool write_pair(const Access *a, ScRulesAccess *r, const Shadow *sh, uint64_t *old,
                                  uint64_t *site, int *res, uint64_t *next, ScRulesVerdict *v)
{
    if (!sh->held) {
#if __CUDA_ARCH__ >= 900
        /* A split and a trail are made while the word is held (WORD_HELD, its site word
         * as it was): a split pool group is taken only by the thread that installs it
         * (lanes that split one word at once would otherwise each take one). */
        bool splitting = *res == SC_RULES_SPLIT;
        uint64_t n = *next;
        uint64_t n_site = splitting ? *site : site_after(a, r, sh, *site, *old, n);
        bool trailed = (*site & SC_RULES_SITE_TRAIL) != 0;
        bool trailing = !splitting && may_trail(a, r, sh, *res, *old, n, trailed);
        bool holding = splitting || trailing;
        if (!swap_pair(a->gpu, sh->word, old, site, holding ? WORD_HELD : n, holding ? *site : n_site))
            return false;
        if (splitting) {
            n = split_cells(a, *old, *site);
            if (!n) {
                *res = SC_RULES_UNCHANGED;
                n = *old;
            }
        } else if (trailing) {
            uint64_t stamp = sc_rules_stamp(r, a->cur.site);
            if (__scord_note_trail(a->l, sh->word, trailed, *old, *site, n, stamp, a->gpu))
                n_site |= SC_RULES_SITE_TRAIL;
            *sh->site = n_site;
        }
        *next = n;
        if (holding)
            let_go(a, sh->word, n);
        return true;
#else
        if (!hold_word(a, sh->word, *old, old)) {
            *site = load_shadow(a, sh->site);
            return false;
        }
        uint64_t held_site = load_shadow(a, sh->site);
        if (held_site != *site) {
            *site = r->hint = held_site;
            *res = decide(r, sh->cell, *old, next, v);
        }
#endif
    }
    if (*res == SC_RULES_SPLIT) {
        uint64_t marker = split_cells(a, *old, *site);
        *next = marker ? marker : *old;
        if (!marker)
            *res = SC_RULES_UNCHANGED;
    } else {
        uint64_t n_site = site_after(a, r, sh, *site, *old, *next);
        bool trailed = (*site & SC_RULES_SITE_TRAIL) != 0;
        if (may_trail(a, r, sh, *res, *old, *next, trailed) &&
            __scord_note_trail(a->l, sh->word, trailed, *old, *site, *next, sc_rules_stamp(r, a->cur.site),
                               a->gpu))
            n_site |= SC_RULES_SITE_TRAIL;
        if (n_site != *site)
            *sh->site = n_site;
    }
#if __CUDA_ARCH__ < 900
    if (!sh->held) {
        let_go(a, sh->word, *next);
        return true;
    }
#endif
    *sh->word = *next;
    return true;
}

/* The rules on one word or cell: decide on the pair as read (two loads, maybe not of
 * one moment); nothing to write (the common case): done; else write the pair
 * (write_pair), deciding again on what changed meanwhile, then report. Returns
 * SC_RULES_SPLIT with *marker set when the word is split (the caller goes on with the
 * cells), and SC_RULES_UNCHANGED when the split pool was empty. */
/* What a spin access keeps of its decision (ScDevThread.spin_key, docs/devrt.md,
 * "Spins"): nothing, or its key and, for a read, the shadow pairs it left unchanged. */
enum { SPIN_NONE, SPIN_READ, SPIN_ATTEMPT };

/* A shadow pair as a spin read's decision keeps it: never 0. */
static __device__ __forceinline__ uint64_t pair_hash(uint64_t word, uint64_t site)
{
    return mix64(word ^ mix64(site)) | 1u;
}

static __device__ int check_shadow(const Access *a, ScRulesAccess *r, const Shadow *sh,
                                   uint32_t byte, uint64_t *marker, uint64_t *kept)
{
    ScRulesVerdict v;
    /* WORD_HELD: (re)read the pair, once a thread that holds it lets it go. */
    uint64_t old = sh->held ? *sh->word : WORD_HELD, next, cover = 0;
    uint64_t site = sh->held ? load_shadow(a, sh->site) : 0;
    PROF_ADD(a->l, WORDS, 1);
    for (;;) {
        if (old == WORD_HELD) {
            PROF_START(t0);
            old = load_word(a, sh->word);
            site = load_shadow(a, sh->site);
            PROF_SINCE(a->l, LOAD_CYCLES, t0);
        }
        if (!sh->cell && sc_rules_is_split(old)) {
            *marker = old;
            return SC_RULES_SPLIT;
        }
        r->hint = site;
        r->n_acq = 0;
        r->moved = 0;
        bool trail_read = false;
        const uint64_t *trail = !sh->cell && (site & SC_RULES_SITE_TRAIL) ? sh->word : 0;
        PROF_START(t1);
        if (a->acq_next || trail)
            PROF_ADD(a->l, COVERS, 1);
        if ((a->acq_next || trail) && (cover = __scord_acquired_cover(a->l, a->slot, trail, old, r->cls, r->bar_now,
                                                           r->bar_own, r->bar_seen, r->sync_now, r->sync_floor,
                                                           r->sync_seen, a->shared))) {
            trail_read = (cover & SC_DEV_COVER_MOVED) != 0;
            if (trail_read)
                r->moved = (uint8_t)thread_state(a->l, a->slot)->trail_classes;
            cover &= ~SC_DEV_COVER_MOVED;
            r->acq = &cover;
            r->n_acq = cover != 0;
        }
        if (a->acq_next || trail)
            PROF_SINCE(a->l, COVER_CYCLES, t1);
        PROF_START(t2);
        int res = decide(r, sh->cell, old, &next, &v);
        PROF_SINCE(a->l, DECIDE_CYCLES, t2);
        if (res == SC_RULES_UNCHANGED && site_after(a, r, sh, site, old, old) == site) {
            PROF_ADD(a->l, UNCHANGED, 1);
            if (a->spin == SPIN_READ && !sh->cell)
                *kept = pair_hash(old, site);
            return res;
        }
        PROF_START(t3);
        PROF_ADD(a->l, WRITES, 1);
        bool written = write_pair(a, r, sh, &old, &site, &res, &next, &v);
        PROF_SINCE(a->l, WRITE_CYCLES, t3);
        if (!written) {
            PROF_ADD(a->l, RETRIES, 1);
            continue;
        }
        if (res == SC_RULES_SPLIT) {
            *marker = next;
            return res;
        }
        if (res == SC_RULES_RACE || res == SC_RULES_WARN) {
            PROF_START(t4);
            report(a, r, &v, old, site, byte, !sh->cell,
                   a->acq_next ? thread_state(a->l, a->slot)->acq_flags : 0u,
                   trail_read ? thread_state(a->l, a->slot)->trail_named[v.prev_cls] : 0);
            PROF_SINCE(a->l, REPORT_CYCLES, t4);
        }
        if (!sh->cell && res != SC_RULES_UNCHANGED && r->cls == SC_RULES_CLS_WRITE)
            rmw_follow_up(a, r);
        return res;
    }
}

/* One shadow word: its own history, or that of the byte cells it was split into, each
 * byte of the access decided on its own. One call of check_shadow, for both: it is
 * long, and each inlined copy adds to the JIT time. Returns the pair_hash of the word
 * a spin read (SPIN_READ) left as it was, else 0. */
static __device__ uint64_t check_word(const Access *a, uint64_t *word, uint64_t *site_word, bool held)
{
    ScRulesAccess r = a->rules;
    Shadow sh = {word, site_word, false, held};
    uint64_t marker = 0, *cells = 0, kept = 0;
    uint32_t byte = lowest_lane(r.mask), bytes = r.mask;
    for (;;) {
        PROF_START(t0);
        int res = check_shadow(a, &r, &sh, byte, &marker, &kept);
        PROF_SINCE(a->l, SHADOW_CYCLES, t0);
        if (!cells) {
            if (res != SC_RULES_SPLIT)
                return kept;
            kept = 0;
            cells = split_group(a, sc_rules_split_index(marker));
            if (!cells) {
                count_unsplit(a->l);
                return 0;
            }
            /* Acquire: the splitter filled the cells before it installed the marker. */
            __threadfence();
        }
        if (!bytes)
            return 0;
        byte = lowest_lane(bytes);
        bytes &= bytes - 1;
        sh = (Shadow){&cells[2 * byte], &cells[2 * byte + 1], true, false};
    }
}

/* The prerequisite grid's history of the word at a->base, for a thread of a dependent
 * launch that has not passed griddepcontrol.wait (docs/devrt.md, "The prerequisite
 * grid"): a race with it is reported against that grid's access, named when the site
 * word keeps its instruction. That shadow does not change during the launch. */
static __device__ void check_prior(const Access *a, const uint64_t *dir)
{
    uint64_t addr = a->base;
    uint64_t table = __ldg((const unsigned long long *)dir + (addr >> SC_SHADOW_DIR_SHIFT));
    if (!table)
        return;
    uint64_t chunk = __ldg((const unsigned long long *)table +
                           ((addr >> SC_SHADOW_CHUNK_SHIFT) & ((1u << SC_SHADOW_CHUNK_BITS) - 1)));
    if (!chunk)
        return;
    const uint64_t *w = chunk_word(chunk, addr);
    uint64_t word = __ldg((const unsigned long long *)w), site = __ldg((const unsigned long long *)w + 1);
    uint32_t byte = lowest_lane(a->rules.mask);
    int cls = -1;
    if (!sc_rules_is_split(word)) {
        cls = sc_rules_prior_race(word, site, &a->rules, 0);
    } else if (sc_rules_split_index(word) < a->l->split_cap) {
        const uint64_t *cells = (const uint64_t *)a->l->prior_split + sc_rules_split_index(word) * SPLIT_GROUP;
        for (uint32_t bytes = a->rules.mask; bytes && cls < 0; bytes &= bytes - 1) {
            byte = lowest_lane(bytes);
            word = __ldg((const unsigned long long *)&cells[2 * byte]);
            site = __ldg((const unsigned long long *)&cells[2 * byte + 1]);
            cls = sc_rules_prior_race(word, site, &a->rules, 1);
        }
    }
    if (cls < 0)
        return;
    ScRulesState st = sc_rules_decode(word);
    uint32_t named = sc_rules_site_of(site, cls);
    RecSide prev = {named, SC_ABI_INFO(0, sc_dev_cls_kind((uint32_t)cls), 0, 0, SC_ABI_SPACE_GLOBAL),
                    sc_rules_site_blk(site, word), st.warp * WARP_SIZE + st.lane};
    if (named == SC_RULES_SITE_NONE)
        prev.thread |= SC_DEV_WHO_ANY << SC_DEV_WHO_SHIFT;
    record_race(a->l, DEV_CAUSE_GRID_DEPENDENCY, a->base + byte, &a->cur, &prev);
}

/* Takes the lock of a cache entry and returns the tag it had. A thread holds one
 * entry at a time and waits for nothing while it does, so a holder always finishes;
 * independent thread scheduling (sm_70+) lets it run while lanes of its own warp wait
 * here. */
static __device__ uint64_t lock_entry(ScDevCacheEntry *e)
{
    uint32_t pause = CACHE_PAUSE_MIN_NS;
    for (;;) {
        uint64_t tag = load_gpu64(&e->tag);
        if (!(tag & SC_SHADOW_CACHE_LOCK) &&
            atomicCAS((unsigned long long *)&e->tag, tag, tag | SC_SHADOW_CACHE_LOCK) == tag) {
            /* Acquire: the previous holder's writes to the entry. */
            __threadfence();
            return tag;
        }
        __nanosleep(pause);
        if (pause < CACHE_PAUSE_MAX_NS)
            pause *= 2;
    }
}

/* The cache entry of the word at a->base, locked and holding that word's history of
 * this launch: an entry of another word or of an older launch is emptied and taken
 * over (its history is forgotten: races may be missed, none invented). The rules
 * then run on it as on a word of full shadow, and cache_entry_put unlocks it. The
 * lock makes tag and history change together: no thread decides on one word's
 * history while another puts a different word's in its place. */
static __device__ ScDevCacheEntry *cache_entry_take(const Access *a)
{
    const ScDevLaunch *l = a->l;
    ScDevCacheEntry *e = (ScDevCacheEntry *)l->cache + sc_shadow_cache_index(a->base, l->cache_bits);
    if (lock_entry(e) != sc_shadow_cache_tag(a->base, l->cache_epoch)) {
        e->shadow = 0;
        e->site = 0;
    }
    return e;
}

static __device__ void cache_entry_put(const Access *a, ScDevCacheEntry *e)
{
    /* Release: the entry's new history before the lock is free. */
    store_release_gpu64(&e->tag, sc_shadow_cache_tag(a->base, a->l->cache_epoch));
}

/* Lanes of one weak store instruction that write one address: a race when they store
 * different values, benign when the same; either way the lowest lane alone goes on to
 * the shadow. Strong stores are morally strong with each other within a warp, so they
 * go to the rules one by one. `lanes` are the lanes that entered the runtime together,
 * all at one site (every one of them runs this before any of them can branch away), so
 * each match below is made by exactly the lanes it names. */
typedef struct StorePeers {
    uint32_t group;  /* lanes of this instruction on this address, this lane included */
    uint32_t differ; /* those of them that store another value than the lowest lane */
} StorePeers;

static __device__ __forceinline__ StorePeers store_peers(uint32_t same_addr, uint64_t value)
{
    StorePeers p;
    p.group = same_addr;
    p.differ = same_addr & ~__match_any_sync(same_addr, value);
    return p;
}

/* The lowest lane of a store group records the group's same_store_lanes finding. */
static __device__ void record_store_lanes(const Access *a, uint64_t addr, StorePeers p)
{
    uint32_t lane = a->cur.thread % WARP_SIZE;
    uint32_t other = lowest_lane(p.differ ? p.differ : p.group & ~(1u << lane));
    RecSide prev = a->cur;
    prev.thread = a->cur.thread - lane + other;
    uint64_t at = a->shared ? a->base | (addr & 3u) : addr;
    record_race(a->l, p.differ ? DEV_CAUSE_SAME_STORE_LANES : DEV_CAUSE_SAME_STORE_LANES_BENIGN, at,
                &a->cur, &prev);
}

/* The shadow word (its site word after it) of the shared-memory bytes at window offset
 * off .. off + size - 1 of block slot `slot`, 0 beyond the window the launch shadows. */
static __device__ __forceinline__ uint64_t *shared_words_at(const ScDevLaunch *l, uint32_t slot, uint32_t off,
                                                           uint32_t size)
{
    if ((uint64_t)off + size > (uint64_t)l->shared_words * 4)
        return 0;
    return (uint64_t *)l->shared_shadow + 2 * ((size_t)slot * l->shared_words + off / 4);
}

/* This warp's clock word (now | floor << 16) in *nf, and whether the warp's lanes all
 * know one another (its last __syncwarp was warp-wide) and its block took no release:
 * then its lanes' checks relate to other threads alike (group_ends), and its weak
 * accesses may take the quick path. */
static __device__ __forceinline__ bool warp_in_step(const ScDevLaunch *l, uint32_t slot, uint32_t *nf)
{
    *nf = load_cta32(warp_now_floor(warp_clock(l, slot, thread_linear() / WARP_SIZE)));
    return (uint16_t)*nf == (uint16_t)(*nf >> 16) && !load_cta32(&block_state(l, slot)->acq_next);
}

/* The thread's clocks as the rules read them; false when the block's clock was lost.
 * A barrier's clock update is done before the barrier completes and a __syncwarp's
 * lanes write their own rows, so what this thread reads is what it synchronized with. */
static __device__ bool read_clocks(ScRulesAccess *r, const ScDevLaunch *l, uint32_t slot)
{
    ScDevBlock *b = block_state(l, slot);
    uint32_t w = r->tid / WARP_SIZE, lane = r->tid % WARP_SIZE;
    uint32_t bs = load_cta32(&b->bar_state);
    if (bs & BAR_LOST)
        return false;
    r->bar_now = (uint16_t)bs;
    r->bar_own = (uint16_t)bs;
    r->bar_seen = 0;
    if (!(bs & BAR_UNIFORM)) {
        __threadfence_block(); /* acquire: rows are written before the flag clears */
        r->bar_own = b->clk.own[w];
        r->bar_seen = b->clk.seen[w];
    }
    ScRulesWarpClk *c = warp_clock(l, slot, w);
    uint32_t nf = load_cta32(warp_now_floor(c));
    r->sync_now = (uint16_t)nf;
    r->sync_floor = (uint16_t)(nf >> 16);
    r->sync_seen = 0;
    if (r->sync_now != r->sync_floor) {
        materialize_row(c, thread_state(l, slot), lane, nf >> 16);
        r->sync_seen = c->seen[lane];
    }
    return true;
}

/* A spin polls one word from one instruction again and again, each time at the same
 * clocks: a strong read (a flag, a grid barrier's generation) or a lock's cas/exch. The
 * key of such an access: its word, instruction, kind and block, and the thread's clocks
 * and acquisitions; never 0. */
static __device__ __forceinline__ uint64_t spin_key(const Access *a, uint64_t addr, uint32_t last_acq)
{
    const ScRulesAccess *r = &a->rules;
    uint64_t clocks = (uint64_t)r->bar_now | (uint64_t)r->bar_own << 16 | (uint64_t)r->sync_now << 32 |
                      (uint64_t)r->sync_floor << 48;
    uint64_t what = (uint64_t)a->cur.site | (uint64_t)a->spin << 32;
    uint64_t acquired = (uint64_t)a->acq_next << 32 | last_acq;
    return mix64(addr ^ mix64(what ^ mix64(a->cur.block ^ mix64(clocks ^ mix64(acquired))))) | 1u;
}

/* Has this thread decided this spin access already: the same key, and for a read the
 * same shadow pairs of its n words (consecutive in one chunk)? */
static __device__ __forceinline__ bool spin_decided(const Access *a, uint64_t addr, const uint64_t *words,
                                                    uint32_t n)
{
    const ScDevThread *th = thread_state(a->l, a->slot);
    if (th->spin_key != spin_key(a, addr, th->last_acq))
        return false;
    if (a->spin == SPIN_ATTEMPT)
        return true;
    uint64_t h = 1;
    for (uint32_t k = 0; k < n; k++)
        h = mix64(h ^ pair_hash(load_shadow(a, words + 2 * k), load_shadow(a, words + 2 * k + 1)));
    return th->spin_shadow == h;
}

static __device__ __forceinline__ void keep_spin(const Access *a, uint64_t addr, uint64_t kept)
{
    ScDevThread *th = thread_state(a->l, a->slot);
    th->spin_key = spin_key(a, addr, th->last_acq);
    th->spin_shadow = kept;
}

static __device__ __forceinline__ void check_access(ScDevLaunch *l, uint32_t slot, uint64_t addr,
                                                    uint32_t info, uint32_t site, int cls,
                                                    StorePeers peers, bool weak_flag)
{
    PROF_START(t0);
    uint32_t size = SC_ABI_INFO_SIZE(info);
    uint32_t space = SC_ABI_INFO_SPACE(info);
    uint32_t rank, owner, off = 0, shadow_slot = slot;
    bool remote = false;
    if (space == SC_ABI_SPACE_GENERIC || space == SC_ABI_SPACE_SHARED_CLUSTER) {
        if (__isShared((const void *)addr)) {
            space = SC_ABI_SPACE_SHARED;
        } else if (__isGlobal((const void *)addr)) {
            space = SC_ABI_SPACE_GLOBAL;
        } else if ((remote = remote_shared(addr, &rank, &owner, &off))) {
            /* Another block's shared memory (distributed shared memory): its shadow. */
            space = SC_ABI_SPACE_SHARED_CLUSTER;
            shadow_slot = remote_slot(l, rank);
        } else {
            return; /* local, const and param: thread-private or read-only */
        }
    }
    Access a;
    a.l = l;
    a.slot = slot;
    a.shadow_slot = shadow_slot;
    a.shared = space != SC_ABI_SPACE_GLOBAL;
    a.gpu = !a.shared || cluster_blocks() > 1;
    a.weak_flag = weak_flag;
    uint64_t *words; /* the shadow word, its site word right after it */
    uint64_t chunk = 0; /* global: the chunk-table entry of the word being checked */
    if (cls < 0 || size == 0 || shadow_slot == SC_DEV_NO_SLOT) {
        count_unchecked(l);
        return;
    }
    if (a.shared) {
        if (!remote)
            off = own_shared_offset(addr);
        if (!(words = shared_words_at(l, shadow_slot, off, size))) {
            count_unchecked(l);
            return;
        }
        a.base = off & ~3u;
    } else {
        chunk = global_chunk(l, addr);
        if (!chunk_checked(l, chunk)) {
            count_unchecked(l);
            return;
        }
        words = chunk_word(chunk, addr);
        a.base = addr & ~(uint64_t)3;
    }
    a.cur.site = site;
    a.cur.info = (info & ~(7u << 18 | SC_ABI_INFO_ASYNC)) | space << 18;
    a.cur.block = block_linear();
    a.cur.thread = thread_linear();
    if (peers.group & (peers.group - 1))
        record_store_lanes(&a, addr, peers);
    a.rules.cls = (uint8_t)cls;
    a.rules.scope = access_scope(cls, SC_ABI_INFO_SCOPE(info));
    a.rules.blk = a.cur.block;
    a.rules.tid = a.cur.thread;
    a.rules.hint = 0;
    if (!read_clocks(&a.rules, l, slot)) {
        count_unchecked(l);
        return;
    }
    if (info & SC_ABI_INFO_ASYNC) /* a copy's completion, checked as of its issue */
        sc_dev_issue_clocks(&a.rules, (const uint16_t *)l->const_rows, async_state(l, slot)->issued);
    a.rules.acq = 0;
    a.rules.n_acq = 0;
    a.rules.moved = 0;
    const ScDevBlock *b = block_state(l, slot);
    a.rules.cluster = launch_clusters(b);
    a.rules.shared = a.shared;
    a.acq_next = load_cta32(&b->acq_next);
    PROF_ADD(l, CHECKS, 1);
    PROF_SINCE(l, LOOKUP_CYCLES, t0);
    if (l->cut == SC_DEV_CUT_SHADOW)
        return;
    /* A dependent launch's thread before griddepcontrol.wait also meets the
     * prerequisite grid's accesses; every thread of a launch unordered with the one
     * before meets that one's. */
    const uint64_t *prior = 0;
    if (!a.shared && l->prior_dir && (l->prior_unordered || !thread_state(l, slot)->grid_waited))
        prior = (const uint64_t *)l->prior_dir;
    /* Byte k of the access lies in word (addr % 4 + k) / 4 of it. */
    uint32_t first = (uint32_t)(addr & 3), end = first + size;
    uint64_t kept = 0;
    bool one_chunk = a.shared || ((a.base + end - 1) & ~(uint64_t)(SC_SHADOW_CHUNK_BYTES - 1)) ==
                                     (a.base & ~(uint64_t)(SC_SHADOW_CHUNK_BYTES - 1));
    a.spin = prior || (chunk & SC_SHADOW_CACHED) || !one_chunk    ? SPIN_NONE
             : cls == SC_RULES_CLS_SREAD                           ? SPIN_READ
             : cls == SC_RULES_CLS_ATOMIC && (info & SC_ABI_INFO_LOCK) ? SPIN_ATTEMPT
                                                                   : SPIN_NONE;
    if (a.spin != SPIN_NONE) {
        if (spin_decided(&a, addr, words, (end + 3) / 4))
            return;
        kept = 1;
    }
    for (uint32_t lo = first; lo < end; lo = (lo | 3u) + 1) {
        uint32_t k = lo / 4, hi = end - 4 * k < 4 ? end - 4 * k : 4;
        a.rules.mask = (uint8_t)((1u << hi) - (1u << (lo % 4)));
        if (k > 0) {
            a.base += 4;
            /* A chunk has shadow of its own: look the next one up at its boundary. */
            if (!a.shared && !(a.base & (SC_SHADOW_CHUNK_BYTES - 1))) {
                chunk = global_chunk(l, a.base);
                if (!chunk_checked(l, chunk)) {
                    count_unchecked(l);
                    return;
                }
                words = chunk_word(chunk, a.base);
            } else {
                words += 2;
            }
        }
        /* One call of the rules' loop for both kinds of chunk: it is long, and every
         * inlined copy adds to the JIT time of each instrumented module. */
        uint64_t *word = words, *site_word = words + 1;
        ScDevCacheEntry *entry = 0;
        if (chunk & SC_SHADOW_CACHED) {
            entry = cache_entry_take(&a);
            word = &entry->shadow;
            site_word = &entry->site;
        }
        if (prior && !entry)
            check_prior(&a, prior);
        uint64_t pair = check_word(&a, word, site_word, entry != 0);
        kept = kept && pair ? mix64(kept ^ pair) : 0;
        if (entry)
            cache_entry_put(&a, entry);
    }
    if (a.spin == SPIN_ATTEMPT || kept)
        keep_spin(&a, addr, kept);
}

/* Lanes of one weak load instruction on one address, or of one atomic that is no lock
 * operation, in a warp whose lanes all know one another (its last __syncwarp was
 * warp-wide) and whose block took no release: checked one after another, each relates
 * to every other thread as the one before it did (the clocks are the warp's, and no
 * lane holds a record of its own), so the first and the last lane leave the word as
 * all of them would (the recorder the last, their accesses at WARP in the tile that
 * holds both), and meet every race one of them would (an access of a lane in between
 * races with the first or the last too, unless it is that lane's own; the lanes'
 * atomics, of one instruction, are morally strong with one another). A broadcast load,
 * every lane of a warp reading one element of a tile, or a warp's increments of one
 * counter, cost two checks instead of 32. */
static __device__ __forceinline__ uint32_t group_ends(const ScDevLaunch *l, uint32_t slot, uint32_t group)
{
    if (__popc(group) <= 2)
        return group;
    uint32_t nf;
    if (!warp_in_step(l, slot, &nf))
        return group;
    return 1u << lowest_lane(group) | 1u << (31 - __clz(group));
}

/* The access hook, with all the rules (the quick hook's slow path).
 * The lanes that enter together leave together: the checks branch on data (CAS
 * retries, address spaces), and without this the warp could reach the program's next
 * instruction split, which the next call's lane matching would see as lanes of
 * different instructions. The barrier waits only for lanes that are in this call.
 * Lanes of two divergent paths may run this function together (independent thread
 * scheduling converges them at the same PC), so the group is narrowed to the lanes of
 * this call's site before anything branches on what the site is: every lane of a group
 * then takes the same path through the warp-synchronous steps below. */
extern "C" __device__ __noinline__ void __scord_access(uint64_t addr, uint32_t info, uint32_t site,
                                          uint64_t value)
{
    PROF_START(t0);
    uint32_t active = __activemask();
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot); /* the same for every lane: no divergence */
    if (!l || l->cut == SC_DEV_CUT_ACCESS)
        return;
    PROF_ADD(l, CALLS, 1);
    uint32_t lanes = __match_any_sync(active, site);
    /* A lane at the join of an if whose body it skipped (SC_ABI_INFO_NOT_TAKEN) takes
     * the warp-wide steps in a group of its own and leaves with the others. */
    bool taken = !(info & SC_ABI_INFO_NOT_TAKEN);
    int cls = access_class(SC_ABI_INFO_KIND(info), SC_ABI_INFO_SEM(info));
    uint32_t lane = thread_linear() % WARP_SIZE;
    /* A weak store matters to synchronization only after a release of its thread
     * (__scord_sync_access): the common store pays a load, not a call. */
    bool weak_flag = taken && cls > SC_RULES_CLS_READ &&
                     (cls != SC_RULES_CLS_WRITE || (thread_state(l, slot)->release_fresh & FRESH_ANY)) &&
                     __scord_sync_access(l, slot, addr, info, cls);
    StorePeers peers = {1u << lane, 0};
    uint32_t same = __match_any_sync(lanes, taken ? addr : ~0ull);
    bool checks = true;
    if (!taken) {
        checks = false;
    } else if (cls == SC_RULES_CLS_WRITE) {
        peers = store_peers(same, value);
        checks = lane == lowest_lane(peers.group);
    } else if (cls == SC_RULES_CLS_ATOMIC && (info & SC_ABI_INFO_LOCK)) {
        checks = true; /* each lane's attempt, a repeat kept (check_access) */
    } else if ((cls == SC_RULES_CLS_READ || cls == SC_RULES_CLS_ATOMIC) && !(info & SC_ABI_INFO_ASYNC)) {
        checks = (group_ends(l, slot, same) >> lane) & 1u;
    }
    /* The lanes on one address that check it take turns (a weak store's group sends
     * its lowest lane only): checked together, a warp's atomicAdd to a counter or a
     * broadcast load would retry the compare-and-swap of one shadow word lane against
     * lane. Any order is one the hardware could take. One call site: check_access is
     * inlined, and each copy adds to the JIT time of every instrumented module. */
    if (l->cut == SC_DEV_CUT_GROUPING)
        checks = false;
    PROF_SINCE(l, GROUP_CYCLES, t0);
    for (uint32_t turn = __ballot_sync(same, checks); turn; turn &= turn - 1) {
        if (lane == lowest_lane(turn)) {
            PROF_START(t1);
            check_access(l, slot, addr, info, site, cls, peers, weak_flag);
            PROF_SINCE(l, CHECK_CYCLES, t1);
        }
        PROF_START(t2);
        __syncwarp(same);
        PROF_SINCE(l, WAIT_CYCLES, t2);
    }
    PROF_START(t3);
    __syncwarp(lanes);
    PROF_SINCE(l, WAIT_CYCLES, t3);
    PROF_SINCE(l, CALL_CYCLES, t0);
}

/* The quick path (docs/devrt.md, "The quick path"): one lane's weak read or write of
 * one whole word that it checks by itself (`own`: no other active lane accesses it, or
 * the lane is an end of a read group, __scord_access_quick), by a thread whose clocks are
 * uniform, in a block that took no release, decided by sc_rules_quick and swapped in
 * with one 128-bit compare-and-swap. True when the access is checked; false leaves
 * everything to the slow path, which checks it from the start. Only what the slow
 * path would also do, and nothing it would do besides: no store peers (a store's address is
 * this lane's alone), no sync bookkeeping (a weak read has none, a weak write none
 * without a fresh release), no read-modify-write follow-up (none pending), no trail,
 * split, metadata cache or prerequisite grid (each sends the access to the slow
 * path). Small, so that the hook's own frame stays small: the slow path's saves and
 * restores of its many registers are paid only by the lanes that take it. */
static __device__ __forceinline__ bool quick_access(ScDevLaunch *l, uint32_t slot, uint64_t addr,
                                                    uint32_t info, uint32_t site, bool own)
{
#if __CUDA_ARCH__ >= 900
    int cls = access_class(SC_ABI_INFO_KIND(info), SC_ABI_INFO_SEM(info));
    if (!own || (cls != SC_RULES_CLS_READ && cls != SC_RULES_CLS_WRITE) || SC_ABI_INFO_SIZE(info) != 4 ||
        (addr & 3) || (info & (SC_ABI_INFO_NOT_TAKEN | SC_ABI_INFO_ASYNC)) || l->cut != SC_DEV_CUT_NONE) {
        PROF_ADD(l, QUICK_NOT_OWN, 1);
        return false;
    }
    /* What sends an access to the slow path whatever its word holds, first. */
    ScDevBlock *b = block_state(l, slot);
    uint32_t bs = load_cta32(&b->bar_state), nf;
    if ((bs & BAR_LOST) || !(bs & BAR_UNIFORM) || !warp_in_step(l, slot, &nf)) {
        PROF_ADD(l, QUICK_CLOCKS, 1);
        return false;
    }
    const ScDevThread *th = thread_state(l, slot);
    if (cls == SC_RULES_CLS_WRITE && ((th->release_fresh & FRESH_ANY) || th->rmw_word)) {
        PROF_ADD(l, QUICK_THREAD, 1);
        return false;
    }
    uint32_t space = SC_ABI_INFO_SPACE(info);
    if (space == SC_ABI_SPACE_GENERIC)
        space = __isShared((const void *)addr)   ? SC_ABI_SPACE_SHARED
                : __isGlobal((const void *)addr) ? SC_ABI_SPACE_GLOBAL
                                                 : SC_ABI_SPACE_GENERIC;
    bool shared = space == SC_ABI_SPACE_SHARED;
    uint64_t *words;
    if (shared) {
        if (cluster_blocks() > 1 || !(words = shared_words_at(l, slot, own_shared_offset(addr), 4))) {
            PROF_ADD(l, QUICK_SPACE, 1);
            return false;
        }
    } else if (space == SC_ABI_SPACE_GLOBAL && !l->prior_dir) {
        uint64_t chunk = global_chunk(l, addr);
        if (!chunk || (chunk & SC_SHADOW_CACHED)) {
            PROF_ADD(l, QUICK_SPACE, 1);
            return false;
        }
        words = chunk_word(chunk, addr);
    } else {
        PROF_ADD(l, QUICK_SPACE, 1);
        return false;
    }
    bool gpu = !shared;
    uint64_t old = gpu ? load_gpu64(words) : load_cta64(words);
    uint64_t old_site = gpu ? load_gpu64(words + 1) : load_cta64(words + 1);
    if (old == WORD_HELD) {
        PROF_ADD(l, QUICK_HELD, 1);
        return false;
    }
    ScRulesAccess r;
    r.cls = (uint8_t)cls;
    r.scope = SC_SCOPE_NONE;
    r.mask = 0xfu;
    r.blk = block_linear();
    r.tid = thread_linear();
    r.bar_now = r.bar_own = (uint16_t)bs;
    r.bar_seen = 0;
    r.sync_now = r.sync_floor = (uint16_t)nf;
    r.sync_seen = 0;
    r.hint = old_site;
    r.acq = 0;
    r.n_acq = 0;
    r.moved = 0;
    r.cluster = launch_clusters(b);
    r.shared = shared;
    uint64_t next;
    if (!sc_rules_quick(old, &r, &next)) {
        PROF_ADD(l, QUICK_RULES, 1);
        return false;
    }
    uint64_t next_site = sc_rules_site_next(old_site, old, next, &r, site, 0);
    if (next == old && next_site == old_site)
        return true;
    /* A read of global memory that changes a word, in a launch where some thread has
     * released, begins a trail (may_trail): the slow path's. */
    if (gpu && cls == SC_RULES_CLS_READ && (old & ~SC_RULES_MASK_FIELD) && load_gpu32(&l->released)) {
        PROF_ADD(l, QUICK_TRAIL, 1);
        return false;
    }
    if (swap_pair(gpu, words, &old, &old_site, next, next_site))
        return true;
    PROF_ADD(l, QUICK_SWAP, 1);
    return false;
#else
    (void)l, (void)slot, (void)addr, (void)info, (void)site, (void)own;
    return false;
#endif
}

/* The hook of a weak access of four bytes (SC_ABI_INFO_QUICK, with --quick): the quick
 * path for the lanes it decides, __scord_access for the others. A hook of its own, so
 * that the accesses it never decides pay nothing for it. The lanes call __scord_access
 * all or none (the lanes the quick path checked as SC_ABI_INFO_NOT_TAKEN, which checks
 * nothing): called from the lanes it did not decide only, the call sat in a divergent
 * branch whose convergence barrier (B6) __scord_access saves and clears at entry, so
 * the lanes waiting at the branch's join went on while the others were still inside,
 * and real programs (a Thrust reduce_by_key, a grid.sync() reduction, cuda::barrier
 * and cuda::pipeline loops) computed wrong results or hung on the H200 (DESIGN.md,
 * "Calls in divergent code"). */
extern "C" __device__ __noinline__ void __scord_access_quick(uint64_t addr, uint32_t info, uint32_t site,
                                                             uint64_t value)
{
    uint32_t active = __activemask();
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot); /* the same for every lane: no divergence */
    if (!l || l->cut == SC_DEV_CUT_ACCESS)
        return;
    /* The lanes on one address, as the slow path groups them (group_ends): a lane
     * alone on its address checks its access by itself; so do the two ends of a read
     * of one site by several lanes (a broadcast read), each its own, while the lanes
     * between them are done exactly where group_ends would leave them to the ends
     * (more than two lanes, the warp in step); a store of several lanes goes to the
     * slow path (store peers). An end not decided here goes to the slow path with the
     * lanes between it marked done, where it is checked by itself: the same checks.
     * A lane that skipped the access (SC_ABI_INFO_NOT_TAKEN) checks nothing: done.
     * Matched here, where the lanes are still together. The hook's only warp-wide
     * steps are these matches and the __all_sync below, taken by every lane with the
     * mask `active`: a form where each read group shuffled its lowest lane's decision
     * to the group hung CUB's segmented sort on the H200, in that shuffle
     * (docs/devrt.md, "The quick path"). */
    uint32_t lane = thread_linear() % WARP_SIZE;
    bool taken = !(info & SC_ABI_INFO_NOT_TAKEN);
    uint32_t same = __match_any_sync(active, taken ? addr : ~0ull);
    uint32_t of_site = __match_any_sync(active, site);
    bool read_group = same != 1u << lane && !(same & ~of_site) && !(info & SC_ABI_INFO_ASYNC) &&
                      access_class(SC_ABI_INFO_KIND(info), SC_ABI_INFO_SEM(info)) == SC_RULES_CLS_READ;
    bool end = lane == lowest_lane(same) || lane == 31 - __clz(same);
    uint32_t nf;
    bool done = !taken ? true
                : read_group && !end ? warp_in_step(l, slot, &nf)
                                     : quick_access(l, slot, addr, info, site, same == 1u << lane || read_group);
    if (__all_sync(active, done)) {
        PROF_ADD(l, QUICK, 1);
        return;
    }
    __scord_access(addr, done ? info | SC_ABI_INFO_NOT_TAKEN : info, site, value);
}

/* An mbarrier arrive or wait (instr_plan.c, plan_mbarrier): what the access `info`
 * describes does to synchronization through the object at addr, with no check of the
 * object, whose accesses the program does not see. */
extern "C" __device__ void __scord_sync(uint64_t addr, uint32_t info, uint32_t site)
{
    (void)site;
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (l)
        __scord_sync_access(l, slot, addr, info, access_class(SC_ABI_INFO_KIND(info), SC_ABI_INFO_SEM(info)));
}
