/* hostrt_records.c: a launch's race records as the reports take them: each side's
 * access, its block and thread in the grid's shape, and the cause the host decides
 * (hostrt.h). */
#include "hostrt/hostrt.h"

#include "devrt/devrt_abi.h"

static void unlinear(uint32_t linear, const unsigned dim[3], uint32_t out[3])
{
    out[0] = linear % dim[0];
    out[1] = linear / dim[0] % dim[1];
    out[2] = linear / dim[0] / dim[1];
}

_Static_assert(SC_DEV_WHO_WARP == SC_RACE_WHO_WARP && SC_DEV_WHO_BLOCK == SC_RACE_WHO_BLOCK &&
                   SC_DEV_WHO_ANY == SC_RACE_WHO_ANY,
               "the device's prev_thread places are ScRaceWho");

/* One side of a record, its block and thread unfolded in the shape of the grid that
 * made the access (grid, block). */
static void side_from_dev(uint32_t site, uint32_t info, uint32_t block, uint32_t thread,
                          const unsigned grid[3], const unsigned block_dim[3], ScRaceAccess *out)
{
    *out = (ScRaceAccess){0};
    out->site = site == SC_DEV_SITE_NONE ? SC_REPORT_SITE_NONE : site;
    unlinear(block, grid, out->block);
    unlinear(thread & ((1u << SC_DEV_WHO_SHIFT) - 1u), block_dim, out->thread);
    out->who = (uint8_t)(thread >> SC_DEV_WHO_SHIFT);
    if (info == SC_DEV_INFO_BARRIER || info == SC_DEV_INFO_ABSENT) {
        out->kind = info == SC_DEV_INFO_BARRIER ? SC_RACE_KIND_BARRIER : SC_RACE_KIND_EXIT;
        return;
    }
    unsigned kind = SC_ABI_INFO_KIND(info), sem = SC_ABI_INFO_SEM(info);
    out->size = (uint16_t)SC_ABI_INFO_SIZE(info);
    out->kind = kind == SC_ABI_KIND_READ    ? SC_RACE_KIND_READ
                : kind == SC_ABI_KIND_WRITE ? SC_RACE_KIND_WRITE
                                            : SC_RACE_KIND_ATOMIC;
    /* The info's semantics are the report's (rules/memory_model.h); weak where it gives
     * none an access can have. */
    out->sem = sem == SC_SEM_NONE || sem == SC_SEM_SC || sem > SC_SEM_MMIO ? SC_SEM_WEAK : (uint8_t)sem;
    /* An atomic is never weak: one whose semantics the record does not give (an access
     * the shadow summarized) has the ISA's default for atom and red. */
    if (out->kind == SC_RACE_KIND_ATOMIC && out->sem == SC_SEM_WEAK)
        out->sem = SC_SEM_RELAXED;
    unsigned scope = SC_ABI_INFO_SCOPE(info);
    out->scope = scope <= SC_SCOPE_SYS ? (uint8_t)scope : SC_SCOPE_NONE;
}

/* The device names a previous access by its site and kind, with no size: the rest
 * of its info comes from the site (the space, resolved on the device, from the
 * record). */
static uint32_t prev_info(const ScRecordLaunch *l, uint32_t site, uint32_t info)
{
    if (SC_ABI_INFO_SIZE(info) != 0 || info == SC_DEV_INFO_BARRIER || info == SC_DEV_INFO_ABSENT ||
        site == SC_DEV_SITE_NONE || site >= l->n_site_infos || !l->site_infos[site])
        return info;
    return (l->site_infos[site] & ~(7u << 18)) | (info & (7u << 18));
}

/* A release store or exchange gives a lock back or publishes: against a concurrent
 * read-modify-write it is the synchronization itself, not a suspicious plain write
 * (strong_vs_rmw is for relaxed and volatile stores). */
static bool releases(uint32_t info)
{
    uint32_t sem = SC_ABI_INFO_SEM(info);
    return sem == SC_SEM_RELEASE || sem == SC_SEM_ACQ_REL;
}

/* A plain load or store with C++ atomic semantics (relaxed, acquire, release: what
 * cuda::atomic_ref's load and store compile to), not volatile or mmio. */
static bool atomic_plain(uint32_t info)
{
    uint32_t kind = SC_ABI_INFO_KIND(info), sem = SC_ABI_INFO_SEM(info);
    return (kind == SC_ABI_KIND_READ || kind == SC_ABI_KIND_WRITE) && sem >= SC_SEM_RELAXED &&
           sem <= SC_SEM_ACQ_REL;
}

static bool weak_plain(uint32_t info)
{
    uint32_t kind = SC_ABI_INFO_KIND(info);
    return (kind == SC_ABI_KIND_READ || kind == SC_ABI_KIND_WRITE) &&
           SC_ABI_INFO_SEM(info) == SC_SEM_WEAK;
}

/* The device's rules see a relaxed ld or st as a strong access, not an atomic, and
 * name its race with a weak access by the threads' relation; the report calls it
 * atomic_vs_plain, as C++ does, where the sites show both semantics. */
static uint8_t atomic_plain_cause(uint8_t cause, uint32_t cur, uint32_t prev)
{
    if (cause != SC_CAUSE_UNSYNCHRONIZED_BLOCKS && cause != SC_CAUSE_MISSING_BARRIER &&
        cause != SC_CAUSE_MISSING_SYNCWARP)
        return cause;
    if ((atomic_plain(cur) && weak_plain(prev)) || (weak_plain(cur) && atomic_plain(prev)))
        return SC_CAUSE_ATOMIC_VS_PLAIN;
    return cause;
}

/* Causes the rules give by the two threads' relation alone (other blocks, other warps
 * with no barrier), and those that name the synchronization through memory that
 * failed between them. */
static bool relation_cause(uint8_t cause)
{
    return cause == SC_CAUSE_UNSYNCHRONIZED_BLOCKS || cause == SC_CAUSE_MISSING_BARRIER;
}

static const uint8_t sync_causes[] = {SC_CAUSE_MISSING_FENCE, SC_CAUSE_FENCE_SCOPE,   SC_CAUSE_LOCK_MISSING,
                                      SC_CAUSE_LOCK_SCOPE,    SC_CAUSE_LOCK_NO_FENCE, SC_CAUSE_NON_STRONG_SYNC};

static bool sync_cause(uint8_t cause)
{
    for (size_t i = 0; i < SC_ARRAY_LEN(sync_causes); i++)
        if (cause == sync_causes[i])
            return true;
    return false;
}

/* The same unordered pair of instructions in the same space. */
static bool same_pair(const ScRaceRecord *a, const ScRaceRecord *b)
{
    return a->space == b->space && ((a->cur.site == b->cur.site && a->prev.site == b->prev.site) ||
                                    (a->cur.site == b->prev.site && a->prev.site == b->cur.site));
}

/* A race named by relation at a pair of instructions where a race named by the
 * synchronization between them is known, in this launch or from an earlier one, is
 * that race seen from its other side: the thread that checks second names the cause,
 * and a writer checked after the reader knows nothing of the acquire the reader
 * attempted (the last block of a grid reduction reads a partial whose writer's shadow
 * write became visible only after the read: the writer's side says
 * unsynchronized_blocks, the reader's fence_scope). It takes the twin's cause, and
 * comes after the twin in this launch's records, so that the race the report makes of
 * them is told from the side that named it. */
static void name_by_sync_twins(ScRaceRecord *recs, size_t n, const ScReport *report)
{
    for (size_t i = 0; i < n; i++) {
        ScRaceRecord *rec = &recs[i];
        if (!relation_cause(rec->cause) || rec->prev.site == SC_REPORT_SITE_NONE)
            continue;
        uint8_t cause = rec->cause;
        for (size_t j = 0; j < n && cause == rec->cause; j++) {
            if (sync_cause(recs[j].cause) && recs[j].prev.site != SC_REPORT_SITE_NONE && same_pair(&recs[j], rec)) {
                cause = recs[j].cause;
                if (j > i) {
                    ScRaceRecord twin = recs[j];
                    recs[j] = *rec;
                    *rec = twin;
                    rec = &recs[j];
                }
            }
        }
        for (size_t k = 0; report && k < SC_ARRAY_LEN(sync_causes) && cause == rec->cause; k++) {
            ScRaceRecord twin = *rec;
            twin.cause = sync_causes[k];
            if (sc_report_has_race(report, &twin))
                cause = sync_causes[k];
        }
        rec->cause = cause;
        rec->severity = (uint8_t)sc_report_cause_severity((ScCause)cause);
    }
}

size_t sc_hostrt_decode(const ScDevRecord *dev, size_t n, const ScRecordLaunch *launch,
                        ScRaceRecord *out, size_t *withheld)
{
    size_t got = 0;
    *withheld = 0;
    for (size_t i = 0; i < n; i++) {
        const ScDevRecord *r = &dev[i];
        if (r->key == 0 || r->key == SC_DEV_KEY_BUSY)
            continue;
        uint32_t prev = prev_info(launch, r->prev_site, r->prev_info);
        if (r->cause == SC_CAUSE_STRONG_VS_RMW && (releases(r->cur_info) || releases(prev))) {
            ++*withheld;
            continue;
        }
        ScRaceRecord *o = &out[got++];
        *o = (ScRaceRecord){0};
        o->address = r->addr;
        o->hazards = r->occurrences;
        o->cause = atomic_plain_cause((uint8_t)r->cause, r->cur_info, prev);
        if (o->cause == SC_CAUSE_GRID_DEPENDENCY && launch->unordered)
            o->cause = SC_CAUSE_UNORDERED_STREAMS;
        else if (o->cause == SC_CAUSE_GRID_DEPENDENCY && launch->dependent && launch->prior_quiet)
            o->cause = SC_CAUSE_GRID_COMPLETION;
        /* The device calls every unordered same-warp pair missing_syncwarp; the host
         * knows the branches. */
        if (o->cause == SC_CAUSE_MISSING_SYNCWARP && launch->report &&
            sc_report_opposite_arms(launch->report, r->cur_site, r->prev_site))
            o->cause = SC_CAUSE_DIVERGENT_BRANCH;
        o->severity = (uint8_t)sc_report_cause_severity((ScCause)o->cause);
        uint32_t space = r->cur_info == SC_DEV_INFO_BARRIER ? 0 : SC_ABI_INFO_SPACE(r->cur_info);
        o->space = r->cur_info == SC_DEV_INFO_BARRIER ? SC_RACE_SPACE_NONE
                   : space == SC_ABI_SPACE_SHARED || space == SC_ABI_SPACE_SHARED_CLUSTER
                       ? SC_RACE_SPACE_SHARED /* another block's, reached through the cluster's window */
                       : SC_RACE_SPACE_GLOBAL;
        side_from_dev(r->cur_site, r->cur_info, r->cur_block, r->cur_thread, launch->grid, launch->block,
                      &o->cur);
        /* grid_dependency: the previous access is the earlier grid's. */
        bool prior = r->cause == SC_CAUSE_GRID_DEPENDENCY && (launch->dependent || launch->unordered);
        side_from_dev(r->prev_site, prev, r->prev_block, r->prev_thread,
                      prior ? launch->prior_grid : launch->grid, prior ? launch->prior_block : launch->block,
                      &o->prev);
    }
    name_by_sync_twins(out, got, launch->report);
    return got;
}

ScHostCopy sc_hostrt_copy_row(const ScHostCopy *copy, uint64_t r)
{
    return (ScHostCopy){copy->base + r * copy->pitch, copy->size, copy->writes, 0, 1};
}

/* One side of a copy: its memory type, device address, the copy's first byte and row
 * in it, its pitch, and its height (rows per slice; 0 for a 2D copy). */
typedef struct CopySide {
    CUmemorytype type;
    CUdeviceptr device;
    size_t x, y, z, pitch, height;
} CopySide;

static size_t copy_side(const CopySide *s, size_t width, size_t height, size_t depth, bool writes,
                        ScHostCopy *out)
{
    bool device = s->type == CU_MEMORYTYPE_DEVICE || s->type == CU_MEMORYTYPE_UNIFIED;
    /* Slices apart by other than `height` rows leave gaps a row count cannot say. */
    bool even = depth <= 1 || s->height == height;
    if (!device || !even || !width || !height || !depth)
        return 0;
    uint64_t rows = (uint64_t)height * depth, pitch = rows > 1 ? s->pitch : 0;
    *out = (ScHostCopy){s->device + (s->z * s->height + s->y) * s->pitch + s->x, width, writes, pitch, rows};
    return 1;
}

size_t sc_hostrt_memcpy2d_ranges(const CUDA_MEMCPY2D *c, ScHostCopy out[2])
{
    CopySide src = {c->srcMemoryType, c->srcDevice, c->srcXInBytes, c->srcY, 0, c->srcPitch, 0},
             dst = {c->dstMemoryType, c->dstDevice, c->dstXInBytes, c->dstY, 0, c->dstPitch, 0};
    size_t n = copy_side(&src, c->WidthInBytes, c->Height, 1, false, out);
    return n + copy_side(&dst, c->WidthInBytes, c->Height, 1, true, out + n);
}

size_t sc_hostrt_memcpy3d_ranges(const CUDA_MEMCPY3D *c, ScHostCopy out[2])
{
    CopySide src = {c->srcMemoryType, c->srcDevice, c->srcXInBytes, c->srcY, c->srcZ, c->srcPitch, c->srcHeight},
             dst = {c->dstMemoryType, c->dstDevice, c->dstXInBytes, c->dstY, c->dstZ, c->dstPitch, c->dstHeight};
    size_t n = copy_side(&src, c->WidthInBytes, c->Height, c->Depth, false, out);
    return n + copy_side(&dst, c->WidthInBytes, c->Height, c->Depth, true, out + n);
}

uint8_t sc_hostrt_copy_mask(const ScHostCopy *copy, uint64_t addr)
{
    uint8_t mask = 0;
    for (uint64_t b = 0; b < 4; b++)
        if (addr + b >= copy->base && addr + b - copy->base < copy->size)
            mask |= (uint8_t)(1u << b);
    return mask;
}

void sc_hostrt_copy_word(ScCopyRaces *acc, const ScHostCopy *copy, bool copy_later, uint64_t addr,
                         uint8_t mask, uint64_t word, uint64_t site, bool cell,
                         const ScRecordLaunch *launch)
{
    /* The copy is a weak access of the launch's grid, unordered with all of it: the
     * test of a launch against the one before on another stream (sc_rules_prior_race). */
    ScRulesAccess a = {
        .cls = (uint8_t)(copy->writes ? SC_RULES_CLS_WRITE : SC_RULES_CLS_READ),
        .scope = SC_SCOPE_NONE,
        .mask = mask,
    };
    int cls = mask ? sc_rules_prior_race(word, site, &a, cell) : -1;
    if (cls < 0)
        return;
    ScRulesState st = sc_rules_decode(word);
    uint32_t named = sc_rules_site_of(site, cls);
    uint32_t thread = (uint32_t)st.warp * 32u + st.lane;
    if (named == SC_RULES_SITE_NONE)
        thread |= SC_DEV_WHO_ANY << SC_DEV_WHO_SHIFT;
    uint32_t info = prev_info(launch, named, SC_ABI_INFO(0, sc_dev_cls_kind((uint32_t)cls), 0, 0, SC_ABI_SPACE_GLOBAL));
    ScRaceAccess kernel, by_copy = {
        .site = SC_REPORT_SITE_NONE,
        .kind = (uint8_t)(copy->writes ? SC_RACE_KIND_WRITE : SC_RACE_KIND_READ),
        .sem = SC_SEM_WEAK,
        .scope = SC_SCOPE_NONE,
        .who = SC_RACE_WHO_COPY,
    };
    side_from_dev(named, info, sc_rules_site_blk(site, word), thread, launch->grid, launch->block, &kernel);
    /* A current side is a thread's, with a size: where the word keeps no instruction,
     * the thread it recorded, and the bytes the copy meets. */
    if (!copy_later && named == SC_RULES_SITE_NONE) {
        kernel.who = SC_RACE_WHO_THREAD;
        kernel.size = (uint16_t)__builtin_popcount(mask);
    }
    for (size_t i = 0; i < acc->n; i++) {
        ScRaceRecord *r = &acc->recs[i];
        const ScRaceAccess *k = copy_later ? &r->prev : &r->cur;
        if (k->site == kernel.site && k->kind == kernel.kind && (copy_later ? r->cur : r->prev).kind == by_copy.kind) {
            r->hazards++;
            return;
        }
    }
    if (acc->n == acc->cap) {
        acc->lost++;
        return;
    }
    uint32_t byte = 0;
    while (!(mask & (1u << byte)))
        byte++;
    acc->recs[acc->n++] = (ScRaceRecord){
        .address = addr + byte,
        .hazards = 1,
        .cause = SC_CAUSE_UNORDERED_STREAMS,
        .severity = (uint8_t)sc_report_cause_severity(SC_CAUSE_UNORDERED_STREAMS),
        .space = SC_RACE_SPACE_GLOBAL,
        .cur = copy_later ? by_copy : kernel,
        .prev = copy_later ? kernel : by_copy,
    };
}
