/* rules.h: the per-location race rules: the 64-bit shadow word, the clocks the device
 * runtime keeps, and the pure decision function the device runtime and the host model
 * checker share. Header-only portable C17 / CUDA C: no libc, no globals, fixed-width
 * types. Design, state machine and approximations: docs/rules.md. */
#ifndef SC_RULES_H
#define SC_RULES_H

#include <stdint.h>

#include "rules/memory_model.h"

#ifdef __CUDACC__
#define SC_HD __host__ __device__
#else
#define SC_HD
#endif

/* Branch markers (SQLite's testcase()): the model checker defines SC_RULES_COV to count
 * them and proves that it reached every one; everywhere else they cost nothing. */
#ifndef SC_RULES_COV
#define SC_RULES_COV(id) ((void)0)
#endif

#define SC_RULES_COV_LIST(X)                                                                \
    X(FAST_PATH)          /* same thread, same clocks, class already recorded */            \
    X(FRESH)              /* first access to an empty word or cell */                       \
    X(SPLIT_MARKER)       /* called on a word that is already split */                      \
    X(MASK_MERGE)         /* different footprint, byte histories stay uniform */            \
    X(MASK_SPLIT)         /* different footprint, the word must be split */                 \
    X(CELL_MIXED)         /* a cell keeps strong occurrences of two footprints */           \
    X(OTHER_BLOCK)        /* accessor in another block than the recorded one */             \
    X(BLOCK_SYNCED)       /* a barrier orders the recorded accesses before the accessor */  \
    X(OTHER_WARP)         /* same block, other warp, same barrier epoch */                  \
    X(WARP_WIDE)          /* a warp-wide __syncwarp orders the warp's accesses */           \
    X(SAME_THREAD_SYNCED) /* the recorded thread itself after a partial __syncwarp */       \
    X(LANE_SYNCED)        /* another lane ordered after the recorder by a partial sync */  \
    X(LANE_UNSYNCED)      /* another lane not ordered after the recorder */                 \
    X(WARP_TO_LSYNC)      /* other lanes' accesses become ordered through partial syncs */  \
    X(LSYNC_TO_WARP)      /* ordered-for-the-recorder accesses not ordered for this lane */ \
    X(TILE_GROW)          /* the lane tile widens */                                        \
    X(WEAK_WRITE_RESET)   /* a weak write ends the history that precedes it */              \
    X(XCTA_SET)           /* a cta-scoped strong write enters the history */               \
    X(MS_SAME_BLOCK)      /* strong pair in one block: morally strong */                    \
    X(MS_CROSS_BLOCK)     /* strong pair across blocks, both scopes gpu: morally strong */  \
    X(MS_SCOPE_FAIL)      /* strong pair across blocks, a cta scope: not morally strong */  \
    X(MS_FOOTPRINT_FAIL)  /* strong pair with different byte ranges */                      \
    X(NO_CONFLICT)        /* unordered pair of reads */                                     \
    X(CAUSE_SCOPE)                                                                          \
    X(CAUSE_ATOMIC_PLAIN)                                                                   \
    X(CAUSE_SYNCWARP)                                                                       \
    X(CAUSE_BARRIER)                                                                        \
    X(CAUSE_BLOCKS)                                                                         \
    X(RACE_SELF)          /* the partner is the recorded accessor's own access */           \
    X(RACE_OTHER)         /* the partner is certainly another thread's summarized access */ \
    X(RACE_UNSURE)        /* the partner is in a summary that may hold the thread's own */  \
    X(WARN_UNSURE)        /* strong_vs_rmw withheld: the partner may be the thread's own */ \
    X(WARN_STRONG_RMW)                                                                      \
    X(RACE_RESET)         /* after a race the history restarts at the access */           \
    X(SREAD_KEEPS)        /* a concurrent strong read leaves the recorder recorded */     \
    X(SREAD_KEEPS_NEWER)  /* ... while partial syncs of other lanes moved the warp clock */ \
    X(READ_JOINS)         /* a weak read of another warp or block joins a history of reads */ \
    X(ATOMIC_JOINS)       /* an atomic of another warp or block joins a history of atomics */ \
    X(RACE_HINT)          /* the site word names the recorder's own racing access */   \
    X(WARN_HINT)          /* ... or its own atomic or strong write a strong_vs_rmw meets */ \
    X(ACQ_ORDERED)        /* an acquired release orders the recorder before the accessor */ \
    X(ACQ_BSYNC)          /* an acquired release orders what a barrier ordered before the recorder */ \
    X(ACQ_MOVE)           /* classes ordered only by an acquired release become LSYNC */ \
    X(ACQ_BEFORE)         /* a release covers what syncs ordered before its releaser's
                             later access */                                            \
    X(ACQ_MOVED)          /* the word's trail orders a class its recorder's
                             relation does not */

enum {
#define SC_RULES_COV_ENUM(name) SC_RULES_COV_##name,
    SC_RULES_COV_LIST(SC_RULES_COV_ENUM)
#undef SC_RULES_COV_ENUM
        SC_RULES_COV_COUNT
};

/* ---- Access classes and scopes --------------------------------------------------- */

/* What the rules need to know of an access: weak or strong, read or write. Atomics
 * (atom and red) are strong writes that read-modify-write; relaxed/volatile/acquire/
 * release ld and st are the strong plain reads and writes. */
typedef enum ScRulesCls {
    SC_RULES_CLS_READ,   /* weak ld */
    SC_RULES_CLS_WRITE,  /* weak st */
    SC_RULES_CLS_SREAD,  /* strong ld (relaxed, acquire, volatile, mmio) */
    SC_RULES_CLS_SWRITE, /* strong st (relaxed, release, volatile, mmio) */
    SC_RULES_CLS_ATOMIC, /* atom, red */
    SC_RULES_NCLS
} ScRulesCls;



/* Where the recorded accesses of one class lie relative to the recorded (last)
 * accessor. Ordered so that a later position is unordered with at least every thread
 * an earlier one is unordered with: the word keeps the latest position per class. */
typedef enum ScRulesPos {
    SC_RULES_POS_NONE,  /* no access of the class */
    SC_RULES_POS_BSYNC, /* its block, before a barrier the block passed since */
    SC_RULES_POS_WSYNC, /* its warp, before a warp-wide __syncwarp since */
    SC_RULES_POS_LSYNC, /* its warp, ordered before it by partial syncs, maybe not before other lanes */
    SC_RULES_POS_SELF,  /* itself, at its recorded clocks */
    SC_RULES_POS_WARP,  /* other lanes of its warp, not ordered before it */
    SC_RULES_POS_BLOCK, /* other warps of its block, in its barrier epoch */
    SC_RULES_POS_GRID,  /* other blocks */
} ScRulesPos;

/* Race causes the rules decide (the contract's snake_case names in comments); the
 * device runtime maps them onto the report's ScCause. */
typedef enum ScRulesCause {
    SC_RULES_CAUSE_NONE,
    SC_RULES_CAUSE_MISSING_BARRIER,       /* missing_barrier */
    SC_RULES_CAUSE_MISSING_SYNCWARP,      /* missing_syncwarp */
    SC_RULES_CAUSE_UNSYNCHRONIZED_BLOCKS, /* unsynchronized_blocks */
    SC_RULES_CAUSE_ATOMIC_VS_PLAIN,       /* atomic_vs_plain */
    SC_RULES_CAUSE_ATOMIC_SCOPE,          /* atomic_scope */
    SC_RULES_CAUSE_STRONG_VS_RMW,         /* strong_vs_rmw (warning) */
} ScRulesCause;

/* ---- Clocks ---------------------------------------------------------------------- */

/* Counters run modulo 2^k - 1, not 2^k: a stale shadow word (one untouched for a whole
 * counter period) reads as current only after an exact multiple of the period, and an
 * odd period is not a power of two, the stride of most ring buffers. */
#define SC_RULES_BAR_BITS 10
#define SC_RULES_SYNC_BITS 7
#define SC_RULES_BLK_BITS 14
#define SC_RULES_BAR_MOD ((1u << SC_RULES_BAR_BITS) - 1u)   /* 1023 */
#define SC_RULES_SYNC_MOD ((1u << SC_RULES_SYNC_BITS) - 1u) /* 127 */

SC_HD static inline uint32_t sc_rules_ctr_next(uint32_t c, uint32_t mod)
{
    return c + 1u == mod ? 0u : c + 1u;
}

/* How many counter steps ago x was, seen from now (both < mod). */
SC_HD static inline uint32_t sc_rules_age(uint32_t now, uint32_t x, uint32_t mod)
{
    return now >= x ? now - x : now + mod - x;
}

/* a is strictly more recent than b. */
SC_HD static inline int sc_rules_newer(uint32_t now, uint32_t a, uint32_t b, uint32_t mod)
{
    return sc_rules_age(now, a, mod) < sc_rules_age(now, b, mod);
}

/* Block clock, one per resident block. Every barrier instance (bar.sync, bar.red,
 * barrier.sync, named or not) gets the next sequence number `now`. seen[w][x] is the
 * latest instance through which warp w knows warp x (FastTrack's vector clock, over
 * warps); own[w] is the latest instance warp w passed. While a block uses only
 * block-wide barriers every entry equals now, and the runtime may pass NULL. */
typedef struct ScRulesBlockClk {
    uint16_t now;
    uint16_t own[32];
    uint16_t seen[32][32];
} ScRulesBlockClk;

/* Warp clock, one per resident warp. Every bar.warp.sync instance gets the next
 * sequence number `now`; seen[l][m] is the latest instance through which lane l knows
 * lane m; floor is the latest instance all 32 lanes took part in (warp-wide). While a
 * warp uses only full masks every entry equals now, and the runtime may pass NULL. */
typedef struct ScRulesWarpClk {
    uint16_t now;
    uint16_t floor;
    uint16_t seen[32][32];
} ScRulesWarpClk;

SC_HD static inline void sc_rules_block_clk_init(ScRulesBlockClk *b, uint32_t start)
{
    b->now = (uint16_t)start;
    for (int w = 0; w < 32; w++) {
        b->own[w] = (uint16_t)start;
        for (int x = 0; x < 32; x++)
            b->seen[w][x] = (uint16_t)start;
    }
}

SC_HD static inline void sc_rules_warp_clk_init(ScRulesWarpClk *c, uint32_t start)
{
    c->now = (uint16_t)start;
    c->floor = (uint16_t)start;
    for (int l = 0; l < 32; l++)
        for (int m = 0; m < 32; m++)
            c->seen[l][m] = (uint16_t)start;
}

/* A barrier instance completed with the warps in `warps` (bit w = warp w) taking part:
 * they join their knowledge and all learn the new instance of one another. */
SC_HD static inline void sc_rules_block_barrier(ScRulesBlockClk *b, uint32_t warps)
{
    uint32_t seq = sc_rules_ctr_next(b->now, SC_RULES_BAR_MOD);
    uint16_t join[32];
    for (int x = 0; x < 32; x++) {
        uint32_t best = b->seen[0][x];
        int any = 0;
        for (int w = 0; w < 32; w++) {
            if (!((warps >> w) & 1u))
                continue;
            if (!any || sc_rules_newer(b->now, b->seen[w][x], best, SC_RULES_BAR_MOD))
                best = b->seen[w][x];
            any = 1;
        }
        join[x] = (uint16_t)(((warps >> x) & 1u) ? seq : best);
    }
    for (int w = 0; w < 32; w++) {
        if (!((warps >> w) & 1u))
            continue;
        for (int x = 0; x < 32; x++)
            b->seen[w][x] = join[x];
        b->own[w] = (uint16_t)seq;
    }
    b->now = (uint16_t)seq;
}

/* A bar.warp.sync instance completed with the lanes in `lanes`; warp_wide says every
 * lane of the warp took part (the full mask, exited lanes counting as present). */
SC_HD static inline void sc_rules_warp_sync(ScRulesWarpClk *c, uint32_t lanes, int warp_wide)
{
    uint32_t seq = sc_rules_ctr_next(c->now, SC_RULES_SYNC_MOD);
    uint16_t join[32];
    for (int m = 0; m < 32; m++) {
        uint32_t best = c->seen[0][m];
        int any = 0;
        for (int l = 0; l < 32; l++) {
            if (!((lanes >> l) & 1u))
                continue;
            if (!any || sc_rules_newer(c->now, c->seen[l][m], best, SC_RULES_SYNC_MOD))
                best = c->seen[l][m];
            any = 1;
        }
        join[m] = (uint16_t)(((lanes >> m) & 1u) ? seq : best);
    }
    for (int l = 0; l < 32; l++) {
        if (!((lanes >> l) & 1u))
            continue;
        for (int m = 0; m < 32; m++)
            c->seen[l][m] = join[m];
    }
    c->now = (uint16_t)seq;
    if (warp_wide)
        c->floor = (uint16_t)seq;
}

/* ---- The access ------------------------------------------------------------------ */

/* One access to one shadow word (or byte cell) as the rules see it: what it is, who
 * makes it, and that thread's clocks. */
typedef struct ScRulesAccess {
    uint8_t cls;   /* ScRulesCls */
    uint8_t scope; /* ScScope; SC_SCOPE_NONE for weak accesses */
    uint8_t mask;  /* the bytes of this 4-byte word it covers, 1..15 */
    uint32_t blk;  /* linear block index (the word keeps SC_RULES_BLK_BITS of it) */
    uint32_t tid;  /* linear thread index in the block, < 1024: warp = tid / 32 */
    /* Block clock: now, the thread's warp's own[], and its seen[] row (NULL: all now). */
    uint16_t bar_now, bar_own;
    const uint16_t *bar_seen;
    /* Warp clock: now, floor, and the thread's lane's seen[] row (NULL: all now). */
    uint16_t sync_now, sync_floor;
    const uint16_t *sync_seen;
    /* The word's site word as the runtime read it with the word (0: none). It chooses
     * the reported previous access; of the verdicts it decides only a strong_vs_rmw
     * warning whose partner the word alone cannot tell from this thread's own
     * (WARN_HINT), never a race. */
    uint64_t hint;
    /* Release records (sc_rules_release_record) this thread has acquired: a recorder's
     * access one of them covers is ordered before this access, even across blocks. */
    const uint64_t *acq;
    uint32_t n_acq;
    /* Classes of the word (a bit per ScRulesCls) whose every access is ordered before
     * this one, as the word's trail shows (sc_rules_trail_classes): the word restated
     * them relative to a recorder this thread is not ordered after. */
    uint8_t moved;
    /* The launch's clusters of several blocks (sm_90); NULL: each block is its own
     * cluster, and a cluster-scoped access spans its block only. */
    const struct ScRulesCluster *cluster;
    /* The word is in shared memory: every thread that reaches it is in one cluster. */
    uint8_t shared;
} ScRulesAccess;

/* Thread block clusters: the grid's extent in blocks along x and y, and a cluster's
 * along x, y and z (clusters tile the grid). */
typedef struct ScRulesCluster {
    uint32_t grid_x, grid_y;
    uint32_t dim_x, dim_y, dim_z;
} ScRulesCluster;

/* Are blocks b1 and b2 (linear indices) in one cluster? */
SC_HD static inline int sc_rules_same_cluster(const ScRulesCluster *c, uint32_t b1, uint32_t b2)
{
    if (!c || b1 == b2)
        return b1 == b2;
    uint32_t x1 = b1 % c->grid_x, y1 = b1 / c->grid_x % c->grid_y, z1 = b1 / c->grid_x / c->grid_y;
    uint32_t x2 = b2 % c->grid_x, y2 = b2 / c->grid_x % c->grid_y, z2 = b2 / c->grid_x / c->grid_y;
    return x1 / c->dim_x == x2 / c->dim_x && y1 / c->dim_y == y2 / c->dim_y && z1 / c->dim_z == z2 / c->dim_z;
}

/* ---- The shadow word ------------------------------------------------------------- */

/*
 *  bit  0.. 3  mask   word: the bytes the history covers; cell: the footprint of the
 *                     strong accesses in it (0: several footprints)
 *       4..18  reach  ScRulesPos of each class, 3 bits each, class c at 4 + 3c
 *      19      xcta   a cta/cluster-scoped strong write is in the history
 *      20..22  tile   log2 of the aligned lane tile holding the LSYNC/WARP accesses
 *      23..27  lane   the last accessor: lane
 *      28..32  warp   warp in its block
 *      33..46  blk    block index, low 14 bits
 *      47..56  bar    its block clock's own[] when it accessed
 *      57..63  sync   its warp clock's now when it accessed
 *
 *  0 is the empty word. mask 0 with other bits set marks a split word whose byte
 *  cells the runtime keeps elsewhere (sc_rules_split_word).
 */
#define SC_RULES_MASK_SHIFT 0
#define SC_RULES_MASK_BITS 4
#define SC_RULES_REACH_SHIFT 4
#define SC_RULES_POS_BITS 3
#define SC_RULES_XCTA_SHIFT 19
#define SC_RULES_TILE_SHIFT 20
#define SC_RULES_TILE_BITS 3
#define SC_RULES_LANE_SHIFT 23
#define SC_RULES_WARP_SHIFT 28
#define SC_RULES_BLK_SHIFT 33
#define SC_RULES_BAR_SHIFT 47
#define SC_RULES_SYNC_SHIFT 57

#define SC_RULES_FIELD(shift, bits) ((((uint64_t)1 << (bits)) - 1u) << (shift))
#define SC_RULES_MASK_FIELD SC_RULES_FIELD(SC_RULES_MASK_SHIFT, SC_RULES_MASK_BITS)
#define SC_RULES_REACH_FIELD SC_RULES_FIELD(SC_RULES_REACH_SHIFT, SC_RULES_POS_BITS * SC_RULES_NCLS)
#define SC_RULES_XCTA_FIELD SC_RULES_FIELD(SC_RULES_XCTA_SHIFT, 1)
#define SC_RULES_TILE_FIELD SC_RULES_FIELD(SC_RULES_TILE_SHIFT, SC_RULES_TILE_BITS)
#define SC_RULES_WHO_FIELD SC_RULES_FIELD(SC_RULES_LANE_SHIFT, 64 - SC_RULES_LANE_SHIFT)

/* The recorded accessor's state, unpacked. */
typedef struct ScRulesState {
    uint8_t mask;
    uint8_t reach[SC_RULES_NCLS]; /* ScRulesPos */
    uint8_t xcta;
    uint8_t tile;
    uint8_t lane, warp;
    uint16_t blk;
    uint16_t bar, sync;
} ScRulesState;

SC_HD static inline ScRulesState sc_rules_decode(uint64_t w)
{
    ScRulesState s;
    s.mask = (uint8_t)(w & 0xfu);
    for (int c = 0; c < SC_RULES_NCLS; c++)
        s.reach[c] = (uint8_t)((w >> (SC_RULES_REACH_SHIFT + SC_RULES_POS_BITS * c)) & 7u);
    s.xcta = (uint8_t)((w >> SC_RULES_XCTA_SHIFT) & 1u);
    s.tile = (uint8_t)((w >> SC_RULES_TILE_SHIFT) & 7u);
    s.lane = (uint8_t)((w >> SC_RULES_LANE_SHIFT) & 31u);
    s.warp = (uint8_t)((w >> SC_RULES_WARP_SHIFT) & 31u);
    s.blk = (uint16_t)((w >> SC_RULES_BLK_SHIFT) & ((1u << SC_RULES_BLK_BITS) - 1u));
    s.bar = (uint16_t)((w >> SC_RULES_BAR_SHIFT) & ((1u << SC_RULES_BAR_BITS) - 1u));
    s.sync = (uint16_t)((w >> SC_RULES_SYNC_SHIFT) & ((1u << SC_RULES_SYNC_BITS) - 1u));
    return s;
}

SC_HD static inline uint64_t sc_rules_encode(const ScRulesState *s)
{
    uint64_t w = (uint64_t)(s->mask & 0xfu);
    for (int c = 0; c < SC_RULES_NCLS; c++)
        w |= (uint64_t)(s->reach[c] & 7u) << (SC_RULES_REACH_SHIFT + SC_RULES_POS_BITS * c);
    w |= (uint64_t)(s->xcta & 1u) << SC_RULES_XCTA_SHIFT;
    w |= (uint64_t)(s->tile & 7u) << SC_RULES_TILE_SHIFT;
    w |= (uint64_t)(s->lane & 31u) << SC_RULES_LANE_SHIFT;
    w |= (uint64_t)(s->warp & 31u) << SC_RULES_WARP_SHIFT;
    w |= (uint64_t)(s->blk & ((1u << SC_RULES_BLK_BITS) - 1u)) << SC_RULES_BLK_SHIFT;
    w |= (uint64_t)(s->bar & ((1u << SC_RULES_BAR_BITS) - 1u)) << SC_RULES_BAR_SHIFT;
    w |= (uint64_t)(s->sync & ((1u << SC_RULES_SYNC_BITS) - 1u)) << SC_RULES_SYNC_SHIFT;
    return w;
}

/* The accessor's identity and clocks as they sit in a word (bits 23..63). */
SC_HD static inline uint64_t sc_rules_who(const ScRulesAccess *a)
{
    return ((uint64_t)(a->tid & 31u) << SC_RULES_LANE_SHIFT) |
           ((uint64_t)((a->tid >> 5) & 31u) << SC_RULES_WARP_SHIFT) |
           ((uint64_t)(a->blk & ((1u << SC_RULES_BLK_BITS) - 1u)) << SC_RULES_BLK_SHIFT) |
           ((uint64_t)a->bar_own << SC_RULES_BAR_SHIFT) |
           ((uint64_t)a->sync_now << SC_RULES_SYNC_SHIFT);
}

SC_HD static inline unsigned sc_rules_reach(uint64_t w, int cls)
{
    return (unsigned)((w >> (SC_RULES_REACH_SHIFT + SC_RULES_POS_BITS * cls)) & 7u);
}

/* ---- Split words ------------------------------------------------------------------ */

/* A word whose bytes have different histories is split: the runtime allocates four
 * byte cells (64-bit words in a pool), fills them with sc_rules_split_cell, then
 * installs sc_rules_split_word(index) with a CAS against the word it split; from then
 * on it calls sc_rules_access_cell on the cells of the bytes an access covers. */
SC_HD static inline int sc_rules_is_split(uint64_t w)
{
    return (w & SC_RULES_MASK_FIELD) == 0 && w != 0;
}

SC_HD static inline uint64_t sc_rules_split_word(uint64_t index)
{
    return (index + 1u) << SC_RULES_MASK_BITS;
}

SC_HD static inline uint64_t sc_rules_split_index(uint64_t w)
{
    return (w >> SC_RULES_MASK_BITS) - 1u;
}

/* The initial cell of byte `byte` (0..3) of a word that is being split: the word's
 * history if it covered the byte (its mask then reads as the footprint), else empty. */
SC_HD static inline uint64_t sc_rules_split_cell(uint64_t word, unsigned byte)
{
    return ((word >> byte) & 1u) ? word : 0u;
}

/* ---- The site word ------------------------------------------------------------------ */

/* What the report needs of the recorded accesses and the word cannot hold: a second
 * 64-bit word next to the shadow word, naming the instructions of the recorder's own
 * accesses the word holds, one per family (reads; weak, strong and atomic writes).
 * The runtime writes it only together with the word (one 128-bit compare-and-swap of
 * the pair on sm_90; before it, while it holds the word; in cache mode, under the
 * entry's lock), so read together with the word it always describes the word's value.
 *   bits  0..23  read site + 1 (0: none)       27..50  write site + 1 (0: none)
 *        24      the read is strong            51..52  write class: 0 weak, 1 strong,
 *        25      the read is block-scoped               2 atomic
 *        26      SC_RULES_SITE_TRAIL           53      the write is block-scoped
 *        55..63  the recorder's block index, bits 14..22 (the word has 0..13)
 * Site ids above SC_RULES_SITE_MAX are not kept: such a partner is reported without
 * its instruction. SC_RULES_SITE_TRAIL: the runtime sets it when it keeps a trail of the
 * word (sc_rules_trail_classes); sc_rules_site_next keeps it while the word stays as it
 * is and clears it when the word changes; the rules read it only to leave a trailed
 * word out of READ_JOINS. */
#define SC_RULES_SITE_BITS 24
#define SC_RULES_SITE_MAX ((1u << SC_RULES_SITE_BITS) - 2u)
#define SC_RULES_SITE_NONE 0xffffffffu
#define SC_RULES_SITE_WRITE_SHIFT 27
#define SC_RULES_SITE_BLK_SHIFT 55
#define SC_RULES_SITE_TRAIL ((uint64_t)1 << 26)

SC_HD static inline int rules_is_read(int c)
{
    return c == SC_RULES_CLS_READ || c == SC_RULES_CLS_SREAD;
}

/* A cta- or cluster-scoped access includes only its own block's threads, or those of
 * its cluster (rules_pair). */
SC_HD static inline int rules_block_scoped(int scope)
{
    return scope == SC_SCOPE_CTA || scope == SC_SCOPE_CLUSTER;
}

/* A family's slot for access a at site `id`: 26 bits for reads, 27 for writes. */
SC_HD static inline uint64_t rules_site_slot(const ScRulesAccess *a, uint32_t id)
{
    uint64_t site = id <= SC_RULES_SITE_MAX ? (uint64_t)id + 1u : 0u;
    uint64_t kind = rules_is_read(a->cls) ? (a->cls == SC_RULES_CLS_SREAD)
                    : a->cls == SC_RULES_CLS_WRITE ? 0u
                    : a->cls == SC_RULES_CLS_SWRITE ? 1u
                                                    : 2u;
    uint64_t block = (uint64_t)rules_block_scoped(a->scope);
    return rules_is_read(a->cls) ? site | kind << 24 | block << 25 : site | kind << 24 | block << 26;
}

/* The slot of the family of class c. */
SC_HD static inline uint64_t rules_site_slot_of(uint64_t site, int c)
{
    return rules_is_read(c) ? site & 0x3ffffffu
                            : (site >> SC_RULES_SITE_WRITE_SHIFT) & 0x7ffffffu;
}

/* The class a non-empty slot of the family of c names. */
SC_HD static inline int rules_site_slot_cls(uint64_t slot, int c)
{
    unsigned kind = (unsigned)(slot >> 24) & (rules_is_read(c) ? 1u : 3u);
    if (rules_is_read(c))
        return kind ? SC_RULES_CLS_SREAD : SC_RULES_CLS_READ;
    return kind == 0 ? SC_RULES_CLS_WRITE : kind == 1 ? SC_RULES_CLS_SWRITE : SC_RULES_CLS_ATOMIC;
}

SC_HD static inline int rules_site_slot_block_scoped(uint64_t slot, int c)
{
    return (int)(slot >> (rules_is_read(c) ? 25 : 26)) & 1;
}

/* After `old` became `next` for access a at site `id`, holding the word (or the byte
 * cell, `cell`): the new site word. A thread that becomes the recorder starts it over;
 * the recorder again at the same clocks (the same `who`, the same block) keeps the
 * other family's slot; a strong read that joined the history without recording leaves
 * it as it is, unless it moved the recorder's clocks. A word's slot names one
 * instruction for every byte the word's history covers, so it names none when that
 * instruction left some of them out (a byte cell has one byte: always named). */
SC_HD static inline uint64_t rules_site_slots_next(uint64_t site, uint64_t old, uint64_t next,
                                                   const ScRulesAccess *a, uint32_t id, int cell)
{
    if (((next ^ sc_rules_who(a)) & SC_RULES_WHO_FIELD) != 0) {
        /* Not the recorder. A strong read that moved the recorder's clocks on (a
         * partial sync of other lanes) leaves no access of it at the word's clocks. */
        if (((next ^ old) & SC_RULES_WHO_FIELD) == 0)
            return site;
        return site & ((uint64_t)0x1ffu << SC_RULES_SITE_BLK_SHIFT);
    }
    uint64_t blk_hi = (uint64_t)((a->blk >> SC_RULES_BLK_BITS) & 0x1ffu);
    uint64_t ids = (1u << SC_RULES_SITE_BITS) - 1u;
    uint32_t old_mask = (uint32_t)(old & SC_RULES_MASK_FIELD);
    uint32_t next_mask = (uint32_t)(next & SC_RULES_MASK_FIELD);
    int same = old != 0 && ((old ^ next) & SC_RULES_WHO_FIELD) == 0 && site != 0 &&
               (site >> SC_RULES_SITE_BLK_SHIFT) == blk_hi;
    uint64_t slot = rules_site_slot(a, id);
    if (!cell && (a->mask & next_mask) != next_mask)
        slot &= ~ids;
    /* The other family's slot, its instruction kept while the bytes it covered are the
     * word's. */
    uint64_t other = 0;
    if (same) {
        int oc = rules_is_read(a->cls) ? SC_RULES_CLS_WRITE : SC_RULES_CLS_READ;
        other = rules_site_slot_of(site, oc);
        if (!cell && next_mask != old_mask)
            other &= ~ids;
    }
    uint64_t out = blk_hi << SC_RULES_SITE_BLK_SHIFT;
    if (rules_is_read(a->cls))
        out |= slot | other << SC_RULES_SITE_WRITE_SHIFT;
    else
        out |= slot << SC_RULES_SITE_WRITE_SHIFT | other;
    return out;
}

/* The site word for `next`, made from `site` that went with `old` (above). A word's
 * trail describes it only as long as it is the word the trail led to: the trail bit
 * stays while the access leaves the word as it was, and goes when it changes it (the
 * runtime sets it again when the access extends or begins a trail). */
SC_HD static inline uint64_t sc_rules_site_next(uint64_t site, uint64_t old, uint64_t next,
                                                const ScRulesAccess *a, uint32_t id, int cell)
{
    uint64_t out = rules_site_slots_next(site, old, next, a, id, cell) & ~SC_RULES_SITE_TRAIL;
    return next == old ? out | (site & SC_RULES_SITE_TRAIL) : out;
}

/* The instruction of the recorder's access of class c the site word names, or
 * SC_RULES_SITE_NONE (none of that class is its latest of the family, or the id was
 * too large to keep). */
SC_HD static inline uint32_t sc_rules_site_of(uint64_t site, int c)
{
    uint64_t slot = rules_site_slot_of(site, c);
    uint32_t id = (uint32_t)(slot & ((1u << SC_RULES_SITE_BITS) - 1u));
    if (id == 0 || rules_site_slot_cls(slot, c) != c)
        return SC_RULES_SITE_NONE;
    return id - 1u;
}

/* The recorded accessor's block index from its word and site word (23 bits). */
SC_HD static inline uint32_t sc_rules_site_blk(uint64_t site, uint64_t word)
{
    return (uint32_t)((site >> SC_RULES_SITE_BLK_SHIFT) << SC_RULES_BLK_BITS) |
           (uint32_t)((word >> SC_RULES_BLK_SHIFT) & ((1u << SC_RULES_BLK_BITS) - 1u));
}

/* The word keeps 14 bits of the block index: blocks 2^14 apart look alike. Such blocks
 * are never resident together, but a later one meets an earlier one's history, and the
 * site word's high bits tell them apart. (Only a site word read under the word's lock
 * is sure to go with the word: the runtime decides again under it before it changes
 * the word, so an alias seen through a stale one may at most skip a change.) */
SC_HD static inline int rules_block_alias(const ScRulesAccess *a)
{
    return a->hint != 0 &&
           (a->hint >> SC_RULES_SITE_BLK_SHIFT) != ((a->blk >> SC_RULES_BLK_BITS) & 0x1ffu);
}

/* After a successful change of `word` for access a: is a the recorder now? (A
 * concurrent strong read leaves the previous recorder and its site word.) */
SC_HD static inline int sc_rules_records(uint64_t word, const ScRulesAccess *a)
{
    return ((word ^ sc_rules_who(a)) & SC_RULES_WHO_FIELD) == 0;
}

/* ---- Verdict ------------------------------------------------------------------------ */

typedef enum ScRulesResult {
    SC_RULES_UNCHANGED, /* no race, the word stays as it is: skip the CAS */
    SC_RULES_OK,        /* no race: CAS in the new word */
    SC_RULES_WARN,      /* legal but suspicious (strong_vs_rmw): CAS, then report */
    SC_RULES_RACE,      /* a race: CAS (the history restarts at this access), then report */
    SC_RULES_SPLIT,     /* split the word into byte cells first, then use the cells */
} ScRulesResult;

typedef struct ScRulesVerdict {
    uint8_t result;     /* ScRulesResult */
    uint8_t cause;      /* ScRulesCause (RACE, WARN) */
    uint8_t prev_cls;   /* ScRulesCls of the other access */
    uint8_t prev_exact; /* the other access is the recorded accessor's own access of
                           class prev_cls (the site word, when it matches, names it);
                           else it is a summarized access of some other thread and
                           prev_blk/prev_tid name the recorded accessor only */
    uint8_t prev_pos;   /* ScRulesPos of the other access's class relative to the
                           recorded accessor (SELF when exact), which bounds where it
                           was (rules_other_thread): WSYNC, LSYNC and WARP in the
                           recorder's warp, BSYNC and BLOCK in its block, GRID
                           anywhere */
    uint8_t flags;      /* SC_RULES_V_* */
    uint16_t prev_blk;  /* low SC_RULES_BLK_BITS bits */
    uint16_t prev_tid;
} ScRulesVerdict;

/* The summary keeps, per class, only its latest position, and a position bounds the
 * warp or block of its accesses, not the thread: after the recorder changes, a summary
 * may hold the accessing thread's own earlier accesses. The verdict never depends on
 * that; which pair a report names may. */
#define SC_RULES_V_CAUSE_SURE 1u  /* cause and prev_cls are those of a pair that races */
#define SC_RULES_V_WARN_UNSURE 2u /* a strong_vs_rmw partner may exist only in such a
                                     summary: not reported */

/* ---- Release records ------------------------------------------------------------- */

/* A release (fence or operation) of thread p is a point in p's clocks: the runtime
 * first moves p's warp clock on as a __syncwarp of p's lane alone would, so that p's
 * accesses before it carry an older sync value than those after. The record says
 * which recorded accesses it covers, those ordered before the release:
 *   bits  0..22  p's block        33..39  p's warp clock after the step
 *        23..32  p's thread       40..49  barrier knowledge: the oldest instance p's
 *        57      scope includes            warp knows every warp of its block at
 *                every block      50..56  p's warp clock's floor (last full __syncwarp)
 *        58      set (a record is never 0)
 *        59      scope includes the blocks of p's cluster (set with 57 too)
 */
#define SC_RULES_REC_SET ((uint64_t)1 << 58)
#define SC_RULES_REC_GPU ((uint64_t)1 << 57)
#define SC_RULES_REC_CLUSTER ((uint64_t)1 << 59)
/* Made by the thread that completed its block's part of a cluster barrier, for the
 * whole block: with it, a shared-memory word's history before its recorder, whose
 * access the record covers, is all ordered (ScRulesAccess.shared, rules_relate). */
#define SC_RULES_REC_BARRIER ((uint64_t)1 << 63)
/* The blocks a scope spans: its own, its cluster's, every block. */
enum { SC_RULES_SPAN_BLOCK, SC_RULES_SPAN_CLUSTER, SC_RULES_SPAN_GPU };

SC_HD static inline uint64_t sc_rules_release_record(uint32_t blk, uint32_t tid, uint32_t sync,
                                                     uint32_t bar_known, uint32_t floor, int span)
{
    return (uint64_t)(blk & 0x7fffffu) | (uint64_t)(tid & 0x3ffu) << 23 |
           (uint64_t)(sync & 0x7fu) << 33 | (uint64_t)(bar_known & 0x3ffu) << 40 |
           (uint64_t)(floor & 0x7fu) << 50 | (span >= SC_RULES_SPAN_GPU ? SC_RULES_REC_GPU : 0) |
           (span >= SC_RULES_SPAN_CLUSTER ? SC_RULES_REC_CLUSTER : 0) | SC_RULES_REC_SET;
}

/* The blocks a release record's scope spans: SC_RULES_SPAN_*. */
SC_HD static inline int sc_rules_rec_span(uint64_t rec)
{
    return (rec & SC_RULES_REC_GPU)       ? SC_RULES_SPAN_GPU
           : (rec & SC_RULES_REC_CLUSTER) ? SC_RULES_SPAN_CLUSTER
                                          : SC_RULES_SPAN_BLOCK;
}

SC_HD static inline uint32_t sc_rules_rec_blk(uint64_t rec) { return (uint32_t)(rec & 0x7fffffu); }
SC_HD static inline uint32_t sc_rules_rec_tid(uint64_t rec) { return (uint32_t)(rec >> 23) & 0x3ffu; }

/* How much of the history of s release record rec covers. SC_RULES_COVERS_ALL: the
 * recorded accessor's access at its clocks, and what is ordered before it: its own
 * access before the release (an older sync value, within half a period), or one of
 * its block a barrier (an instance older than the barrier knowledge) or a full
 * __syncwarp of its warp (older than the floor) ordered before the release.
 * SC_RULES_COVERS_BEFORE: the releaser's own access after the release with no step of
 * its warp clock since (the same sync value): what __syncwarps ordered before it (the
 * WSYNC and LSYNC positions) came before the release, as every __syncwarp, release
 * and taken acquire steps the clock; not its own access, nor what a barrier since
 * ordered (BSYNC: a barrier does not step the warp clock). A releaser that reads the
 * value it published keeps it covered for those that acquire it. BSYNC alone (or with
 * those): the recorder's barrier epoch is the release's barrier knowledge, so what a
 * barrier ordered before the recorder's access came before an instance through which
 * the releaser knows every warp, though the access itself may have come after the
 * release. 0: nothing. Each is the set of positions it covers, a bit per ScRulesPos.
 * Blocks are compared on the word's 14 bits. */
#define SC_RULES_COVERS_BEFORE ((1 << SC_RULES_POS_WSYNC) | (1 << SC_RULES_POS_LSYNC))
#define SC_RULES_COVERS_ALL                                                                  \
    ((1 << SC_RULES_POS_BSYNC) | SC_RULES_COVERS_BEFORE | (1 << SC_RULES_POS_SELF))
SC_HD static inline int sc_rules_release_covers(uint64_t rec, const ScRulesState *s)
{
    if ((sc_rules_rec_blk(rec) & ((1u << SC_RULES_BLK_BITS) - 1u)) != s->blk)
        return 0;
    uint32_t tid = sc_rules_rec_tid(rec);
    uint32_t sync = (uint32_t)(rec >> 33) & 0x7fu, bar_known = (uint32_t)(rec >> 40) & 0x3ffu;
    uint32_t floor = (uint32_t)(rec >> 50) & 0x7fu;
    uint32_t bar_age = sc_rules_age(bar_known, s->bar, SC_RULES_BAR_MOD);
    if (bar_age >= 1 && bar_age <= SC_RULES_BAR_MOD / 2) {
        SC_RULES_COV(ACQ_ORDERED);
        return SC_RULES_COVERS_ALL;
    }
    /* The recorder's own barrier epoch is the knowledge itself: what a barrier ordered
     * before it came before an instance through which p knows every warp. */
    int bsync = 0;
    if (bar_age == 0) {
        SC_RULES_COV(ACQ_BSYNC);
        bsync = 1 << SC_RULES_POS_BSYNC;
    }
    if ((tid >> 5) != s->warp)
        return bsync;
    uint32_t age = sc_rules_age(sync, s->sync, SC_RULES_SYNC_MOD);
    if (age == 0 && (tid & 31u) == s->lane)
        return SC_RULES_COVERS_BEFORE | bsync;
    if (age == 0 || age > SC_RULES_SYNC_MOD / 2)
        return bsync; /* at or after the release */
    if (age > sc_rules_age(sync, floor, SC_RULES_SYNC_MOD) || (tid & 31u) == s->lane) {
        SC_RULES_COV(ACQ_ORDERED);
        return SC_RULES_COVERS_ALL;
    }
    return bsync;
}

/* ---- The rules ---------------------------------------------------------------------- */

SC_HD static inline int rules_is_write(int c)
{
    return c == SC_RULES_CLS_WRITE || c == SC_RULES_CLS_SWRITE || c == SC_RULES_CLS_ATOMIC;
}

SC_HD static inline int rules_is_strong(int c)
{
    return c == SC_RULES_CLS_SREAD || c == SC_RULES_CLS_SWRITE || c == SC_RULES_CLS_ATOMIC;
}

/* Bit length: the log2 size of the smallest aligned tile holding lanes a and b. */
SC_HD static inline unsigned rules_tile_of(unsigned a, unsigned b)
{
    unsigned x = a ^ b, k = 0;
    while (x) {
        k++;
        x >>= 1;
    }
    return k;
}

/* Does the accessing lane know every lane of the tile (but its own) up to the
 * recorded sync clock: strictly past it (`strict`, for accesses not ordered before the
 * recorder), or at least at it (for accesses ordered before the recorder, which
 * happened before its clock)? */
SC_HD static inline int rules_tile_knows(const ScRulesAccess *a, unsigned lane, unsigned k,
                                         unsigned sync, int strict)
{
    unsigned self = a->tid & 31u, base = lane & ~((1u << k) - 1u);
    for (unsigned l = base; l < base + (1u << k); l++) {
        if (l == self)
            continue;
        uint32_t known = a->sync_seen ? a->sync_seen[l] : a->sync_now;
        int ok = strict ? sc_rules_newer(a->sync_now, known, sync, SC_RULES_SYNC_MOD)
                        : !sc_rules_newer(a->sync_now, sync, known, SC_RULES_SYNC_MOD);
        if (!ok)
            return 0;
    }
    return 1;
}

/* Is the recorder's block in this thread's cluster? Its index is the word's 14 bits and
 * the site word's 9 more (without a site word: this thread's). */
SC_HD static inline int rules_cluster_peer(const ScRulesState *s, const ScRulesAccess *a)
{
    if (!a->cluster)
        return 0;
    uint32_t high = a->hint ? (uint32_t)(a->hint >> SC_RULES_SITE_BLK_SHIFT) : a->blk >> SC_RULES_BLK_BITS;
    return sc_rules_same_cluster(a->cluster, high << SC_RULES_BLK_BITS | s->blk, a->blk);
}

/* The accessing thread relative to the recorded accessor, and which positions are
 * ordered before it. */
typedef struct RulesRel {
    int same_blk, same_warp, same_thr;
    int cluster_peer; /* the launch has clusters, and the recorder's block is in this
                         thread's cluster */
    int acq; /* the positions an acquired release covers (SC_RULES_COVERS_*) */
    int acq_barrier; /* the positions of acq a cluster barrier's release covers */
    int blk_synced; /* a barrier since the recorder's barrier epoch */
    int warp_wide;  /* a warp-wide __syncwarp since the recorder's sync clock */
    int self_ord, lsync_ord, warp_ord;
} RulesRel;

SC_HD static inline RulesRel rules_relate_clocks(const ScRulesState *s, const ScRulesAccess *a)
{
    RulesRel r;
    r.acq = 0;
    r.acq_barrier = 0;
    unsigned lane = a->tid & 31u, warp = (a->tid >> 5) & 31u;
    r.same_blk = (a->blk & ((1u << SC_RULES_BLK_BITS) - 1u)) == s->blk;
    if (r.same_blk && rules_block_alias(a))
        r.same_blk = 0;
    r.same_warp = r.same_blk && warp == s->warp;
    r.same_thr = r.same_warp && lane == s->lane;
    r.blk_synced = r.warp_wide = r.self_ord = r.lsync_ord = r.warp_ord = 0;
    r.cluster_peer = a->cluster && (r.same_blk || rules_cluster_peer(s, a));
    if (!r.same_blk)
        return r;
    uint32_t known = r.same_warp ? a->bar_own : a->bar_seen ? a->bar_seen[s->warp] : a->bar_now;
    r.blk_synced = sc_rules_newer(a->bar_now, known, s->bar, SC_RULES_BAR_MOD);
    if (!r.same_warp || r.blk_synced)
        return r;
    r.warp_wide = sc_rules_newer(a->sync_now, a->sync_floor, s->sync, SC_RULES_SYNC_MOD);
    if (r.warp_wide)
        return r;
    uint32_t knows_u = a->sync_seen ? a->sync_seen[s->lane] : a->sync_now;
    r.self_ord = r.same_thr || sc_rules_newer(a->sync_now, knows_u, s->sync, SC_RULES_SYNC_MOD);
    r.lsync_ord = r.same_thr || rules_tile_knows(a, s->lane, s->tile, s->sync, 0);
    r.warp_ord = rules_tile_knows(a, s->lane, s->tile, s->sync, 1);
    return r;
}

/* Every position of a history (BSYNC to GRID). */
#define SC_RULES_COVERS_HISTORY (((1 << (SC_RULES_POS_GRID + 1)) - 1) & ~1)

SC_HD static inline RulesRel rules_relate(const ScRulesState *s, const ScRulesAccess *a)
{
    RulesRel r = rules_relate_clocks(s, a);
    for (uint32_t i = 0; i < a->n_acq && r.acq != SC_RULES_COVERS_HISTORY; i++) {
        int c = sc_rules_release_covers(a->acq[i], s);
        if ((a->acq[i] & SC_RULES_REC_BARRIER) && !r.same_thr)
            r.acq_barrier |= c;
        if (c == SC_RULES_COVERS_ALL && (a->acq[i] & SC_RULES_REC_BARRIER) && a->shared) {
            /* The recorder's access came before its block's arrive at a cluster
             * barrier this thread waited for. Every access the word holds was swapped
             * in before the recorder's, so none of them came after that barrier (the
             * runtime's arrive releases and its wait acquires, so a shadow swap after
             * a wait follows every swap before an arrive): all are ordered before
             * this one, since only the cluster's threads reach shared memory. The
             * exhaustive checker has no clusters: test_rules pins this
             * (cluster_barrier_orders_a_shared_words_whole_history). The recorder may
             * be this thread: its program order orders its own history only. */
            c = SC_RULES_COVERS_HISTORY;
        } else if (r.same_thr) {
            c = 0;
        }
        r.acq |= c;
    }
    return r;
}

/* Is an access at position p ordered before (or made by) the accessing thread through
 * the thread's own clocks (barriers, __syncwarp, program order)? */
SC_HD static inline int rules_ordered_clocks(const RulesRel *r, unsigned p)
{
    switch ((ScRulesPos)p) {
    case SC_RULES_POS_NONE:
        return 1;
    case SC_RULES_POS_BSYNC:
        return r->same_blk;
    case SC_RULES_POS_WSYNC:
        return r->blk_synced || r->same_warp;
    case SC_RULES_POS_LSYNC:
        return r->blk_synced || (r->same_warp && (r->warp_wide || r->lsync_ord));
    case SC_RULES_POS_SELF:
        return r->blk_synced || (r->same_warp && (r->warp_wide || r->self_ord));
    case SC_RULES_POS_WARP:
        return r->blk_synced || (r->same_warp && (r->warp_wide || r->warp_ord));
    case SC_RULES_POS_BLOCK:
        return r->blk_synced;
    case SC_RULES_POS_GRID:
        return 0;
    }
    return 0;
}

/* Is position p among those an acquired release covers (r->acq, SC_RULES_COVERS_*)?
 * All: those that hold only accesses ordered before the recorder's own (its own, and
 * those a barrier or __syncwarp ordered before it); before: those a __syncwarp
 * ordered before it; BSYNC alone: those a barrier ordered before it. */
SC_HD static inline int rules_acq_covers(const RulesRel *r, unsigned p)
{
    int covers = (r->acq >> p) & 1;
    if (covers && p != SC_RULES_POS_BSYNC && !((r->acq >> SC_RULES_POS_SELF) & 1))
        SC_RULES_COV(ACQ_BEFORE);
    return covers;
}

/* Is an access at position p ordered before (or made by) the accessing thread? */
SC_HD static inline int rules_ordered(const RulesRel *r, unsigned p)
{
    return rules_ordered_clocks(r, p) || rules_acq_covers(r, p);
}

/* Where an access at position p lies relative to the accessing thread once it has
 * become the recorded accessor (the transition table of docs/rules.md). */
SC_HD static inline unsigned rules_move(const RulesRel *r, const ScRulesState *s,
                                        const ScRulesAccess *a, unsigned p)
{
    if (p == SC_RULES_POS_NONE)
        return p;
    if (!rules_ordered_clocks(r, p) && rules_acq_covers(r, p)) {
        /* Ordered before this access through an acquired release only: ordered for
         * whoever is ordered after this thread's clocks, as LSYNC is (not BSYNC, which
         * the block's other warps would take as ordered without a barrier). But what
         * a cluster barrier ordered before this access it ordered before every thread
         * of this block, which all passed it, and before whoever takes a release of
         * this block made since (ACQ_BSYNC): BSYNC (the atomics of a cluster's blocks
         * on one block's bins after a cluster.sync() that ordered their clearing). */
        SC_RULES_COV(ACQ_MOVE);
        return (r->acq_barrier >> p) & 1 ? SC_RULES_POS_BSYNC : SC_RULES_POS_LSYNC;
    }
    if (!r->same_blk)
        return SC_RULES_POS_GRID;
    if (p == SC_RULES_POS_GRID)
        return p;
    if (r->blk_synced)
        return SC_RULES_POS_BSYNC;
    if (p == SC_RULES_POS_BSYNC || p == SC_RULES_POS_BLOCK)
        return p;
    if (!r->same_warp)
        return SC_RULES_POS_BLOCK;
    if (r->warp_wide)
        return SC_RULES_POS_WSYNC;
    switch ((ScRulesPos)p) {
    case SC_RULES_POS_NONE:
    case SC_RULES_POS_BSYNC:
    case SC_RULES_POS_WSYNC:
    case SC_RULES_POS_BLOCK:
    case SC_RULES_POS_GRID:
        return p;
    case SC_RULES_POS_LSYNC:
        if (r->lsync_ord)
            return SC_RULES_POS_LSYNC;
        SC_RULES_COV(LSYNC_TO_WARP);
        return SC_RULES_POS_WARP;
    case SC_RULES_POS_SELF:
        if (r->same_thr)
            return a->sync_now == s->sync ? SC_RULES_POS_SELF : SC_RULES_POS_LSYNC;
        return r->self_ord ? SC_RULES_POS_LSYNC : SC_RULES_POS_WARP;
    case SC_RULES_POS_WARP:
        if (!r->warp_ord)
            return SC_RULES_POS_WARP;
        SC_RULES_COV(WARP_TO_LSYNC);
        return SC_RULES_POS_LSYNC;
    }
    return p;
}

/* Are all accesses at position p certainly by other threads than the accessing one?
 * A summary position only bounds the unit (warp, block) its accesses lie in; after the
 * recorder changes, that unit may hold the accessing thread. */
SC_HD static inline int rules_other_thread(const RulesRel *r, unsigned p)
{
    switch ((ScRulesPos)p) {
    case SC_RULES_POS_SELF:
        return !r->same_thr;
    case SC_RULES_POS_WSYNC:
    case SC_RULES_POS_LSYNC:
    case SC_RULES_POS_WARP:
        return !r->same_warp; /* lanes of the recorder's warp */
    case SC_RULES_POS_BSYNC:
    case SC_RULES_POS_BLOCK:
        return !r->same_blk; /* warps of the recorder's block, possibly its own */
    case SC_RULES_POS_NONE:
    case SC_RULES_POS_GRID:
        return 0; /* GRID: blocks that may include any */
    }
    return 0;
}

/* The word of a history that holds only this access. */
SC_HD static inline ScRulesState rules_fresh(const ScRulesAccess *a)
{
    ScRulesState n;
    n.mask = a->mask;
    for (int c = 0; c < SC_RULES_NCLS; c++)
        n.reach[c] = SC_RULES_POS_NONE;
    n.reach[a->cls] = SC_RULES_POS_SELF;
    n.xcta = (uint8_t)(a->cls != SC_RULES_CLS_SREAD && rules_is_strong(a->cls) &&
                       rules_block_scoped(a->scope));
    n.tile = 0;
    n.lane = (uint8_t)(a->tid & 31u);
    n.warp = (uint8_t)((a->tid >> 5) & 31u);
    n.blk = (uint16_t)(a->blk & ((1u << SC_RULES_BLK_BITS) - 1u));
    n.bar = a->bar_own;
    n.sync = a->sync_now;
    return n;
}

/* The relation-based cause of an unordered pair with an access at position p. */
SC_HD static inline int rules_relation_cause(const RulesRel *r, unsigned p)
{
    if (!r->same_blk || p == SC_RULES_POS_GRID || p == SC_RULES_POS_BSYNC) {
        SC_RULES_COV(CAUSE_BLOCKS);
        return SC_RULES_CAUSE_UNSYNCHRONIZED_BLOCKS;
    }
    if (p != SC_RULES_POS_BLOCK && r->same_warp) {
        SC_RULES_COV(CAUSE_SYNCWARP);
        return SC_RULES_CAUSE_MISSING_SYNCWARP;
    }
    SC_RULES_COV(CAUSE_BARRIER);
    return SC_RULES_CAUSE_MISSING_BARRIER;
}

/* Footprints of a history's strong accesses against the access's: the same bytes,
 * other bytes, or (a byte cell that met several) not known. */
enum { RULES_FP_SAME, RULES_FP_DIFF, RULES_FP_MIXED };

/* An unordered pair: a recorded access of class c (block-scoped or not) at position p,
 * and the access a. 0: no race, 1: race (*cause), 2: a morally strong strong plain
 * write and atomic (strong_vs_rmw). */
SC_HD static inline int rules_pair(const RulesRel *r, const ScRulesAccess *a, int c, int c_cta,
                                   unsigned p, int fp, int *cause)
{
    int cls = a->cls;
    int cross = !r->same_blk || p == SC_RULES_POS_GRID;
    if (!rules_is_write(c) && !rules_is_write(cls)) {
        SC_RULES_COV(NO_CONFLICT);
        return 0;
    }
    int strong = rules_is_strong(c) && rules_is_strong(cls);
    /* With the recorder in this thread's cluster, a cluster scope spans the pair, and
     * the history (the grid's summary too) is taken to be of that cluster, its narrow
     * writes (xcta) cluster-scoped (docs/rules.md section 11, "Clusters"). */
    int in_cluster = r->cluster_peer;
    int spans = !rules_block_scoped(a->scope) || (in_cluster && a->scope == SC_SCOPE_CLUSTER);
    int scope_ok = !cross || (spans && (!c_cta || in_cluster));
    if (strong && fp == RULES_FP_SAME && scope_ok) {
        if (cross)
            SC_RULES_COV(MS_CROSS_BLOCK);
        else
            SC_RULES_COV(MS_SAME_BLOCK);
        return (c == SC_RULES_CLS_SWRITE && cls == SC_RULES_CLS_ATOMIC) ||
                       (c == SC_RULES_CLS_ATOMIC && cls == SC_RULES_CLS_SWRITE)
                   ? 2
                   : 0;
    }
    if (strong && !scope_ok) {
        SC_RULES_COV(MS_SCOPE_FAIL);
        SC_RULES_COV(CAUSE_SCOPE);
        *cause = SC_RULES_CAUSE_ATOMIC_SCOPE;
    } else if (strong) {
        SC_RULES_COV(MS_FOOTPRINT_FAIL);
        *cause = rules_relation_cause(r, p);
    } else if ((c == SC_RULES_CLS_ATOMIC && !rules_is_strong(cls)) ||
               (cls == SC_RULES_CLS_ATOMIC && !rules_is_strong(c))) {
        SC_RULES_COV(CAUSE_ATOMIC_PLAIN);
        *cause = SC_RULES_CAUSE_ATOMIC_VS_PLAIN;
    } else {
        *cause = rules_relation_cause(r, p);
    }
    return 1;
}

/* One step of the state machine on one history (a word, or a cell): check the access
 * against every unordered class, then move every class to its position relative to
 * the accessor and add the access. fp: RULES_FP_* of the history's strong accesses
 * (the same bytes are a condition of moral strength). */
/* Whether a race-free weak read or atomic (a->cls) joins the history of its class and
 * leaves the word as it is (READ_JOINS, ATOMIC_JOINS): an access of another warp in the
 * recorder's barrier epoch (of another block), where the history already holds accesses
 * of its class of other warps (blocks) and nothing else but what a barrier of the
 * recorder's block ordered before (another block's: nothing else at all). Recorded, it
 * would leave its own access at SELF and the recorder's with the others at BLOCK
 * (GRID), where no clock of a later thread but a barrier's orders them and no release
 * covers them: every later access gets the verdict it gets with this one at BLOCK (GRID)
 * among them and the recorder kept, since a barrier that orders the recorder's epoch
 * before a thread (block-wide, as BLOCK takes it) orders this access too. So the word
 * stays: 32 warps that read one word of a tile between two barriers swap it twice, not
 * 32 times, and a counter every thread of the grid increments is swapped by the
 * recorder's warp only. Not when the class must rise to get there: the recorder's SELF
 * access may be what a release it makes covers for a thread that takes it (the
 * checker's one-recorder false alarms rose from 70 to 96 that way). Not on a word with
 * a trail (the site word's SC_RULES_SITE_TRAIL), which would not hold this access. An
 * atomic must also be morally strong with the atomics there and with any later atomic
 * they are morally strong with: gpu scope or wider across blocks; cta scope in the
 * block only where xcta already says a cta-scoped one is there. */
SC_HD static inline int rules_joins(const ScRulesState *s, const ScRulesAccess *a, const RulesRel *r)
{
    int cls = a->cls;
    if (r->same_warp || r->blk_synced || r->acq || a->moved || (a->hint & SC_RULES_SITE_TRAIL) ||
        (r->same_blk && (a->bar_own != s->bar || a->bar_seen)) ||
        s->reach[cls] < (r->same_blk ? SC_RULES_POS_BLOCK : SC_RULES_POS_GRID))
        return 0;
    if (cls == SC_RULES_CLS_ATOMIC &&
        (r->same_blk ? rules_block_scoped(a->scope) && !s->xcta : a->scope < SC_SCOPE_GPU))
        return 0;
    for (int c = 0; c < SC_RULES_NCLS; c++)
        if (c != cls && s->reach[c] != SC_RULES_POS_NONE && !(r->same_blk && s->reach[c] == SC_RULES_POS_BSYNC))
            return 0;
    return 1;
}

/* The word once race-free access a has become the recorder of history s, related to it
 * by r: a weak write alone; else every class where it now lies relative to a. */
SC_HD static inline void rules_record(const ScRulesState *s, const ScRulesAccess *a, const RulesRel *r,
                                      ScRulesState *n)
{
    if (a->cls == SC_RULES_CLS_WRITE) {
        /* Race-free, a weak write is ordered after everything before it and everything
         * after it must be ordered after it: only it matters from now on. */
        SC_RULES_COV(WEAK_WRITE_RESET);
        *n = rules_fresh(a);
        return;
    }
    *n = rules_fresh(a);
    int lanes = 0;
    for (int c = 0; c < SC_RULES_NCLS; c++) {
        /* A class the trail orders before this access is ordered for whoever is ordered
         * after this thread's clocks, as ACQ_MOVE's are. */
        unsigned p = ((a->moved >> c) & 1) && !rules_ordered(r, s->reach[c])
                         ? SC_RULES_POS_LSYNC
                         : rules_move(r, s, a, s->reach[c]);
        if (c == a->cls && p < SC_RULES_POS_SELF)
            p = SC_RULES_POS_SELF;
        n->reach[c] = (uint8_t)p;
        lanes |= p == SC_RULES_POS_LSYNC || p == SC_RULES_POS_WARP;
    }
    if (n->xcta && !s->xcta)
        SC_RULES_COV(XCTA_SET);
    n->xcta |= s->xcta;
    if (lanes) {
        /* Only a thread of the recorder's warp keeps LSYNC/WARP positions: the tile must
         * hold the old tile, the recorder and this lane. */
        unsigned k = rules_tile_of(s->lane, a->tid & 31u);
        if (k > s->tile)
            SC_RULES_COV(TILE_GROW);
        n->tile = (uint8_t)(k > s->tile ? k : s->tile);
    }
}

SC_HD static inline void rules_step(const ScRulesState *s, const ScRulesAccess *a, int fp,
                                    ScRulesState *n, ScRulesVerdict *v)
{
    RulesRel r = rules_relate(s, a);
    int cls = a->cls;
    int race_c = -1, race_cause = 0, warn_c = -1;
    unsigned race_pos = SC_RULES_POS_NONE;
    if (!r.same_blk)
        SC_RULES_COV(OTHER_BLOCK);
    else if (r.blk_synced)
        SC_RULES_COV(BLOCK_SYNCED);
    else if (!r.same_warp)
        SC_RULES_COV(OTHER_WARP);
    else if (r.warp_wide)
        SC_RULES_COV(WARP_WIDE);
    else if (r.same_thr && a->sync_now != s->sync)
        SC_RULES_COV(SAME_THREAD_SYNCED);
    else if (!r.same_thr && r.self_ord)
        SC_RULES_COV(LANE_SYNCED);
    else if (!r.same_thr)
        SC_RULES_COV(LANE_UNSYNCED);

    /* Candidates for the reported pair, best first: the recorder's own access the site
     * word names (3), an access at SELF (2), one certainly by another thread (1), one
     * of a summary that may hold this thread's own access (0); at equal rank the
     * atomic causes, which name the kinds of both sides. Whether there is a race never
     * depends on the site word or the ranks (a warning may: WARN_HINT below). */
    int best_rank = -1, warn_rank = -1, unsure_warn = 0, racing = 0;
    /* xcta says a cta-scoped strong write is in the history, not which class made it. */
    int xcta_class_unsure = s->xcta && s->reach[SC_RULES_CLS_SWRITE] && s->reach[SC_RULES_CLS_ATOMIC];
    for (int c = 0; c < SC_RULES_NCLS; c++) {
        unsigned p = s->reach[c];
        if (rules_ordered(&r, p) || (p == SC_RULES_POS_SELF && r.same_thr))
            continue;
        if ((a->moved >> c) & 1) {
            SC_RULES_COV(ACQ_MOVED);
            continue;
        }
        int c_cta = rules_is_write(c) && s->xcta;
        int cause = 0, k = rules_pair(&r, a, c, c_cta, p, fp, &cause);
        int rank = p == SC_RULES_POS_SELF ? 2 : rules_other_thread(&r, p) ? 1 : 0;
        unsigned partner_pos = p;
        /* In a cell of several footprints, this class may have had this one. */
        if (fp == RULES_FP_MIXED && rules_is_strong(c) && rules_is_strong(cls))
            rank = 0;
        if (k == 1 && cause == SC_RULES_CAUSE_ATOMIC_SCOPE && c_cta &&
            !rules_block_scoped(a->scope)) {
            /* Only xcta makes it a scope race: some strong write is cta-scoped, maybe
             * not the recorder's own, maybe not of this class. */
            if (xcta_class_unsure)
                rank = 0;
            else if (rank > 1)
                rank = 1;
            /* xcta holds the history's cta-scoped writes in the recorder's block. */
            if (p != SC_RULES_POS_GRID)
                partner_pos = SC_RULES_POS_BLOCK;
        }
        if (k == 1) {
            racing++;
            int atomic = cause == SC_RULES_CAUSE_ATOMIC_SCOPE || cause == SC_RULES_CAUSE_ATOMIC_VS_PLAIN;
            int best_atomic = race_cause == SC_RULES_CAUSE_ATOMIC_SCOPE ||
                              race_cause == SC_RULES_CAUSE_ATOMIC_VS_PLAIN;
            if (rank > best_rank || (rank == best_rank && atomic && !best_atomic)) {
                best_rank = rank;
                race_c = c;
                race_cause = cause;
                race_pos = partner_pos;
            }
        } else if (k == 2 && rank == 0) {
            unsure_warn = 1;
        } else if (k == 2 && rank > warn_rank) {
            warn_rank = rank;
            warn_c = c;
        }
    }
    /* The verdict is exact: when one class alone can race, its accesses hold the partner
     * even if its summary may also hold this thread's own. */
    if (racing == 1 && best_rank == 0 && !(fp == RULES_FP_MIXED && rules_is_strong(race_c)))
        best_rank = 1;
    /* The site word names the recorder's latest access of each family: a racing one
     * is the exact partner (the write first, the more telling). */
    for (int fam = 0; race_c >= 0 && fam < 2 && !r.same_thr && !rules_ordered(&r, SC_RULES_POS_SELF);
         fam++) {
        int probe = fam == 0 ? SC_RULES_CLS_WRITE : SC_RULES_CLS_READ;
        uint64_t slot = rules_site_slot_of(a->hint, probe);
        int hc = rules_site_slot_cls(slot, probe), cause = 0;
        if ((slot & ((1u << SC_RULES_SITE_BITS) - 1u)) && s->reach[hc] >= SC_RULES_POS_SELF &&
            fp != RULES_FP_MIXED &&
            rules_pair(&r, a, hc, rules_site_slot_block_scoped(slot, probe), SC_RULES_POS_SELF, fp,
                       &cause) == 1) {
            SC_RULES_COV(RACE_HINT);
            race_c = hc;
            race_cause = cause;
            best_rank = 3;
            break;
        }
    }

    /* A strong_vs_rmw whose only partners are in a summary that may hold this thread's
     * own access: the site word may name the recorder's own atomic or strong write,
     * certainly another thread's and unordered with this access (the warning would
     * otherwise depend on which of two blocks' atomics came last). */
    if (race_c < 0 && warn_c < 0 && unsure_warn && !r.same_thr && !rules_ordered(&r, SC_RULES_POS_SELF) &&
        fp != RULES_FP_MIXED) {
        uint64_t slot = rules_site_slot_of(a->hint, SC_RULES_CLS_WRITE);
        int hc = rules_site_slot_cls(slot, SC_RULES_CLS_WRITE), cause = 0;
        if ((slot & ((1u << SC_RULES_SITE_BITS) - 1u)) && s->reach[hc] >= SC_RULES_POS_SELF &&
            !((a->moved >> hc) & 1) &&
            rules_pair(&r, a, hc, rules_site_slot_block_scoped(slot, SC_RULES_CLS_WRITE), SC_RULES_POS_SELF, fp,
                       &cause) == 2) {
            SC_RULES_COV(WARN_HINT);
            warn_c = hc;
            warn_rank = 2;
            unsure_warn = 0;
        }
    }

    v->prev_blk = s->blk;
    v->prev_tid = (uint16_t)(s->warp * 32u + s->lane);
    v->flags = 0;
    if (race_c >= 0) {
        SC_RULES_COV(RACE_RESET);
        if (best_rank >= 2)
            SC_RULES_COV(RACE_SELF);
        else if (best_rank == 1)
            SC_RULES_COV(RACE_OTHER);
        else
            SC_RULES_COV(RACE_UNSURE);
        v->result = SC_RULES_RACE;
        v->cause = (uint8_t)race_cause;
        v->prev_cls = (uint8_t)race_c;
        v->prev_exact = best_rank >= 2;
        v->prev_pos = (uint8_t)(best_rank == 3 ? SC_RULES_POS_SELF : race_pos);
        v->flags = best_rank >= 1 ? SC_RULES_V_CAUSE_SURE : 0;
        *n = rules_fresh(a);
        return;
    }
    if (warn_c >= 0) {
        SC_RULES_COV(WARN_STRONG_RMW);
        v->result = SC_RULES_WARN;
        v->cause = SC_RULES_CAUSE_STRONG_VS_RMW;
        v->prev_cls = (uint8_t)warn_c;
        v->prev_exact = warn_rank == 2;
        v->prev_pos = s->reach[warn_c];
        v->flags = SC_RULES_V_CAUSE_SURE;
    } else {
        v->result = SC_RULES_OK;
        v->cause = SC_RULES_CAUSE_NONE;
        v->prev_cls = 0;
        v->prev_exact = 0;
        v->prev_pos = SC_RULES_POS_NONE;
        if (unsure_warn) {
            SC_RULES_COV(WARN_UNSURE);
            v->flags = SC_RULES_V_WARN_UNSURE;
        }
    }

    if (cls == SC_RULES_CLS_SREAD && !r.same_thr && !rules_ordered(&r, SC_RULES_POS_SELF)) {
        /* A strong read concurrent with the recorder conflicts with nothing it may
         * meet later but weak writes and strong writes it is not morally strong with.
         * Recording it instead of the recorder would hide who owns the recorder's own
         * accesses (its later weak read would seem to race with them): it joins the
         * history at its position relative to the recorder, which stays recorded. */
        SC_RULES_COV(SREAD_KEEPS);
        *n = *s;
        unsigned p = !r.same_blk ? SC_RULES_POS_GRID
                     : !r.same_warp ? SC_RULES_POS_BLOCK
                                    : SC_RULES_POS_WARP;
        if (p > n->reach[cls])
            n->reach[cls] = (uint8_t)p;
        if (p == SC_RULES_POS_WARP) {
            /* WARP accesses are taken to be no newer than the recorded sync clock. A
             * partial sync of other lanes may have moved the warp's clock since: take
             * the newer one, and the recorder's own accesses, now older than it, are
             * LSYNC (every test only gets stricter; full masks never get here with a
             * moved clock, the read would be ordered). */
            if (a->sync_now != s->sync) {
                SC_RULES_COV(SREAD_KEEPS_NEWER);
                for (int c = 0; c < SC_RULES_NCLS; c++)
                    if (n->reach[c] == SC_RULES_POS_SELF)
                        n->reach[c] = SC_RULES_POS_LSYNC;
                n->sync = a->sync_now;
            }
            unsigned k = rules_tile_of(s->lane, a->tid & 31u);
            if (k > s->tile)
                SC_RULES_COV(TILE_GROW);
            n->tile = (uint8_t)(k > s->tile ? k : s->tile);
        }
        return;
    }
    if ((cls == SC_RULES_CLS_READ || cls == SC_RULES_CLS_ATOMIC) && warn_c < 0 && !unsure_warn &&
        fp == RULES_FP_SAME && rules_joins(s, a, &r)) {
        if (cls == SC_RULES_CLS_READ)
            SC_RULES_COV(READ_JOINS);
        else
            SC_RULES_COV(ATOMIC_JOINS);
        *n = *s;
        return;
    }
    rules_record(s, a, &r, n);
}

/* The same thread again at the same clocks on the same bytes, with this class already
 * recorded at SELF: it was checked against the same history then, and the word stays.
 * Not for a block-scoped strong access: the earlier one may have had a wider scope. */
SC_HD static inline int rules_again(uint64_t old, const ScRulesAccess *a)
{
    if (((old ^ sc_rules_who(a)) & SC_RULES_WHO_FIELD) != 0 || (old & SC_RULES_MASK_FIELD) != a->mask ||
        sc_rules_reach(old, a->cls) != SC_RULES_POS_SELF ||
        (rules_is_strong(a->cls) && rules_block_scoped(a->scope)) || rules_block_alias(a))
        return 0;
    /* A weak write leaves only itself: unchanged if nothing else is there. */
    uint64_t w_field =
        SC_RULES_FIELD(SC_RULES_REACH_SHIFT + SC_RULES_POS_BITS * SC_RULES_CLS_WRITE, SC_RULES_POS_BITS);
    uint64_t others = a->cls != SC_RULES_CLS_WRITE
                          ? 0
                          : (SC_RULES_REACH_FIELD & ~w_field) | SC_RULES_XCTA_FIELD | SC_RULES_TILE_FIELD;
    /* A strong write re-checked against an unordered one of the other kind would warn
     * again (strong_vs_rmw): that is the slow path's to say. */
    int pair = a->cls == SC_RULES_CLS_SWRITE   ? SC_RULES_CLS_ATOMIC
               : a->cls == SC_RULES_CLS_ATOMIC ? SC_RULES_CLS_SWRITE
                                               : -1;
    int may_warn = pair >= 0 && sc_rules_reach(old, pair) > SC_RULES_POS_SELF;
    return (old & others) == 0 && !may_warn;
}

/* Decide one access to a word and compute the word to CAS in (*out; *out == old when
 * the result is SC_RULES_UNCHANGED). The runtime's loop:
 *     old = atomic load of the word; hint = load of its site word;
 *     for (;;) {
 *         r = sc_rules_access(old, &acc, &new, &v);
 *         if (r == SC_RULES_UNCHANGED || r == SC_RULES_SPLIT) break;
 *         seen = CAS(word, old, new); if (seen == old) break; old = seen;
 *     }
 *     after a CAS: store the site word if sc_rules_records(new, &acc); report RACE/WARN.
 * On SC_RULES_SPLIT it splits the word (sc_rules_split_cell, sc_rules_split_word) and
 * goes on with sc_rules_access_cell on the cell of each byte of acc.mask. */
SC_HD static inline int sc_rules_access(uint64_t old, const ScRulesAccess *a, uint64_t *out,
                                        ScRulesVerdict *v)
{
    *out = old;
    v->cause = SC_RULES_CAUSE_NONE;
    v->prev_cls = 0;
    v->prev_exact = 0;
    v->prev_pos = SC_RULES_POS_NONE;
    v->flags = 0;
    v->prev_blk = 0;
    v->prev_tid = 0;
    if (rules_again(old, a)) {
        SC_RULES_COV(FAST_PATH);
        v->result = SC_RULES_UNCHANGED;
        return SC_RULES_UNCHANGED;
    }
    if (old == 0) {
        SC_RULES_COV(FRESH);
        ScRulesState n = rules_fresh(a);
        *out = sc_rules_encode(&n);
        v->result = SC_RULES_OK;
        return SC_RULES_OK;
    }
    if (sc_rules_is_split(old)) {
        SC_RULES_COV(SPLIT_MARKER);
        v->result = SC_RULES_SPLIT;
        return SC_RULES_SPLIT;
    }
    ScRulesState s = sc_rules_decode(old), n;
    if (s.mask == a->mask) {
        rules_step(&s, a, RULES_FP_SAME, &n, v);
        *out = sc_rules_encode(&n);
        if (v->result == SC_RULES_OK && *out == old)
            v->result = SC_RULES_UNCHANGED;
        return v->result;
    }
    /* Different footprint: the bytes only the word covers keep its history, the bytes
     * only the access covers get a fresh one, the shared bytes get the step (with no
     * moral strength: the byte ranges differ). One word holds them only if all three
     * agree and no strong access remains whose footprint the word would then lose. */
    unsigned both = s.mask & a->mask, only_old = s.mask & ~a->mask & 0xfu;
    unsigned only_new = a->mask & ~s.mask & 0xfu;
    ScRulesVerdict vs;
    vs.result = SC_RULES_OK;
    vs.cause = SC_RULES_CAUSE_NONE;
    vs.prev_cls = 0;
    vs.prev_exact = 0;
    vs.prev_pos = SC_RULES_POS_NONE;
    vs.flags = 0;
    vs.prev_blk = 0;
    vs.prev_tid = 0;
    ScRulesState merged = s;
    uint64_t key = old & ~SC_RULES_MASK_FIELD;
    int uniform = 1;
    if (both) {
        rules_step(&s, a, RULES_FP_DIFF, &n, &vs);
        merged = n;
        uint64_t k = sc_rules_encode(&n) & ~SC_RULES_MASK_FIELD;
        if (only_old && k != key)
            uniform = 0;
        key = k;
    }
    if (only_new) {
        ScRulesState f = rules_fresh(a);
        uint64_t k = sc_rules_encode(&f) & ~SC_RULES_MASK_FIELD;
        if ((both || only_old) && k != key)
            uniform = 0;
        if (!both)
            merged = f;
    }
    int strong_left = merged.reach[SC_RULES_CLS_SREAD] || merged.reach[SC_RULES_CLS_SWRITE] ||
                      merged.reach[SC_RULES_CLS_ATOMIC];
    if (!uniform || strong_left) {
        SC_RULES_COV(MASK_SPLIT);
        v->result = SC_RULES_SPLIT;
        return SC_RULES_SPLIT;
    }
    SC_RULES_COV(MASK_MERGE);
    merged.mask = (uint8_t)(s.mask | a->mask);
    *out = sc_rules_encode(&merged);
    *v = vs;
    if (v->result == SC_RULES_OK && *out == old)
        v->result = SC_RULES_UNCHANGED;
    return v->result;
}

/* The quick decision: 1, with *out, when sc_rules_access would find no race and turn
 * `old` into *out (*out == old: unchanged); 0 when only it can tell. For a weak access
 * of one whole word by a thread whose clocks are uniform (no barrier or warp-clock rows:
 * it has passed only block-wide barriers and full-mask __syncwarps since its block
 * began), that took no release and reads no trail: the same thread again at the same
 * clocks, an empty word, or a history every access of which the thread's own clocks
 * order before this one, reads aside for a read (a history of reads it joins stays as
 * it is). No pair that may conflict is left unordered, so no race and no warning can
 * come of it;
 * the runtime decides these without its slow path, and test_rules proves the answer
 * equal to sc_rules_access's over every word of the domain
 * (quick_decisions_agree_with_the_rules). */
SC_HD static inline int sc_rules_quick(uint64_t old, const ScRulesAccess *a, uint64_t *out)
{
    if ((a->cls != SC_RULES_CLS_READ && a->cls != SC_RULES_CLS_WRITE) || a->mask != 0xfu || a->bar_seen ||
        a->sync_seen || a->bar_own != a->bar_now || a->sync_floor != a->sync_now || a->n_acq || a->moved ||
        (a->hint & SC_RULES_SITE_TRAIL) || rules_block_alias(a))
        return 0;
    *out = old;
    if (rules_again(old, a))
        return 1;
    ScRulesState s, n;
    if (old == 0) {
        n = rules_fresh(a);
        *out = sc_rules_encode(&n);
        return 1;
    }
    if (sc_rules_is_split(old))
        return 0;
    s = sc_rules_decode(old);
    if (s.mask != a->mask)
        return 0;
    RulesRel r = rules_relate_clocks(&s, a);
    /* A weak read meets no read; a write, every access. */
    int reading = a->cls == SC_RULES_CLS_READ;
    for (int c = 0; c < SC_RULES_NCLS; c++)
        if (!(reading && rules_is_read(c)) && !rules_ordered_clocks(&r, s.reach[c]) &&
            !(s.reach[c] == SC_RULES_POS_SELF && r.same_thr))
            return 0;
    if (reading && rules_joins(&s, a, &r))
        return 1;
    rules_record(&s, a, &r, &n);
    *out = sc_rules_encode(&n);
    return 1;
}

/* Decide one access to one byte cell of a split word. The cell's mask is the
 * footprint of its strong accesses; an access with another footprint is never morally
 * strong with them, and leaves the cell with several footprints (mask 0) while strong
 * accesses of both remain. */
SC_HD static inline int sc_rules_access_cell(uint64_t old, const ScRulesAccess *a,
                                             uint64_t *out, ScRulesVerdict *v)
{
    *out = old;
    v->cause = SC_RULES_CAUSE_NONE;
    v->prev_cls = 0;
    v->prev_exact = 0;
    v->prev_pos = SC_RULES_POS_NONE;
    v->flags = 0;
    v->prev_blk = 0;
    v->prev_tid = 0;
    ScRulesState s = sc_rules_decode(old), n;
    int empty = 1;
    for (int c = 0; c < SC_RULES_NCLS; c++)
        empty &= s.reach[c] == SC_RULES_POS_NONE;
    if (empty) {
        SC_RULES_COV(FRESH);
        n = rules_fresh(a);
        *out = sc_rules_encode(&n);
        v->result = SC_RULES_OK;
        return SC_RULES_OK;
    }
    int fp_same = s.mask != 0 && s.mask == a->mask;
    rules_step(&s, a, fp_same ? RULES_FP_SAME : s.mask ? RULES_FP_DIFF : RULES_FP_MIXED, &n, v);
    int strong_old = s.reach[SC_RULES_CLS_SREAD] || s.reach[SC_RULES_CLS_SWRITE] ||
                     s.reach[SC_RULES_CLS_ATOMIC];
    if (v->result == SC_RULES_RACE || a->cls == SC_RULES_CLS_WRITE || !strong_old || fp_same) {
        /* Restarted, or every strong access left has this footprint. */
        n.mask = a->mask;
    } else if (rules_is_strong(a->cls)) {
        SC_RULES_COV(CELL_MIXED);
        n.mask = 0;
    } else {
        n.mask = s.mask; /* a weak access: the strong ones keep theirs */
    }
    *out = sc_rules_encode(&n);
    if (v->result == SC_RULES_OK && *out == old)
        v->result = SC_RULES_UNCHANGED;
    return v->result;
}

/* ---- Trails ------------------------------------------------------------------------ */

/* A word keeps one recorder and one position per class relative to it. When the
 * recorder changes, what the old recorder's clocks, or a release that covers it,
 * ordered is restated relative to the new one, and a thread ordered after those
 * accesses but not after the new recorder is not ordered by the word: a second block
 * that took the release a first reader took; a thread of another block that reads a
 * cell the owner's lanes read after the owner's release (Rule 110's borders); a writer
 * after readers of two blocks, each ordered through its own path. The runtime keeps,
 * off the shadow, a *trail* of such a word: the word as it was when the trail began
 * (`before`, with its site word) and every access since (each as a stamp, its thread,
 * clocks, class and site: sc_rules_stamp; past SC_RULES_TRAIL_MAX only the class of the
 * oldest is kept), good while the shadow holds the word the last of them left. The
 * history that word summarizes is `before`'s and those accesses' (no other access
 * changed the word since, and none joined it unchanged: READ_JOINS does not apply), so
 * a thread ordered after every access of class c there (through its clocks or the
 * releases it took, judged against `before`'s recorder and each stamp as the rules
 * judge a recorder) may take class c as ordered (ScRulesAccess.moved). docs/rules.md
 * section 11, "Trails". */
#define SC_RULES_TRAIL_MAX 3

typedef struct ScRulesTrail {
    uint64_t before;                     /* the word when the trail began */
    uint64_t before_site;                /* its site word */
    uint64_t after[SC_RULES_TRAIL_MAX];  /* the latest accesses since, oldest first */
    uint32_t n_after;
    uint32_t lost;                       /* classes (a bit per ScRulesCls) of accesses
                                            since that `after` no longer holds */
} ScRulesTrail;

/* A trail's record of access a at site `id` (a stamp): its thread and clocks where a
 * word keeps them (bits 23..63), its class + 1 (bits 0..2) and the site id + 1 (bits
 * 3..22; 0: none, or too large to keep). Never 0. */
#define SC_RULES_STAMP_SITE_BITS 20
SC_HD static inline uint64_t rules_stamp_of(uint64_t who, int cls, uint32_t id)
{
    uint64_t site = id < (1u << SC_RULES_STAMP_SITE_BITS) - 1u ? (uint64_t)id + 1u : 0u;
    return (who & SC_RULES_WHO_FIELD) | (uint64_t)(cls + 1) | site << 3;
}

SC_HD static inline uint64_t sc_rules_stamp(const ScRulesAccess *a, uint32_t id)
{
    return rules_stamp_of(sc_rules_who(a), a->cls, id);
}

SC_HD static inline int sc_rules_stamp_cls(uint64_t stamp) { return (int)(stamp & 7u) - 1; }

/* The word that holds the stamped access alone, as far as ordering goes. */
SC_HD static inline uint64_t sc_rules_stamp_word(uint64_t stamp)
{
    int shift = SC_RULES_REACH_SHIFT + SC_RULES_POS_BITS * sc_rules_stamp_cls(stamp);
    return (stamp & SC_RULES_WHO_FIELD) | 0xfu | (uint64_t)SC_RULES_POS_SELF << shift;
}

/* The stamped access's site id, or SC_RULES_SITE_NONE. */
SC_HD static inline uint32_t sc_rules_stamp_site(uint64_t stamp)
{
    uint32_t site = (uint32_t)(stamp >> 3) & ((1u << SC_RULES_STAMP_SITE_BITS) - 1u);
    return site ? site - 1u : SC_RULES_SITE_NONE;
}

/* Adds an access (its stamp) to trail t. A full trail lets its oldest access go and
 * keeps only its class: no thread is ordered after that class through the trail any
 * more (the blocks of a grid that read a total still find its write ordered). */
SC_HD static inline void sc_rules_trail_add(ScRulesTrail *t, uint64_t stamp)
{
    if (t->n_after == SC_RULES_TRAIL_MAX) {
        t->lost |= 1u << sc_rules_stamp_cls(t->after[0]);
        for (uint32_t i = 1; i < SC_RULES_TRAIL_MAX; i++)
            t->after[i - 1] = t->after[i];
        t->n_after--;
    }
    t->after[t->n_after++] = stamp;
}

/* Does word w hold some class at position p? All classes in one step: a 3-bit field
 * equal to p is a zero field of the xor, and only a zero field borrows into its top
 * bit (the "has a zero byte" test, in fields of 3 bits). */
SC_HD static inline int sc_rules_holds_at(uint64_t w, unsigned p)
{
    uint64_t ones = 0, x;
    for (int c = 0; c < SC_RULES_NCLS; c++)
        ones |= (uint64_t)1 << (SC_RULES_POS_BITS * c);
    x = ((w & SC_RULES_REACH_FIELD) >> SC_RULES_REACH_SHIFT) ^ ones * p;
    return ((x - ones) & ~x & ones << (SC_RULES_POS_BITS - 1)) != 0;
}

/* Does `next`, what an access left, hold a class below SELF: part of the history
 * restated relative to that access, which a trail could keep as it was? */
SC_HD static inline int sc_rules_restated(uint64_t next)
{
    return !sc_rules_is_split(next) &&
           (sc_rules_holds_at(next, SC_RULES_POS_LSYNC) || sc_rules_holds_at(next, SC_RULES_POS_WSYNC) ||
            sc_rules_holds_at(next, SC_RULES_POS_BSYNC));
}

/* The positions of the history of word w that are ordered before access a, through
 * its clocks or its records (a->acq), a bit per ScRulesPos. */
SC_HD static inline int sc_rules_ordered_positions(uint64_t w, const ScRulesAccess *a)
{
    ScRulesState s = sc_rules_decode(w);
    RulesRel r = rules_relate(&s, a);
    int set = 0;
    for (unsigned p = SC_RULES_POS_BSYNC; p <= SC_RULES_POS_GRID; p++)
        if (rules_ordered(&r, p))
            set |= 1 << p;
    return set;
}

/* The classes (a bit per ScRulesCls) of the word trail t led to whose every access is
 * ordered before an access: those `before` holds at positions in `before_ordered`
 * (sc_rules_ordered_positions of `before` for it) or not at all, whose stamps are all
 * ordered before it (bit i of `stamps_ordered`: stamp i's SELF is), and of which the
 * trail lost no access. */
SC_HD static inline unsigned sc_rules_trail_classes(const ScRulesTrail *t, int before_ordered,
                                                    unsigned stamps_ordered)
{
    ScRulesState b = sc_rules_decode(t->before);
    unsigned ok = 0;
    for (int c = 0; c < SC_RULES_NCLS; c++) {
        int good = !((t->lost >> c) & 1u) &&
                   (b.reach[c] == SC_RULES_POS_NONE || ((before_ordered >> b.reach[c]) & 1));
        for (uint32_t i = 0; i < t->n_after && good; i++)
            if (sc_rules_stamp_cls(t->after[i]) == c && !((stamps_ordered >> i) & 1))
                good = 0;
        ok |= (unsigned)good << c;
    }
    return ok;
}

/* The access of class c that trail t names as one not ordered before an access: the
 * first stamp of class c not ordered (bit i of `stamps_ordered` clear), else the own
 * access of `before`'s recorder when `before` holds c at SELF and that is not ordered
 * (`before_ordered`), stamped with its site from `before_site`; 0: none. A report names
 * it where the word only summarizes it. */
SC_HD static inline uint64_t sc_rules_trail_partner(const ScRulesTrail *t, int c, int before_ordered,
                                                    unsigned stamps_ordered)
{
    for (uint32_t i = 0; i < t->n_after; i++)
        if (sc_rules_stamp_cls(t->after[i]) == c && !((stamps_ordered >> i) & 1))
            return t->after[i];
    if (sc_rules_reach(t->before, c) != SC_RULES_POS_SELF || ((before_ordered >> SC_RULES_POS_SELF) & 1))
        return 0;
    return rules_stamp_of(t->before, c, sc_rules_site_of(t->before_site, c));
}

/* ---- The prerequisite grid ------------------------------------------------------- */

/* A grid launched with programmatic stream serialization (programmatic dependent
 * launch) may start before the grid before it in its stream, its prerequisite, has
 * finished, and only griddepcontrol.wait orders that grid's accesses before a thread's
 * (PTX ISA, griddepcontrol; docs/rules.md section 12). Until a thread waits, no access
 * of the prerequisite grid is ordered before its accesses: access a races with the
 * prerequisite's history `prior` of a word (cell 0) or byte cell (cell 1), site word
 * `site`, where some access of it conflicts with a and the two are not morally strong
 * (both strong, both scopes .gpu or wider, as two grids' threads share no block or
 * cluster, and the same bytes). Returns the class of such an access, writes first,
 * or -1. Scopes the word does not keep are judged as the rules keep them: a strong
 * write is block-scoped when `xcta` says one was; a strong read is block-scoped only
 * when it is the recorder's latest read and the site word says so (another is taken
 * as .gpu: a miss, never a false alarm). */
SC_HD static inline int sc_rules_prior_race(uint64_t prior, uint64_t site, const ScRulesAccess *a, int cell)
{
    /* atomic, strong write, weak write, strong read, weak read: a nibble each, no
     * table (the device runtime has no module-scope data). */
    const uint32_t order = (uint32_t)SC_RULES_CLS_ATOMIC | (uint32_t)SC_RULES_CLS_SWRITE << 4 |
                           (uint32_t)SC_RULES_CLS_WRITE << 8 | (uint32_t)SC_RULES_CLS_SREAD << 12 |
                           (uint32_t)SC_RULES_CLS_READ << 16;
    if (prior == 0 || sc_rules_is_split(prior))
        return -1;
    uint32_t mask = (uint32_t)(prior & SC_RULES_MASK_FIELD);
    if (!cell && (mask & a->mask) == 0)
        return -1;
    int a_strong = a->cls != SC_RULES_CLS_READ && a->cls != SC_RULES_CLS_WRITE;
    int a_wide = a_strong && a->scope >= SC_SCOPE_GPU && mask == a->mask;
    uint64_t read_slot = rules_site_slot_of(site, SC_RULES_CLS_SREAD);
    int sread_narrow = rules_site_slot_cls(read_slot, SC_RULES_CLS_SREAD) == SC_RULES_CLS_SREAD &&
                       (read_slot & ((1u << SC_RULES_SITE_BITS) - 1u)) != 0 &&
                       rules_site_slot_block_scoped(read_slot, SC_RULES_CLS_SREAD);
    for (int i = 0; i < SC_RULES_NCLS; i++) {
        int c = (int)((order >> (4 * i)) & 0xfu);
        if (sc_rules_reach(prior, c) == SC_RULES_POS_NONE || (rules_is_read(c) && rules_is_read(a->cls)))
            continue;
        int wide = c == SC_RULES_CLS_SREAD                                  ? !sread_narrow
                   : c == SC_RULES_CLS_SWRITE || c == SC_RULES_CLS_ATOMIC ? !((prior >> SC_RULES_XCTA_SHIFT) & 1u)
                                                                          : 0;
        if (!(a_wide && wide))
            return c;
    }
    return -1;
}

#endif
