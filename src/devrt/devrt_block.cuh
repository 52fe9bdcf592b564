/* devrt_block.cuh: block lifecycle: a block's slot and state at entry, the block clock
 * a barrier instance completes, and exit. Part of the device runtime: devrt.cu includes
 * the parts in order, as one unit. */

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
        if (i < SC_DEV_MBARS)
            b->mbar_key[i] = 0;
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

extern "C" __device__ uint64_t __scord_roots(void)
{
    ScDevLaunch *l = launch_desc();
    return l && l->enabled ? l->readonly_roots : 0;
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
    th->mbar_used = 0;
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
    /* The lanes of a warp that exit together leave as one, through their lowest lane:
     * the __syncwarp orders their runtime writes before its fence. As if they exited
     * one after another with nothing between them: the threads waiting at a barrier
     * are never among them, so only the last of them could have completed it. */
    uint32_t lanes = __activemask(), n = __popc(lanes);
    __syncwarp(lanes);
    if (t % WARP_SIZE != lowest_lane(lanes))
        return;
    /* Release their runtime writes before the slot can change hands, and make the
     * exited bits visible before they are gone: a barrier the block's other threads
     * pass after this exit reads them. */
    __threadfence();
    atomicOr(&b->exited_lanes[t / WARP_SIZE], lanes);
    __threadfence();
    /* A full barrier waits for the threads that have not exited: if all the others
     * wait there already, this exit completes it. */
    uint32_t old = atomicSub(&b->bar_count, n << 16);
    uint32_t live = (old >> 16) - n, arrived = old & 0xffffu;
    if (arrived > 0 && arrived == live) {
        __scord_complete_barrier(b, live_warps(b));
        atomicAnd(&b->bar_count, ~0xffffu);
        __threadfence();
    }
    if (atomicSub(&b->live_threads, n) == n) {
        __threadfence();
        atomicAnd((unsigned long long *)l->slot_bitmap + b->sm,
                  ~((unsigned long long)1 << b->slot_bit));
    }
}
