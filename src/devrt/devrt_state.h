/* devrt_state.h: the device runtime's state as both sides see it: the host fills
 * the launch descriptor before each instrumented launch and reads the race records
 * back after it. Plain C, fixed-width types, no libc. */
#ifndef SC_DEVRT_STATE_H
#define SC_DEVRT_STATE_H

#include <stdint.h>

#include "devrt/devrt_abi.h"
#include "rules/rules.h"

/* Global memory shadow: a two-level table from address to the shadow of its 64 KiB
 * chunk. Bits 47..30 of an address index the directory, bits 29..16 the chunk table
 * it points at; a chunk's shadow holds one 64-bit word per 4 application bytes. */
#define SC_SHADOW_DIR_BITS 18
#define SC_SHADOW_DIR_SHIFT 30
#define SC_SHADOW_CHUNK_BITS 14
#define SC_SHADOW_CHUNK_SHIFT 16
#define SC_SHADOW_CHUNK_BYTES (1u << SC_SHADOW_CHUNK_SHIFT)
#define SC_SHADOW_WORDS_PER_CHUNK (SC_SHADOW_CHUNK_BYTES / 4)
/* A chunk's shadow: its shadow words, then as many site words (src/rules/rules.h: the
 * recorder's instructions of the shadow word at the same index). */
#define SC_SHADOW_CHUNK_WORDS (2 * SC_SHADOW_WORDS_PER_CHUNK)
/* Set by the device in a chunk-table entry when a launch first uses the chunk: the
 * shadow words carry no launch tag, so before the next launch the host clears the
 * shadow (both halves) of every such chunk and clears the bit. */
#define SC_SHADOW_DIRTY ((uint64_t)1 << 63)
/* A chunk-table entry of a chunk that has no shadow of its own (the device could not
 * give it, or shadow=cache): its words go through the metadata cache below. The host
 * writes SC_SHADOW_CACHED | SC_SHADOW_DIRTY, so that the device never marks it (there
 * is nothing of the chunk's own to clear) and the full-shadow path tests no new flag
 * before it marks a chunk. */
#define SC_SHADOW_CACHED ((uint64_t)1 << 62)
#define SC_SHADOW_FLAGS (SC_SHADOW_DIRTY | SC_SHADOW_CACHED)

/* The metadata cache (ScoRD's): direct-mapped, 1 << cache_bits entries, each the
 * history of one 4-byte word of a cached chunk, indexed by sc_shadow_cache_index of
 * the word's address. An entry belongs to the word and launch its tag names; any
 * other tag reads as an empty history (an eviction forgets, it never mixes words).
 * A thread holds at most one entry at a time, locked by SC_SHADOW_CACHE_LOCK. */
typedef struct ScDevCacheEntry {
    uint64_t tag;    /* sc_shadow_cache_tag(word address, epoch) | lock; 0: never used */
    uint64_t shadow; /* the rules' shadow word of that word */
    uint64_t site;   /* its site word */
} ScDevCacheEntry;

/* Tag: bit 0 the lock, bits 1..17 the launch epoch (1..SC_SHADOW_CACHE_EPOCHS; the
 * host clears the cache when it wraps, so a tag never meets a stale entry of an
 * older launch), bits 18..63 the word's address >> 2 (global addresses the chunk
 * tables cover are below 2^48). */
#define SC_SHADOW_CACHE_LOCK ((uint64_t)1)
#define SC_SHADOW_CACHE_EPOCH_SHIFT 1
#define SC_SHADOW_CACHE_EPOCH_BITS 17
#define SC_SHADOW_CACHE_EPOCHS ((1u << SC_SHADOW_CACHE_EPOCH_BITS) - 1)
#define SC_SHADOW_CACHE_WORD_SHIFT (SC_SHADOW_CACHE_EPOCH_SHIFT + SC_SHADOW_CACHE_EPOCH_BITS)

SC_HD static inline uint64_t sc_shadow_cache_tag(uint64_t addr, uint32_t epoch)
{
    return (addr >> 2) << SC_SHADOW_CACHE_WORD_SHIFT |
           (uint64_t)(epoch & SC_SHADOW_CACHE_EPOCHS) << SC_SHADOW_CACHE_EPOCH_SHIFT;
}

SC_HD static inline uint64_t sc_shadow_cache_tag_addr(uint64_t tag)
{
    return tag >> SC_SHADOW_CACHE_WORD_SHIFT << 2;
}

SC_HD static inline uint32_t sc_shadow_cache_tag_epoch(uint64_t tag)
{
    return (uint32_t)(tag >> SC_SHADOW_CACHE_EPOCH_SHIFT) & SC_SHADOW_CACHE_EPOCHS;
}

/* The entry of the word at addr. The words of one aligned window of 1 << bits words
 * take distinct entries (an array as large as the cache does not evict itself);
 * windows are rotated by a Fibonacci hash of their number, so that arrays at the same
 * offset of different windows rarely share entries. */
SC_HD static inline uint64_t sc_shadow_cache_index(uint64_t addr, uint32_t bits)
{
    uint64_t word = addr >> 2, window = word >> bits;
    return (word + ((window * 0x9e3779b97f4a7c15ull) >> 32)) & (((uint64_t)1 << bits) - 1);
}

/* One race as the device records it, deduplicated on the device by key (cause and
 * the unordered pair of sites); the host resolves sites and threads into a report.
 * The host zeroes the table before each launch. An entry whose key is neither 0 nor
 * SC_DEV_KEY_BUSY holds a record; dropped occurrences = records_used minus the
 * entries holding one (an occurrence that found no entry counts in records_used only). */
typedef struct ScDevRecord {
    uint64_t key;            /* 0: free; written last by the thread that claims the record */
    uint64_t addr;           /* shared window offset or global address of the first occurrence */
    uint32_t occurrences;    /* dynamic occurrences folded into this record */
    uint32_t cause;          /* ScCause: the order of src/report/report_cause.def */
    uint32_t cur_site, prev_site;
    uint32_t cur_info, prev_info;     /* SC_ABI_INFO of both accesses, the space resolved
                                         (SHARED or GLOBAL, never GENERIC) */
    uint32_t cur_block, cur_thread;   /* linear block id, linear thread index in the block */
    uint32_t prev_block, prev_thread; /* as the shadow recorded them; prev_thread's bits
                                         from SC_DEV_WHO_SHIFT up: ScRaceWho */
} ScDevRecord;

/* Keys: SC_DEV_KEY(cause, lower site, higher site), sites below SC_DEV_SITE_LIMIT. */
#define SC_DEV_SITE_BITS 29
#define SC_DEV_SITE_LIMIT ((1u << SC_DEV_SITE_BITS) - 1)
#define SC_DEV_KEY(cause, lo, hi)                                                              \
    ((((uint64_t)(cause) + 1) << (2 * SC_DEV_SITE_BITS)) |                                     \
     ((uint64_t)(lo) << SC_DEV_SITE_BITS) | (uint64_t)(hi))
/* A record being filled: its writer has claimed it, its key is not out yet. */
#define SC_DEV_KEY_BUSY UINT64_MAX
/* prev_site of a record whose other side is no instruction (barrier_divergence:
 * a thread that never arrived); SC_REPORT_SITE_NONE on the host. */
#define SC_DEV_SITE_NONE 0xffffffffu
/* prev_thread of a summarized previous access: the recorded thread's index, and
 * above it how far from that thread the access may lie (ScRaceWho, report.h). */
#define SC_DEV_WHO_SHIFT 16
#define SC_DEV_WHO_WARP 1u
#define SC_DEV_WHO_BLOCK 2u
#define SC_DEV_WHO_ANY 3u
/* cur_info/prev_info of a barrier_divergence record: a thread at a barrier, a
 * thread that did not arrive at the barrier instance the other side passed. */
#define SC_DEV_INFO_BARRIER 0u
#define SC_DEV_INFO_ABSENT 0xffffffffu

#define SC_DEV_ACQ_SET 8
/* acq_meta: the taker's thread (10 bits), its warp's barrier instance then (10), the
 * acquire's scope spans every block (1), taken through cas/exch, a lock (1), set (1),
 * its warp clock then (7), the acquire's scope spans its cluster (1). */
#define SC_DEV_ACQ_META(tid, bar, span, lock, sync)                                            \
    ((uint32_t)(tid) | (uint32_t)(bar) << 10 | (uint32_t)((span) >= SC_RULES_SPAN_GPU) << 20 |  \
     (uint32_t)(lock) << 21 | 1u << 22 | (uint32_t)(sync) << 23 |                              \
     (uint32_t)((span) >= SC_RULES_SPAN_CLUSTER) << 30)
#define SC_DEV_ACQ_SYNC(m) (((m) >> 23) & 0x7fu)
#define SC_DEV_ACQ_TID(m) ((m)&0x3ffu)
#define SC_DEV_ACQ_BAR(m) (((m) >> 10) & 0x3ffu)
#define SC_DEV_ACQ_SPAN(m)                                                                     \
    (((m) >> 20) & 1u ? SC_RULES_SPAN_GPU : ((m) >> 30) & 1u ? SC_RULES_SPAN_CLUSTER : SC_RULES_SPAN_BLOCK)
#define SC_DEV_ACQ_LOCK(m) (((m) >> 21) & 1u)
/* acq_head of an entry that records a failed attempt: | its ScCause + 1. */
#define SC_DEV_ACQ_FAILED (1u << 31)

/* The sync table: per flag (a location a strong write published a release through),
 * the newest node of its release chain. Entry: node sequence number << 32 | the flag's
 * tag (sc_dev_sync_tag, never 0); a flag's key picks a set of SC_DEV_SYNC_WAYS
 * entries, where it takes its own entry, else a free one; five flags that carry
 * releases and meet in one set take turns (an overwritten chain can only cost a false
 * alarm, counted in sync_lost). Direct-mapped, one flag's publishing evicted another's
 * often enough to give timing-dependent false alarms (a block's lock among a grid's
 * lock chains). Cleared by the host before each launch. */
#define SC_DEV_SYNC_TABLE_BITS 16
#define SC_DEV_SYNC_WAYS 4
/* A node of a release chain: the release record a write carried (without
 * SC_RULES_REC_SET: a strong write that carried no release, its writer's block and
 * thread in the record's places; flag bits below),
 * the node it continues (an atomic read-modify-write continues the release sequence
 * of the write it read; 0: a chain's first), and its own sequence number (the node
 * ring is reused: a node whose `self` differs was overwritten). */
typedef struct ScDevSyncNode {
    uint64_t rec;
    uint32_t prev;
    uint32_t self;
    uint32_t also;   /* the chain the writer had taken before its release: what the
                        release passes on (causality is transitive); 0: none */
    uint32_t broken; /* ScCause + 1 of the writer's latest failed attempt before its
                        release: a link of the chain that did not hold; 0: none */
    /* Where the node sits in its chain: the chain's first node and the node's distance
     * from it (1 for the first). A chain is a line (each write swaps the flag's entry
     * from the head it continues), so node n lies on the chain of head h exactly when
     * both have one start and n's depth is at most h's: the test that finds a thread's
     * own release in an mbarrier's chain without walking it (devrt_trail.cuh,
     * own_release_in). start 0: not known (the node continued was reused). */
    uint32_t start;
    uint32_t depth;
} ScDevSyncNode;
#define SC_DEV_SYNC_NODES_BITS 20
/* rec flags above the rules' record: the write that carried it was weak (not a
 * synchronization), cta-scoped (no morally strong partner in another block) or
 * cluster-scoped (none outside its cluster). */
#define SC_DEV_REC_WEAK ((uint64_t)1 << 62)
#define SC_DEV_REC_FLAG_CTA ((uint64_t)1 << 61)
#define SC_DEV_REC_FLAG_CLUSTER ((uint64_t)1 << 60)
#define SC_DEV_REC_FLAGS (SC_DEV_REC_WEAK | SC_DEV_REC_FLAG_CTA | SC_DEV_REC_FLAG_CLUSTER)
/* __scord_acquired_cover's answer: the word's trail was read, ScDevThread.trail_classes
 * says which classes it orders that its recorder's relation may not, and trail_named
 * which access of the others it names (beside the record, if any). A flag bit, which
 * no record it returns carries (bit 63 is SC_RULES_REC_BARRIER). */
#define SC_DEV_COVER_MOVED SC_DEV_REC_WEAK

SC_HD static inline uint32_t sc_dev_sync_tag(uint64_t key)
{
    uint32_t t = (uint32_t)(key ^ key >> 29);
    return t ? t : 1u;
}

/* A shadow word's trail (docs/rules.md section 11, "Trails"): the word when the trail
 * began and its site word, the latest accesses since (ScRulesTrail.after, stamps,
 * oldest first, 0: none), the classes the trail lost, and the word the last of them
 * left (`now`, 0 while its writer rewrites the entry: a reader that reads it before
 * and after the other fields reads a whole entry); by the shadow word's address and
 * the launch's tag (`key`, devrt_trail.cuh trail_key). In a launch that releases, every read
 * of global memory that changes a word keeps or begins one (each cell of Rule 110's
 * ring, every step), and a word keeps its entry for the launch (devrt_trail.cuh,
 * trail_entry): 2^20 entries, in sets of 8, a word's trail in one of two sets. */
typedef struct ScDevTrail {
    uint64_t key, before, before_site, now, lost;
    uint64_t after[SC_RULES_TRAIL_MAX];
} ScDevTrail;
#define SC_DEV_TRAILS_BITS 20
#define SC_DEV_TRAILS_WAYS 8

/* Flags read strongly that an acquire may take a release from. */
#define SC_DEV_PENDING 2
/* Releases per thread kept for the look-up of ScDevThread.rel_nodes: a thread of a
 * double-buffered pipeline arrives at four mbarriers in turn. */
#define SC_DEV_REL_NODES 4

/* A pending cp.async: its destination's shared offset (bits 0..19), its size in bytes
 * (20..27), the thread's commits before it, modulo 256 (28..35: the group it joins),
 * and its site (36..63, the site id + 1 folded to 28 bits: 0 names none); beside it,
 * the thread's clocks when it was issued: its warp's own block-clock value, its warp
 * clock's now and floor. */
#define SC_DEV_ASYNC_COPIES 8
#define SC_DEV_ASYNC_ENTRY(off, size, group, site)                                             \
    ((uint64_t)(off) | (uint64_t)(size) << 20 | (uint64_t)((group)&0xffu) << 28 |             \
     (uint64_t)((site) + 1u < (1u << 28) ? (site) + 1u : 0u) << 36)
#define SC_DEV_ASYNC_OFF(e) ((uint32_t)(e)&0xfffffu)
#define SC_DEV_ASYNC_SIZE(e) ((uint32_t)((e) >> 20) & 0xffu)
#define SC_DEV_ASYNC_GROUP(e) ((uint32_t)((e) >> 28) & 0xffu)
#define SC_DEV_ASYNC_SITE(e) ((uint32_t)((e) >> 36) - 1u)
#define SC_DEV_ASYNC_CLOCKS(bar_own, sync_now, sync_floor)                                     \
    ((uint64_t)(bar_own) | (uint64_t)(sync_now) << 16 | (uint64_t)(sync_floor) << 32)
#define SC_DEV_ASYNC_BAR_OWN(c) ((uint32_t)(c)&0xffffu)
#define SC_DEV_ASYNC_SYNC_NOW(c) ((uint32_t)((c) >> 16) & 0xffffu)
#define SC_DEV_ASYNC_SYNC_FLOOR(c) ((uint32_t)((c) >> 32) & 0xffffu)
/* Rows of a clock that know every warp or lane at one value v: row v of
 * ScDevLaunch.const_rows, SC_DEV_CONST_ROWS of them, filled once by the host. */
/* The ABI kind of a rules class, for the previous side of a record (the device's, and
 * the host's for a copy's race). */
SC_HD static inline uint32_t sc_dev_cls_kind(uint32_t cls)
{
    if (cls == SC_RULES_CLS_READ || cls == SC_RULES_CLS_SREAD)
        return SC_ABI_KIND_READ;
    if (cls == SC_RULES_CLS_WRITE || cls == SC_RULES_CLS_SWRITE)
        return SC_ABI_KIND_WRITE;
    return SC_ABI_KIND_RMW;
}

#define SC_DEV_CONST_ROWS 1024u

SC_HD static inline void sc_dev_fill_const_rows(uint16_t rows[SC_DEV_CONST_ROWS][32])
{
    for (uint32_t v = 0; v < SC_DEV_CONST_ROWS; v++)
        for (uint32_t i = 0; i < 32; i++)
            rows[v][i] = (uint16_t)v;
}

/* The clocks of a thread as they were when it issued an asynchronous copy (`issued`:
 * SC_DEV_ASYNC_CLOCKS), for the check of the copy's write at its completion: ages are
 * still taken from the current now (r keeps bar_now and sync_now); what the thread knew
 * is its own values at the issue, with rows of `const_rows` (SC_DEV_CONST_ROWS of 32,
 * row v all v) that know every warp and lane that far, which is at least what it knew
 * (knowing more can only hide a race). */
SC_HD static inline void sc_dev_issue_clocks(ScRulesAccess *r, const uint16_t *const_rows, uint64_t issued)
{
    uint32_t own = SC_DEV_ASYNC_BAR_OWN(issued), now = SC_DEV_ASYNC_SYNC_NOW(issued);
    r->bar_own = (uint16_t)own;
    r->bar_seen = const_rows + 32 * (own % SC_DEV_CONST_ROWS);
    r->sync_floor = (uint16_t)SC_DEV_ASYNC_SYNC_FLOOR(issued);
    r->sync_seen = const_rows + 32 * (now % SC_DEV_CONST_ROWS);
}

/* Does __scord_async_group(op), with `committed` groups committed by the thread (after
 * op's own commit), complete a pending copy of group `group`? wait_group N completes
 * every committed group but the newest N (a copy not committed yet, age 0, stays). */
SC_HD static inline bool sc_dev_async_completes(uint32_t committed, uint32_t group, uint32_t op)
{
    if (op == SC_ABI_ASYNC_COMMIT)
        return false;
    if (op == SC_ABI_ASYNC_WAIT_ALL || op == SC_ABI_ASYNC_ARRIVE)
        return true;
    return ((committed - group) & 0xffu) > op;
}

/* Mbarriers a block follows as barriers of the block (docs/devrt.md, "Mbarriers as
 * block barriers"): objects of its shared memory whose count is its thread count. */
#define SC_DEV_MBARS 4

/* What an arrival of `count` does at such an object, which had `old` arrivals in its
 * open phase of `expected`: it counts, or its arrival completes the phase, or it
 * overruns the phase (arrivals of the next phase came before this one's completion was
 * noted, so the runtime cannot tell which arrival the hardware completed it with). */
enum { SC_DEV_MBAR_COUNTS, SC_DEV_MBAR_COMPLETES, SC_DEV_MBAR_OVERRUNS };

SC_HD static inline int sc_dev_mbar_arrival(uint32_t old, uint32_t count, uint32_t expected)
{
    if (old >= expected || (uint64_t)old + count > expected)
        return SC_DEV_MBAR_OVERRUNS;
    return old + count == expected ? SC_DEV_MBAR_COMPLETES : SC_DEV_MBAR_COUNTS;
}

/* Per-thread synchronization state, in the block's slot. */
typedef struct ScDevThread {
    uint32_t bar_epoch;  /* block-wide barrier instances this thread has arrived at */
    uint32_t warp_epoch; /* SC_DEV_ROW_STALE while this lane's row of its warp clock reads
                            as the clock's floor (no partial __syncwarp since a full one) */
    /* The last weak read of this thread that raced with a write: its word (address << 1
     * | shared, not its shadow word, which a cache entry shares), the thread's clocks
     * then (bar << 16 | sync), the cause and the writer's side (site, info, block,
     * thread), so that its write of the same word at the same clocks is reported
     * against that writer too (the word's history restarted at the read). */
    uint64_t rmw_word;
    uint32_t rmw_clock, rmw_cause;
    uint32_t rmw_prev[4];
    /* Scoped synchronization (docs/devrt.md, "Release and acquire"). */
    uint64_t release;          /* this thread's latest release record, 0: none yet */
    uint32_t release_fresh;    /* FRESH_* of devrt_sync.cuh: what has not carried `release` yet */
    uint32_t attempt;          /* ScCause + 1 of the latest failed synchronization, 0: none */
    uint64_t pending[SC_DEV_PENDING]; /* sync keys of flags read strongly since the last
                                         acquire, 0: none */
    uint32_t pending_info[SC_DEV_PENDING]; /* their reads' SC_ABI_INFO, | PENDING_GAVE (devrt_sync.cuh) */
    uint32_t lock_user;        /* this thread took a lock (acquired through cas/exch) */
    uint32_t last_acq;         /* the chain this thread took last (its head), 0: none */
    uint32_t release_also;     /* last_acq when it released: passed on with `release` */
    uint32_t release_broken;   /* attempt when it released */
    /* The spin access (a strong read, or a cas/exch) this thread decided last, as a key
     * of its word, instruction, block, clocks and acquisitions, and for a read the hash
     * of the shadow pairs it left unchanged: a repeat that meets them again is not
     * decided again (docs/devrt.md, "Spins"). 0: none. */
    uint64_t spin_key;
    uint64_t spin_shadow;
    uint32_t acq_flags;        /* what the last failed look for a covering release saw */
    uint32_t last_acq_meta;    /* SC_DEV_ACQ_META of the take of last_acq */
    uint32_t trail_classes;    /* the classes a word's trail orders, when the last
                                  look answered SC_DEV_COVER_MOVED (ScRulesAccess.moved) */
    uint32_t grid_waited;      /* passed griddepcontrol.wait: the prerequisite grid's
                                  accesses are ordered before this thread's */
    uint64_t trail_named[SC_RULES_NCLS]; /* then, per class, an access the trail names
                                  as not ordered (sc_rules_trail_partner), 0: none */
    /* The nodes this thread's latest releases through flags were published in (a ring,
     * newest at rel_next - 1), so that a thread that took a chain finds the release of
     * a recorder of its block in it at once. Not cleared at block entry: a node of the
     * slot's previous block names another block, whose record covers no access of
     * this one. */
    uint32_t rel_nodes[SC_DEV_REL_NODES];
    uint32_t rel_next;
    uint32_t mbar_used;        /* arrived at an mbarrier that was a block barrier */
} ScDevThread;

/* A tensor map the program encoded (cuTensorMapEncodeTiled), as the host saw its
 * arguments: a tensor copy (cp.async.bulk.tensor, TMA) names its map by address, and
 * the runtime finds the record whose `map` holds the same 128 bytes (docs/devrt.md,
 * "Tensor copies"). Dimension 0 is the innermost; the box is dense in shared memory
 * (the swizzle modes permute 16-byte pieces within it). */
#define SC_DEV_TENSOR_MAPS 256u
typedef struct ScDevTensorMap {
    uint64_t map[16];      /* the CUtensorMap's bytes */
    uint64_t base;         /* globalAddress */
    uint64_t dim[5];       /* elements per dimension (globalDim; 1 beyond the rank) */
    uint64_t stride[5];    /* bytes between neighbours along each dimension: the element
                              size for 0, globalStrides[d - 1] beyond */
    uint32_t box[5];       /* boxDim (1 beyond the rank) */
    uint32_t rank;         /* 1..5 */
    uint32_t elem;         /* element size in bytes */
    uint32_t checked;      /* 0: a form scord does not follow (interleaved, element strides
                              other than 1, sub-byte types): its copies count unchecked */
} ScDevTensorMap;

/* Bytes of shared memory a tensor copy of map m fills or reads: the whole box. */
SC_HD static inline uint64_t sc_dev_tensor_box_bytes(const ScDevTensorMap *m)
{
    return (uint64_t)m->box[0] * m->box[1] * m->box[2] * m->box[3] * m->box[4] * m->elem;
}

/* Rows of the box: one per combination of the coordinates of dimensions 1..4. */
SC_HD static inline uint32_t sc_dev_tensor_rows(const ScDevTensorMap *m)
{
    return m->box[1] * m->box[2] * m->box[3] * m->box[4];
}

/* Row `row` of the box at coordinates c (element coordinates, possibly negative) in
 * global memory: its first byte and length, the part of it inside the tensor (the
 * rest is filled with zeros, or not written, by the copy: no access). False when none
 * of it is. */
SC_HD static inline int sc_dev_tensor_row(const ScDevTensorMap *m, const int32_t c[5], uint32_t row,
                                          uint64_t *addr, uint32_t *bytes)
{
    uint64_t off = 0;
    for (uint32_t d = 1; d < 5; d++) {
        int64_t x = (int64_t)c[d] + (int64_t)(row % m->box[d]);
        row /= m->box[d];
        if (x < 0 || (uint64_t)x >= m->dim[d])
            return 0;
        off += (uint64_t)x * m->stride[d];
    }
    int64_t lo = c[0], hi = (int64_t)c[0] + m->box[0];
    if (lo < 0)
        lo = 0;
    if (hi > (int64_t)m->dim[0])
        hi = (int64_t)m->dim[0];
    if (lo >= hi)
        return 0;
    *addr = m->base + off + (uint64_t)lo * m->elem;
    *bytes = (uint32_t)((uint64_t)(hi - lo) * m->elem);
    return 1;
}

/* A thread's cp.async copies issued and not complete yet, oldest first (docs/devrt.md,
 * "Asynchronous copies"), in ScDevLaunch.async beside its ScDevThread. */
typedef struct ScDevAsync {
    uint64_t copies[SC_DEV_ASYNC_COPIES]; /* SC_DEV_ASYNC_ENTRY */
    uint64_t clocks[SC_DEV_ASYNC_COPIES]; /* SC_DEV_ASYNC_CLOCKS of each */
    uint64_t issued;                      /* the clocks of the copy being completed */
    uint32_t n;                           /* entries in use */
    uint32_t groups;                      /* cp.async groups the thread has committed */
} ScDevAsync;
#define SC_DEV_ROW_STALE 0xffffffffu

/* Per-block state, in the block's slot. */
typedef struct ScDevBlock {
    uint32_t live_threads;  /* threads that have not exited */
    uint32_t slot_bit;      /* this block's bit in its SM's slot bitmap */
    uint32_t sm;            /* the SM whose bitmap holds it */
    uint32_t divergent;     /* a barrier divergence was recorded for this block */
    /* per barrier-instance parity: (instance number & 3) << 30 | (site + 1) of the
     * first arrival (sites above 2^30 - 2 are not compared) */
    uint32_t bar_site[2];
    uint32_t bar_first[2];  /* per parity: the thread that wrote bar_site (best effort) */
    uint32_t exited_lanes[32]; /* per warp: lanes that have exited */
    /* per barrier-instance parity, per warp: instance number << 32 | lanes that
     * arrived (an older instance number reads as no lane) */
    uint64_t bar_arrived[2][32];
    /* The block clock's now, | 1 << 16 while every entry of clk equals now (only full
     * barriers so far, all warps live): accesses then read no row of clk. */
    uint32_t bar_state;       /* bit 17: the clock was lost, the block is unchecked */
    uint32_t clk_busy;        /* a thread is writing clk */
    uint32_t bar_count;      /* live threads << 16 | arrivals at the open full barrier */
    uint32_t named_count[16]; /* per barrier id: arrivals at its open partial barrier */
    uint32_t named_warps[16]; /* per barrier id: warps that arrived there */
    ScRulesBlockClk clk;      /* the rules' block clock, written only by the thread that
                                 completes a barrier instance */
    /* Releases taken by the block's threads: the head of a release chain in the sync
     * nodes (its sequence number) or a failed attempt (SC_DEV_ACQ_FAILED), and who took
     * it: SC_DEV_ACQ_META. A thread uses one it took itself, or that a barrier since
     * orders before it. */
    uint32_t acq_head[SC_DEV_ACQ_SET];
    uint32_t acq_meta[SC_DEV_ACQ_SET];
    uint32_t acq_next;        /* entries ever added; the set keeps the newest */
    uint32_t split_used;      /* groups of the slot split area taken (ScDevLaunch.slot_split) */
    /* Mbarriers followed as block barriers: the object's shared offset + 1 (0: free),
     * its count (0: the object is a release chain), arrivals in its open phase and
     * their warps. */
    uint32_t mbar_key[SC_DEV_MBARS];
    uint32_t mbar_expected[SC_DEV_MBARS];
    uint32_t mbar_arrivals[SC_DEV_MBARS];
    uint32_t mbar_warps[SC_DEV_MBARS];
    ScRulesCluster cluster;   /* the launch's clusters, when of several blocks (sm_90) */
} ScDevBlock;

/* Where every check stops (the cut option, for attributing cost): none, the access
 * hook at once, after its lane grouping and synchronization bookkeeping, before the
 * shadow step; hooks: every call at once, which the host makes the launch's
 * enabled = 0 (the device never tests for it). */
#define SC_DEV_CUT_NONE 0u
#define SC_DEV_CUT_ACCESS 1u
#define SC_DEV_CUT_GROUPING 2u
#define SC_DEV_CUT_SHADOW 3u
#define SC_DEV_CUT_HOOKS 4u

/* The section timers of a profiling runtime: clock cycles a warp spent in each
 * section of the access path, and counts of what it did there, summed per SM. */
#define SC_DEV_PROF_LIST(X)                                                              \
    X(QUICK, "warp calls of __scord_access_quick whose quick path decided lanes")         \
    X(CALLS, "warp calls of the slow path")                                              \
    X(CALL_CYCLES, "cycles from the hook's first statement to its last")                 \
    X(GROUP_CYCLES, "cycles grouping lanes and noting synchronization")                  \
    X(CHECKS, "access checks (one lane's, or a group's)")                                \
    X(CHECK_CYCLES, "cycles in access checks, whole")                                    \
    X(LOOKUP_CYCLES, "cycles finding the shadow and reading the clocks, per check")      \
    X(WORDS, "shadow word decisions")                                                    \
    X(SHADOW_CYCLES, "cycles deciding shadow words, whole")                              \
    X(LOAD_CYCLES, "cycles loading a shadow word and its site word")                     \
    X(COVERS, "acquired-release lookups")                                                \
    X(COVER_CYCLES, "cycles in acquired-release lookups")                                \
    X(DECIDE_CYCLES, "cycles in the rules' decision")                                    \
    X(UNCHANGED, "decisions that left the word and its site word as they were")          \
    X(WRITES, "attempts to write a word and its site word")                              \
    X(WRITE_CYCLES, "cycles writing words and site words")                               \
    X(RETRIES, "writes that found the word changed and decided again")                   \
    X(REPORT_CYCLES, "cycles recording races")                                           \
    X(WAIT_CYCLES, "cycles waiting at the hook's __syncwarps for the checking lanes")      \
    X(QUICK_NOT_OWN, "quick path sent on: not a lone or end lane's 4-aligned weak word")  \
    X(QUICK_CLOCKS, "quick path sent on: barrier rows, a lost clock or a warp out of step") \
    X(QUICK_THREAD, "quick path sent on: a write after a fresh release or a pending rmw") \
    X(QUICK_SPACE, "quick path sent on: no full shadow (cluster, cached, prior grid)")   \
    X(QUICK_HELD, "quick path sent on: the word was held by another thread")              \
    X(QUICK_RULES, "quick path sent on: sc_rules_quick could not decide the word")         \
    X(QUICK_TRAIL, "quick path sent on: a global read that would begin a trail")          \
    X(QUICK_SWAP, "quick path sent on: the word changed before its swap")
enum {
#define SC_DEV_PROF_ENUM(id, what) SC_DEV_PROF_##id,
    SC_DEV_PROF_LIST(SC_DEV_PROF_ENUM)
#undef SC_DEV_PROF_ENUM
        SC_DEV_PROF_COUNT
};

/* No slot could be had: the block runs unchecked (never hangs the program). */
#define SC_DEV_NO_SLOT 0xffffffffu

/* The launch descriptor every instrumented module's __scord_state points at. */
typedef struct ScDevLaunch {
    uint32_t launch_tag;      /* changes with every launch: older shadow reads as empty */
    uint32_t enabled;         /* 0: the runtime returns at once (graph launches) */
    uint32_t slots_per_sm;    /* slots per SM for this kernel, <= 64 */
    uint32_t threads_per_block;
    uint32_t shared_words;    /* 4-byte words of shared memory per block (static + dynamic) */
    uint32_t records_cap;
    uint32_t records_used;    /* device-incremented per occurrence that needed a new entry;
                                 beyond the entries filled: dropped (see ScDevRecord) */
    uint32_t sm_ids;          /* entries of slot_bitmap: a block on an SM id beyond runs unchecked */
    uint64_t slot_bitmap;     /* uint64_t[number of SMs]: slots taken */
    /* Slot s of SM m is number m * slots_per_sm + s: the three arrays below have
     * sm_ids * slots_per_sm slots. */
    uint64_t threads;         /* per slot, per thread: ScDevThread */
    uint64_t blocks;          /* per slot: ScDevBlock */
    uint64_t shared_shadow;   /* per slot: shared_words shadow words, then as many site
                                 words (cleared at block entry) */
    uint64_t shadow_dir;      /* uint64_t[1 << SC_SHADOW_DIR_BITS] -> chunk tables */
    uint64_t records;         /* ScDevRecord[records_cap], an open-addressed table */
    uint64_t unchecked_accesses; /* device-incremented: addresses with no shadow */
    uint32_t unchecked_blocks;   /* device-incremented: blocks that got no slot */
    uint32_t split_cap;          /* entries of split_pool */
    uint64_t warp_clocks;        /* per slot, per warp (threads_per_block / 32 rounded
                                    up): ScRulesWarpClk */
    uint64_t split_pool;         /* uint64_t[split_cap][8]: per split shadow word its
                                    four byte cells, each followed by its site word */
    uint32_t split_used;         /* device-incremented up to split_cap (a little past it
                                    when threads race): beyond, not split, the access
                                    counted in unsplit_accesses */
    uint32_t cache_epoch;        /* this launch's epoch in the cache's tags */
    uint64_t cache;              /* ScDevCacheEntry[1 << cache_bits]; 0: there is no
                                    cache, accesses to cached chunks count unchecked */
    uint32_t cache_bits;
    uint32_t sync_lost;          /* device-incremented: flags whose chain another took over */
    uint64_t sync_table;         /* uint64_t[1 << SC_DEV_SYNC_TABLE_BITS] */
    uint64_t sync_nodes;         /* ScDevSyncNode[1 << SC_DEV_SYNC_NODES_BITS] */
    uint32_t sync_used;          /* device-incremented: nodes ever taken */
    uint32_t trails_lost;        /* device-incremented: trails not kept, their word's
                                    set held 8 other words' */
    uint64_t unsplit_accesses;   /* device-incremented: accesses not checked because the
                                    split pool ran out (not in unchecked_accesses) */
    uint64_t trails;             /* ScDevTrail[1 << SC_DEV_TRAILS_BITS] */
    uint64_t async_unfollowed;   /* device-incremented: cp.async copies whose completion
                                    was not checked (a thread had SC_DEV_ASYNC_COPIES
                                    pending already) */
    uint64_t const_rows;         /* uint16_t[SC_DEV_CONST_ROWS][32], row v all v */
    uint64_t async;              /* per slot, per thread: ScDevAsync; 0 unless the
                                    kernel's module issues cp.async (SC_ABI_ASYNC_MARKER) */
    uint32_t released;           /* a thread of the launch has released (a trail may
                                    begin at each read of global memory) */
    uint32_t slot_split_cap;     /* split groups per slot in slot_split; 0: none */
    /* A launch with programmatic stream serialization after a checked launch in its
     * stream: that grid's shadow as it ended, for accesses made before
     * griddepcontrol.wait (docs/devrt.md, "The prerequisite grid"); or, with
     * prior_unordered, the shadow of the checked launch before, which nothing orders
     * before this one (another stream), for every access. prior_dir: a directory like
     * shadow_dir (its chunks never cached, never marked), 0 when the launch is checked
     * against no earlier grid; prior_split: that grid's split pool. */
    uint64_t prior_dir;
    uint64_t prior_split;
    uint64_t tensor_maps;        /* ScDevTensorMap[n_tensor_maps]: the maps the program
                                    encoded, newest last */
    uint32_t n_tensor_maps;
    uint32_t cut;                /* SC_DEV_CUT_*: where checks stop (the cut option) */
    /* Per slot, slot_split_cap split groups (uint64_t[8] each, as in split_pool) for
     * the words of its block's shared memory, taken before the pool's: the pool is
     * never given back, and a grid of many blocks with byte arrays in shared memory
     * would run it out; 0 unless the kernel's module has sub-word accesses that may
     * reach shared memory (SC_ABI_SUBWORD_SHARED_MARKER). */
    uint64_t slot_split;
    /* uint64_t[sm_ids][SC_DEV_PROF_COUNT]: the access path's section timers, filled
     * only by a runtime built with DEVRT_PROFILE=1 (docs/benchmark.md, "Where an
     * access's time goes"); 0 otherwise. */
    uint64_t prof;
    /* Bit i: root i of the launched kernel (ScInstrKernel.roots) points into an
     * allocation no written root points into; its reads are left out (__scord_roots). */
    uint64_t readonly_roots;
    uint32_t prior_unordered;
} ScDevLaunch;

#endif
