/* devrt_async.cuh: asynchronous copies (cp.async): the queue of a thread's pending
 * copies and their completion at a wait. Part of the device runtime: devrt.cu includes
 * the parts in order, as one unit. */

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
        SC_ABI_INFO(SC_DEV_ASYNC_SIZE(e), SC_ABI_KIND_WRITE, SC_SEM_WEAK, SC_SCOPE_NONE, SC_ABI_SPACE_SHARED);
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
