/* devrt_helpers.cuh: small helpers every part uses: thread and block indices, scopes
 * and spans, shared-memory windows, block slots and per-thread state, coherent loads,
 * counters. Part of the device runtime: devrt.cu includes the parts in order, as one
 * unit. */

/* ---- helpers --------------------------------------------------------------- */

static __device__ __forceinline__ ScDevLaunch *launch_desc(void)
{
    return (ScDevLaunch *)__scord_state;
}

static __device__ __forceinline__ uint32_t thread_linear(void)
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

static __device__ __forceinline__ uint32_t block_threads(void)
{
    return blockDim.x * blockDim.y * blockDim.z;
}

static __device__ __forceinline__ uint32_t block_linear(void)
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/* Blocks in this thread's cluster (sm_90; a launch without clusters has clusters of
 * one block). */
static __device__ __forceinline__ uint32_t cluster_blocks(void)
{
#if __CUDA_ARCH__ >= 900
    uint32_t n;
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    return n;
#else
    return 1;
#endif
}

/* The launch's clusters as the rules take them (block_state's copy, written when the
 * block took its slot), or NULL when a cluster is one block. */
static __device__ __forceinline__ const ScRulesCluster *launch_clusters(const ScDevBlock *b)
{
    return cluster_blocks() > 1 ? &b->cluster : NULL;
}

/* The blocks a scope spans (SC_RULES_SPAN_*). */
static __device__ __forceinline__ int scope_span(uint32_t scope)
{
    return scope >= SC_SCOPE_GPU       ? SC_RULES_SPAN_GPU
           : scope == SC_SCOPE_CLUSTER ? SC_RULES_SPAN_CLUSTER
                                           : SC_RULES_SPAN_BLOCK;
}

/* The span a synchronization between this thread's block and block blk needs. */
static __device__ __forceinline__ int span_needed(const ScDevBlock *b, uint32_t blk)
{
    uint32_t me = block_linear() & 0x7fffffu;
    if (blk == me)
        return SC_RULES_SPAN_BLOCK;
    return sc_rules_same_cluster(launch_clusters(b), blk, me) ? SC_RULES_SPAN_CLUSTER : SC_RULES_SPAN_GPU;
}

/* The blocks the write of a flag spans, from the flags its node's record carries. */
static __device__ __forceinline__ int flag_span(uint64_t rec)
{
    return (rec & SC_DEV_REC_FLAG_CTA)       ? SC_RULES_SPAN_BLOCK
           : (rec & SC_DEV_REC_FLAG_CLUSTER) ? SC_RULES_SPAN_CLUSTER
                                             : SC_RULES_SPAN_GPU;
}

/* This block's shared window's first byte, as a generic address. In a launch with
 * clusters of several blocks, shared addresses are the cluster's: a block's window
 * starts at its rank's place in the cluster's window (on the H200, rank r's variables
 * lie 16 MiB * r on), so its offsets are taken from there. */
static __device__ __forceinline__ uint64_t own_shared_base(void)
{
    uint64_t base = (uint64_t)__cvta_shared_to_generic(0);
#if __CUDA_ARCH__ >= 900
    if (cluster_blocks() > 1) {
        uint32_t rank;
        asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
        asm("mapa.u64 %0, %1, %2;" : "=l"(base) : "l"(base), "r"(rank));
    }
#endif
    return base;
}

/* The offset in this block's shared window of a generic address in it. */
static __device__ __forceinline__ uint32_t own_shared_offset(uint64_t addr)
{
    return (uint32_t)(addr - own_shared_base());
}

/* Another block's shared memory, reached through the cluster's window (distributed
 * shared memory, sm_90): whether addr is such an address, and then the owner's rank in
 * the cluster, its block and the offset in its window. */
static __device__ bool remote_shared(uint64_t addr, uint32_t *rank, uint32_t *owner, uint32_t *off)
{
#if __CUDA_ARCH__ >= 900
    uint32_t in_cluster;
    asm("{\n\t.reg .pred p;\n\tisspacep.shared::cluster p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(in_cluster) : "l"(addr));
    if (!in_cluster || __isShared((const void *)addr))
        return false;
    uint32_t r, cx, cy, cz;
    uint64_t base;
    asm("getctarank.u64 %0, %1;" : "=r"(r) : "l"(addr));
    asm("mapa.u64 %0, %1, %2;" : "=l"(base) : "l"((uint64_t)__cvta_shared_to_generic(0)), "r"(r));
    asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(cx));
    asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(cy));
    asm("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(cz));
    uint32_t x = blockIdx.x / cx * cx + r % cx, y = blockIdx.y / cy * cy + r / cx % cy;
    uint32_t z = blockIdx.z / cz * cz + r / (cx * cy);
    *rank = r;
    *owner = x + gridDim.x * (y + gridDim.y * z);
    *off = (uint32_t)(addr - base);
    return true;
#else
    (void)addr, (void)rank, (void)owner, (void)off;
    return false;
#endif
}

/* The slot of the block of rank `rank` in this thread's cluster, read from its shared
 * memory; SC_DEV_NO_SLOT when it has none or has not opened it in this launch. */
static __device__ uint32_t remote_slot(const ScDevLaunch *l, uint32_t rank)
{
#if __CUDA_ARCH__ >= 900
    uint64_t at_slot, at_launch;
    asm("mapa.u64 %0, %1, %2;" : "=l"(at_slot) : "l"((uint64_t)&__scord_slot), "r"(rank));
    asm("mapa.u64 %0, %1, %2;" : "=l"(at_launch) : "l"((uint64_t)&__scord_slot_launch), "r"(rank));
    uint32_t launch = *(volatile const uint32_t *)at_launch;
    uint32_t slot = *(volatile const uint32_t *)at_slot;
    return launch == l->launch_tag ? slot : SC_DEV_NO_SLOT;
#else
    (void)l, (void)rank;
    return SC_DEV_NO_SLOT;
#endif
}

static __device__ __forceinline__ uint32_t smid(void)
{
    uint32_t id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

static __device__ __forceinline__ uint32_t lowest_lane(uint32_t mask)
{
    return (uint32_t)__ffs((int)mask) - 1;
}

/* Coherent loads of words other threads update with atomics: a weak load may be
 * served from a stale L1 line, and the rules' "unchanged" answer is taken without
 * a compare-and-swap that would catch that. */
static __device__ __forceinline__ uint64_t load_gpu64(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ uint32_t load_gpu32(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* The same for words only the threads of one block use (its slot's state, its
 * shared-memory shadow): coherence at block scope is enough and may stay in L1. */
static __device__ __forceinline__ uint64_t load_cta64(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.relaxed.cta.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ uint32_t load_cta32(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.cta.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ void store_release_gpu64(uint64_t *p, uint64_t v)
{
    asm volatile("st.release.gpu.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

/* The launch and this block's slot, or NULL when the runtime is off for this
 * launch or the block runs unchecked (both the same for every thread of a block). */
static __device__ __forceinline__ ScDevLaunch *checked_block(uint32_t *slot)
{
    ScDevLaunch *l = launch_desc();
    if (!l || !l->enabled)
        return 0;
    *slot = __scord_slot;
    return *slot == SC_DEV_NO_SLOT ? 0 : l;
}

/* Thread tid's state in block slot `slot`; thread_state: this thread's. */
static __device__ __forceinline__ ScDevThread *thread_state_of(const ScDevLaunch *l, uint32_t slot, uint32_t tid)
{
    return (ScDevThread *)l->threads + (size_t)slot * l->threads_per_block + tid;
}

static __device__ __forceinline__ ScDevThread *thread_state(const ScDevLaunch *l, uint32_t slot)
{
    return thread_state_of(l, slot, thread_linear());
}

/* Only where the kernel's module issues cp.async (l->async is 0 elsewhere). */
static __device__ __forceinline__ ScDevAsync *async_state(const ScDevLaunch *l, uint32_t slot)
{
    return (ScDevAsync *)l->async + (size_t)slot * l->threads_per_block + thread_linear();
}

static __device__ __forceinline__ ScDevBlock *block_state(const ScDevLaunch *l, uint32_t slot)
{
    return (ScDevBlock *)l->blocks + slot;
}

static __device__ __forceinline__ ScRulesWarpClk *warp_clock(const ScDevLaunch *l, uint32_t slot,
                                                             uint32_t w)
{
    uint32_t per_block = (l->threads_per_block + WARP_SIZE - 1) / WARP_SIZE;
    return (ScRulesWarpClk *)l->warp_clocks + (size_t)slot * per_block + w;
}

/* The warp clock's now (bits 0..15) and floor (16..31), read or swapped as one word. */
static __device__ __forceinline__ uint32_t *warp_now_floor(ScRulesWarpClk *c)
{
    return (uint32_t *)&c->now;
}

/* The lanes warp w of the block has (a block's last warp may be partial). */
static __device__ __forceinline__ uint32_t warp_lanes(uint32_t w)
{
    uint32_t n = block_threads() - w * WARP_SIZE;
    return n >= WARP_SIZE ? 0xffffffffu : (1u << n) - 1;
}

static __device__ __forceinline__ uint32_t block_warps(void)
{
    return (block_threads() + WARP_SIZE - 1) / WARP_SIZE;
}

/* One count per lane in `active` (its lowest lane adds them): accesses left
 * unchecked, in one of the launch's counters. */
static __device__ __forceinline__ void count_lanes(unsigned long long *counter)
{
    uint32_t active = __activemask();
    if (thread_linear() % WARP_SIZE == lowest_lane(active))
        atomicAdd(counter, (unsigned long long)__popc(active));
}

static __device__ __forceinline__ void count_unchecked(ScDevLaunch *l)
{
    count_lanes((unsigned long long *)&l->unchecked_accesses);
}

/* An access whose word needed byte cells when the split pool was empty. */
static __device__ __forceinline__ void count_unsplit(ScDevLaunch *l)
{
    count_lanes((unsigned long long *)&l->unsplit_accesses);
}

/* The section timers of a runtime built with DEVRT_PROFILE=1 (SC_DEVRT_PROFILE):
 * the lowest active lane adds for its warp, in its SM's row, so the sums are warp
 * time. Elsewhere they compile to nothing. */
#ifdef SC_DEVRT_PROFILE
static __device__ __forceinline__ void prof_add(const ScDevLaunch *l, uint32_t k, uint64_t v)
{
    uint32_t sm = smid();
    if (l->prof && thread_linear() % WARP_SIZE == lowest_lane(__activemask()) && sm < l->sm_ids)
        atomicAdd((unsigned long long *)l->prof + (size_t)sm * SC_DEV_PROF_COUNT + k, (unsigned long long)v);
}
#define PROF_START(t) long long t = clock64()
#define PROF_ADD(l, k, v) prof_add((l), SC_DEV_PROF_##k, (v))
#define PROF_SINCE(l, k, t) prof_add((l), SC_DEV_PROF_##k, (uint64_t)(clock64() - (t)))
#else
#define PROF_START(t)
#define PROF_ADD(l, k, v) ((void)0)
#define PROF_SINCE(l, k, t) ((void)0)
#endif
