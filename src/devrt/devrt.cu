/* devrt.cu: the device runtime: block slots, synchronization clocks, shadow lookup,
 * the per-location rules and race records. Compiled to PTX at build time and
 * appended to every instrumented module (kept C-like: no classes, no templates).
 * Design and the reasons behind it: docs/devrt.md. */
#include <stdint.h>

#include "devrt/devrt_abi.h"
#include "devrt/devrt_state.h"
#include "rules/rules.h"

/* Record causes, numbered as ScCause on the host (ScDevRecord.cause). */
enum {
#define SC_CAUSE(id, name, severity, title, reason) DEV_CAUSE_##id,
#include "report/report_cause.def"
#undef SC_CAUSE
};

#define WARP_SIZE 32u
/* Tries at a free slot bit before the block runs unchecked, and the pause between
 * them, doubling up to the last (about 1 ms in all): a bit is busy only while the
 * block that held it finishes its last warps. */
#define SLOT_TRIES 160
#define SLOT_PAUSE_NS 256
#define SLOT_PAUSE_MAX_NS 8192
/* Entries of the record table looked at before an occurrence counts as dropped, and
 * rereads of an entry another thread is filling before passing it by (filling it
 * takes a few stores: a thread that waits finds its own key there more often than not,
 * where passing by made a twin entry and, with many threads at one race, dropped
 * occurrences: 175 in the bundled example on the H100). */
#define RECORD_PROBES 8
#define RECORD_BUSY_TRIES 64
/* Tries at the compare-and-swap of a barrier instance's site word; a word that keeps
 * changing means threads of the block disagree on barrier counts, which the arrival
 * masks report anyway. */
#define SITE_TRIES 4
/* A shadow word or cell that a thread holds while it changes it and its site word
 * together (before sm_90, which swaps both at once). Never a history: as a split
 * marker it would name pool entry 2^60 - 2. */
#define WORD_HELD (~(uint64_t)0xf)
#define BARRIER_IDS 16u
#define SPLIT_GROUP 8u /* uint64_t per split word in the pool: 4 cells, each with its site word */
#define SPLIT_IN_SLOT ((uint64_t)1 << 40) /* a split group index in the slot split area */
#define SPLIT_NONE (~(uint64_t)0)
/* ScDevBlock.bar_state above the clock's now: every entry of the clock equals now;
 * the clock was lost (the block's accesses are no longer checked). */
#define BAR_UNIFORM (1u << 16)
#define BAR_LOST (1u << 17)
/* Backoff of a thread waiting for a metadata cache entry or a shadow word another
 * thread holds (for one rules step: short). */
#define CACHE_PAUSE_MIN_NS 32u
#define CACHE_PAUSE_MAX_NS 1024u

extern "C" {
/* The launch descriptor of the module's current launch (the host sets it at load). */
__device__ uint64_t __scord_state;
/* The slot of this block, published by warp 0 at entry. */
__shared__ uint32_t __scord_slot;
/* The launch that wrote __scord_slot (its tag): a block of the cluster reads both through
 * distributed shared memory to find this block's shadow (remote_shared), and a block
 * that has not started yet still holds an earlier launch's. */
__shared__ uint32_t __scord_slot_launch;
}

/* ---- helpers --------------------------------------------------------------- */

static __device__ __forceinline__ ScDevLaunch *launch_desc(void)
{
    return (ScDevLaunch *)__scord_state;
}

static __device__ __forceinline__ uint32_t thread_linear(void)
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

static __device__ __forceinline__ uint32_t block_threads(void)
{
    return blockDim.x * blockDim.y * blockDim.z;
}

static __device__ __forceinline__ uint32_t block_linear(void)
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/* Blocks in this thread's cluster (sm_90; a launch without clusters has clusters of
 * one block). */
static __device__ __forceinline__ uint32_t cluster_blocks(void)
{
#if __CUDA_ARCH__ >= 900
    uint32_t n;
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    return n;
#else
    return 1;
#endif
}

/* The launch's clusters as the rules take them (block_state's copy, written when the
 * block took its slot), or NULL when a cluster is one block. */
static __device__ __forceinline__ const ScRulesCluster *launch_clusters(const ScDevBlock *b)
{
    return cluster_blocks() > 1 ? &b->cluster : NULL;
}

/* The blocks a scope spans (SC_RULES_SPAN_*). */
static __device__ __forceinline__ int scope_span(uint32_t scope)
{
    return scope >= SC_ABI_SCOPE_GPU       ? SC_RULES_SPAN_GPU
           : scope == SC_ABI_SCOPE_CLUSTER ? SC_RULES_SPAN_CLUSTER
                                           : SC_RULES_SPAN_BLOCK;
}

/* The span a synchronization between this thread's block and block blk needs. */
static __device__ __forceinline__ int span_needed(const ScDevBlock *b, uint32_t blk)
{
    uint32_t me = block_linear() & 0x7fffffu;
    if (blk == me)
        return SC_RULES_SPAN_BLOCK;
    return sc_rules_same_cluster(launch_clusters(b), blk, me) ? SC_RULES_SPAN_CLUSTER : SC_RULES_SPAN_GPU;
}

/* The blocks the write of a flag spans, from the flags its node's record carries. */
static __device__ __forceinline__ int flag_span(uint64_t rec)
{
    return (rec & SC_DEV_REC_FLAG_CTA)       ? SC_RULES_SPAN_BLOCK
           : (rec & SC_DEV_REC_FLAG_CLUSTER) ? SC_RULES_SPAN_CLUSTER
                                             : SC_RULES_SPAN_GPU;
}

/* This block's shared window's first byte, as a generic address. In a launch with
 * clusters of several blocks, shared addresses are the cluster's: a block's window
 * starts at its rank's place in the cluster's window (on the H200, rank r's variables
 * lie 16 MiB * r on), so its offsets are taken from there. */
static __device__ __forceinline__ uint64_t own_shared_base(void)
{
    uint64_t base = (uint64_t)__cvta_shared_to_generic(0);
#if __CUDA_ARCH__ >= 900
    if (cluster_blocks() > 1) {
        uint32_t rank;
        asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
        asm("mapa.u64 %0, %1, %2;" : "=l"(base) : "l"(base), "r"(rank));
    }
#endif
    return base;
}

/* The offset in this block's shared window of a generic address in it. */
static __device__ __forceinline__ uint32_t own_shared_offset(uint64_t addr)
{
    return (uint32_t)(addr - own_shared_base());
}

/* Another block's shared memory, reached through the cluster's window (distributed
 * shared memory, sm_90): whether addr is such an address, and then the owner's rank in
 * the cluster, its block and the offset in its window. */
static __device__ bool remote_shared(uint64_t addr, uint32_t *rank, uint32_t *owner, uint32_t *off)
{
#if __CUDA_ARCH__ >= 900
    uint32_t in_cluster;
    asm("{\n\t.reg .pred p;\n\tisspacep.shared::cluster p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(in_cluster) : "l"(addr));
    if (!in_cluster || __isShared((const void *)addr))
        return false;
    uint32_t r, cx, cy, cz;
    uint64_t base;
    asm("getctarank.u64 %0, %1;" : "=r"(r) : "l"(addr));
    asm("mapa.u64 %0, %1, %2;" : "=l"(base) : "l"((uint64_t)__cvta_shared_to_generic(0)), "r"(r));
    asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(cx));
    asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(cy));
    asm("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(cz));
    uint32_t x = blockIdx.x / cx * cx + r % cx, y = blockIdx.y / cy * cy + r / cx % cy;
    uint32_t z = blockIdx.z / cz * cz + r / (cx * cy);
    *rank = r;
    *owner = x + gridDim.x * (y + gridDim.y * z);
    *off = (uint32_t)(addr - base);
    return true;
#else
    (void)addr, (void)rank, (void)owner, (void)off;
    return false;
#endif
}

/* The slot of the block of rank `rank` in this thread's cluster, read from its shared
 * memory; SC_DEV_NO_SLOT when it has none or has not opened it in this launch. */
static __device__ uint32_t remote_slot(const ScDevLaunch *l, uint32_t rank)
{
#if __CUDA_ARCH__ >= 900
    uint64_t at_slot, at_launch;
    asm("mapa.u64 %0, %1, %2;" : "=l"(at_slot) : "l"((uint64_t)&__scord_slot), "r"(rank));
    asm("mapa.u64 %0, %1, %2;" : "=l"(at_launch) : "l"((uint64_t)&__scord_slot_launch), "r"(rank));
    uint32_t launch = *(volatile const uint32_t *)at_launch;
    uint32_t slot = *(volatile const uint32_t *)at_slot;
    return launch == l->launch_tag ? slot : SC_DEV_NO_SLOT;
#else
    (void)l, (void)rank;
    return SC_DEV_NO_SLOT;
#endif
}

static __device__ __forceinline__ uint32_t smid(void)
{
    uint32_t id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

static __device__ __forceinline__ uint32_t lowest_lane(uint32_t mask)
{
    return (uint32_t)__ffs((int)mask) - 1;
}

/* Coherent loads of words other threads update with atomics: a weak load may be
 * served from a stale L1 line, and the rules' "unchanged" answer is taken without
 * a compare-and-swap that would catch that. */
static __device__ __forceinline__ uint64_t load_gpu64(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ uint32_t load_gpu32(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* The same for words only the threads of one block use (its slot's state, its
 * shared-memory shadow): coherence at block scope is enough and may stay in L1. */
static __device__ __forceinline__ uint64_t load_cta64(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.relaxed.cta.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ uint32_t load_cta32(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.cta.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ void store_release_gpu64(uint64_t *p, uint64_t v)
{
    asm volatile("st.release.gpu.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

/* The launch and this block's slot, or NULL when the runtime is off for this
 * launch or the block runs unchecked (both the same for every thread of a block). */
static __device__ __forceinline__ ScDevLaunch *checked_block(uint32_t *slot)
{
    ScDevLaunch *l = launch_desc();
    if (!l || !l->enabled)
        return 0;
    *slot = __scord_slot;
    return *slot == SC_DEV_NO_SLOT ? 0 : l;
}

/* Thread tid's state in block slot `slot`; thread_state: this thread's. */
static __device__ __forceinline__ ScDevThread *thread_state_of(const ScDevLaunch *l, uint32_t slot, uint32_t tid)
{
    return (ScDevThread *)l->threads + (size_t)slot * l->threads_per_block + tid;
}

static __device__ __forceinline__ ScDevThread *thread_state(const ScDevLaunch *l, uint32_t slot)
{
    return thread_state_of(l, slot, thread_linear());
}

/* Only where the kernel's module issues cp.async (l->async is 0 elsewhere). */
static __device__ __forceinline__ ScDevAsync *async_state(const ScDevLaunch *l, uint32_t slot)
{
    return (ScDevAsync *)l->async + (size_t)slot * l->threads_per_block + thread_linear();
}

static __device__ __forceinline__ ScDevBlock *block_state(const ScDevLaunch *l, uint32_t slot)
{
    return (ScDevBlock *)l->blocks + slot;
}

static __device__ __forceinline__ ScRulesWarpClk *warp_clock(const ScDevLaunch *l, uint32_t slot,
                                                             uint32_t w)
{
    uint32_t per_block = (l->threads_per_block + WARP_SIZE - 1) / WARP_SIZE;
    return (ScRulesWarpClk *)l->warp_clocks + (size_t)slot * per_block + w;
}

/* The warp clock's now (bits 0..15) and floor (16..31), read or swapped as one word. */
static __device__ __forceinline__ uint32_t *warp_now_floor(ScRulesWarpClk *c)
{
    return (uint32_t *)&c->now;
}

/* The lanes warp w of the block has (a block's last warp may be partial). */
static __device__ __forceinline__ uint32_t warp_lanes(uint32_t w)
{
    uint32_t n = block_threads() - w * WARP_SIZE;
    return n >= WARP_SIZE ? 0xffffffffu : (1u << n) - 1;
}

static __device__ __forceinline__ uint32_t block_warps(void)
{
    return (block_threads() + WARP_SIZE - 1) / WARP_SIZE;
}

/* One count per lane in `active` (its lowest lane adds them): accesses left
 * unchecked, in one of the launch's counters. */
static __device__ __forceinline__ void count_lanes(unsigned long long *counter)
{
    uint32_t active = __activemask();
    if (thread_linear() % WARP_SIZE == lowest_lane(active))
        atomicAdd(counter, (unsigned long long)__popc(active));
}

static __device__ __forceinline__ void count_unchecked(ScDevLaunch *l)
{
    count_lanes((unsigned long long *)&l->unchecked_accesses);
}

/* An access whose word needed byte cells when the split pool was empty. */
static __device__ __forceinline__ void count_unsplit(ScDevLaunch *l)
{
    count_lanes((unsigned long long *)&l->unsplit_accesses);
}

/* ---- race records ---------------------------------------------------------- */

static __device__ __forceinline__ uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static __device__ __forceinline__ uint32_t key_site(uint32_t site)
{
    return site < SC_DEV_SITE_LIMIT ? site : SC_DEV_SITE_LIMIT;
}

/* One side of a record. */
typedef struct RecSide {
    uint32_t site, info, block, thread;
} RecSide;

/* Adds one occurrence of a race to the table. The first thread with a new key
 * claims a free entry by swapping its key 0 -> BUSY, fills it and publishes the
 * key; a thread finding its key adds an occurrence; an entry BUSY is reread a bounded
 * number of times, then passed by (it may hold the same key: the host folds such
 * twins, as it folds records of one site pair across launches). A thread waits only
 * for a filler that waits for nothing. */
static __device__ void record_race(ScDevLaunch *l, uint32_t cause, uint64_t addr, const RecSide *cur,
                                   const RecSide *prev)
{
    ScDevRecord *table = (ScDevRecord *)l->records;
    uint32_t cap = l->records_cap;
    bool exact = (cur->site < SC_DEV_SITE_LIMIT || cur->site == SC_DEV_SITE_NONE) &&
                 (prev->site < SC_DEV_SITE_LIMIT || prev->site == SC_DEV_SITE_NONE);
    if (!table || cap == 0 || !exact) {
        /* No table, or a site the key cannot hold: never fold it into another race. */
        atomicAdd(&l->records_used, 1u);
        return;
    }
    uint32_t a = key_site(cur->site), b = key_site(prev->site);
    uint64_t key = SC_DEV_KEY(cause, a < b ? a : b, a < b ? b : a);
    /* 32-bit: a 64-bit remainder is a call to a helper, in every inlined copy. */
    uint32_t at = (uint32_t)(mix64(key) >> 32) % cap;
    for (uint32_t probe = 0; probe < RECORD_PROBES; probe++, at = at + 1 == cap ? 0 : at + 1) {
        ScDevRecord *r = &table[at];
        unsigned long long *kp = (unsigned long long *)&r->key;
        uint64_t k = load_gpu64(&r->key);
        for (int tries = 0; k == SC_DEV_KEY_BUSY && tries < RECORD_BUSY_TRIES; tries++)
            k = load_gpu64(&r->key);
        if (k == 0) {
            k = atomicCAS(kp, 0ull, (unsigned long long)SC_DEV_KEY_BUSY);
            if (k == 0) {
                r->addr = addr;
                r->cause = cause;
                r->cur_site = cur->site;
                r->prev_site = prev->site;
                r->cur_info = cur->info;
                r->prev_info = prev->info;
                r->cur_block = cur->block;
                r->cur_thread = cur->thread;
                r->prev_block = prev->block;
                r->prev_thread = prev->thread;
                atomicAdd(&r->occurrences, 1u);
                atomicAdd(&l->records_used, 1u);
                __threadfence();
                atomicExch(kp, (unsigned long long)key);
                return;
            }
        }
        if (k == key) {
            atomicAdd(&r->occurrences, 1u);
            return;
        }
    }
    atomicAdd(&l->records_used, 1u);
}

/* ---- block entry and exit -------------------------------------------------- */

/* A free slot bit of this SM, or SC_DEV_NO_SLOT after SLOT_TRIES tries. */
static __device__ uint32_t take_slot(ScDevLaunch *l, uint32_t *sm_out, uint32_t *bit_out)
{
    uint32_t sm = smid(), per_sm = l->slots_per_sm;
    if (sm >= l->sm_ids || per_sm == 0 || per_sm > 64 || block_threads() > l->threads_per_block)
        return SC_DEV_NO_SLOT;
    uint64_t *word = (uint64_t *)l->slot_bitmap + sm;
    uint64_t all = per_sm == 64 ? ~(uint64_t)0 : ((uint64_t)1 << per_sm) - 1;
    uint32_t pause = SLOT_PAUSE_NS;
    for (int tries = 0; tries < SLOT_TRIES; tries++) {
        uint64_t free = ~load_gpu64(word) & all;
        if (!free) {
            __nanosleep(pause);
            pause = pause < SLOT_PAUSE_MAX_NS ? 2 * pause : pause;
            continue;
        }
        uint32_t bit = (uint32_t)__ffsll((long long)free) - 1;
        uint64_t mine = (uint64_t)1 << bit;
        if (!(atomicOr((unsigned long long *)word, (unsigned long long)mine) & mine)) {
            /* Acquire: the previous holder's writes to the slot are done. */
            __threadfence();
            *sm_out = sm;
            *bit_out = bit;
            return sm * per_sm + bit;
        }
    }
    return SC_DEV_NO_SLOT;
}

/* Warp 0 takes the slot and clears it: the block's state, the warp clocks' counters,
 * and the shared-memory shadow a previous block of this slot left (a new block's
 * shared memory holds no history). All before the one barrier of the prologue, so no
 * thread of the block can touch the shadow before it is clear. */
static __device__ void open_slot(ScDevLaunch *l)
{
    uint32_t lane = thread_linear(), lanes = warp_lanes(0);
    uint32_t slot = SC_DEV_NO_SLOT, sm = 0, bit = 0;
    if (lane == 0)
        slot = take_slot(l, &sm, &bit);
    /* Every lane of warp 0 is here (nothing before the prologue can diverge), so the
     * full mask of its lanes is exact. */
    slot = __shfl_sync(lanes, slot, 0);
    if (slot == SC_DEV_NO_SLOT) {
        if (lane == 0) {
            __scord_slot = SC_DEV_NO_SLOT;
            atomicAdd(&l->unchecked_blocks, 1u);
        }
        return;
    }
    ScDevBlock *b = block_state(l, slot);
    /* Warp 0 has fewer than 32 lanes in a block that small. */
    uint32_t stride = (uint32_t)__popc(lanes);
    uint64_t *shadow = (uint64_t *)l->shared_shadow + (size_t)slot * 2 * l->shared_words;
    for (uint32_t i = lane; i < 2 * l->shared_words; i += stride)
        shadow[i] = 0;
    for (uint32_t i = lane; i < WARP_SIZE; i += stride) {
        b->exited_lanes[i] = 0;
        b->bar_arrived[0][i] = 0;
        b->bar_arrived[1][i] = 0;
        if (i < BARRIER_IDS) {
            b->named_count[i] = 0;
            b->named_warps[i] = 0;
        }
        if (i < SC_DEV_ACQ_SET)
            b->acq_meta[i] = 0;
        if (i < block_warps())
            *warp_now_floor(warp_clock(l, slot, i)) = 0;
    }
    if (lane == 0) {
        b->live_threads = block_threads();
        b->slot_bit = bit;
        b->sm = sm;
        b->divergent = 0;
        b->bar_site[0] = 0;
        b->bar_site[1] = 0;
        b->bar_first[0] = 0;
        b->bar_first[1] = 0;
        b->bar_state = BAR_UNIFORM;
        b->clk_busy = 0;
        b->acq_next = 0;
        b->split_used = 0;
        b->bar_count = block_threads() << 16;
        b->clk.now = 0;
        __scord_slot_launch = l->launch_tag;
#if __CUDA_ARCH__ >= 900
        uint32_t cx, cy, cz;
        asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(cx));
        asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(cy));
        asm("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(cz));
        b->cluster = (ScRulesCluster){gridDim.x, gridDim.y, cx, cy, cz};
#endif
        __scord_slot = slot;
    }
}

extern "C" __device__ void __scord_entry(uint32_t kernel)
{
    ScDevLaunch *l = launch_desc();
    /* The same answer for every thread, so the barrier below is uniform. */
    if (!l || !l->enabled)
        return;
    if (thread_linear() < WARP_SIZE)
        open_slot(l);
    __syncthreads();
    uint32_t slot = __scord_slot;
    if (slot == SC_DEV_NO_SLOT)
        return;
    ScDevThread *th = thread_state(l, slot);
    th->bar_epoch = 0;
    th->warp_epoch = SC_DEV_ROW_STALE;
    th->rmw_word = 0;
    th->release = 0;
    th->release_fresh = 0;
    th->attempt = 0;
    for (uint32_t i = 0; i < SC_DEV_PENDING; i++)
        th->pending[i] = 0;
    th->lock_user = 0;
    th->last_acq = 0;
    th->release_also = 0;
    th->release_broken = 0;
    th->spin_key = 0;
    th->grid_waited = 0;
    if (l->async) {
        ScDevAsync *as = async_state(l, slot);
        as->n = 0;
        as->groups = 0;
    }
}

/* ---- the block clock ------------------------------------------------------- */

/* Warps with a lane that has not exited. */
static __device__ uint32_t live_warps(const ScDevBlock *b)
{
    uint32_t warps = 0, n = block_warps();
    for (uint32_t w = 0; w < n; w++)
        if (warp_lanes(w) & ~load_gpu32(&b->exited_lanes[w]))
            warps |= 1u << w;
    return warps;
}

/* A barrier instance completed with `warps` taking part. Run by the one thread that
 * completed it, while every other participant waits in the barrier, so the block
 * clock has one writer. The cheap form (every entry equal, only now moves) lasts
 * while all of the block's warps take part in every instance. Inlined into the
 * barrier hook, which then calls nothing: a runtime function that calls another from
 * divergent code reconverges around the call with a callee-saved convergence barrier
 * (B6 and up), saving and clearing it at entry, and the instrumented kernel holds those
 * barriers open where its lanes wait at a join, so lanes waiting there were let go
 * while the hook's caller was still inside it (DESIGN.md, "Calls in divergent code");
 * the hook now keeps to B0-B4 (cuobjdump of a relocatable link). The exit and cluster
 * hooks call the one copy below. */
static __device__ __forceinline__ void complete_barrier(ScDevBlock *b, uint32_t warps)
{
    if (atomicExch(&b->clk_busy, 1u)) {
        /* Two partial barriers completing at once would both write the clock: give the
         * block's checking up rather than trust a clock that may have gone wrong. */
        atomicOr(&b->bar_state, BAR_LOST);
        return;
    }
    uint32_t all = block_warps() == 32 ? 0xffffffffu : (1u << block_warps()) - 1;
    uint32_t state = load_cta32(&b->bar_state), next;
    if ((state & BAR_UNIFORM) && warps == all) {
        b->clk.now = (uint16_t)sc_rules_ctr_next(state & 0xffffu, SC_RULES_BAR_MOD);
        next = b->clk.now | BAR_UNIFORM;
    } else {
        if (state & BAR_UNIFORM) {
            /* Rows first: a reader that sees the flag cleared must find them. */
            sc_rules_block_clk_init(&b->clk, state & 0xffffu);
            __threadfence_block();
        }
        sc_rules_block_barrier(&b->clk, warps);
        __threadfence_block();
        next = b->clk.now;
    }
    for (;;) {
        uint32_t seen = atomicCAS(&b->bar_state, state, next | (state & BAR_LOST));
        if (seen == state)
            break;
        state = seen;
    }
    atomicExch(&b->clk_busy, 0u);
}

extern "C" __device__ __noinline__ void __scord_complete_barrier(ScDevBlock *b, uint32_t warps)
{
    complete_barrier(b, warps);
}

/* ---- exit ------------------------------------------------------------------ */

extern "C" __device__ void __scord_async_group(uint32_t op);

extern "C" __device__ void __scord_exit(void)
{
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (!l)
        return;
    /* Copies the thread never waited for complete after it is gone: nothing the others
     * do after its exit is ordered after them. */
    if (l->async && async_state(l, slot)->n)
        __scord_async_group(SC_ABI_ASYNC_ARRIVE);
    ScDevBlock *b = block_state(l, slot);
    uint32_t t = thread_linear();
    /* Release this thread's runtime writes before the slot can change hands, and
     * make the exited bit visible before the thread is gone: a barrier the block's
     * other threads pass after this exit reads it. */
    __threadfence();
    atomicOr(&b->exited_lanes[t / WARP_SIZE], 1u << (t % WARP_SIZE));
    __threadfence();
    /* A full barrier waits for the threads that have not exited: if all the others
     * wait there already, this exit completes it. */
    uint32_t old = atomicSub(&b->bar_count, 1u << 16);
    uint32_t live = (old >> 16) - 1, arrived = old & 0xffffu;
    if (arrived > 0 && arrived == live) {
        __scord_complete_barrier(b, live_warps(b));
        atomicAnd(&b->bar_count, ~0xffffu);
        __threadfence();
    }
    if (atomicSub(&b->live_threads, 1u) == 1u) {
        __threadfence();
        atomicAnd((unsigned long long *)l->slot_bitmap + b->sm,
                  ~((unsigned long long)1 << b->slot_bit));
    }
}

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
    bool release_op = sem == SC_ABI_SEM_RELEASE || sem == SC_ABI_SEM_ACQ_REL;
    /* A read-modify-write that gives a release (a lock's atomicExch after its fence,
     * a ticket after the fence that publishes the block's part) notes its flag for an
     * acquire that may follow, but no failed attempt: an unlock is no poll, and no
     * acquire would follow it to clear one. */
    bool gives = kind == SC_ABI_KIND_RMW && sem != SC_ABI_SEM_ACQUIRE && sem != SC_ABI_SEM_ACQ_REL &&
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
    uint64_t flag = scope == SC_ABI_SCOPE_CTA       ? SC_DEV_REC_FLAG_CTA
                    : scope == SC_ABI_SCOPE_CLUSTER ? SC_DEV_REC_FLAG_CLUSTER
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
    if (sem == SC_ABI_SEM_ACQUIRE || sem == SC_ABI_SEM_ACQ_REL)
        acquire(l, slot, scope);
    if (SC_ABI_INFO_KIND(info) == SC_ABI_KIND_FENCE &&
        (sem == SC_ABI_SEM_RELEASE || sem == SC_ABI_SEM_ACQ_REL))
        release(l, slot, scope);
}

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
        if (!trailed && !ordered && budget == ACQ_WALK_TOTAL && (found = own_release_in(l, slot, s, head))) {
            done = true;
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
        if (th->release || th->last_acq || o->release || o->last_acq)
            return lock ? DEV_CAUSE_LOCK_NO_FENCE : DEV_CAUSE_MISSING_FENCE;
    }
    return cause;
}

/* ---- accesses ---------------------------------------------------------------- */

/* The rules' class of an access, -1 for an info the ABI does not define. */
static __device__ __forceinline__ int access_class(uint32_t kind, uint32_t sem)
{
    bool strong = sem != SC_ABI_SEM_WEAK && sem != 0;
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
        return SC_RULES_SCOPE_NONE;
    if (scope == SC_ABI_SCOPE_CTA)
        return SC_RULES_SCOPE_CTA;
    if (scope == SC_ABI_SCOPE_CLUSTER)
        return SC_RULES_SCOPE_CLUSTER;
    if (scope == SC_ABI_SCOPE_SYS)
        return SC_RULES_SCOPE_SYS;
    return SC_RULES_SCOPE_GPU; /* gpu, and the ISA's default for atomics */
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
    bool acquired;     /* the block has taken releases: a check looks for one that
                          orders the word's recorder (__scord_acquired_cover) */
    uint8_t spin;      /* SPIN_*: a repeat of this access may keep its decision */
    uint32_t acq_next; /* the block's ScDevBlock.acq_next as the check began */
    uint64_t base;     /* shared window offset or global address of the word's byte 0 */
} Access;

/* The ABI kind of a rules class, for the previous side of a record. */
static __device__ __forceinline__ uint32_t abi_kind(uint32_t cls)
{
    if (cls == SC_RULES_CLS_READ || cls == SC_RULES_CLS_SREAD)
        return SC_ABI_KIND_READ;
    if (cls == SC_RULES_CLS_WRITE || cls == SC_RULES_CLS_SWRITE)
        return SC_ABI_KIND_WRITE;
    return SC_ABI_KIND_RMW;
}

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
    RecSide prev = {SC_DEV_SITE_NONE, SC_ABI_INFO(0, abi_kind(v->prev_cls), 0, 0, space),
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
static __device__ bool swap_pair(const Access *a, uint64_t *word, uint64_t *old, uint64_t *site,
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
    if (a->gpu)
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
        if (!swap_pair(a, sh->word, old, site, holding ? WORD_HELD : n, holding ? *site : n_site))
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
    for (;;) {
        if (old == WORD_HELD) {
            old = load_word(a, sh->word);
            site = load_shadow(a, sh->site);
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
        if ((a->acquired || trail) && (cover = __scord_acquired_cover(a->l, a->slot, trail, old, r->cls, r->bar_now,
                                                           r->bar_own, r->bar_seen, r->sync_now, r->sync_floor,
                                                           r->sync_seen, a->shared))) {
            trail_read = (cover & SC_DEV_COVER_MOVED) != 0;
            if (trail_read)
                r->moved = (uint8_t)thread_state(a->l, a->slot)->trail_classes;
            cover &= ~SC_DEV_COVER_MOVED;
            r->acq = &cover;
            r->n_acq = cover != 0;
        }
        int res = decide(r, sh->cell, old, &next, &v);
        if (res == SC_RULES_UNCHANGED && site_after(a, r, sh, site, old, old) == site) {
            if (a->spin == SPIN_READ && !sh->cell)
                *kept = pair_hash(old, site);
            return res;
        }
        if (!write_pair(a, r, sh, &old, &site, &res, &next, &v))
            continue;
        if (res == SC_RULES_SPLIT) {
            *marker = next;
            return res;
        }
        if (res == SC_RULES_RACE || res == SC_RULES_WARN)
            report(a, r, &v, old, site, byte, !sh->cell,
                   a->acquired ? thread_state(a->l, a->slot)->acq_flags : 0u,
                   trail_read ? thread_state(a->l, a->slot)->trail_named[v.prev_cls] : 0);
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
        int res = check_shadow(a, &r, &sh, byte, &marker, &kept);
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
    RecSide prev = {named, SC_ABI_INFO(0, abi_kind((uint32_t)cls), 0, 0, SC_ABI_SPACE_GLOBAL),
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
    uint64_t who = (uint64_t)a->cur.site | (uint64_t)a->cur.block << 32 | (uint64_t)a->spin << 62;
    return mix64(addr ^ mix64(who ^ mix64(clocks ^ mix64((uint64_t)a->acq_next << 32 | last_acq)))) | 1u;
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
        if ((uint64_t)off + size > (uint64_t)l->shared_words * 4) {
            count_unchecked(l);
            return;
        }
        words = (uint64_t *)l->shared_shadow + 2 * ((size_t)shadow_slot * l->shared_words + off / 4);
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
    a.acquired = a.acq_next != 0;
    if (l->cut == SC_DEV_CUT_SHADOW)
        return;
    /* A dependent launch's thread before griddepcontrol.wait also meets the
     * prerequisite grid's accesses. */
    const uint64_t *prior = 0;
    if (!a.shared && l->prior_dir && !thread_state(l, slot)->grid_waited)
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
    uint32_t nf = load_cta32(warp_now_floor(warp_clock(l, slot, thread_linear() / WARP_SIZE)));
    if ((uint16_t)nf != (uint16_t)(nf >> 16) || load_cta32(&block_state(l, slot)->acq_next))
        return group;
    return 1u << lowest_lane(group) | 1u << (31 - __clz(group));
}

/* The lanes that enter together leave together: the checks branch on data (CAS
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
    uint32_t active = __activemask();
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot); /* the same for every lane: no divergence */
    if (!l || l->cut == SC_DEV_CUT_ACCESS)
        return;
    uint32_t lanes = __match_any_sync(active, site);
    /* A lane at the join of an if whose body it skipped (SC_ABI_INFO_NOT_TAKEN) takes
     * the warp-wide steps in a group of its own and leaves with the others. */
    bool taken = !(info & SC_ABI_INFO_NOT_TAKEN);
    int cls = access_class(SC_ABI_INFO_KIND(info), SC_ABI_INFO_SEM(info));
    uint32_t lane = thread_linear() % WARP_SIZE;
    bool weak_flag = taken && cls > SC_RULES_CLS_READ && __scord_sync_access(l, slot, addr, info, cls);
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
    for (uint32_t turn = __ballot_sync(same, checks); turn; turn &= turn - 1) {
        if (lane == lowest_lane(turn))
            check_access(l, slot, addr, info, site, cls, peers, weak_flag);
        __syncwarp(same);
    }
    __syncwarp(lanes);
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

/* ---- bulk copies ---------------------------------------------------------------- */

/* n bytes from addr as accesses of one kind by this thread, 16 at a time. */
static __device__ void access_range(uint64_t addr, uint64_t n, uint32_t kind, uint32_t site)
{
    for (uint64_t off = 0; off < n; off += 16) {
        uint32_t k = n - off < 16u ? (uint32_t)(n - off) : 16u;
        __scord_access(addr + off, SC_ABI_INFO(k, kind, SC_ABI_SEM_WEAK, SC_ABI_SCOPE_NONE, SC_ABI_SPACE_GENERIC),
                       site, 0);
    }
}

/* A cp.async.bulk (instr_plan.c, plan_bulk_copy): its source read and destination
 * write, as the issuing thread's accesses now, 16 bytes at a time (the sizes the ABI
 * carries); a destination in another block's shared memory is checked in the owner's
 * shadow, as any access there. */
extern "C" __device__ void __scord_bulk_copy(uint64_t dst, uint32_t dst_site, uint64_t src, uint32_t src_site,
                                             uint32_t size)
{
    access_range(src, size, SC_ABI_KIND_READ, src_site);
    access_range(dst, size, SC_ABI_KIND_WRITE, dst_site);
}

/* ---- tensor copies (docs/devrt.md, "Tensor copies") ------------------------------ */

/* The record of the tensor map at generic address `map` (a kernel parameter, constant
 * or global memory): the newest one holding its bytes, or 0 when the program did not
 * encode it through the driver (a map written on the device). */
static __device__ const ScDevTensorMap *find_tensor_map(const ScDevLaunch *l, uint64_t map)
{
    const uint64_t *p = (const uint64_t *)map;
    uint64_t first = p[0];
    const ScDevTensorMap *maps = (const ScDevTensorMap *)l->tensor_maps;
    for (uint32_t i = l->n_tensor_maps; i-- > 0;) {
        const ScDevTensorMap *m = &maps[i];
        if (m->map[0] != first)
            continue;
        uint32_t w = 1;
        while (w < 16 && m->map[w] == p[w])
            w++;
        if (w == 16)
            return m;
    }
    return 0;
}

/* Before a tensor copy in tile mode (cp.async.bulk.tensor, TMA): the box of the map at
 * the coordinates c, its rows in global memory (the part of each inside the tensor)
 * and the whole box in shared memory, as the issuing thread's accesses as of the
 * instruction, like a bulk copy's (read global, write shared; the other way round for
 * a copy to global). A map the host never saw, or of a form not followed, leaves the
 * copy unchecked. */
extern "C" __device__ void __scord_tensor_copy(uint64_t smem, uint32_t smem_site, uint64_t map, uint32_t global_site,
                                               uint32_t to_global, int32_t c0, int32_t c1, int32_t c2, int32_t c3,
                                               int32_t c4)
{
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (!l)
        return;
    const ScDevTensorMap *m = find_tensor_map(l, map);
    if (!m || !m->checked) {
        count_unchecked(l);
        return;
    }
    const int32_t c[5] = {c0, c1, c2, c3, c4};
    uint32_t global_kind = to_global ? SC_ABI_KIND_WRITE : SC_ABI_KIND_READ;
    uint32_t shared_kind = to_global ? SC_ABI_KIND_READ : SC_ABI_KIND_WRITE;
    access_range(smem, sc_dev_tensor_box_bytes(m), shared_kind, smem_site);
    for (uint32_t row = 0, rows = sc_dev_tensor_rows(m); row < rows; row++) {
        uint64_t addr;
        uint32_t bytes;
        if (sc_dev_tensor_row(m, c, row, &addr, &bytes))
            access_range(addr, bytes, global_kind, global_site);
    }
}

/* ---- cluster barriers (docs/rules.md section 11, "Clusters") --------------------- */

/* The address a cluster's barrier synchronizes through, as a flag of the sync table:
 * one of the node ring's (the program never accesses it), one per cluster. */
static __device__ __forceinline__ uint64_t cluster_flag(const ScDevLaunch *l)
{
#if __CUDA_ARCH__ >= 900
    uint32_t x, y, z, nx, ny;
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(x));
    asm("mov.u32 %0, %%clusterid.y;" : "=r"(y));
    asm("mov.u32 %0, %%clusterid.z;" : "=r"(z));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(nx));
    asm("mov.u32 %0, %%nclusterid.y;" : "=r"(ny));
    uint32_t id = x + nx * (y + ny * z);
#else
    uint32_t id = block_linear();
#endif
    uint32_t words = (1u << SC_DEV_SYNC_NODES_BITS) * (uint32_t)(sizeof(ScDevSyncNode) / sizeof(uint64_t));
    return l->sync_nodes + 8u * (uint64_t)(id % words);
}

/* barrier.cluster.arrive (before it) and barrier.cluster.wait (after it). Within the
 * block the pair is a full barrier: the arrive counts the thread in, the wait checks
 * that every lane arrived. Across the blocks of the cluster it is a release sequence
 * on the cluster's flag: the thread that completes its block's instance releases for
 * the whole block (its record's barrier knowledge is the new instance, so it covers
 * every access of the block made before its arrive) with a read-modify-write of the
 * flag, and each waiter acquires the flag at cluster scope. A relaxed arrive releases
 * nothing. */
extern "C" __device__ void __scord_cluster_barrier(uint32_t site, uint32_t info)
{
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (!l)
        return;
    uint64_t flag = cluster_flag(l);
    if (SC_ABI_INFO_KIND(info) == SC_ABI_KIND_RMW) {
        if (!arrive(l, slot, site, 0, SC_ABI_ALL_THREADS))
            return;
        /* The block's release, marked as a barrier's (SC_RULES_REC_BARRIER: on shared
         * memory it orders a word's whole history before the recorder it covers) for
         * this node only, then published as a relaxed read-modify-write would carry it. */
        ScDevThread *th = thread_state(l, slot);
        uint32_t sem = SC_ABI_INFO_SEM(info);
        if (sem == SC_ABI_SEM_RELEASE || sem == SC_ABI_SEM_ACQ_REL) {
            __scord_release(l, slot, SC_ABI_INFO_SCOPE(info));
            th->release |= SC_RULES_REC_BARRIER;
            info = (info & ~(0xfu << 11)) | SC_ABI_SEM_RELAXED << 11;
        }
        __scord_sync_access(l, slot, flag, info, SC_RULES_CLS_ATOMIC);
        th->release &= ~SC_RULES_REC_BARRIER;
        return;
    }
    __scord_bar_pass(site, 0, SC_ABI_ALL_THREADS);
    /* Noted as a counter's ticket is: a chain that carries nothing (relaxed arrives)
     * is a failed attempt, missing_fence, not a flag's first value. */
    uint32_t ticket = (info & ~(7u << 8)) | SC_ABI_KIND_RMW << 8;
    __scord_sync_access(l, slot, flag, ticket, SC_RULES_CLS_SREAD);
    __scord_acquire(l, slot, SC_ABI_SCOPE_CLUSTER);
}

/* ---- asynchronous copies (docs/devrt.md, "Asynchronous copies") ------------------ */

/* Completes pending copy i of the thread (removing it): the copy wrote its destination
 * at some time between its issue and now, so it is checked as the thread's write with
 * its clocks at the issue (what was not ordered before the issue races with it, a
 * reader a barrier after the issue ordered included), then with its clocks now, which
 * the word keeps (what will not be ordered after this point races with it). */
extern "C" __device__ __noinline__ void __scord_async_complete(ScDevAsync *as, uint32_t i)
{
    uint64_t e = as->copies[i];
    as->issued = as->clocks[i];
    for (uint32_t j = i + 1; j < as->n; j++) {
        as->copies[j - 1] = as->copies[j];
        as->clocks[j - 1] = as->clocks[j];
    }
    as->n--;
    uint64_t dst = own_shared_base() + SC_DEV_ASYNC_OFF(e);
    uint32_t info =
        SC_ABI_INFO(SC_DEV_ASYNC_SIZE(e), SC_ABI_KIND_WRITE, SC_ABI_SEM_WEAK, SC_ABI_SCOPE_NONE, SC_ABI_SPACE_SHARED);
    __scord_access(dst, info | SC_ABI_INFO_ASYNC, SC_DEV_ASYNC_SITE(e), 0);
    __scord_access(dst, info, SC_DEV_ASYNC_SITE(e), 0);
}

/* A cp.async is issued (its source read and destination write are checked as of the
 * instruction right after this): its write is checked again when a wait completes it.
 * A pending copy of the thread to the same bytes is completed first, before the new
 * write's check replaces the history it would be checked against (the program
 * overwrites a stage it has not waited for). A thread with SC_DEV_ASYNC_COPIES copies
 * pending already leaves the new one at its first check. */
extern "C" __device__ void __scord_async_copy(uint64_t dst, uint32_t info, uint32_t site)
{
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (!l || !__isShared((const void *)dst))
        return;
    uint32_t off = own_shared_offset(dst), size = SC_ABI_INFO_SIZE(info);
    ScDevAsync *as = l->async ? async_state(l, slot) : 0;
    for (uint32_t i = as ? as->n : 0; i-- > 0;) {
        uint64_t e = as->copies[i];
        if (SC_DEV_ASYNC_OFF(e) < off + size && off < SC_DEV_ASYNC_OFF(e) + SC_DEV_ASYNC_SIZE(e))
            __scord_async_complete(as, i);
    }
    ScRulesAccess r;
    r.tid = thread_linear();
    if (!as || as->n == SC_DEV_ASYNC_COPIES || off >= (1u << 20) || !read_clocks(&r, l, slot)) {
        atomicAdd((unsigned long long *)&l->async_unfollowed, 1ull);
        return;
    }
    as->clocks[as->n] = SC_DEV_ASYNC_CLOCKS(r.bar_own, r.sync_now, r.sync_floor);
    as->copies[as->n++] = SC_DEV_ASYNC_ENTRY(off, size, as->groups, site);
}

/* cp.async.commit_group closes the thread's open group; wait_group N completes every
 * committed group but the newest N (copies not committed yet stay pending), wait_all
 * commits and completes all; a cp.async.mbarrier.arrive (and the thread's exit)
 * completes every copy. */
extern "C" __device__ __noinline__ void __scord_async_group(uint32_t op)
{
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (!l || !l->async)
        return;
    ScDevAsync *as = async_state(l, slot);
    if (op == SC_ABI_ASYNC_COMMIT || op == SC_ABI_ASYNC_WAIT_ALL)
        as->groups = (as->groups + 1u) & 0xffu;
    for (uint32_t i = 0; i < as->n;) {
        if (sc_dev_async_completes(as->groups, SC_DEV_ASYNC_GROUP(as->copies[i]), op))
            __scord_async_complete(as, i);
        else
            i++;
    }
}
