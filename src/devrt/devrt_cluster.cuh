/* devrt_cluster.cuh: cluster barriers: barrier.cluster arrive and wait across the
 * blocks of a cluster. Part of the device runtime: devrt.cu includes the parts in
 * order, as one unit. */

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
        if (sem == SC_SEM_RELEASE || sem == SC_SEM_ACQ_REL) {
            __scord_release(l, slot, SC_ABI_INFO_SCOPE(info));
            th->release |= SC_RULES_REC_BARRIER;
            info = (info & ~(0xfu << 11)) | SC_SEM_RELAXED << 11;
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
    __scord_acquire(l, slot, SC_SCOPE_CLUSTER);
}
