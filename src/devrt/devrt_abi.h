/* devrt_abi.h: the calls instrumented PTX makes into the device runtime, and the
 * packing of their immediate arguments. Shared by the instrumenter (host C) and
 * the device runtime (CUDA C): plain C, fixed-width types, no libc. */
#ifndef SC_DEVRT_ABI_H
#define SC_DEVRT_ABI_H

#include "rules/memory_model.h"

/*
 * Every function is a `.func` with `.param` arguments, appended to the module by
 * the instrumenter together with the runtime's PTX. Names start with __scord_.
 *
 *   __scord_access(.b64 addr, .b32 info, .b32 site, .b64 value)
 *       before a memory access. addr: the generic address of the access (a shared
 *       window address is converted with cvta.shared first); info: SC_ABI_INFO(...)
 *       below; site: the static site id (index into the module's site table);
 *       value: for stores, the value stored (the first 64 bits; vectors: the first
 *       element), 0 otherwise.
 *   __scord_access_quick(.b64 addr, .b32 info, .b32 site, .b64 value)
 *       instead of __scord_access for an access SC_ABI_INFO_QUICK says may take the
 *       quick path (a weak ld or st of 4 bytes), with the same arguments.
 *   __scord_bar_arrive(.b32 site, .b32 id, .b32 count)
 *       just before bar.sync/barrier.sync/bar.red/bar.arrive. count: the thread
 *       count operand, SC_ABI_ALL_THREADS when the instruction has none. For
 *       bar.arrive this is the only call.
 *   __scord_bar_pass(.b32 site, .b32 id, .b32 count)
 *       just after bar.sync/barrier.sync/bar.red (not bar.arrive).
 *   __scord_syncwarp(.b32 site, .b32 mask)
 *       just after bar.warp.sync; mask: the instruction's mask operand.
 *   __scord_entry(.b32 kernel)
 *       first thing in every kernel (.entry); kernel: the kernel's index in the
 *       module's kernel table.
 *   __scord_exit()
 *       before every `ret` of a kernel and every `exit` anywhere.
 *   .b64 __scord_roots()
 *       after __scord_entry in a kernel with global reads that have roots
 *       (instr_roots.c): the roots the launch leaves out; a read whose roots are all
 *       among them branches around its __scord_access.
 *   __scord_fence(.b32 site, .b32 info)
 *       just after a memory fence (fence.sc/acq_rel/acquire/release, membar), info
 *       SC_ABI_INFO(0, SC_ABI_KIND_FENCE, sem, scope, 0); and just after an ld or atom
 *       with acquire semantics, with that access's own info (the acquire it made);
 *       after an mbarrier wait with acquire semantics only when the wait returned
 *       true (its phase completed); and just after griddepcontrol.wait, info
 *       SC_ABI_INFO(0, SC_ABI_KIND_GRID_WAIT, 0, 0, 0) (the prerequisite grid's
 *       accesses are ordered before the thread's from then on).
 *   __scord_sync(.b64 addr, .b32 info, .b32 site)
 *       before an mbarrier arrive (info: an 8-byte read-modify-write with the
 *       arrive's semantics and scope) or wait (an 8-byte read): the synchronization
 *       such an access makes on the object at addr, which is not itself checked.
 *   __scord_mbar(.b64 addr, .b32 op, .b32 info, .b32 count)
 *       instead of __scord_sync and __scord_fence in a module whose every mbarrier
 *       operation is an init, a release arrive at .cta scope without a transaction
 *       count, an acquire wait, an inval or a pending_count, on shared::cta objects,
 *       and which completes no copy through an mbarrier (instr_plan.c,
 *       block_mbarriers): before mbarrier.init (op SC_ABI_MBAR_INIT, count its count),
 *       mbarrier.arrive (SC_ABI_MBAR_ARRIVE, count its count or 1, info as
 *       __scord_sync's) and mbarrier.inval (SC_ABI_MBAR_INVAL); after a wait that
 *       returned true (SC_ABI_MBAR_WAIT, info as __scord_sync's). An object whose
 *       count is the block's thread count completes each phase as a barrier of the
 *       block; any other synchronizes as __scord_sync and __scord_fence would.
 *   __scord_async_copy(.b64 dst, .b32 info, .b32 site)
 *       before a cp.async (and before the __scord_access calls that check its source
 *       read and its destination write as of the instruction): completes an earlier
 *       pending copy of the thread to the same bytes, and queues this one, whose
 *       destination write is checked again when it completes (a wait of its group, a
 *       cp.async.mbarrier.arrive, or the thread's exit). dst: the generic address of
 *       the shared destination; info: that write's (size the cp-size); site: the
 *       write's site.
 *   __scord_async_group(.b32 op)
 *       after cp.async.commit_group (op SC_ABI_ASYNC_COMMIT), cp.async.wait_group N
 *       (op N), cp.async.wait_all (SC_ABI_ASYNC_WAIT_ALL), and before a
 *       cp.async.mbarrier.arrive (SC_ABI_ASYNC_ARRIVE, then __scord_sync on the
 *       mbarrier as an arrive): the copies it completes are checked as writes then.
 *   __scord_bulk_copy(.b64 dst, .b32 dst_site, .b64 src, .b32 src_site, .b32 size)
 *       before a cp.async.bulk (not multicast, not tensor): its destination write and
 *       source read, generic addresses of size bytes, as the thread's accesses now.
 *       One completed through an mbarrier then gets __scord_sync on the mbarrier as an
 *       arrive with .release at .cluster scope (its complete-tx).
 *   __scord_tensor_copy(.b64 smem, .b32 smem_site, .b64 map, .b32 global_site,
 *                       .b32 to_global, .b32 c0, .b32 c1, .b32 c2, .b32 c3, .b32 c4)
 *       before a cp.async.bulk.tensor in tile mode (not multicast): smem the generic
 *       address of its shared-memory box, map the generic address of its tensor map,
 *       to_global 1 for a copy to global memory, c0..c4 its coordinates (0 beyond its
 *       dimensions). The box's rows in global memory and its bytes in shared memory
 *       are checked as the thread's accesses now, as a bulk copy's; one completed
 *       through an mbarrier then gets __scord_sync on the mbarrier, as a bulk copy does.
 *   __scord_cluster_barrier(.b32 site, .b32 info)
 *       before barrier.cluster.arrive (info: an 8-byte read-modify-write, .release or
 *       .relaxed, at .cluster scope) and after barrier.cluster.wait (an 8-byte
 *       .acquire read at .cluster scope): a full barrier of the block, and a release
 *       and an acquire through a flag the runtime keeps for the thread's cluster.
 *
 * A predicated instruction's calls are skipped with a branch on the same
 * predicate, because the call sequence's st.param cannot be predicated.
 */

#define SC_ABI_ALL_THREADS 0xffffffffu

/* A module whose code issues cp.async defines this variable (.weak .global .u32, 1):
 * the host gives its launches the per-thread queues of pending copies, which other
 * launches do without (ScDevLaunch.async). */
#define SC_ABI_ASYNC_MARKER "__scord_async_copies"

/* A module with accesses that may reach global memory and cover part of a 4-byte word
 * (or tensor copies, whose rows may) defines the first: its launches get a split pool
 * large enough for every word of full shadow (devrt_policy.h, sc_split_groups). One
 * with such accesses that may reach shared memory defines the second: its launches
 * get split groups for every word of each slot's shared memory (ScDevLaunch.slot_split). */
#define SC_ABI_SUBWORD_GLOBAL_MARKER "__scord_subword_global"
#define SC_ABI_SUBWORD_SHARED_MARKER "__scord_subword_shared"

/* __scord_async_group's op, besides a wait_group's N (0 .. SC_ABI_ASYNC_WAIT_MAX). */
#define SC_ABI_ASYNC_WAIT_MAX 0xfffffff0u
#define SC_ABI_ASYNC_COMMIT 0xfffffffdu
#define SC_ABI_ASYNC_WAIT_ALL 0xfffffffeu
#define SC_ABI_ASYNC_ARRIVE 0xffffffffu

/* __scord_mbar's op. */
#define SC_ABI_MBAR_INIT 0u
#define SC_ABI_MBAR_ARRIVE 1u
#define SC_ABI_MBAR_WAIT 2u
#define SC_ABI_MBAR_INVAL 3u

/* info: bits 0..7 size in bytes (1..255; vector accesses give their whole size),
 * 8..10 kind, 11..14 semantics (ScSem), 15..17 scope (ScScope), 18..20 space, 21 an
 * atom.cas or atom.exch (what a lock is taken and given back with). Kinds and spaces
 * are the ABI's own (the instrumenter maps the front end's onto them); semantics and
 * scopes are rules/memory_model.h's, whose values are fixed for that reason. */
enum {
    SC_ABI_KIND_READ = 1,
    SC_ABI_KIND_WRITE = 2,
    SC_ABI_KIND_RMW = 3, /* atom */
    SC_ABI_KIND_RED = 4, /* red */
    SC_ABI_KIND_FENCE = 5,
    SC_ABI_KIND_GRID_WAIT = 6, /* griddepcontrol.wait */
};
enum {
    SC_ABI_SPACE_GENERIC = 1,
    SC_ABI_SPACE_GLOBAL = 2,
    SC_ABI_SPACE_SHARED = 3,
    SC_ABI_SPACE_SHARED_CLUSTER = 4,
};

#define SC_ABI_INFO(size, kind, sem, scope, space)                                            \
    ((unsigned)(size) | ((unsigned)(kind) << 8) | ((unsigned)(sem) << 11) |                   \
     ((unsigned)(scope) << 15) | ((unsigned)(space) << 18))
#define SC_ABI_INFO_SIZE(info) ((info)&0xffu)
#define SC_ABI_INFO_KIND(info) (((info) >> 8) & 0x7u)
#define SC_ABI_INFO_SEM(info) (((info) >> 11) & 0xfu)
#define SC_ABI_INFO_SCOPE(info) (((info) >> 15) & 0x7u)
#define SC_ABI_INFO_SPACE(info) (((info) >> 18) & 0x7u)
#define SC_ABI_INFO_LOCK (1u << 21)
/* Set by the runtime only, never by instrumented code: the write that completes an
 * asynchronous copy, checked with the thread's clocks as they were when the copy was
 * issued (ScDevAsync.issued). */
#define SC_ABI_INFO_ASYNC (1u << 22)
/* A check at the join of an if (instr_plan.c, mark_joins) by a lane that did not run
 * the access: it joins the call's warp-wide steps and checks nothing. */
#define SC_ABI_INFO_NOT_TAKEN (1u << 23)
/* An access the runtime's quick path may decide: a weak ld or st of one 4-byte word
 * (docs/devrt.md, "The quick path"); it calls __scord_access_quick. */
#define SC_ABI_INFO_QUICK(info)                                                              \
    (SC_ABI_INFO_SIZE(info) == 4 && SC_ABI_INFO_SEM(info) == SC_SEM_WEAK &&                  \
     (SC_ABI_INFO_KIND(info) == SC_ABI_KIND_READ || SC_ABI_INFO_KIND(info) == SC_ABI_KIND_WRITE))

#endif
