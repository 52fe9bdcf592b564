/* devrt_mbar.cuh: mbarriers as barriers of their block (docs/devrt.md, "Mbarriers as
 * block barriers"): the objects followed, their arrivals and phases. Part of the device
 * runtime: devrt.cu includes the parts in order, as one unit. */

/* ---- mbarriers as block barriers ---------------------------------------------- */

static __device__ __forceinline__ int info_class(uint32_t info)
{
    return access_class(SC_ABI_INFO_KIND(info), SC_ABI_INFO_SEM(info));
}

/* The block's entry for the object at shared offset `off`, or -1. */
static __device__ int mbar_find(const ScDevBlock *b, uint32_t off)
{
    for (int k = 0; k < SC_DEV_MBARS; k++)
        if (load_cta32(&b->mbar_key[k]) == off + 1u)
            return k;
    return -1;
}

/* mbarrier.init: an object whose count is the block's thread count is followed as a
 * barrier of the block (an entry of its own, or the one it had); any other, or one
 * that finds no free entry, is a release chain. Runs before the instruction, and the
 * program orders its init before every other operation on the object (a barrier), so
 * the entry is complete before anyone reads it. */
static __device__ void mbar_init(ScDevBlock *b, uint32_t off, uint32_t count)
{
    int k = mbar_find(b, off);
    for (int i = 0; i < SC_DEV_MBARS && k < 0; i++)
        if (atomicCAS(&b->mbar_key[i], 0u, off + 1u) == 0u)
            k = i;
    if (k < 0)
        return;
    b->mbar_expected[k] = count == block_threads() ? count : 0u;
    b->mbar_arrivals[k] = 0;
    b->mbar_warps[k] = 0;
    __threadfence_block();
}

/* An arrive of `count` at entry k, before the instruction. The arrival that completes
 * the phase completes a barrier of the block's live warps and of every warp that
 * arrived, before its own arrive instruction, so before any thread sees the phase
 * complete: every access made before an arrival of the phase is then ordered before
 * every access after a wait for it. The instrumenter lets no access lie between an
 * arrive and its wait in such a module but one past a wait that returned false, made
 * then with the clocks of after the phase when the completion came first (a race with
 * what another thread did before its arrive is missed, never invented). */
static __device__ void mbar_arrive(ScDevLaunch *l, uint32_t slot, ScDevBlock *b, int k, uint64_t addr,
                                   uint32_t info, uint32_t count)
{
    uint32_t expected = load_cta32(&b->mbar_expected[k]);
    if (!expected) {
        __scord_sync_access(l, slot, addr, info, info_class(info));
        return;
    }
    thread_state(l, slot)->mbar_used = 1;
    atomicOr(&b->mbar_warps[k], 1u << (thread_linear() / WARP_SIZE));
    __threadfence_block(); /* the warp before the count: the completer reads both */
    uint32_t old = atomicAdd(&b->mbar_arrivals[k], count);
    switch (sc_dev_mbar_arrival(old, count, expected)) {
    case SC_DEV_MBAR_COUNTS:
        return;
    case SC_DEV_MBAR_OVERRUNS:
        /* Which arrivals made the hardware's phase is unknown: give the block up
         * rather than order its accesses by a guess. */
        atomicOr(&b->bar_state, BAR_LOST);
        return;
    }
    __threadfence_block();
    /* A warp that arrived and exited takes part too: its accesses before the arrive
     * are ordered before the waiters' (as a barrier, it would keep them unordered). */
    complete_barrier(b, live_warps(b) | atomicExch(&b->mbar_warps[k], 0u));
    __threadfence_block();
    atomicSub(&b->mbar_arrivals[k], expected);
}

/* A wait that saw its phase complete (after the instruction): nothing for a block
 * barrier, whose completion came first; a release chain is acquired, as __scord_sync
 * before the wait and __scord_fence after it would. */
static __device__ void mbar_wait(ScDevLaunch *l, uint32_t slot, const ScDevBlock *b, int k, uint64_t addr,
                                 uint32_t info)
{
    if (k >= 0 && load_cta32(&b->mbar_expected[k]))
        return;
    __scord_sync_access(l, slot, addr, info, info_class(info));
    acquire(l, slot, SC_ABI_INFO_SCOPE(info));
}

extern "C" __device__ void __scord_mbar(uint64_t addr, uint32_t op, uint32_t info, uint32_t count)
{
    uint32_t slot;
    ScDevLaunch *l = checked_block(&slot);
    if (!l)
        return;
    ScDevBlock *b = block_state(l, slot);
    /* Only this block's own objects (shared::cta addresses, made generic) are followed. */
    int k = __isShared((const void *)addr) ? mbar_find(b, own_shared_offset(addr)) : -1;
    switch (op) {
    case SC_ABI_MBAR_INIT:
        if (__isShared((const void *)addr))
            mbar_init(b, own_shared_offset(addr), count);
        return;
    case SC_ABI_MBAR_INVAL:
        if (k >= 0)
            atomicExch(&b->mbar_key[k], 0u);
        return;
    case SC_ABI_MBAR_ARRIVE:
        if (k >= 0)
            mbar_arrive(l, slot, b, k, addr, info, count);
        else
            __scord_sync_access(l, slot, addr, info, info_class(info));
        return;
    case SC_ABI_MBAR_WAIT:
        mbar_wait(l, slot, b, k, addr, info);
        return;
    }
}
