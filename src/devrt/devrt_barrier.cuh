/* devrt_barrier.cuh: barriers and warps: barrier arrivals and passes (named barriers,
 * divergence), and the warp clock of __syncwarp. Part of the device runtime: devrt.cu
 * includes the parts in order, as one unit. */

/* ---- barriers ---------------------------------------------------------------- */

/* Barriers that wait for the whole block (no count, or a count that covers it). */
static __device__ __forceinline__ bool block_wide(uint32_t count)
{
    return count == SC_ABI_ALL_THREADS || count >= block_threads();
}

static __device__ void record_divergence(ScDevLaunch *l, ScDevBlock *b, uint32_t site,
                                         uint32_t other_site, uint32_t other_thread)
{
    if (atomicExch(&b->divergent, 1u) != 0)
        return;
    RecSide cur = {site, SC_DEV_INFO_BARRIER, block_linear(), thread_linear()};
    RecSide prev = {other_site,
                    other_site == SC_DEV_SITE_NONE ? SC_DEV_INFO_ABSENT : SC_DEV_INFO_BARRIER,
                    block_linear(), other_thread};
    record_race(l, DEV_CAUSE_BARRIER_DIVERGENCE, 0, &cur, &prev);
}

/* The first arrival at full barrier instance n names the instance's site; a later
 * arrival at another site means two barriers met in one instance. The word of
 * parity n & 1 is reused by instance n + 2, told apart by the tag n & 3: no thread
 * arrives at n + 2 before every thread has arrived at n + 1, hence passed n. */
static __device__ void check_site(ScDevLaunch *l, ScDevBlock *b, uint32_t n, uint32_t site,
                                  uint32_t thread)
{
    if (site >= (1u << 30) - 1)
        return;
    uint32_t *word = &b->bar_site[n & 1];
    uint32_t tag = (n & 3u) << 30, mine = tag | (site + 1);
    uint32_t cur = load_gpu32(word);
    for (int tries = 0; (cur == 0 || (cur & 0xc0000000u) != tag) && tries < SITE_TRIES; tries++) {
        uint32_t seen = atomicCAS(word, cur, mine);
        if (seen == cur) {
            b->bar_first[n & 1] = thread;
            return;
        }
        cur = seen;
    }
    if ((cur & 0xc0000000u) == tag && cur != mine)
        record_divergence(l, b, site, (cur & 0x3fffffffu) - 1, load_gpu32(&b->bar_first[n & 1]));
}

/* Adds lanes to the arrival mask of full barrier instance n of their warp. */
static __device__ void add_arrivals(ScDevBlock *b, uint32_t n, uint32_t w, uint32_t lanes)
{
    unsigned long long *word = (unsigned long long *)&b->bar_arrived[n & 1][w];
    uint64_t cur = load_gpu64((const uint64_t *)word);
    for (;;) {
        uint64_t want = (uint64_t)n << 32 | lanes;
        if ((uint32_t)(cur >> 32) == n)
            want |= cur;
        uint64_t seen = atomicCAS(word, cur, want);
        if (seen == cur)
            return;
        cur = seen;
    }
}

/* The arrival of a group of lanes (one warp, one barrier, one instance) at a barrier
 * with fewer threads than the block. Its participants are the warps that arrive;
 * the group that brings the count to `count` completes the instance while the
 * others wait (a bar.arrive group does not wait, see docs/devrt.md). */
static __device__ void arrive_named(ScDevBlock *b, uint32_t id, uint32_t count, uint32_t w,
                                    uint32_t lanes)
{
    if (id >= BARRIER_IDS || count == 0)
        return;
    atomicOr(&b->named_warps[id], 1u << w);
    uint32_t k = (uint32_t)__popc(lanes);
    uint32_t old = atomicAdd(&b->named_count[id], k);
    if (old < count && old + k >= count) {
        uint32_t warps = atomicExch(&b->named_warps[id], 0u);
        complete_barrier(b, warps);
        atomicSub(&b->named_count[id], count);
        __threadfence_block();
    }
}

/* A thread arrives at a barrier; returns whether it completed a full barrier's
 * instance. */
static __device__ bool arrive(ScDevLaunch *l, uint32_t slot, uint32_t site, uint32_t id, uint32_t count)
{
    ScDevThread *th = thread_state(l, slot);
    ScDevBlock *b = block_state(l, slot);
    uint32_t t = thread_linear(), w = t / WARP_SIZE;
    bool full = block_wide(count);
    uint32_t n = full ? th->bar_epoch : 0;
    /* The instance number moves at arrival: this thread makes no access before it
     * passes, and a bar.arrive (which has no pass call) still takes its place. */
    if (full)
        th->bar_epoch = n + 1;
    /* One lane per group of lanes at the same barrier, instance and site does the
     * shared bookkeeping (lanes from different call sites may run this code together). */
    uint32_t peers = __match_any_sync(__activemask(), (uint64_t)(full ? n : id) << 32 | site);
    if (t % WARP_SIZE != lowest_lane(peers))
        return false;
    if (!full) {
        arrive_named(b, id, count, w, peers);
        return false;
    }
    check_site(l, b, n, site, t);
    add_arrivals(b, n, w, peers);
    uint32_t k = (uint32_t)__popc(peers);
    uint32_t old = atomicAdd(&b->bar_count, k);
    if ((old & 0xffffu) + k != old >> 16)
        return false;
    /* Every thread that has not exited is here: this group completes the instance
     * (the others wait in the barrier) and opens the next. */
    complete_barrier(b, live_warps(b));
    atomicAnd(&b->bar_count, ~0xffffu);
    __threadfence_block();
    return true;
}

extern "C" __device__ void __scord_bar_arrive(uint32_t site, uint32_t id, uint32_t count)
{
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (l)
        arrive(l, slot, site, id, count);
}

/* After a full barrier every non-exited thread of the block has arrived (barriers
 * count threads on sm_70+), so a lane of this warp that neither arrived at this
 * instance nor exited counted barriers differently: divergence. */
extern "C" __device__ void __scord_bar_pass(uint32_t site, uint32_t id, uint32_t count)
{
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (!l || !block_wide(count))
        return;
    ScDevThread *th = thread_state(l, slot);
    ScDevBlock *b = block_state(l, slot);
    uint32_t n = th->bar_epoch - 1, w = thread_linear() / WARP_SIZE;
    uint64_t arrived = load_gpu64(&b->bar_arrived[n & 1][w]);
    uint32_t got = (uint32_t)(arrived >> 32) == n ? (uint32_t)arrived : 0;
    uint32_t missing = warp_lanes(w) & ~got & ~load_gpu32(&b->exited_lanes[w]);
    if (missing)
        record_divergence(l, b, site, SC_DEV_SITE_NONE, w * WARP_SIZE + lowest_lane(missing));
}

/* ---- the warp clock ---------------------------------------------------------- */


/* A lane's row of its warp clock is stale (reads as the floor everywhere) until the
 * lane takes part in a partial __syncwarp, or reads it for an access while a partial
 * one has happened since the last full one; then the lane writes it out. */
static __device__ void materialize_row(ScRulesWarpClk *c, ScDevThread *th, uint32_t lane,
                                       uint32_t floor)
{
    if (th->warp_epoch != SC_DEV_ROW_STALE)
        return;
    for (uint32_t m = 0; m < WARP_SIZE; m++)
        c->seen[lane][m] = (uint16_t)floor;
    __threadfence_block();
    th->warp_epoch = 0;
}

/* Each lane of a __syncwarp instance writes its own row of the warp clock, the
 * rules' join over the participants' rows (sc_rules_warp_sync, one row at a time):
 * no lane waits for another. Reading a participant's row while that lane rewrites it
 * with the same join gives the same result, since the join only grows. */
/* A __syncwarp(mask) instance of this lane; returns its number | the floor << 16.
 * solo: a release's point in one lane's clock, which orders nothing for the other
 * lanes even when they have all exited. Inlined wherever it is used, so that the hooks
 * that step the warp clock call nothing (complete_barrier says why). */
static __device__ __forceinline__ uint32_t warp_sync(ScDevLaunch *l, uint32_t slot, uint32_t mask, bool solo)
{
    uint32_t t = thread_linear(), w = t / WARP_SIZE, lane = t % WARP_SIZE;
    ScDevBlock *b = block_state(l, slot);
    ScDevThread *th = thread_state(l, slot);
    ScRulesWarpClk *c = warp_clock(l, slot, w);
    /* Lanes the warp does not have, or that have exited, count as present. */
    uint32_t absent = ~warp_lanes(w) | load_cta32(&b->exited_lanes[w]);
    bool wide = ((solo ? ~warp_lanes(w) : absent) | mask) == 0xffffffffu;
    /* The hook runs after the program's bar.warp.sync, which every lane of the mask
     * passed, but they need not come on together: lanes that reach the hook apart
     * would each take an instance number of their own, and those that came first
     * would count as synchronized before the others' rows say so. Syncing the mask
     * again gathers them (every lane of the mask runs this hook, under the guard that
     * ran its bar.warp.sync), so that one instance has one number. */
    if (!solo)
        __syncwarp(mask);
    uint32_t peers = __match_any_sync(__activemask(), mask);
    uint32_t leader = lowest_lane(peers);
    uint32_t nf = 0;
    if (lane == leader) {
        /* One new instance number for the group (now, and floor for a full mask). */
        uint32_t *word = warp_now_floor(c);
        uint32_t cur = load_cta32(word);
        for (;;) {
            uint32_t seq = sc_rules_ctr_next(cur & 0xffffu, SC_RULES_SYNC_MOD);
            nf = seq | (wide ? seq : cur >> 16) << 16;
            uint32_t seen = atomicCAS(word, cur, nf);
            if (seen == cur)
                break;
            cur = seen;
        }
    }
    nf = __shfl_sync(peers, nf, leader);
    if (wide) {
        /* Every entry of every row is now the floor: no row needs to be read. */
        th->warp_epoch = SC_DEV_ROW_STALE;
        return nf;
    }
    uint32_t seq = nf & 0xffffu, floor = nf >> 16;
    materialize_row(c, th, lane, floor);
    /* The participants whose rows hold more than the floor. */
    const ScDevThread *lanes_state = th - lane;
    uint32_t rows = 0, others = mask & ~absent & ~(1u << lane);
    for (uint32_t p = 0; p < WARP_SIZE; p++)
        if (((others >> p) & 1u) && load_cta32(&lanes_state[p].warp_epoch) != SC_DEV_ROW_STALE)
            rows |= 1u << p;
    rows |= 1u << lane;
    __threadfence_block(); /* acquire: a row flagged explicit is written */
    uint16_t row[WARP_SIZE];
    for (uint32_t m = 0; m < WARP_SIZE; m++) {
        uint32_t best = floor;
        for (uint32_t r = (mask >> m) & 1u ? 0u : rows; r; r &= r - 1) {
            uint32_t x = c->seen[lowest_lane(r)][m];
            if (sc_rules_newer(seq, x, best, SC_RULES_SYNC_MOD))
                best = x;
        }
        row[m] = (uint16_t)((mask >> m) & 1u ? seq : best);
    }
    for (uint32_t m = 0; m < WARP_SIZE; m++)
        c->seen[lane][m] = row[m];
    __threadfence_block();
    return nf;
}

extern "C" __device__ void __scord_syncwarp(uint32_t site, uint32_t mask)
{
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (l)
        warp_sync(l, slot, mask, false);
}
