/* devrt.cu: the device runtime: block slots, synchronization clocks, shadow lookup,
 * the per-location rules and race records, one part per kind of event (devrt_*.cuh,
 * included below as one unit). Compiled to PTX and to relocatable cubins at build
 * time and linked with every instrumented module (kept C-like: no classes, no
 * templates). Design and the reasons behind it: docs/devrt.md. */
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

/* The parts, one per kind of event (docs/devrt.md): each uses only what the parts
 * before it define. */
#include "devrt/devrt_helpers.cuh"
#include "devrt/devrt_records.cuh"
#include "devrt/devrt_block.cuh"
#include "devrt/devrt_barrier.cuh"
#include "devrt/devrt_sync.cuh"
#include "devrt/devrt_trail.cuh"
#include "devrt/devrt_access.cuh"
#include "devrt/devrt_mbar.cuh"
#include "devrt/devrt_shadow.cuh"
#include "devrt/devrt_copy.cuh"
#include "devrt/devrt_cluster.cuh"
#include "devrt/devrt_async.cuh"
