/* devrt_policy.h: how much device memory the global-memory shadow may take: full
 * shadow while the device keeps its headroom, else the metadata cache, sized to 1/8
 * of what it serves; and how large the split pool is. Pure host functions of the
 * sizes, so that the unit tests check them; the reasons are in docs/devrt.md ("Cache
 * mode"; "Accesses", item 6). */
#ifndef SC_DEVRT_POLICY_H
#define SC_DEVRT_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "devrt/devrt_state.h"

/* Device memory scord leaves to the program: 1/8 of the device, at least 1 GiB. */
#define SC_SHADOW_HEADROOM_MIN ((uint64_t)1 << 30)
#define SC_SHADOW_HEADROOM_DIVISOR 8
/* The cache takes 1/8 of the allocations it serves (SPEC's 12.5%), rounded down to a
 * power of two entries, between 2^16 entries (1.5 MiB) and 2^32. */
#define SC_SHADOW_CACHE_DIVISOR 8
#define SC_SHADOW_CACHE_MIN_BITS 16u
#define SC_SHADOW_CACHE_MAX_BITS 32u

typedef enum ScShadowMode {
    SC_SHADOW_MODE_FULL,  /* full shadow while the device keeps its headroom, else cache */
    SC_SHADOW_MODE_CACHE, /* every allocation through the cache */
} ScShadowMode;

static inline uint64_t sc_shadow_headroom(uint64_t total)
{
    uint64_t h = total / SC_SHADOW_HEADROOM_DIVISOR;
    return h > SC_SHADOW_HEADROOM_MIN ? h : SC_SHADOW_HEADROOM_MIN;
}

/* Whether the device keeps its headroom after scord takes `bytes` more; `free` and
 * `total` as cuMemGetInfo gives them. When those are unknown, pass UINT64_MAX and 0:
 * the allocation itself then decides. */
static inline bool sc_shadow_keeps_headroom(uint64_t free, uint64_t total, uint64_t bytes)
{
    return bytes <= free && free - bytes >= sc_shadow_headroom(total);
}

/* Whether an allocation whose chunks need `shadow` bytes of full shadow gets it. */
static inline bool sc_shadow_full(ScShadowMode mode, uint64_t free, uint64_t total,
                                  uint64_t shadow)
{
    return mode == SC_SHADOW_MODE_FULL && sc_shadow_keeps_headroom(free, total, shadow);
}

static inline uint64_t sc_shadow_cache_bytes(uint32_t bits)
{
    return ((uint64_t)1 << bits) * sizeof(ScDevCacheEntry);
}

/* The cache's size (log2 of its entries) for `cached` bytes of allocations mapped to
 * it: cache_mb MiB when given, else 1/8 of them; rounded down to a power of two and
 * kept within the bounds above. */
static inline uint32_t sc_shadow_cache_want(uint64_t cached, uint32_t cache_mb)
{
    uint64_t budget = cache_mb ? (uint64_t)cache_mb << 20 : cached / SC_SHADOW_CACHE_DIVISOR;
    uint64_t entries = budget / sizeof(ScDevCacheEntry);
    uint32_t bits = SC_SHADOW_CACHE_MIN_BITS;
    while (bits < SC_SHADOW_CACHE_MAX_BITS && ((uint64_t)2 << bits) <= entries)
        bits++;
    return bits;
}

/* The size to allocate for a cache of `have` bits (0: none yet) that should have
 * `want`: the largest size up to `want` after which the device keeps its headroom; the
 * minimum when there is no cache yet and none keeps it (1.5 MiB is what scord takes
 * even when the device is short); 0 to keep the cache as it is. */
static inline uint32_t sc_shadow_cache_grow(uint32_t have, uint32_t want, uint64_t free,
                                            uint64_t total)
{
    for (uint32_t bits = want; bits > have && bits >= SC_SHADOW_CACHE_MIN_BITS; bits--)
        if (sc_shadow_keeps_headroom(free, total, sc_shadow_cache_bytes(bits)))
            return bits;
    return have == 0 ? SC_SHADOW_CACHE_MIN_BITS : 0;
}

/* The split pool: SC_SPLIT_GROUP_BYTES per word whose bytes need histories of their
 * own (four byte cells, each with its site word: devrt.cu's SPLIT_GROUP words). Every
 * launch gets SC_SPLIT_MIN_GROUPS (shared memory, cached chunks, the odd byte flag); a
 * kernel whose module has sub-word accesses that may reach global memory gets one
 * group per word of full shadow on top, so that byte arrays read or written by
 * neighbouring threads are checked whole: a launch can split no more words than
 * that. */
#define SC_SPLIT_GROUP_BYTES 64u
#define SC_SPLIT_MIN_GROUPS 65536u
#define SC_SPLIT_MAX_GROUPS ((uint64_t)1 << 31)

/* The groups the pool should have (`have` now) for a launch: for a kernel with
 * sub-word accesses (`subword`), one per word of the `full_chunks` chunks that have
 * full shadow, on top of the minimum; when that would cut into the device's headroom,
 * half of the memory above the headroom (the pool is taken before the launch shows
 * what it splits: the program's later allocations keep the other half); `have` when
 * that is not more. */
static inline uint64_t sc_split_groups(uint64_t have, bool subword, uint64_t full_chunks,
                                       uint64_t free, uint64_t total)
{
    if (!subword)
        return have;
    uint64_t want = SC_SPLIT_MIN_GROUPS + full_chunks * SC_SHADOW_WORDS_PER_CHUNK;
    if (want > SC_SPLIT_MAX_GROUPS)
        want = SC_SPLIT_MAX_GROUPS;
    if (!sc_shadow_keeps_headroom(free, total, want * SC_SPLIT_GROUP_BYTES)) {
        uint64_t room = sc_shadow_headroom(total);
        want = free > room ? (free - room) / 2 / SC_SPLIT_GROUP_BYTES : 0;
    }
    return want > have ? want : have;
}

/* The split groups per slot for a launch of a kernel with sub-word accesses that may
 * reach shared memory (other kernels get none): one per word of a block's own shared
 * memory (`shared_words`, static and dynamic), so that no block takes any from the
 * pool, for each of `slots` slots; fewer where that would cut into the headroom (as
 * many as half of the memory above it holds). */
static inline uint32_t sc_slot_split_groups(uint32_t shared_words, uint64_t slots, uint64_t free,
                                            uint64_t total)
{
    if (slots == 0)
        return 0;
    uint64_t per_slot = shared_words;
    if (!sc_shadow_keeps_headroom(free, total, slots * per_slot * SC_SPLIT_GROUP_BYTES)) {
        uint64_t room = sc_shadow_headroom(total);
        uint64_t fits = free > room ? (free - room) / 2 / SC_SPLIT_GROUP_BYTES / slots : 0;
        per_slot = fits < per_slot ? fits : per_slot;
    }
    return (uint32_t)per_slot;
}

#endif
