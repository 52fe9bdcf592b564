/* devrt_access.cuh: accesses: classes and scopes, the shadow of a global or shared
 * word, and race reports. Part of the device runtime: devrt.cu includes the parts in
 * order, as one unit. */

/* ---- accesses ---------------------------------------------------------------- */

/* The rules' class of an access, -1 for an info the ABI does not define. */
static __device__ __forceinline__ int access_class(uint32_t kind, uint32_t sem)
{
    bool strong = sem != SC_SEM_WEAK && sem != 0;
    if (kind == SC_ABI_KIND_READ)
        return strong ? SC_RULES_CLS_SREAD : SC_RULES_CLS_READ;
    if (kind == SC_ABI_KIND_WRITE)
        return strong ? SC_RULES_CLS_SWRITE : SC_RULES_CLS_WRITE;
    if (kind == SC_ABI_KIND_RMW || kind == SC_ABI_KIND_RED)
        return SC_RULES_CLS_ATOMIC;
    return -1;
}

static __device__ __forceinline__ uint8_t access_scope(int cls, uint32_t scope)
{
    if (cls == SC_RULES_CLS_READ || cls == SC_RULES_CLS_WRITE)
        return SC_SCOPE_NONE;
    if (scope == SC_SCOPE_CTA)
        return SC_SCOPE_CTA;
    if (scope == SC_SCOPE_CLUSTER)
        return SC_SCOPE_CLUSTER;
    if (scope == SC_SCOPE_SYS)
        return SC_SCOPE_SYS;
    return SC_SCOPE_GPU; /* gpu, and the ISA's default for atomics */
}

/* The report's cause for a rules cause, -1 for none. */
static __device__ __forceinline__ int report_cause(ScRulesCause cause)
{
    switch (cause) {
    case SC_RULES_CAUSE_NONE:
        return -1;
    case SC_RULES_CAUSE_MISSING_BARRIER:
        return DEV_CAUSE_MISSING_BARRIER;
    case SC_RULES_CAUSE_MISSING_SYNCWARP:
        return DEV_CAUSE_MISSING_SYNCWARP;
    case SC_RULES_CAUSE_UNSYNCHRONIZED_BLOCKS:
        return DEV_CAUSE_UNSYNCHRONIZED_BLOCKS;
    case SC_RULES_CAUSE_ATOMIC_VS_PLAIN:
        return DEV_CAUSE_ATOMIC_VS_PLAIN;
    case SC_RULES_CAUSE_ATOMIC_SCOPE:
        return DEV_CAUSE_ATOMIC_SCOPE;
    case SC_RULES_CAUSE_STRONG_VS_RMW:
        return DEV_CAUSE_STRONG_VS_RMW;
    }
    return -1;
}

/* The chunk-table entry of a global address: 0 when no tracked allocation covers it,
 * flagged SC_SHADOW_CACHED when the chunk's words go through the metadata cache, else
 * the address of the chunk's shadow. The directory and the chunk tables are the
 * host's, fixed during a launch; the launch marks each chunk it uses so that the host
 * clears that shadow afterwards (cached chunks come marked). */
static __device__ __forceinline__ uint64_t global_chunk(const ScDevLaunch *l, uint64_t addr)
{
    if (addr >> (SC_SHADOW_DIR_SHIFT + SC_SHADOW_DIR_BITS))
        return 0;
    uint64_t table = __ldg((const unsigned long long *)l->shadow_dir + (addr >> SC_SHADOW_DIR_SHIFT));
    if (!table)
        return 0;
    uint64_t *entry = (uint64_t *)table +
                      ((addr >> SC_SHADOW_CHUNK_SHIFT) & ((1u << SC_SHADOW_CHUNK_BITS) - 1));
    /* Coherent: a plain load may be served from the SM's L1 copy, which never sees
     * the dirty bit, and then every access of the launch would do the atomicOr, all
     * of them on the few entries of the chunks a kernel uses. */
    uint64_t chunk = load_gpu64(entry);
    if (chunk && !(chunk & SC_SHADOW_DIRTY))
        atomicOr((unsigned long long *)entry, (unsigned long long)SC_SHADOW_DIRTY);
    return chunk;
}

/* Whether the words of a chunk can be checked: it is tracked, and when it is cached,
 * the host could allocate the cache. */
static __device__ __forceinline__ bool chunk_checked(const ScDevLaunch *l, uint64_t chunk)
{
    return chunk && (!(chunk & SC_SHADOW_CACHED) || l->cache);
}

/* The shadow word of a global address in the shadow of its (uncached) chunk; its site
 * word follows it. */
static __device__ __forceinline__ uint64_t *chunk_word(uint64_t chunk, uint64_t addr)
{
    return (uint64_t *)(chunk & ~SC_SHADOW_FLAGS) + 2 * ((addr & (SC_SHADOW_CHUNK_BYTES - 1)) >> 2);
}

/* What every check of one access shares. */
typedef struct Access {
    ScDevLaunch *l;
    uint32_t slot;
    ScRulesAccess rules;
    RecSide cur;       /* site, info with the space resolved, block, thread */
    bool shared;
    uint32_t shadow_slot; /* shared memory: the slot of the block whose memory it is */
    bool gpu;          /* the shadow is read and swapped at gpu scope: global memory, and
                          shared memory where other blocks of a cluster reach it */
    bool weak_flag;    /* a weak write that took a release as a flag would (sync_access) */
    uint8_t spin;      /* SPIN_*: a repeat of this access may keep its decision */
    uint32_t acq_next; /* the block's ScDevBlock.acq_next as the check began; not 0: the
                          block has taken releases, and a check looks for one that orders
                          the word's recorder (__scord_acquired_cover) */
    uint64_t base;     /* shared window offset or global address of the word's byte 0 */
} Access;

/* The word of an access as the read-modify-write follow-up names it: by address (and
 * space), not by its shadow word, which a metadata cache entry shares among many
 * words. Never 0. */
static __device__ __forceinline__ uint64_t rmw_key(const Access *a)
{
    return a->base << 1 | (a->shared ? 1u : 0u);
}

static __device__ __forceinline__ uint64_t load_shadow(const Access *a, const uint64_t *p)
{
    return a->gpu ? load_gpu64(p) : load_cta64(p);
}

/* Reports a race or warning the rules found against the history `old` of a word or
 * cell whose site word was `site` (read while holding the word, so it describes `old`).
 * The previous side names an instruction only when the rules say their partner is the
 * recorded accessor's own access and the site word keeps it; otherwise its site is
 * SC_DEV_SITE_NONE (a summarized access of a thread the word does not name). */
static __device__ void report(const Access *a, const ScRulesAccess *r, const ScRulesVerdict *v,
                              uint64_t old, uint64_t site, uint32_t byte, bool word, uint32_t acq_flags,
                              uint64_t trail_named)
{
    int cause = report_cause((ScRulesCause)v->cause);
    if (cause < 0)
        return;
    cause = scoped_cause(a->l, a->slot, v, a->weak_flag, acq_flags, cause);
    uint32_t space = SC_ABI_INFO_SPACE(a->cur.info);
    /* The host completes a named side's size and semantics from its site. */
    /* A summarized partner lies where its class's position says, not at the
     * recorder (which may be this very thread). */
    uint32_t who = 0;
    if (!v->prev_exact && v->prev_pos != SC_RULES_POS_SELF && v->prev_pos != SC_RULES_POS_NONE)
        who = v->prev_pos == SC_RULES_POS_GRID                                        ? SC_DEV_WHO_ANY
              : v->prev_pos == SC_RULES_POS_BSYNC || v->prev_pos == SC_RULES_POS_BLOCK ? SC_DEV_WHO_BLOCK
                                                                                     : SC_DEV_WHO_WARP;
    RecSide prev = {SC_DEV_SITE_NONE, SC_ABI_INFO(0, sc_dev_cls_kind(v->prev_cls), 0, 0, space),
                    v->prev_blk, v->prev_tid | who << SC_DEV_WHO_SHIFT};
    uint32_t named = v->prev_exact ? sc_rules_site_of(site, v->prev_cls) : SC_RULES_SITE_NONE;
    if (named != SC_RULES_SITE_NONE) {
        prev.site = named;
        prev.block = sc_rules_site_blk(site, old);
    } else if (trail_named && sc_rules_stamp_site(trail_named) != SC_RULES_SITE_NONE) {
        /* The word summarizes the partner; its trail names it (the high bits of its
         * block, which a stamp does not keep, taken to be this block's). */
        ScRulesState st = sc_rules_decode(sc_rules_stamp_word(trail_named));
        prev.site = sc_rules_stamp_site(trail_named);
        prev.block = (a->cur.block & ~((1u << SC_RULES_BLK_BITS) - 1u)) | st.blk;
        prev.thread = st.warp * WARP_SIZE + st.lane;
    }
    record_race(a->l, (uint32_t)cause, a->base + byte, &a->cur, &prev);
    if (word && r->cls == SC_RULES_CLS_READ && v->result == SC_RULES_RACE &&
        v->prev_cls != SC_RULES_CLS_READ && v->prev_cls != SC_RULES_CLS_SREAD) {
        ScDevThread *th = thread_state(a->l, a->slot);
        th->rmw_word = rmw_key(a);
        th->rmw_clock = (uint32_t)r->bar_own << 16 | r->sync_now;
        th->rmw_cause = (uint32_t)cause;
        th->rmw_prev[0] = prev.site;
        th->rmw_prev[1] = prev.info;
        th->rmw_prev[2] = prev.block;
        th->rmw_prev[3] = prev.thread;
    }
}

/* A weak write to the word whose read by this thread raced with a write, at the same
 * clocks: nothing ordered the other write before this one either, but the word's
 * history restarted at the read and no longer holds it. Reported as its own pair
 * (the write/write half of a racing read-modify-write). */
static __device__ void rmw_follow_up(const Access *a, const ScRulesAccess *r)
{
    ScDevThread *th = thread_state(a->l, a->slot);
    if (th->rmw_word != rmw_key(a))
        return;
    th->rmw_word = 0;
    if (th->rmw_clock != ((uint32_t)r->bar_own << 16 | r->sync_now))
        return;
    RecSide prev = {th->rmw_prev[0], th->rmw_prev[1], th->rmw_prev[2], th->rmw_prev[3]};
    record_race(a->l, th->rmw_cause, a->base + lowest_lane(r->mask), &a->cur, &prev);
}
