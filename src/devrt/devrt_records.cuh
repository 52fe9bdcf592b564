/* devrt_records.cuh: race records: the table the host reads after a launch, one entry
 * per distinct race. Part of the device runtime: devrt.cu includes the parts in
 * order, as one unit. */

/* ---- race records ---------------------------------------------------------- */

static __device__ __forceinline__ uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static __device__ __forceinline__ uint32_t key_site(uint32_t site)
{
    return site < SC_DEV_SITE_LIMIT ? site : SC_DEV_SITE_LIMIT;
}

/* One side of a record. */
typedef struct RecSide {
    uint32_t site, info, block, thread;
} RecSide;

/* Adds one occurrence of a race to the table. The first thread with a new key
 * claims a free entry by swapping its key 0 -> BUSY, fills it and publishes the
 * key; a thread finding its key adds an occurrence; an entry BUSY is reread a bounded
 * number of times, then passed by (it may hold the same key: the host folds such
 * twins, as it folds records of one site pair across launches). A thread waits only
 * for a filler that waits for nothing. */
static __device__ void record_race(ScDevLaunch *l, uint32_t cause, uint64_t addr, const RecSide *cur,
                                   const RecSide *prev)
{
    ScDevRecord *table = (ScDevRecord *)l->records;
    uint32_t cap = l->records_cap;
    bool exact = (cur->site < SC_DEV_SITE_LIMIT || cur->site == SC_DEV_SITE_NONE) &&
                 (prev->site < SC_DEV_SITE_LIMIT || prev->site == SC_DEV_SITE_NONE);
    if (!table || cap == 0 || !exact) {
        /* No table, or a site the key cannot hold: never fold it into another race. */
        atomicAdd(&l->records_used, 1u);
        return;
    }
    uint32_t a = key_site(cur->site), b = key_site(prev->site);
    uint64_t key = SC_DEV_KEY(cause, a < b ? a : b, a < b ? b : a);
    /* 32-bit: a 64-bit remainder is a call to a helper, in every inlined copy. */
    uint32_t at = (uint32_t)(mix64(key) >> 32) % cap;
    for (uint32_t probe = 0; probe < RECORD_PROBES; probe++, at = at + 1 == cap ? 0 : at + 1) {
        ScDevRecord *r = &table[at];
        unsigned long long *kp = (unsigned long long *)&r->key;
        uint64_t k = load_gpu64(&r->key);
        for (int tries = 0; k == SC_DEV_KEY_BUSY && tries < RECORD_BUSY_TRIES; tries++)
            k = load_gpu64(&r->key);
        if (k == 0) {
            k = atomicCAS(kp, 0ull, (unsigned long long)SC_DEV_KEY_BUSY);
            if (k == 0) {
                r->addr = addr;
                r->cause = cause;
                r->cur_site = cur->site;
                r->prev_site = prev->site;
                r->cur_info = cur->info;
                r->prev_info = prev->info;
                r->cur_block = cur->block;
                r->cur_thread = cur->thread;
                r->prev_block = prev->block;
                r->prev_thread = prev->thread;
                atomicAdd(&r->occurrences, 1u);
                atomicAdd(&l->records_used, 1u);
                __threadfence();
                atomicExch(kp, (unsigned long long)key);
                return;
            }
        }
        if (k == key) {
            atomicAdd(&r->occurrences, 1u);
            return;
        }
    }
    atomicAdd(&l->records_used, 1u);
}
