/* devrt_state.h: the device runtime's state as both sides see it: the host fills
 * the launch descriptor before each instrumented launch and reads the race records
 * back after it. Plain C, fixed-width types, no libc. */
#ifndef SC_DEVRT_STATE_H
#define SC_DEVRT_STATE_H

#include <stdint.h>

/* Global memory shadow: a two-level table from address to the shadow of its 64 KiB
 * chunk. Bits 47..30 of an address index the directory, bits 29..16 the chunk table
 * it points at; a chunk's shadow holds one 64-bit word per 4 application bytes. */
#define SC_SHADOW_DIR_BITS 18
#define SC_SHADOW_DIR_SHIFT 30
#define SC_SHADOW_CHUNK_BITS 14
#define SC_SHADOW_CHUNK_SHIFT 16
#define SC_SHADOW_CHUNK_BYTES (1u << SC_SHADOW_CHUNK_SHIFT)
#define SC_SHADOW_WORDS_PER_CHUNK (SC_SHADOW_CHUNK_BYTES / 4)

/* One race as the device records it, deduplicated on the device by key (cause and
 * the unordered pair of sites); the host resolves sites and threads into a report. */
typedef struct ScDevRecord {
    uint64_t key;            /* 0: free; written last by the thread that claims the record */
    uint64_t addr;           /* shared window offset or global address of the first occurrence */
    uint32_t occurrences;    /* dynamic occurrences folded into this record */
    uint32_t cause;
    uint32_t cur_site, prev_site;
    uint32_t cur_info, prev_info;     /* SC_ABI_INFO of both accesses */
    uint32_t cur_block, cur_thread;   /* linear block id, linear thread index in the block */
    uint32_t prev_block, prev_thread; /* as the shadow recorded them */
} ScDevRecord;

/* Per-thread synchronization state, in the block's slot. */
typedef struct ScDevThread {
    uint32_t bar_epoch;  /* block-wide barriers this thread has passed */
    uint32_t warp_epoch; /* __syncwarp instances this thread has taken part in */
} ScDevThread;

/* Per-block state, in the block's slot. */
typedef struct ScDevBlock {
    uint32_t live_threads;  /* threads that have not exited */
    uint32_t slot_bit;      /* this block's bit in its SM's slot bitmap */
    uint32_t sm;            /* the SM whose bitmap holds it */
    uint32_t divergent;     /* a barrier divergence was recorded for this block */
    uint32_t bar_site[2];   /* site + 1 of the first arrival, per barrier-instance parity */
    uint32_t exited_lanes[32]; /* per warp: lanes that have exited */
} ScDevBlock;

/* No slot could be had: the block runs unchecked (never hangs the program). */
#define SC_DEV_NO_SLOT 0xffffffffu

/* The launch descriptor every instrumented module's __scord_state points at. */
typedef struct ScDevLaunch {
    uint32_t launch_tag;      /* changes with every launch: older shadow reads as empty */
    uint32_t enabled;         /* 0: the runtime returns at once (graph launches) */
    uint32_t slots_per_sm;    /* resident blocks per SM for this kernel, <= 32 */
    uint32_t threads_per_block;
    uint32_t shared_words;    /* 4-byte words of shared memory per block (static + dynamic) */
    uint32_t records_cap;
    uint32_t records_used;    /* device-incremented; may exceed records_cap: the excess dropped */
    uint32_t sm_ids;          /* entries of slot_bitmap: a block on an SM id beyond runs unchecked */
    uint64_t slot_bitmap;     /* uint32_t[number of SMs]: slots taken */
    uint64_t threads;         /* per slot, per thread: ScDevThread */
    uint64_t blocks;          /* per slot: ScDevBlock */
    uint64_t shared_shadow;   /* per slot: shared_words shadow words */
    uint64_t shadow_dir;      /* uint64_t[1 << SC_SHADOW_DIR_BITS] -> chunk tables */
    uint64_t records;         /* ScDevRecord[records_cap], an open-addressed table */
    uint64_t unchecked_accesses; /* device-incremented: addresses with no shadow */
} ScDevLaunch;

#endif
