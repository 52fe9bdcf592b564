/* test_hostrt.c: the decoding of device race records (src/hostrt): each case is a
 * launch and the records its device table might hold; the decoded records are printed
 * one per line and compared with tests/golden/hostrt/decode.expected, which says what
 * each case expects. */
#include "devrt/devrt_abi.h"
#include "hostrt/hostrt.h"
#include "sc_golden.h"
#include "sc_test.h"

#include "common/sc_buf.h"

#define GOLDEN "tests/golden/hostrt/decode.expected"

/* Sites 1-4 of the cases, as the loader registers them (SC_ABI_INFO by site id). */
static const uint32_t site_infos[] = {
    0,
    SC_ABI_INFO(4, SC_ABI_KIND_WRITE, SC_SEM_WEAK, SC_SCOPE_NONE, SC_ABI_SPACE_GENERIC),
    SC_ABI_INFO(4, SC_ABI_KIND_READ, SC_SEM_WEAK, SC_SCOPE_NONE, SC_ABI_SPACE_GENERIC),
    SC_ABI_INFO(4, SC_ABI_KIND_RMW, SC_SEM_RELEASE, SC_SCOPE_GPU, SC_ABI_SPACE_GLOBAL) |
        SC_ABI_INFO_LOCK,
    SC_ABI_INFO(8, SC_ABI_KIND_RMW, SC_SEM_RELAXED, SC_SCOPE_CTA, SC_ABI_SPACE_GLOBAL),
};

static const char *const kinds[] = {"read", "write", "atomic", "barrier", "exit"};
static const char *const sems[] = {"none",    "weak", "relaxed",  "acquire", "release",
                                   "acq_rel", "sc",   "volatile", "mmio"}; /* ScSem */
static const char *const scopes[] = {"-", "cta", "cluster", "gpu", "sys"};
static const char *const whos[] = {"thread", "warp-of", "block-of", "any-near"};
static const char *const spaces[] = {"shared", "global", "none"};

static const char *name_of(const char *const *names, size_t n, unsigned v)
{
    return v < n ? names[v] : "?";
}
#define NAME(names, v) name_of(names, sizeof names / sizeof names[0], v)

static void print_side(ScBuf *out, const char *which, const ScRaceAccess *a)
{
    sc_buf_printf(out, "  %s site=", which);
    if (a->site == SC_REPORT_SITE_NONE)
        sc_buf_puts(out, "none");
    else
        sc_buf_printf(out, "%u", a->site);
    sc_buf_printf(out, " %s size=%u sem=%s scope=%s block=(%u,%u,%u) thread=(%u,%u,%u) who=%s\n",
                  NAME(kinds, a->kind), a->size, NAME(sems, a->sem), NAME(scopes, a->scope), a->block[0],
                  a->block[1], a->block[2], a->thread[0], a->thread[1], a->thread[2], NAME(whos, a->who));
}

/* Decodes the records of one case and prints them under its name. */
static void decode_case(ScBuf *out, const char *name, const ScRecordLaunch *launch, const ScDevRecord *dev,
                        size_t n)
{
    ScRaceRecord recs[8];
    size_t withheld = 99;
    size_t got = sc_hostrt_decode(dev, n, launch, recs, &withheld);
    CHECK(got <= n);
    sc_buf_printf(out, "%s: %zu decoded, %zu withheld\n", name, got, withheld);
    for (size_t i = 0; i < got; i++) {
        const ScRaceRecord *r = &recs[i];
        sc_buf_printf(out, " %s (%s) %s 0x%llx hazards=%llu\n", sc_report_cause_name((ScCause)r->cause),
                      sc_report_severity_name((ScSeverity)r->severity), NAME(spaces, r->space),
                      (unsigned long long)r->address, (unsigned long long)r->hazards);
        print_side(out, "cur ", &r->cur);
        print_side(out, "prev", &r->prev);
    }
}

static ScRecordLaunch a_launch(void)
{
    ScRecordLaunch l = {
        .grid = {4, 2, 1},
        .block = {32, 4, 1},
        .site_infos = site_infos,
        .n_site_infos = sizeof site_infos / sizeof site_infos[0],
    };
    return l;
}

/* A record of two accesses; the previous side's info has no size, as the device
 * writes it. */
static ScDevRecord rec(ScCause cause, uint32_t cur_site, uint32_t cur_info, uint32_t prev_site, uint32_t prev_info)
{
    ScDevRecord r = {
        .key = SC_DEV_KEY(cause, cur_site, prev_site),
        .addr = 0x7f0000001000ull,
        .occurrences = 3,
        .cause = cause,
        .cur_site = cur_site,
        .prev_site = prev_site,
        .cur_info = cur_info,
        .prev_info = prev_info,
        .cur_block = 5,   /* (1, 1, 0) in a 4 x 2 grid */
        .cur_thread = 37, /* (5, 1, 0) in a 32 x 4 block */
        .prev_block = 5,
        .prev_thread = 70, /* (6, 2, 0) */
    };
    return r;
}

#define INFO(size, kind, sem, scope, space) SC_ABI_INFO(size, SC_ABI_KIND_##kind, SC_SEM_##sem, \
                                                        SC_SCOPE_##scope, SC_ABI_SPACE_##space)

TEST(decode_golden)
{
    ScBuf out = {0};
    ScRecordLaunch l = a_launch();
    {
        /* A free entry and one being filled are no records. */
        ScDevRecord dev[3] = {{0}, rec(SC_CAUSE_MISSING_BARRIER, 1, INFO(4, WRITE, WEAK, NONE, SHARED), 2,
                                       INFO(0, READ, WEAK, NONE, SHARED))};
        dev[2] = dev[1];
        dev[2].key = SC_DEV_KEY_BUSY;
        decode_case(&out, "weak pair in one block, free and busy entries around it", &l, dev, 3);
    }
    {
        ScDevRecord dev[2] = {
            rec(SC_CAUSE_UNSYNCHRONIZED_BLOCKS, 1, INFO(4, WRITE, RELAXED, GPU, GLOBAL), 2,
                INFO(0, READ, WEAK, NONE, GLOBAL)),
            rec(SC_CAUSE_UNSYNCHRONIZED_BLOCKS, 1, INFO(4, WRITE, VOLATILE, NONE, GLOBAL), 2,
                INFO(0, READ, WEAK, NONE, GLOBAL)),
        };
        decode_case(&out, "relaxed store against a weak read is atomic_vs_plain; volatile is not", &l, dev, 2);
    }
    {
        ScDevRecord dev[3] = {
            rec(SC_CAUSE_STRONG_VS_RMW, 1, INFO(4, WRITE, RELEASE, GPU, GLOBAL), 4,
                INFO(0, RMW, RELAXED, NONE, GLOBAL)),
            rec(SC_CAUSE_STRONG_VS_RMW, 1, INFO(4, WRITE, RELAXED, GPU, GLOBAL), 3,
                INFO(0, RMW, RELAXED, NONE, GLOBAL)),
            rec(SC_CAUSE_STRONG_VS_RMW, 1, INFO(4, WRITE, RELAXED, GPU, GLOBAL), 4,
                INFO(0, RMW, RELAXED, NONE, GLOBAL)),
        };
        dev[2].prev_thread |= SC_DEV_WHO_BLOCK << SC_DEV_WHO_SHIFT;
        decode_case(&out,
                    "strong_vs_rmw: withheld when either side releases (the second's previous side "
                    "is a release exchange by its site); the third's previous access summarized",
                    &l, dev, 3);
    }
    {
        ScRecordLaunch dep = l;
        dep.dependent = true;
        dep.prior_grid[0] = 16, dep.prior_grid[1] = 1, dep.prior_grid[2] = 1;
        dep.prior_block[0] = 256, dep.prior_block[1] = 1, dep.prior_block[2] = 1;
        ScDevRecord dev[1] = {rec(SC_CAUSE_GRID_DEPENDENCY, 2, INFO(4, READ, WEAK, NONE, GLOBAL), 1,
                                  INFO(0, WRITE, WEAK, NONE, GLOBAL))};
        dev[0].prev_block = 9;
        dev[0].prev_thread = 200;
        decode_case(&out, "grid_dependency: the previous side in the prerequisite grid's shape", &dep, dev, 1);
        dep.prior_quiet = true;
        decode_case(&out, "... which never triggers its dependents: grid_completion", &dep, dev, 1);
        ScRecordLaunch other = dep;
        other.dependent = other.prior_quiet = false;
        other.unordered = true;
        decode_case(&out, "against the launch before, on an unordered stream: unordered_streams, the previous "
                          "side in that grid's shape", &other, dev, 1);
    }
    {
        /* The shadow summarized the atomics of other blocks: no site, no semantics. */
        ScDevRecord dev[1] = {rec(SC_CAUSE_ATOMIC_VS_PLAIN, 2, INFO(4, READ, WEAK, NONE, GLOBAL), 0,
                                  SC_ABI_INFO(0, SC_ABI_KIND_RMW, 0, 0, SC_ABI_SPACE_GLOBAL))};
        dev[0].prev_site = SC_DEV_SITE_NONE;
        dev[0].prev_thread |= SC_DEV_WHO_ANY << SC_DEV_WHO_SHIFT;
        decode_case(&out, "a summarized atomic is relaxed, the ISA's default, never weak", &l, dev, 1);
    }
    {
        ScDevRecord dev[1] = {rec(SC_CAUSE_BARRIER_DIVERGENCE, 1, SC_DEV_INFO_BARRIER, 0, SC_DEV_INFO_ABSENT)};
        dev[0].prev_site = SC_DEV_SITE_NONE;
        decode_case(&out, "barrier_divergence: a thread at a barrier, one that exited", &l, dev, 1);
    }
    {
        ScDevRecord dev[1] = {rec(SC_CAUSE_MISSING_BARRIER, 1, INFO(4, WRITE, WEAK, NONE, SHARED_CLUSTER), 2,
                                  INFO(0, READ, WEAK, NONE, SHARED_CLUSTER))};
        decode_case(&out, "another block's shared memory through the cluster's window is shared", &l, dev, 1);
    }
    {
        /* Sites 1 and 2 on the two arms of branch 5 of one function, site 3 on the
         * first arm too; what the device calls missing_syncwarp between 1 and 2 lies
         * on opposite paths of the branch. */
        ScReportConfig cfg;
        sc_report_config_init(&cfg, 7);
        ScReport *report = sc_report_new(&cfg);
        CHECK(report != NULL);
        const ScReportControlDep taken[] = {{5, 0}}, fall[] = {{5, 1}};
        const ScReportControlDep *deps[] = {NULL, taken, fall, taken};
        for (uint32_t id = 1; report && id <= 3; id++) {
            ScReportFrame f = {.file = "w.cu", .line = id, .column = 1};
            ScReportSite site = {.ptx_function = "_Z1kPi", .ptx_line = id, .frames = &f, .n_frames = 1,
                                 .function_id = 7, .deps = deps[id], .n_deps = 1};
            ScErr err = {0};
            CHECK(sc_report_add_site(report, id, &site, &err));
        }
        ScRecordLaunch branches = l;
        branches.report = report;
        ScDevRecord dev[2] = {rec(SC_CAUSE_MISSING_SYNCWARP, 1, INFO(4, WRITE, WEAK, NONE, SHARED), 2,
                                  INFO(0, READ, WEAK, NONE, SHARED)),
                              rec(SC_CAUSE_MISSING_SYNCWARP, 3, INFO(4, WRITE, WEAK, NONE, SHARED), 1,
                                  INFO(0, WRITE, WEAK, NONE, SHARED))};
        decode_case(&out, "missing_syncwarp on opposite arms of a branch is divergent_branch; on one arm not",
                    &branches, dev, 2);
        sc_report_free(report);
    }
    {
        /* A race named by relation is its synchronization twin seen from the other side
         * (the writer checked after the reader's failed acquire): it takes the twin's
         * cause and follows it; another space or another pair stays as it is. */
        ScDevRecord dev[4] = {
            rec(SC_CAUSE_UNSYNCHRONIZED_BLOCKS, 1, INFO(4, WRITE, WEAK, NONE, GLOBAL), 2,
                INFO(0, READ, WEAK, NONE, GLOBAL)),
            rec(SC_CAUSE_FENCE_SCOPE, 2, INFO(4, READ, WEAK, NONE, GLOBAL), 1, INFO(0, WRITE, WEAK, NONE, GLOBAL)),
            rec(SC_CAUSE_MISSING_BARRIER, 1, INFO(4, WRITE, WEAK, NONE, SHARED), 2,
                INFO(0, READ, WEAK, NONE, SHARED)),
            rec(SC_CAUSE_UNSYNCHRONIZED_BLOCKS, 1, INFO(4, WRITE, WEAK, NONE, GLOBAL), 3,
                INFO(0, READ, WEAK, NONE, GLOBAL)),
        };
        dev[0].occurrences = 4;
        decode_case(&out, "unsynchronized_blocks with a fence_scope twin in the launch is fence_scope, after it",
                    &l, dev, 4);
        /* The twin known from an earlier launch. */
        ScReportConfig cfg;
        sc_report_config_init(&cfg, 7);
        ScReport *report = sc_report_new(&cfg);
        CHECK(report != NULL);
        ScRecordLaunch earlier = l;
        ScRaceRecord known[4];
        size_t withheld = 0, n = sc_hostrt_decode(&dev[1], 1, &earlier, known, &withheld);
        ScReportLaunch launch = {.kernel = "_Z1kPi", .number = 1, .grid = {4, 2, 1}, .block = {32, 4, 1}};
        ScErr err = {0};
        CHECK(report && sc_report_add_launch(report, &launch, known, n, 0, NULL, &err));
        ScRecordLaunch later = l;
        later.report = report;
        ScDevRecord again[2] = {dev[0], dev[3]};
        decode_case(&out, "... and with the twin known from an earlier launch", &later, again, 2);
        sc_report_free(report);
    }
    sc_golden_compare(GOLDEN, out.data, out.len);
    sc_buf_free(&out);
}

/* The word and site word one access of thread tid in block blk leaves on an empty
 * word, as the runtime would write them (site id: the instruction). */
static void one_access(uint32_t blk, uint32_t tid, int cls, int scope, uint32_t site_id, uint64_t *word,
                       uint64_t *site)
{
    static ScRulesBlockClk bclk;
    static ScRulesWarpClk wclk;
    sc_rules_block_clk_init(&bclk, 1);
    sc_rules_warp_clk_init(&wclk, 1);
    ScRulesAccess a = {
        .cls = (uint8_t)cls, .scope = (uint8_t)scope, .mask = 15, .blk = blk, .tid = tid,
        .bar_now = bclk.now, .bar_own = bclk.own[tid >> 5], .bar_seen = bclk.seen[tid >> 5],
        .sync_now = wclk.now, .sync_floor = wclk.floor, .sync_seen = wclk.seen[tid & 31],
    };
    ScRulesVerdict v;
    CHECK(sc_rules_access(0, &a, word, &v) == SC_RULES_OK);
    *site = sc_rules_site_next(0, 0, *word, &a, site_id, 0);
}

TEST(copy_words)
{
    ScRecordLaunch l = {.grid = {8, 1, 1}, .block = {128, 1, 1}, .site_infos = site_infos,
                        .n_site_infos = SC_ARRAY_LEN(site_infos)};
    uint64_t written, written_site, read, read_site, atomic, atomic_site;
    one_access(5, 70, SC_RULES_CLS_WRITE, SC_SCOPE_NONE, 1, &written, &written_site);
    one_access(2, 3, SC_RULES_CLS_READ, SC_SCOPE_NONE, 2, &read, &read_site);
    one_access(1, 9, SC_RULES_CLS_ATOMIC, SC_SCOPE_GPU, 4, &atomic, &atomic_site);
    ScHostCopy out = {.base = 0x1002, .size = 4096}, in = {.base = 0x1000, .size = 8, .writes = true};
    CHECK_INT(0x0c, sc_hostrt_copy_mask(&out, 0x1000));
    CHECK_INT(0x0f, sc_hostrt_copy_mask(&out, 0x1004));
    CHECK_INT(0, sc_hostrt_copy_mask(&out, 0x2004));
    CHECK_INT(0x03, sc_hostrt_copy_mask(&out, 0x2000));
    ScRaceRecord recs[2];
    ScCopyRaces acc = {recs, 0, 2, 0};
    /* A copy out of what the launch wrote, issued after it: two words, one record. */
    sc_hostrt_copy_word(&acc, &out, true, 0x1000, sc_hostrt_copy_mask(&out, 0x1000), written, written_site,
                        false, &l);
    sc_hostrt_copy_word(&acc, &out, true, 0x1004, 15, written, written_site, false, &l);
    /* Reads meet reads, and an atomic a copy's read: no race for the first, a second
     * record for the other. */
    sc_hostrt_copy_word(&acc, &out, true, 0x1008, 15, read, read_site, false, &l);
    sc_hostrt_copy_word(&acc, &out, true, 0x100c, 15, atomic, atomic_site, false, &l);
    CHECK_INT(2, acc.n);
    CHECK_INT(0, acc.lost);
    CHECK_INT(0x1002, recs[0].address);
    CHECK_INT(2, recs[0].hazards);
    CHECK_INT(SC_CAUSE_UNORDERED_STREAMS, recs[0].cause);
    CHECK_INT(SC_RACE_WHO_COPY, recs[0].cur.who);
    CHECK_INT(SC_RACE_KIND_READ, recs[0].cur.kind);
    CHECK_INT(1, recs[0].prev.site);
    CHECK_INT(SC_RACE_KIND_WRITE, recs[0].prev.kind);
    CHECK_INT(4, recs[0].prev.size);
    CHECK_INT(5, recs[0].prev.block[0]);
    CHECK_INT(70, recs[0].prev.thread[0]);
    CHECK_INT(4, recs[1].prev.site);
    CHECK_INT(SC_RACE_KIND_ATOMIC, recs[1].prev.kind);
    /* Full: a third instruction's word is counted lost. */
    uint64_t w2, s2;
    one_access(0, 1, SC_RULES_CLS_WRITE, SC_SCOPE_NONE, 3, &w2, &s2);
    sc_hostrt_copy_word(&acc, &out, true, 0x1010, 15, w2, s2, false, &l);
    CHECK_INT(1, acc.lost);
    /* A copy into memory a later launch read, issued before it: the launch's side is
     * the current one; the copy's previous. */
    ScCopyRaces later = {recs, 0, 2, 0};
    sc_hostrt_copy_word(&later, &in, false, 0x1004, 15, read, read_site, false, &l);
    CHECK_INT(1, later.n);
    CHECK_INT(SC_RACE_WHO_COPY, recs[0].prev.who);
    CHECK_INT(SC_RACE_KIND_WRITE, recs[0].prev.kind);
    CHECK_INT(2, recs[0].cur.site);
    CHECK_INT(SC_RACE_WHO_THREAD, recs[0].cur.who);
    CHECK_INT(2, recs[0].cur.block[0]);
    /* Both records are ones the report takes. */
    ScReport *report = sc_report_new(&(ScReportConfig){0});
    ScReportLaunch launch = {.kernel = "_Z1kPi", .number = 1, .grid = {8, 1, 1}, .block = {128, 1, 1}};
    ScErr err = {0};
    CHECK(report && sc_report_add_launch(report, &launch, recs, 1, 0, NULL, &err));
    ScReportCounts counts;
    sc_report_counts(report, &counts);
    CHECK_INT(0, counts.dropped);
    CHECK_INT(1, counts.hazards);
    sc_report_free(report);
}

/* 2D and 3D copies by their rows: each side in device or unified memory, from its
 * first byte; a 3D side whose slices are not evenly spaced, and host or array sides,
 * are not followed. */
TEST(copy_ranges_of_2d_and_3d_copies)
{
    CUDA_MEMCPY2D c2 = {
        .srcXInBytes = 8, .srcY = 2, .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = 0x10000, .srcPitch = 512,
        .dstMemoryType = CU_MEMORYTYPE_HOST, .WidthInBytes = 100, .Height = 4,
    };
    ScHostCopy r[2];
    CHECK_INT(1, sc_hostrt_memcpy2d_ranges(&c2, r));
    CHECK_INT(0x10000 + 2 * 512 + 8, r[0].base);
    CHECK_INT(100, r[0].size);
    CHECK_INT(512, r[0].pitch);
    CHECK_INT(4, r[0].rows);
    CHECK(!r[0].writes);
    ScHostCopy row = sc_hostrt_copy_row(&r[0], 3);
    CHECK_INT(0x10000 + 5 * 512 + 8, row.base);
    CHECK_INT(100, row.size);
    CHECK_INT(1, row.rows);
    c2.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    c2.dstDevice = 0x40000;
    c2.dstPitch = 128;
    c2.Height = 1;
    CHECK_INT(2, sc_hostrt_memcpy2d_ranges(&c2, r));
    CHECK_INT(0, r[0].pitch); /* one row: a 1D range */
    CHECK_INT(0x40000, r[1].base);
    CHECK(r[1].writes);
    c2.WidthInBytes = 0;
    CHECK_INT(0, sc_hostrt_memcpy2d_ranges(&c2, r));

    CUDA_MEMCPY3D c3 = {
        .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = 0x100000, .srcPitch = 256, .srcHeight = 8,
        .srcY = 1, .srcZ = 2,
        .dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = 0x200000, .dstPitch = 64, .dstHeight = 3,
        .WidthInBytes = 64, .Height = 8, .Depth = 3,
    };
    /* The source's slices are 8 rows apart, as many as the copy has: 24 rows evenly;
     * the destination's are 3 rows apart for 8 rows each: not followed. */
    CHECK_INT(1, sc_hostrt_memcpy3d_ranges(&c3, r));
    CHECK_INT(0x100000 + (2 * 8 + 1) * 256, r[0].base);
    CHECK_INT(24, r[0].rows);
    CHECK_INT(256, r[0].pitch);
    c3.Depth = 1;
    CHECK_INT(2, sc_hostrt_memcpy3d_ranges(&c3, r));
    CHECK_INT(8, r[1].rows);
    CHECK_INT(64, r[1].pitch);
    c3.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    CHECK_INT(1, sc_hostrt_memcpy3d_ranges(&c3, r));
    CHECK(r[0].writes);
}

int main(void)
{
    RUN(decode_golden);
    RUN(copy_words);
    RUN(copy_ranges_of_2d_and_3d_copies);
    return TEST_REPORT();
}
