/* devrt_sync.cuh: release and acquire: release records and the sync table's chains,
 * acquires, fences, and what a strong access does to synchronization. Part of the
 * device runtime: devrt.cu includes the parts in order, as one unit. */

/* ---- release and acquire ------------------------------------------------------- */

/* Nodes of each taken chain a check reads from the newest back (a block's own lock
 * chains, which pass on one another, must not use up the reading of the others), and
 * of all of them: a release sequence as long as the grid is (1024 blocks that each
 * counted a ticket) is read whole. An mbarrier's phase in a block of 1024 threads,
 * with the arrivals of the phases around it, is longer: a cuda::barrier stencil of
 * 1024-thread blocks raised two false alarms on an H100 at 1024, one at 2048, none at
 * 4096, but at 4096 a cooperative-groups grid.sync() reduction (116 s under scord at
 * 1024) did not end within 300 s: the walk is paid by every check of its spin. */
#define ACQ_WALK 1024u
#define ACQ_WALK_TOTAL 2048u
#define ACQ_WALK_QUIET 32u

/* release_fresh: no strong write has carried the release yet (a read-modify-write
 * carries it only then); no write at all has followed it (a weak one would be a weak
 * flag). */
#define FRESH_STRONG 1u
#define FRESH_ANY 2u

/* What a strong write that carries no release stores in its flag's chain: its writer,
 * without SC_RULES_REC_SET (an acquire through it takes nothing, unless it is the
 * writer's own). */
static __device__ __forceinline__ uint64_t no_release(void)
{
    return (uint64_t)block_linear() | (uint64_t)thread_linear() << 23;
}

/* The sync key of a flag: its generic address, or for shared memory its block and offset. */
static __device__ __forceinline__ uint64_t sync_key(uint64_t addr)
{
    uint32_t rank, owner, off;
    if (!remote_shared(addr, &rank, &owner, &off)) {
        if (!__isShared((const void *)addr))
            return addr;
        owner = block_linear();
        off = own_shared_offset(addr);
    }
    /* Shared memory by its block and offset (no generic address has bit 63 set), so
     * that its owner and another block of its cluster name a flag alike. */
    return (uint64_t)1 << 63 | (uint64_t)owner << 32 | off;
}

/* The flag's set of SC_DEV_SYNC_WAYS entries (one 32-byte sector). */
static __device__ __forceinline__ uint64_t *sync_set(const ScDevLaunch *l, uint64_t key)
{
    return (uint64_t *)l->sync_table +
           (mix64(key) & ((1u << SC_DEV_SYNC_TABLE_BITS) - 1) & ~(uint64_t)(SC_DEV_SYNC_WAYS - 1));
}

static __device__ __forceinline__ ScDevSyncNode *sync_node(const ScDevLaunch *l, uint32_t seq)
{
    return (ScDevSyncNode *)l->sync_nodes + (seq & ((1u << SC_DEV_SYNC_NODES_BITS) - 1));
}

/* The newest node of the flag's chain (its sequence number), 0 when it has none. */
static __device__ __forceinline__ uint32_t sync_head(const ScDevLaunch *l, uint64_t key)
{
    uint64_t *set = sync_set(l, key);
    uint32_t tag = sc_dev_sync_tag(key);
    for (uint32_t w = 0; w < SC_DEV_SYNC_WAYS; w++) {
        uint64_t e = load_gpu64(set + w);
        if ((uint32_t)e == tag)
            return (uint32_t)(e >> 32);
    }
    return 0;
}

/* Node seq's record and predecessor; false when the ring has reused the node. */
static __device__ __forceinline__ bool read_node(const ScDevLaunch *l, uint32_t seq, uint64_t *rec, uint32_t *prev)
{
    ScDevSyncNode *n = sync_node(l, seq);
    *rec = load_gpu64(&n->rec);
    *prev = load_gpu32(&n->prev);
    return load_gpu32(&n->self) == seq;
}

/* What a node passes on besides its record: the chain its writer had taken, and the
 * link of it that failed (0: none). */
static __device__ __forceinline__ void read_node_links(const ScDevLaunch *l, uint32_t seq, uint32_t *also,
                                                       uint32_t *broken)
{
    ScDevSyncNode *n = sync_node(l, seq);
    *also = load_gpu32(&n->also);
    *broken = load_gpu32(&n->broken);
}

/* The entry a write to the flag publishes in (*old: its value): the flag's own, else
 * the first free one of its set (so that two writers of a new flag pick the same),
 * else, for a release (not `yields`), one it takes over from another flag. */
static __device__ uint64_t *sync_claim(const ScDevLaunch *l, uint64_t key, bool yields, uint64_t *old)
{
    uint64_t *set = sync_set(l, key), *free = 0;
    uint32_t tag = sc_dev_sync_tag(key);
    for (uint32_t w = 0; w < SC_DEV_SYNC_WAYS; w++) {
        uint64_t v = load_gpu64(set + w);
        if ((uint32_t)v == tag) {
            *old = v;
            return set + w;
        }
        if (!v && !free)
            free = set + w;
    }
    if (free || yields) {
        *old = 0;
        return free;
    }
    uint64_t *e = set + (mix64(key) >> 40) % SC_DEV_SYNC_WAYS;
    *old = load_gpu64(e);
    return e;
}

/* A write carries rec through the flag: the chain's new head. A read-modify-write
 * continues the chain it read; any other write starts one. A write that carries no
 * release, or a weak one, never takes over another flag's entry: it only names causes
 * (a flag without an entry acquires nothing either), and every bin of a histogram
 * counted with atomics would otherwise evict the lock's chain its blocks took. */
extern "C" __device__ __noinline__ uint32_t __scord_sync_publish(ScDevLaunch *l, uint64_t key, uint64_t rec,
                                                                 bool rmw, uint32_t also, uint32_t broken)
{
    uint32_t tag = sc_dev_sync_tag(key);
    bool yields = !(rec & SC_RULES_REC_SET) || (rec & SC_DEV_REC_WEAK);
    uint64_t old;
    uint64_t *e = sync_claim(l, key, yields, &old);
    if (!e)
        return 0;
    uint32_t head = (uint32_t)old == tag ? (uint32_t)(old >> 32) : 0;
    uint64_t head_rec;
    uint32_t head_prev;
    if (head && read_node(l, head, &head_rec, &head_prev) && head_rec == rec && (rmw || !head_prev))
        return head; /* the chain says so already */
    uint32_t seq = atomicAdd(&l->sync_used, 1u) + 1u;
    ScDevSyncNode *n = sync_node(l, seq);
    for (;;) {
        uint32_t start = seq, depth = 1;
        if (rmw && head) {
            const ScDevSyncNode *h = sync_node(l, head);
            start = load_gpu32(&h->start);
            depth = load_gpu32(&h->depth) + 1u;
            __threadfence();
            if (load_gpu32(&h->self) != head)
                start = 0;
        }
        n->rec = rec;
        n->prev = rmw ? head : 0;
        n->also = also;
        n->broken = broken;
        n->start = start;
        n->depth = depth;
        __threadfence();
        n->self = seq;
        /* The node before the entry; the entry before the flag's own write. */
        __threadfence();
        uint64_t seen = atomicCAS((unsigned long long *)e, old, (uint64_t)seq << 32 | tag);
        if (seen == old)
            break;
        old = seen;
        if ((uint32_t)old != tag && !(e = sync_claim(l, key, yields, &old)))
            return 0; /* another flag took the entry meanwhile: look again */
        head = (uint32_t)old == tag ? (uint32_t)(old >> 32) : 0;
    }
    if (old && (uint32_t)old != tag)
        atomicAdd(&l->sync_lost, 1u);
    __threadfence();
    return seq;
}

/* The cause of a failed synchronization through a flag read by an access of `info`. */
static __device__ __forceinline__ uint32_t attempt_cause(uint32_t info, int fence_cause, int lock_cause)
{
    return (uint32_t)((info & SC_ABI_INFO_LOCK) ? lock_cause : fence_cause) + 1u;
}

/* In ScDevThread.pending_info, beside the access's info: the flag was noted by a
 * read-modify-write that gave a release (an unlock), which is no attempt to acquire. */
#define PENDING_GAVE (1u << 31)
/* ... and the flag stays noted after an acquire that failed on its scope alone (its
 * cause is the thread's attempt). */
#define PENDING_KEPT (1u << 30)

/* The cause + 1 of a synchronization that a strong read (or read-modify-write) of
 * `info` on the flag `key` fails while no acquire follows it, when the flag holds a
 * write of another thread: 0 when it holds none. */
static __device__ uint32_t read_attempt(const ScDevLaunch *l, uint64_t key, uint32_t info)
{
    uint32_t head = sync_head(l, key), prev;
    uint64_t rec;
    if (!head || !read_node(l, head, &rec, &prev) || rec == no_release())
        return 0;
    return (rec & SC_RULES_REC_SET) && (rec & SC_DEV_REC_WEAK)
               ? DEV_CAUSE_NON_STRONG_SYNC + 1u
               : attempt_cause(info, DEV_CAUSE_MISSING_FENCE, DEV_CAUSE_LOCK_NO_FENCE);
}

/* The cause + 1 of this thread's latest failed synchronization, 0: none. The flags it
 * read strongly and has not acquired since came after its last acquire; what they hold
 * is read now, not when they were read (the check of every strong read and atomic
 * would otherwise look the flag up in the sync table), and now also sees a lock given
 * back between a compare-and-swap's hook and the instruction (seen:
 * global_lock_acquire_fence_race's second holder named no lock). `with_blocks`: the
 * attempt must be one through which another block could have synchronized with this
 * thread, so a flag in its own block's shared memory is none when the launch has no
 * clusters of several blocks (a block's relaxed atomicAdd into its shared histogram
 * named its later race with another block missing_fence: the bundled example). */
static __device__ uint32_t latest_attempt(const ScDevLaunch *l, uint32_t slot, const ScDevThread *th,
                                          bool with_blocks)
{
    bool own_shared_only = with_blocks && !launch_clusters(block_state(l, slot));
    for (uint32_t i = 0; i < SC_DEV_PENDING; i++) {
        uint32_t info = th->pending_info[i];
        bool shared = th->pending[i] >> 63;
        bool noted = th->pending[i] && !(info & (PENDING_GAVE | PENDING_KEPT)) && !(shared && own_shared_only);
        uint32_t cause = noted ? read_attempt(l, th->pending[i], info) : 0;
        if (cause)
            return cause;
    }
    return th->attempt;
}

/* A release of this thread: a point in its clocks (a __syncwarp of its lane alone),
 * and the record of what it covers, carried by the thread's next writes. */
static __device__ __forceinline__ void release(ScDevLaunch *l, uint32_t slot, uint32_t scope)
{
    uint32_t t = thread_linear(), w = t / WARP_SIZE;
    uint32_t nf = warp_sync(l, slot, 1u << (t % WARP_SIZE), true);
    ScDevBlock *b = block_state(l, slot);
    uint32_t bs = load_cta32(&b->bar_state), now = bs & 0xffffu, known = now;
    if (!(bs & BAR_UNIFORM)) {
        /* The oldest barrier instance through which this warp knows a warp. */
        __threadfence_block();
        for (uint32_t x = 0, n = block_warps(); x < n; x++) {
            uint32_t k = b->clk.seen[w][x];
            if (sc_rules_age(now, k, SC_RULES_BAR_MOD) > sc_rules_age(now, known, SC_RULES_BAR_MOD))
                known = k;
        }
    }
    ScDevThread *th = thread_state(l, slot);
    th->release = sc_rules_release_record(block_linear(), t, nf & 0xffffu, known, nf >> 16, scope_span(scope));
    if (!load_gpu32(&l->released))
        l->released = 1;
    th->release_fresh = FRESH_STRONG | FRESH_ANY;
    th->release_also = th->last_acq;
    th->release_broken = latest_attempt(l, slot, th, false);
}

extern "C" __device__ __noinline__ void __scord_release(ScDevLaunch *l, uint32_t slot, uint32_t scope)
{
    release(l, slot, scope);
}

/* Adds a chain this thread took (head), or the cause of its failed attempt
 * (SC_DEV_ACQ_FAILED | cause + 1), to its block's set, unless the set's newest
 * entries hold it already. */
static __device__ void add_taken(ScDevBlock *b, uint32_t head, uint32_t meta)
{
    uint32_t n = load_cta32(&b->acq_next);
    for (uint32_t k = 0; k < SC_DEV_ACQ_SET && k < n; k++)
        if (load_cta32(&b->acq_meta[k]) == meta && load_cta32(&b->acq_head[k]) == head)
            return;
    uint32_t at = atomicAdd(&b->acq_next, 1u) % SC_DEV_ACQ_SET;
    atomicExch(&b->acq_meta[at], 0u);
    __threadfence_block();
    b->acq_head[at] = head;
    __threadfence_block();
    atomicExch(&b->acq_meta[at], meta);
}

/* An acquire (fence or operation) of this thread at `scope`: it takes the releases of
 * the flags it has read strongly since the last one, where the scopes of both sides
 * and of the flag's accesses let them synchronize; else it keeps why not, in its own
 * state and in its block's set (for the threads a barrier orders after it: the lock
 * one thread takes for its block). */
static __device__ __forceinline__ void acquire(ScDevLaunch *l, uint32_t slot, uint32_t scope)
{
    ScDevThread *th = thread_state(l, slot);
    ScDevBlock *b = block_state(l, slot);
    uint32_t t = thread_linear();
    int span = scope_span(scope);
    bool stepped = false;
    /* Oldest first: the newest flag's outcome is the thread's latest attempt. */
    for (uint32_t i = SC_DEV_PENDING; i-- > 0;) {
        uint64_t key = th->pending[i];
        if (!key)
            continue;
        th->pending[i] = 0;
        uint32_t info = th->pending_info[i];
        uint32_t head = sync_head(l, key), prev;
        uint64_t rec = 0;
        bool lock = (info & SC_ABI_INFO_LOCK) != 0;
        bool read = head && read_node(l, head, &rec, &prev);
        /* A ticket (an atomic that is no lock) counts even this thread's own write
         * that carried nothing: the others' may have followed it unpublished. */
        bool ticket = SC_ABI_INFO_KIND(info) == SC_ABI_KIND_RMW && !lock;
        if (!head || (read && rec == no_release() && !ticket)) {
            /* Nothing written here yet in this launch (the flag's first value, a lock
             * nobody gave back yet), or only by this thread. */
            th->attempt = 0;
            th->lock_user |= lock;
            continue;
        }
        /* The release, the flag's write and read and this acquire must each span
         * both blocks: one block, one cluster, or the grid. */
        int needed = read ? span_needed(b, sc_rules_rec_blk(rec)) : SC_RULES_SPAN_BLOCK;
        int others = min(min(sc_rules_rec_span(rec), flag_span(rec)), scope_span(SC_ABI_INFO_SCOPE(info)));
        if (!read || !(rec & SC_RULES_REC_SET))
            th->attempt = attempt_cause(info, DEV_CAUSE_MISSING_FENCE, DEV_CAUSE_LOCK_NO_FENCE);
        else if (rec & SC_DEV_REC_WEAK)
            th->attempt = DEV_CAUSE_NON_STRONG_SYNC + 1u;
        else if (others < needed || span < needed) {
            th->attempt = attempt_cause(info, DEV_CAUSE_FENCE_SCOPE, DEV_CAUSE_LOCK_SCOPE);
            /* Only this fence's scope fell short: the read still makes an acquire
             * pattern with a later, wider fence. */
            if (others >= needed) {
                th->pending[i] = key;
                th->pending_info[i] = info | PENDING_KEPT;
            }
        } else
            th->attempt = 0;
        if (!th->attempt) {
            /* The chain this thread took last, taken again, orders nothing new: the
             * acquires of a spin (a grid barrier's ld.acquire polls, a lock's failed
             * exch) keep the thread's clocks, and with them its kept spin decision. */
            bool again = head == th->last_acq;
            th->last_acq = head;
            th->lock_user |= lock;
            /* A taken chain steps the warp clock, as a release does: what it orders
             * before this thread's later accesses came after its earlier releases
             * (sc_rules_release_covers, SC_RULES_COVERS_BEFORE). */
            if (!stepped && !again)
                warp_sync(l, slot, 1u << (t % WARP_SIZE), true);
            stepped = stepped || !again;
        }
        if (th->attempt && ticket)
            continue; /* a counter's ticket: the thread's own business */
        uint32_t bs = load_cta32(&b->bar_state);
        uint32_t bar = (bs & BAR_UNIFORM) ? bs & 0xffffu : b->clk.own[t / WARP_SIZE];
        uint32_t sync = load_cta32(warp_now_floor(warp_clock(l, slot, t / WARP_SIZE))) & 0xffffu;
        uint32_t meta = SC_DEV_ACQ_META(t, bar, span, lock, sync);
        if (!th->attempt)
            th->last_acq_meta = meta;
        add_taken(b, th->attempt ? SC_DEV_ACQ_FAILED | th->attempt : head, meta);
    }
}

extern "C" __device__ __noinline__ void __scord_acquire(ScDevLaunch *l, uint32_t slot, uint32_t scope)
{
    acquire(l, slot, scope);
}

/* What a strong or release access does to synchronization before it is checked: a
 * release operation releases; a strong read notes its flag for the next acquire (and
 * what the flag carries, so that a race before that acquire names its cause); a
 * write carries the thread's release. Returns whether the access is a weak write
 * that took a release the way a flag would: a synchronization through a weak flag. */
extern "C" __device__ __noinline__ bool __scord_sync_access(ScDevLaunch *l, uint32_t slot, uint64_t addr, uint32_t info, int cls)
{
    uint32_t rank, owner, off;
    if (!__isGlobal((const void *)addr) && !__isShared((const void *)addr) &&
        !remote_shared(addr, &rank, &owner, &off))
        return false;
    ScDevThread *th = thread_state(l, slot);
    uint32_t kind = SC_ABI_INFO_KIND(info), sem = SC_ABI_INFO_SEM(info);
    uint32_t scope = SC_ABI_INFO_SCOPE(info);
    if (cls == SC_RULES_CLS_WRITE) {
        if (!(th->release_fresh & FRESH_ANY))
            return false;
        th->release_fresh &= ~FRESH_ANY;
        __scord_sync_publish(l, sync_key(addr), th->release | SC_DEV_REC_WEAK, false, 0, 0);
        return true;
    }
    uint64_t key = sync_key(addr);
    bool release_op = sem == SC_SEM_RELEASE || sem == SC_SEM_ACQ_REL;
    /* A read-modify-write that gives a release (a lock's atomicExch after its fence,
     * a ticket after the fence that publishes the block's part) notes its flag for an
     * acquire that may follow, but no failed attempt: an unlock is no poll, and no
     * acquire would follow it to clear one. */
    bool gives = kind == SC_ABI_KIND_RMW && sem != SC_SEM_ACQUIRE && sem != SC_SEM_ACQ_REL &&
                 (release_op || (th->release && (th->release_fresh & FRESH_STRONG)));
    if (cls == SC_RULES_CLS_SREAD || kind == SC_ABI_KIND_RMW) {
        uint32_t i = th->pending[0] == key || !th->pending[0] ? 0 : th->pending[1] == key ? 1 : 2;
        if (i == 2) {
            th->pending[1] = th->pending[0];
            th->pending_info[1] = th->pending_info[0];
            i = 0;
        }
        th->pending[i] = key;
        th->pending_info[i] = info | (gives ? PENDING_GAVE : 0u);
    }
    if (cls == SC_RULES_CLS_SREAD || (kind != SC_ABI_KIND_RMW && kind != SC_ABI_KIND_RED &&
                                      cls != SC_RULES_CLS_SWRITE))
        return false;
    if (release_op)
        __scord_release(l, slot, scope);
    bool rmw = cls == SC_RULES_CLS_ATOMIC;
    if (rmw && (!th->release || !(th->release_fresh & FRESH_STRONG))) {
        /* A read-modify-write leaves the chain it reads as it is. One that always
         * writes (not a compare-and-swap, which may not) on a flag with no chain yet
         * starts one that carries nothing: the last block of a counter nobody fenced
         * for acquires nothing (missing_fence). */
        if (!(info & SC_ABI_INFO_LOCK) && !sync_head(l, key))
            __scord_sync_publish(l, key, no_release(), false, 0, 0);
        return false;
    }
    if (!th->release) {
        /* A strong write that carries no release: whoever acquires through it takes
         * nothing (missing_fence). */
        __scord_sync_publish(l, key, no_release(), false, 0, 0);
        return false;
    }
    th->release_fresh = 0;
    uint64_t flag = scope == SC_SCOPE_CTA       ? SC_DEV_REC_FLAG_CTA
                    : scope == SC_SCOPE_CLUSTER ? SC_DEV_REC_FLAG_CLUSTER
                                                    : 0;
    uint32_t seq = __scord_sync_publish(l, key, th->release | flag, rmw, th->release_also, th->release_broken);
    if (seq)
        th->rel_nodes[th->rel_next++ % SC_DEV_REL_NODES] = seq;
    return false;
}

extern "C" __device__ void __scord_fence(uint32_t site, uint32_t info)
{
    (void)site;
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (!l)
        return;
    if (SC_ABI_INFO_KIND(info) == SC_ABI_KIND_GRID_WAIT) {
        thread_state(l, slot)->grid_waited = 1;
        return;
    }
    uint32_t sem = SC_ABI_INFO_SEM(info), scope = SC_ABI_INFO_SCOPE(info);
    if (sem == SC_SEM_ACQUIRE || sem == SC_SEM_ACQ_REL)
        acquire(l, slot, scope);
    if (SC_ABI_INFO_KIND(info) == SC_ABI_KIND_FENCE &&
        (sem == SC_SEM_RELEASE || sem == SC_SEM_ACQ_REL))
        release(l, slot, scope);
}
