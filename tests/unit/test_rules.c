/* test_rules.c: the shadow word layout of src/rules/rules.h, its clocks, and one
 * hand-written case per cause and per branch that matters to the device runtime. The
 * exhaustive comparison with the reference model is test_model. */
#include "common/sc_defs.h"
#include "devrt/devrt_state.h"
#include "model/trail_judge.h"
#include "rules/rules.h"
#include "sc_test.h"

/* The fields tile the 64 bits exactly, in order. */
SC_STATIC_ASSERT(SC_RULES_MASK_SHIFT + SC_RULES_MASK_BITS == SC_RULES_REACH_SHIFT, "mask|reach");
SC_STATIC_ASSERT(SC_RULES_REACH_SHIFT + SC_RULES_POS_BITS * SC_RULES_NCLS == SC_RULES_XCTA_SHIFT,
                 "reach|xcta");
SC_STATIC_ASSERT(SC_RULES_XCTA_SHIFT + 1 == SC_RULES_TILE_SHIFT, "xcta|tile");
SC_STATIC_ASSERT(SC_RULES_TILE_SHIFT + SC_RULES_TILE_BITS == SC_RULES_LANE_SHIFT, "tile|lane");
SC_STATIC_ASSERT(SC_RULES_LANE_SHIFT + 5 == SC_RULES_WARP_SHIFT, "lane|warp");
SC_STATIC_ASSERT(SC_RULES_WARP_SHIFT + 5 == SC_RULES_BLK_SHIFT, "warp|blk");
SC_STATIC_ASSERT(SC_RULES_BLK_SHIFT + SC_RULES_BLK_BITS == SC_RULES_BAR_SHIFT, "blk|bar");
SC_STATIC_ASSERT(SC_RULES_BAR_SHIFT + SC_RULES_BAR_BITS == SC_RULES_SYNC_SHIFT, "bar|sync");
SC_STATIC_ASSERT(SC_RULES_SYNC_SHIFT + SC_RULES_SYNC_BITS == 64, "sync ends the word");
SC_STATIC_ASSERT((SC_RULES_MASK_FIELD | SC_RULES_REACH_FIELD | SC_RULES_XCTA_FIELD |
                  SC_RULES_TILE_FIELD | SC_RULES_WHO_FIELD) == UINT64_MAX,
                 "fields cover the word");
SC_STATIC_ASSERT(SC_RULES_POS_GRID < (1 << SC_RULES_POS_BITS), "positions fit");
SC_STATIC_ASSERT(SC_RULES_BAR_MOD < (1u << SC_RULES_BAR_BITS), "bar counter fits");
SC_STATIC_ASSERT(SC_RULES_SYNC_MOD < (1u << SC_RULES_SYNC_BITS), "sync counter fits");
SC_STATIC_ASSERT(5 <= (1 << SC_RULES_TILE_BITS) - 1, "a tile can span the warp");

/* A tiny world: two blocks of two warps, with the clocks the runtime would keep. */
static ScRulesBlockClk bclk[2];
static ScRulesWarpClk wclk[2][2];

static void world(uint32_t bar_start, uint32_t sync_start)
{
    for (int b = 0; b < 2; b++) {
        sc_rules_block_clk_init(&bclk[b], bar_start);
        for (int w = 0; w < 2; w++)
            sc_rules_warp_clk_init(&wclk[b][w], sync_start);
    }
}

static ScRulesAccess mk(uint32_t blk, uint32_t tid, int cls, int scope, unsigned mask)
{
    ScRulesAccess a;
    const ScRulesBlockClk *b = &bclk[blk & 1];
    const ScRulesWarpClk *w = &wclk[blk & 1][(tid >> 5) & 1];
    a.cls = (uint8_t)cls;
    a.scope = (uint8_t)scope;
    a.mask = (uint8_t)mask;
    a.blk = blk;
    a.tid = tid;
    a.bar_now = b->now;
    a.bar_own = b->own[tid >> 5];
    a.bar_seen = b->seen[tid >> 5];
    a.sync_now = w->now;
    a.sync_floor = w->floor;
    a.sync_seen = w->seen[tid & 31];
    a.hint = 0;
    a.acq = NULL;
    a.n_acq = 0;
    a.moved = 0;
    a.cluster = NULL;
    a.shared = 0;
    return a;
}

/* Runs one access the way the runtime's CAS loop would (single-threaded here). */
static int run(uint64_t *word, ScRulesAccess a, ScRulesVerdict *v)
{
    uint64_t n;
    int r = sc_rules_access(*word, &a, &n, v);
    if (r != SC_RULES_SPLIT)
        *word = n;
    return r;
}

#define R SC_RULES_CLS_READ
#define W SC_RULES_CLS_WRITE
#define SR SC_RULES_CLS_SREAD
#define SW SC_RULES_CLS_SWRITE
#define AT SC_RULES_CLS_ATOMIC
#define NONE SC_SCOPE_NONE
#define CTA SC_SCOPE_CTA
#define GPU SC_SCOPE_GPU

TEST(layout_round_trip_at_limits)
{
    ScRulesState lo = {0}, hi;
    hi.mask = 15;
    for (int c = 0; c < SC_RULES_NCLS; c++)
        hi.reach[c] = SC_RULES_POS_GRID;
    hi.xcta = 1;
    hi.tile = 5;
    hi.lane = 31;
    hi.warp = 31;
    hi.blk = (1u << SC_RULES_BLK_BITS) - 1;
    hi.bar = SC_RULES_BAR_MOD - 1;
    hi.sync = SC_RULES_SYNC_MOD - 1;
    CHECK(sc_rules_encode(&lo) == 0);
    uint64_t w = sc_rules_encode(&hi);
    ScRulesState d = sc_rules_decode(w);
    CHECK_INT(15, d.mask);
    for (int c = 0; c < SC_RULES_NCLS; c++)
        CHECK_INT(SC_RULES_POS_GRID, d.reach[c]);
    CHECK_INT(1, d.xcta);
    CHECK_INT(5, d.tile);
    CHECK_INT(31, d.lane);
    CHECK_INT(31, d.warp);
    CHECK_INT((1u << SC_RULES_BLK_BITS) - 1, d.blk);
    CHECK_INT(SC_RULES_BAR_MOD - 1, d.bar);
    CHECK_INT(SC_RULES_SYNC_MOD - 1, d.sync);
    /* Each field alone lands in its own bits and nowhere else. */
    for (int f = 0; f < 9; f++) {
        ScRulesState one = {0};
        uint64_t field = 0;
        switch (f) {
        case 0: one.mask = 15; field = SC_RULES_MASK_FIELD; break;
        case 1: one.reach[SC_RULES_CLS_ATOMIC] = 7;
                field = SC_RULES_FIELD(SC_RULES_REACH_SHIFT + 3 * SC_RULES_CLS_ATOMIC, 3); break;
        case 2: one.xcta = 1; field = SC_RULES_XCTA_FIELD; break;
        case 3: one.tile = 7; field = SC_RULES_TILE_FIELD; break;
        case 4: one.lane = 31; field = SC_RULES_FIELD(SC_RULES_LANE_SHIFT, 5); break;
        case 5: one.warp = 31; field = SC_RULES_FIELD(SC_RULES_WARP_SHIFT, 5); break;
        case 6: one.blk = 0x3fff; field = SC_RULES_FIELD(SC_RULES_BLK_SHIFT, SC_RULES_BLK_BITS); break;
        case 7: one.bar = 0x3ff; field = SC_RULES_FIELD(SC_RULES_BAR_SHIFT, SC_RULES_BAR_BITS); break;
        default: one.sync = 0x7f; field = SC_RULES_FIELD(SC_RULES_SYNC_SHIFT, SC_RULES_SYNC_BITS); break;
        }
        CHECK(sc_rules_encode(&one) == field);
    }
}

TEST(split_marker_and_site_word)
{
    CHECK(!sc_rules_is_split(0));
    for (uint64_t i = 0; i < 3; i++) {
        uint64_t w = sc_rules_split_word(i);
        CHECK(sc_rules_is_split(w));
        CHECK(sc_rules_split_index(w) == i);
    }
    uint64_t big = sc_rules_split_word(((uint64_t)1 << 59) - 2);
    CHECK(sc_rules_is_split(big));
    CHECK(sc_rules_split_index(big) == ((uint64_t)1 << 59) - 2);

    ScRulesState s = {0};
    s.mask = 0x5;
    s.reach[R] = SC_RULES_POS_SELF;
    s.blk = 0x1234;
    uint64_t w = sc_rules_encode(&s);
    CHECK(sc_rules_split_cell(w, 0) == w);
    CHECK(sc_rules_split_cell(w, 1) == 0);
    CHECK(sc_rules_split_cell(w, 2) == w);
    CHECK(sc_rules_split_cell(w, 3) == 0);

    /* The site word: one slot per family, the block's high bits, and nothing that an
     * id too large to keep could spill into. */
    ScRulesAccess a = {0};
    a.cls = SC_RULES_CLS_ATOMIC;
    a.scope = SC_SCOPE_CTA;
    a.mask = 0xf;
    a.tid = 1023;
    a.sync_now = SC_RULES_SYNC_MOD - 1;
    a.blk = 0x7fffffu; /* 23 bits: 14 in the word, 9 in the site word */
    s.blk = (uint16_t)(a.blk & 0x3fff);
    s.warp = 31;
    s.lane = 31;
    s.sync = SC_RULES_SYNC_MOD - 1;
    uint64_t word = sc_rules_who(&a) | 0xf;
    uint64_t site = sc_rules_site_next(0, 0, word, &a, SC_RULES_SITE_MAX, 0);
    CHECK(sc_rules_site_of(site, AT) == SC_RULES_SITE_MAX);
    CHECK(sc_rules_site_of(site, SW) == SC_RULES_SITE_NONE);
    CHECK(sc_rules_site_of(site, W) == SC_RULES_SITE_NONE);
    CHECK(sc_rules_site_of(site, R) == SC_RULES_SITE_NONE);
    CHECK(sc_rules_site_blk(site, word) == a.blk);
    /* The same thread at the same clocks: its read joins, the atomic stays named. */
    ScRulesAccess rd = a;
    rd.cls = SC_RULES_CLS_SREAD;
    uint64_t both = sc_rules_site_next(site, word, word, &rd, 0, 0);
    CHECK(sc_rules_site_of(both, SR) == 0);
    CHECK(sc_rules_site_of(both, R) == SC_RULES_SITE_NONE);
    CHECK(sc_rules_site_of(both, AT) == SC_RULES_SITE_MAX);
    CHECK(sc_rules_site_blk(both, word) == a.blk);
    /* An id too large to keep leaves its slot empty, never another's. */
    uint64_t big_id = sc_rules_site_next(both, word, word, &rd, SC_RULES_SITE_MAX + 1, 0);
    CHECK(sc_rules_site_of(big_id, SR) == SC_RULES_SITE_NONE);
    CHECK(sc_rules_site_of(big_id, AT) == SC_RULES_SITE_MAX);
    /* Another thread that becomes the recorder starts the site word over. */
    ScRulesAccess other = rd;
    other.tid = 5;
    uint64_t word2 = sc_rules_who(&other) | 0xf;
    uint64_t fresh = sc_rules_site_next(both, word, word2, &other, 9, 0);
    CHECK(sc_rules_site_of(fresh, SR) == 9);
    CHECK(sc_rules_site_of(fresh, AT) == SC_RULES_SITE_NONE);
    /* A concurrent strong read that leaves the recorder recorded leaves its site word. */
    CHECK(sc_rules_site_next(both, word, word, &other, 9, 0) == both);
    /* An access that leaves out bytes of the word's history names no instruction for
     * them, and the other family's instruction no longer covers the word either. */
    ScRulesAccess half = rd;
    half.mask = 0x3;
    uint64_t part = sc_rules_site_next(0, 0, word & ~(uint64_t)0xc, &half, 4, 0);
    CHECK(sc_rules_site_of(part, SR) == 4);
    part = sc_rules_site_next(part, word & ~(uint64_t)0xc, word, &a, 6, 0);
    CHECK(sc_rules_site_of(part, AT) == 6);
    CHECK(sc_rules_site_of(part, SR) == SC_RULES_SITE_NONE);
    ScRulesAccess high = a;
    high.mask = 0xc;
    part = sc_rules_site_next(part, word, word, &high, 8, 0);
    CHECK(sc_rules_site_of(part, AT) == SC_RULES_SITE_NONE);
    /* A byte cell is one byte: any access to it names itself. */
    CHECK(sc_rules_site_of(sc_rules_site_next(part, word, word, &high, 8, 1), AT) == 8);
    /* The trail bit stays while the word does, and goes when it changes, whoever is
     * recorded then. */
    uint64_t trailed = both | SC_RULES_SITE_TRAIL;
    CHECK(sc_rules_site_next(trailed, word, word, &other, 9, 0) == trailed);
    CHECK(sc_rules_site_next(trailed, word, word, &rd, 0, 0) & SC_RULES_SITE_TRAIL);
    CHECK(!(sc_rules_site_next(trailed, word, word2, &other, 9, 0) & SC_RULES_SITE_TRAIL));
    CHECK(!(sc_rules_site_next(trailed, word, word | (uint64_t)SC_RULES_POS_GRID << SC_RULES_REACH_SHIFT, &other,
                               9, 0) & SC_RULES_SITE_TRAIL));
}

TEST(counters_wrap_at_odd_period)
{
    CHECK_INT(0, sc_rules_ctr_next(SC_RULES_BAR_MOD - 1, SC_RULES_BAR_MOD));
    CHECK_INT(0, sc_rules_ctr_next(SC_RULES_SYNC_MOD - 1, SC_RULES_SYNC_MOD));
    CHECK_INT(2, sc_rules_age(1, SC_RULES_SYNC_MOD - 1, SC_RULES_SYNC_MOD));
    CHECK(sc_rules_newer(1, 0, SC_RULES_SYNC_MOD - 1, SC_RULES_SYNC_MOD));
    CHECK(!sc_rules_newer(1, SC_RULES_SYNC_MOD - 1, 0, SC_RULES_SYNC_MOD));
    CHECK(!sc_rules_newer(5, 5, 5, SC_RULES_SYNC_MOD));
}

TEST(clock_helpers_join_and_floor)
{
    ScRulesWarpClk c;
    sc_rules_warp_clk_init(&c, SC_RULES_SYNC_MOD - 1);
    sc_rules_warp_sync(&c, 0x3u, 0); /* lanes 0,1: instance 0 */
    CHECK_INT(0, c.now);
    CHECK_INT(SC_RULES_SYNC_MOD - 1, c.floor);
    CHECK_INT(0, c.seen[0][1]);
    CHECK_INT(SC_RULES_SYNC_MOD - 1, c.seen[0][2]);
    sc_rules_warp_sync(&c, 0x6u, 0); /* lanes 1,2: instance 1; lane 2 learns lane 0 via 1 */
    CHECK_INT(1, c.seen[2][1]);
    CHECK_INT(0, c.seen[2][0]);
    CHECK_INT(0, c.seen[0][1]);
    sc_rules_warp_sync(&c, 0xffffffffu, 1);
    CHECK_INT(2, c.floor);
    CHECK_INT(2, c.seen[31][0]);

    ScRulesBlockClk b;
    sc_rules_block_clk_init(&b, 7);
    sc_rules_block_barrier(&b, 0x3u);
    CHECK_INT(8, b.now);
    CHECK_INT(8, b.own[1]);
    CHECK_INT(7, b.own[2]);
    CHECK_INT(8, b.seen[0][1]);
    CHECK_INT(7, b.seen[0][2]);
}

TEST(missing_barrier_and_its_fix)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 3, W, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 40, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_MISSING_BARRIER, v.cause);
    CHECK_INT(W, v.prev_cls);
    CHECK_INT(1, v.prev_exact);
    CHECK_INT(3, v.prev_tid);

    x = 0;
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 3, W, NONE, 0xf), &v));
    sc_rules_block_barrier(&bclk[0], 0x3u);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 40, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 41, R, NONE, 0xf), &v));
    /* Readers of two warps after the barrier: a write by either races with the other. */
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 5, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 40, W, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_MISSING_BARRIER, v.cause);
}

/* The clocks an asynchronous copy's thread had at the issue, as the runtime keeps them. */
static uint64_t issue_of(uint32_t blk, uint32_t tid)
{
    const ScRulesWarpClk *w = &wclk[blk & 1][(tid >> 5) & 1];
    return SC_DEV_ASYNC_CLOCKS(bclk[blk & 1].own[(tid >> 5) & 1], w->now, w->floor);
}

/* The host's table of constant clock rows (ScDevLaunch.const_rows): row v all v. */
static const uint16_t *const_rows(void)
{
    static uint16_t rows[SC_DEV_CONST_ROWS][32];
    static int filled;
    if (!filled)
        sc_dev_fill_const_rows(rows);
    filled = 1;
    return &rows[0][0];
}

/* Where another thread's access lies among a copy's issue and completion in its epoch. */
enum { BEFORE_ISSUE, BETWEEN, AFTER_COMPLETION };

/* One copy of thread 3 issued in epoch ea and completed in eb, one access (class cls)
 * of thread `other` in epoch ec at `place` among them; open_epoch(e, kinds) makes the
 * synchronization that opens epoch e > 0. Does any of the runtime's checks (the issue's
 * write, then at the completion the write with the issue's clocks and the write now)
 * report a race? */
static int copy_races(int syncs, void (*open_epoch)(int e, const int *kinds), const int *kinds, int ea, int eb,
                      int ec, int place, uint32_t other, int cls)
{
    const uint16_t *rows = const_rows();
    uint64_t x = 0, issued = 0;
    int raced = 0;
    world(5, 9);
    for (int e = 0; e <= syncs; e++) {
        if (e > 0)
            open_epoch(e, kinds);
        ScRulesVerdict v;
        /* In epoch e: the access before the issue, the issue, the access between, the
         * completion, the access after. */
        for (int step = 0; step < 5; step++) {
            if (step == 1 && e == ea) {
                issued = issue_of(0, 3);
                raced |= run(&x, mk(0, 3, W, NONE, 0xf), &v) == SC_RULES_RACE;
            } else if (step == 3 && e == eb) {
                ScRulesAccess at = mk(0, 3, W, NONE, 0xf);
                sc_dev_issue_clocks(&at, rows, issued);
                raced |= run(&x, at, &v) == SC_RULES_RACE;
                raced |= run(&x, mk(0, 3, W, NONE, 0xf), &v) == SC_RULES_RACE;
            } else if (e == ec && step == 2 * place) {
                raced |= run(&x, mk(0, other, cls, NONE, 0xf), &v) == SC_RULES_RACE;
            }
        }
    }
    return raced;
}

/* Can an access in epoch ec lie at `place` among an issue in ea and a completion in eb? */
static int place_fits(int place, int ea, int eb, int ec)
{
    return !((place == BEFORE_ISSUE && ec > ea) || (place == BETWEEN && (ec < ea || ec > eb)) ||
             (place == AFTER_COMPLETION && ec < eb));
}

static void open_by_barrier(int e, const int *kinds)
{
    (void)e, (void)kinds;
    sc_rules_block_barrier(&bclk[0], 0x3u);
}

static void open_by_syncwarp(int e, const int *kinds)
{
    (void)e, (void)kinds;
    sc_rules_warp_sync(&wclk[0][0], 0xffffffffu, 1);
}

/* kinds[e]: 0 takes both lanes (3 and 7), 1 lane 3 with lane 1, 2 lane 7 with lane 2,
 * so that no third lane carries an order between them. */
static void open_by_partial_syncwarp(int e, const int *kinds)
{
    static const uint32_t masks[] = {(1u << 3) | (1u << 7), (1u << 3) | (1u << 1), (1u << 7) | (1u << 2)};
    sc_rules_warp_sync(&wclk[0][0], masks[kinds[e]], 0);
}

/* A cp.async's write lands between its issue and the wait that completes it: checked
 * at the completion with the issue's clocks (sc_dev_issue_clocks), it races with a
 * read that a barrier after the issue ordered after the issue, and not with one that a
 * barrier ordered before the issue, nor with one after a barrier that followed the
 * completion. */
TEST(async_copy_write_races_until_its_completion)
{
    const uint16_t *rows = const_rows();
    ScRulesVerdict v;
    ScRulesAccess a;

    /* A pipeline that reads a stage it has not waited for: thread 3 issues, both warps
     * pass a barrier, thread 40 reads, both pass another barrier, and only then does a
     * wait complete the copy. The check with the issue's clocks finds the race; the
     * completion's own clocks see the read as ordered before it. */
    for (int issue_clocks = 1; issue_clocks >= 0; issue_clocks--) {
        uint64_t x = 0;
        world(5, 0);
        uint64_t issued = issue_of(0, 3);
        CHECK_INT(SC_RULES_OK, run(&x, mk(0, 3, W, NONE, 0xf), &v));
        sc_rules_block_barrier(&bclk[0], 0x3u);
        CHECK_INT(SC_RULES_OK, run(&x, mk(0, 40, R, NONE, 0xf), &v));
        sc_rules_block_barrier(&bclk[0], 0x3u);
        a = mk(0, 3, W, NONE, 0xf);
        if (issue_clocks)
            sc_dev_issue_clocks(&a, rows, issued);
        CHECK_INT(issue_clocks ? SC_RULES_RACE : SC_RULES_OK, run(&x, a, &v));
        if (issue_clocks) {
            CHECK_INT(SC_RULES_CAUSE_MISSING_BARRIER, v.cause);
            CHECK_INT(40, v.prev_tid);
        }
    }

    /* The read came before a barrier that preceded the issue: ordered. */
    uint64_t x = 0;
    world(5, 0);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 40, R, NONE, 0xf), &v));
    sc_rules_block_barrier(&bclk[0], 0x3u);
    uint64_t issued = issue_of(0, 3);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 3, W, NONE, 0xf), &v));
    a = mk(0, 3, W, NONE, 0xf);
    sc_dev_issue_clocks(&a, rows, issued);
    CHECK(run(&x, a, &v) != SC_RULES_RACE);
    CHECK(run(&x, mk(0, 3, W, NONE, 0xf), &v) != SC_RULES_RACE);

    /* The wait came before the barrier: the completion's checks find nothing, and the
     * read after the barrier is ordered after the write they leave. */
    x = 0;
    world(5, 0);
    issued = issue_of(0, 3);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 3, W, NONE, 0xf), &v));
    a = mk(0, 3, W, NONE, 0xf);
    sc_dev_issue_clocks(&a, rows, issued);
    CHECK(run(&x, a, &v) != SC_RULES_RACE);
    CHECK(run(&x, mk(0, 3, W, NONE, 0xf), &v) != SC_RULES_RACE);
    sc_rules_block_barrier(&bclk[0], 0x3u);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 40, R, NONE, 0xf), &v));

    /* A lane of the copy's own warp that a full __syncwarp() after the issue ordered
     * after it still races with the copy. */
    x = 0;
    world(5, 9);
    issued = issue_of(0, 3);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 3, W, NONE, 0xf), &v));
    sc_rules_warp_sync(&wclk[0][0], 0xffffffffu, 1);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 7, R, NONE, 0xf), &v));
    a = mk(0, 3, W, NONE, 0xf);
    sc_dev_issue_clocks(&a, rows, issued);
    CHECK_INT(SC_RULES_RACE, run(&x, a, &v));
    CHECK_INT(SC_RULES_CAUSE_MISSING_SYNCWARP, v.cause);
}

/* Every placement of one access of another thread around a copy issued in epoch a and
 * completed in epoch b (epochs: barriers of the block, or full __syncwarp()s for a lane
 * of the copy's warp), up to three of them, the access reading or writing, placed in
 * any order inside its epoch: the checks the runtime makes (the issue's write, then at
 * the completion the write with the issue's clocks and the write now) find a race
 * exactly when the happens-before definition does, that is when the access is ordered
 * neither before the issue nor after the completion: a <= c <= b. */
TEST(async_copy_checks_agree_with_happens_before)
{
    unsigned cases = 0, wrong = 0;
    for (int same_warp = 0; same_warp < 2; same_warp++)
        for (int syncs = 0; syncs <= 3; syncs++)
            for (int ea = 0; ea <= syncs; ea++)
                for (int eb = ea; eb <= syncs; eb++)
                    for (int ec = 0; ec <= syncs; ec++)
                        for (int place = BEFORE_ISSUE; place <= AFTER_COMPLETION; place++)
                            for (int kind = 0; kind < 2; kind++) {
                                if (!place_fits(place, ea, eb, ec))
                                    continue;
                                int raced = copy_races(syncs, same_warp ? open_by_syncwarp : open_by_barrier, NULL,
                                                       ea, eb, ec, place, same_warp ? 7u : 40u, kind ? W : R);
                                int expected = ea <= ec && ec <= eb;
                                cases++;
                                if (raced != expected) {
                                    wrong++;
                                    printf("  %s, %d syncs, issue in %d, completion in %d, %s in %d (place %d): "
                                           "rules %d, happens-before %d\n",
                                           same_warp ? "same warp" : "other warp", syncs, ea, eb,
                                           kind ? "write" : "read", ec, place, raced, expected);
                                }
                            }
    CHECK(cases > 300);
    CHECK_INT(0, wrong);
}

/* The same for a lane of the copy's own warp with partial __syncwarp masks: each sync
 * takes both lanes (3 and 7), the copy's lane with lane 1, or the other with lane 2 (so
 * that no third lane carries an order between them). Happens-before between the two
 * goes through the syncs that take both; every placement and order is compared. */
TEST(async_copy_checks_agree_with_happens_before_under_partial_masks)
{
    unsigned cases = 0, wrong = 0;
    for (int syncs = 0; syncs <= 3; syncs++)
        for (int kinds_code = 0; kinds_code < 27; kinds_code++)
            for (int ea = 0; ea <= syncs; ea++)
                for (int eb = ea; eb <= syncs; eb++)
                    for (int ec = 0; ec <= syncs; ec++)
                        for (int place = BEFORE_ISSUE; place <= AFTER_COMPLETION; place++)
                            for (int kind = 0; kind < 2; kind++) {
                                int kinds[4] = {0, kinds_code % 3, kinds_code / 3 % 3, kinds_code / 9 % 3};
                                if (kinds_code >= (syncs == 0 ? 1 : syncs == 1 ? 3 : syncs == 2 ? 9 : 27) ||
                                    !place_fits(place, ea, eb, ec))
                                    continue;
                                /* Ordered through a sync of both lanes in (ec, ea] or (eb, ec]. */
                                int before_issue = 0, after_completion = 0;
                                for (int k = ec + 1; k <= ea; k++)
                                    before_issue |= kinds[k] == 0;
                                for (int k = eb + 1; k <= ec; k++)
                                    after_completion |= kinds[k] == 0;
                                int expected = !before_issue && !after_completion;
                                int raced = copy_races(syncs, open_by_partial_syncwarp, kinds, ea, eb, ec, place, 7u,
                                                       kind ? W : R);
                                cases++;
                                if (raced != expected) {
                                    wrong++;
                                    printf("  syncs %d (%d %d %d), issue in %d, completion in %d, %s in %d (place %d): "
                                           "rules %d, happens-before %d\n",
                                           syncs, kinds[1], kinds[2], kinds[3], ea, eb, kind ? "write" : "read", ec,
                                           place, raced, expected);
                                }
                            }
    CHECK(cases > 1000);
    CHECK_INT(0, wrong);
}

TEST(missing_syncwarp_and_full_mask_fix)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 1, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_MISSING_SYNCWARP, v.cause);

    x = 0;
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    sc_rules_warp_sync(&wclk[0][0], 0xffffffffu, 1);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 1, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 2, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 0, W, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_MISSING_SYNCWARP, v.cause);
}

TEST(partial_mask_orders_only_its_lanes)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    sc_rules_warp_sync(&wclk[0][0], 0x3u, 0);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 1, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 2, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_MISSING_SYNCWARP, v.cause);
}

TEST(tile_sync_is_no_false_alarm)
{
    /* cg::tiled_partition<16>: s[lane] = x; tile.sync(); y = s[lane] + s[lane ^ 1]. */
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    sc_rules_warp_sync(&wclk[0][0], 0xffffu, 0);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 0, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 1, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 15, R, NONE, 0xf), &v));
    sc_rules_warp_sync(&wclk[0][0], 0xffffu, 0);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 7, W, NONE, 0xf), &v));
    /* A lane of the other tile never synchronized with them. */
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 16, R, NONE, 0xf), &v));
}

TEST(unsynchronized_blocks)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 0, R, NONE, 0xf), &v);
    CHECK_INT(SC_RULES_OK, run(&x, mk(1, 0, R, NONE, 0xf), &v));
    sc_rules_block_barrier(&bclk[0], 0x3u);
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 0, W, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_UNSYNCHRONIZED_BLOCKS, v.cause);
    CHECK_INT(0, v.prev_exact); /* the partner is block 1's read, a summarized access */
}

TEST(atomics_vs_plain_and_scope)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 0, AT, GPU, 0xf), &v);
    CHECK_INT(SC_RULES_OK, run(&x, mk(1, 0, AT, GPU, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&x, mk(1, 33, SR, GPU, 0xf), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, mk(1, 0, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_VS_PLAIN, v.cause);

    x = 0; /* atomicAdd_block across blocks */
    run(&x, mk(0, 0, AT, CTA, 0xf), &v);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 40, AT, CTA, 0xf), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, mk(1, 0, AT, GPU, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_SCOPE, v.cause);

    x = 0; /* the narrow scope on the second access */
    run(&x, mk(0, 0, AT, GPU, 0xf), &v);
    CHECK_INT(SC_RULES_RACE, run(&x, mk(1, 0, AT, CTA, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_SCOPE, v.cause);
}

static ScRulesAccess in_clusters(ScRulesAccess a, const ScRulesCluster *c)
{
    a.cluster = c;
    return a;
}

TEST(blocks_of_a_cluster_are_told_by_their_coordinates)
{
    /* A 4 x 3 x 2 grid in clusters of 2 x 3 x 1: block (x, y, z) is x + 4 (y + 3 z). */
    ScRulesCluster c = {.grid_x = 4, .grid_y = 3, .dim_x = 2, .dim_y = 3, .dim_z = 1};
    CHECK_INT(1, sc_rules_same_cluster(&c, 0, 1));     /* (0,0,0) and (1,0,0) */
    CHECK_INT(1, sc_rules_same_cluster(&c, 0, 9));     /* (1,2,0) */
    CHECK_INT(0, sc_rules_same_cluster(&c, 0, 2));     /* (2,0,0): the next cluster along x */
    CHECK_INT(0, sc_rules_same_cluster(&c, 0, 12));    /* (0,0,1): the next along z */
    CHECK_INT(1, sc_rules_same_cluster(&c, 14, 23));   /* (2,0,1) and (3,2,1) */
    CHECK_INT(0, sc_rules_same_cluster(NULL, 0, 1));   /* no clusters: a block is its own */
    CHECK_INT(1, sc_rules_same_cluster(NULL, 5, 5));
}

TEST(cluster_scope_spans_the_blocks_of_its_cluster)
{
    /* Eight blocks in a row, clusters of two: {0, 1}, {2, 3}, ... */
    ScRulesCluster c = {.grid_x = 8, .grid_y = 1, .dim_x = 2, .dim_y = 1, .dim_z = 1};
    const int CLU = SC_SCOPE_CLUSTER;
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, in_clusters(mk(0, 0, AT, CLU, 0xf), &c), &v);
    CHECK_INT(SC_RULES_OK, run(&x, in_clusters(mk(1, 0, AT, CLU, 0xf), &c), &v));
    CHECK_INT(SC_RULES_OK, run(&x, in_clusters(mk(0, 5, SR, CLU, 0xf), &c), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, in_clusters(mk(2, 0, AT, CLU, 0xf), &c), &v));
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_SCOPE, v.cause);

    x = 0; /* a device-scoped atomic meets a cluster-scoped one of its cluster, then of another */
    run(&x, in_clusters(mk(0, 0, AT, CLU, 0xf), &c), &v);
    CHECK_INT(SC_RULES_OK, run(&x, in_clusters(mk(1, 0, AT, GPU, 0xf), &c), &v));
    x = 0;
    run(&x, in_clusters(mk(0, 0, AT, CLU, 0xf), &c), &v);
    CHECK_INT(SC_RULES_RACE, run(&x, in_clusters(mk(3, 0, AT, GPU, 0xf), &c), &v));
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_SCOPE, v.cause);

    x = 0; /* a cta scope stays within its block, in a cluster or not */
    run(&x, in_clusters(mk(0, 0, AT, GPU, 0xf), &c), &v);
    CHECK_INT(SC_RULES_RACE, run(&x, in_clusters(mk(1, 0, AT, CTA, 0xf), &c), &v));
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_SCOPE, v.cause);

    x = 0; /* without clusters, a cluster is its block */
    run(&x, mk(0, 0, AT, CLU, 0xf), &v);
    CHECK_INT(SC_RULES_RACE, run(&x, mk(1, 0, AT, CLU, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_SCOPE, v.cause);

    x = 0; /* the four blocks of one cluster on one counter: the grid's summary too */
    ScRulesCluster four = {.grid_x = 8, .grid_y = 1, .dim_x = 4, .dim_y = 1, .dim_z = 1};
    for (uint32_t round = 0; round < 3; round++)
        for (uint32_t b = 0; b < 4; b++)
            CHECK_INT(SC_RULES_OK, run(&x, in_clusters(mk(b, round, AT, CLU, 0xf), &four), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, in_clusters(mk(4, 0, AT, CLU, 0xf), &four), &v));
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_SCOPE, v.cause);
}

TEST(strong_plain_write_vs_rmw_warns)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 0, AT, GPU, 0xf), &v);
    CHECK_INT(SC_RULES_WARN, run(&x, mk(1, 0, SW, GPU, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_STRONG_VS_RMW, v.cause);
    CHECK_INT(AT, v.prev_cls);
    /* Two volatile writes: morally strong, silent. */
    x = 0;
    run(&x, mk(0, 0, SW, GPU, 0xf), &v);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 40, SW, GPU, 0xf), &v));
}

TEST(mixed_size_strong_pair_races)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 0, AT, GPU, 0x3), &v);
    CHECK_INT(SC_RULES_SPLIT, run(&x, mk(0, 40, AT, GPU, 0xf), &v));
    /* The runtime splits and goes on per byte. */
    uint64_t cell[4], n;
    for (unsigned b = 0; b < 4; b++)
        cell[b] = sc_rules_split_cell(x, b);
    ScRulesAccess a = mk(0, 40, AT, GPU, 0xf);
    CHECK_INT(SC_RULES_RACE, sc_rules_access_cell(cell[0], &a, &n, &v));
    CHECK_INT(SC_RULES_CAUSE_MISSING_BARRIER, v.cause);
    CHECK_INT(SC_RULES_OK, sc_rules_access_cell(cell[2], &a, &n, &v));
}

/* A partner the word summarized away from its recorder is placed, not named: the
 * report must not take the recorder (here the racing thread itself) for it. */
TEST(summarized_partner_is_placed_relative_to_the_recorder)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    CHECK_INT(SC_RULES_OK, run(&x, mk(1, 0, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 0, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 0, W, NONE, 0xf), &v));
    CHECK_INT(R, v.prev_cls);
    CHECK_INT(0, v.prev_exact);
    CHECK_INT(SC_RULES_POS_GRID, v.prev_pos);
    CHECK_INT(0, v.prev_blk);

    x = 0;
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 40, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 3, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 3, W, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_POS_BLOCK, v.prev_pos);

    x = 0; /* the recorder's own access is named, at SELF */
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 3, W, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 40, R, NONE, 0xf), &v));
    CHECK_INT(1, v.prev_exact);
    CHECK_INT(SC_RULES_POS_SELF, v.prev_pos);
}

TEST(bytes_of_different_threads_split_then_stay_exact)
{
    ScRulesVerdict v;
    uint64_t x = 0, cell[4], n;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0x1), &v);
    CHECK_INT(SC_RULES_SPLIT, run(&x, mk(0, 1, W, NONE, 0x2), &v));
    for (unsigned b = 0; b < 4; b++)
        cell[b] = sc_rules_split_cell(x, b);
    ScRulesAccess a = mk(0, 1, W, NONE, 0x2);
    CHECK_INT(SC_RULES_OK, sc_rules_access_cell(cell[1], &a, &n, &v));
    cell[1] = n;
    a = mk(0, 2, R, NONE, 0xf); /* a 4-byte read races with both byte writers */
    CHECK_INT(SC_RULES_RACE, sc_rules_access_cell(cell[0], &a, &n, &v));
    CHECK_INT(0, v.prev_tid);
    CHECK_INT(SC_RULES_RACE, sc_rules_access_cell(cell[1], &a, &n, &v));
    CHECK_INT(1, v.prev_tid);
    CHECK_INT(SC_RULES_OK, sc_rules_access_cell(cell[2], &a, &n, &v));
}

TEST(same_thread_byte_sweep_merges)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    for (unsigned b = 0; b < 4; b++)
        CHECK_INT(SC_RULES_OK, run(&x, mk(0, 9, W, NONE, 1u << b), &v));
    CHECK_INT(0xf, sc_rules_decode(x).mask);
    CHECK_INT(SC_RULES_UNCHANGED, run(&x, mk(0, 9, W, NONE, 0xf), &v));
}

TEST(fast_path_only_when_nothing_changes)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 0, R, NONE, 0xf), &v);
    uint64_t before = x;
    CHECK_INT(SC_RULES_UNCHANGED, run(&x, mk(0, 0, R, NONE, 0xf), &v));
    CHECK(x == before);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 0, W, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_UNCHANGED, run(&x, mk(0, 0, W, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 0, AT, CTA, 0xf), &v));
    CHECK(sc_rules_decode(x).xcta);
    CHECK_INT(SC_RULES_UNCHANGED, run(&x, mk(0, 0, AT, CTA, 0xf), &v));
    /* A new barrier epoch changes the clocks: not the fast path. */
    sc_rules_block_barrier(&bclk[0], 0x3u);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 0, AT, CTA, 0xf), &v));
}

TEST(barrier_counter_wraps)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(SC_RULES_BAR_MOD - 1, SC_RULES_SYNC_MOD - 1);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    sc_rules_block_barrier(&bclk[0], 0x3u); /* 1022 -> 0 */
    CHECK_INT(0, bclk[0].now);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 40, R, NONE, 0xf), &v));
    sc_rules_warp_sync(&wclk[0][1], 0xffffffffu, 1); /* 126 -> 0 */
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 41, W, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 1, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_MISSING_BARRIER, v.cause);
}

TEST(concurrent_strong_read_keeps_the_recorder)
{
    /* Lane 1 stores with st.relaxed; lane 0 polls with ld.relaxed meanwhile; lane 1
     * then reads its own store plainly: no race (the SR bridge the checker found). */
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 1, SW, GPU, 0xf), &v);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 0, SR, GPU, 0xf), &v));
    ScRulesState s = sc_rules_decode(x);
    CHECK_INT(1, s.lane); /* still recorded */
    CHECK_INT(SC_RULES_POS_WARP, s.reach[SR]);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 1, R, NONE, 0xf), &v));
    /* A plain write of lane 1 still races with lane 0's poll. */
    CHECK_INT(SC_RULES_RACE, run(&x, mk(0, 1, W, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_MISSING_SYNCWARP, v.cause);
}

TEST(site_word_names_the_recorders_racing_access)
{
    /* Lane 1: atomic then relaxed store; lane 0's plain read races with both: the
     * word holds them at SELF, the site word says which one lane 1 made last. */
    ScRulesVerdict v;
    uint64_t x = 0, site = 0, n;
    world(0, 0);
    ScRulesAccess a = mk(0, 1, AT, GPU, 0xf);
    sc_rules_access(x, &a, &n, &v);
    x = n;
    a = mk(0, 1, SW, GPU, 0xf);
    CHECK_INT(SC_RULES_OK, sc_rules_access(x, &a, &n, &v));
    x = n;
    CHECK(sc_rules_records(x, &a));
    site = sc_rules_site_next(0, 0, x, &a, 77, 0);
    a = mk(0, 0, R, NONE, 0xf);
    a.hint = site;
    CHECK_INT(SC_RULES_RACE, sc_rules_access(x, &a, &n, &v));
    CHECK_INT(SW, v.prev_cls);
    CHECK_INT(1, v.prev_exact);
    CHECK_INT(SC_RULES_CAUSE_MISSING_SYNCWARP, v.cause);
    CHECK(v.flags & SC_RULES_V_CAUSE_SURE);
    CHECK(sc_rules_site_of(site, SW) == 77);
    /* Without it the atomic, the more telling of the two, is named. */
    a.hint = 0;
    sc_rules_access(x, &a, &n, &v);
    CHECK_INT(AT, v.prev_cls);
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_VS_PLAIN, v.cause);
}

/* Runs one access as the runtime would, with the site word that goes with the word,
 * and writes both back: the access's instruction is `id`. */
static int record(uint64_t *word, uint64_t *site, ScRulesAccess a, uint32_t id, ScRulesVerdict *v)
{
    uint64_t n;
    a.hint = *site;
    int r = sc_rules_access(*word, &a, &n, v);
    *site = sc_rules_site_next(*site, *word, n, &a, id, 0);
    *word = n;
    return r;
}

TEST(strong_write_after_two_blocks_atomics_warns_in_any_order)
{
    /* global_relaxed_store_vs_atomic_race: blocks 2 and 3 atomicOr a flag word, block 0
     * stores it relaxed. After both atomics the word summarizes the first at GRID, which
     * may hold block 0's own; the site word names the recorder's own atomic, certainly
     * another thread's: the warning does not depend on the order of the atomics. */
    for (int order = 0; order < 2; order++) {
        ScRulesVerdict v;
        uint64_t x = 0, site = 0;
        world(0, 0);
        record(&x, &site, mk(order ? 3 : 2, 0, AT, GPU, 0xf), 40, &v);
        record(&x, &site, mk(order ? 2 : 3, 0, AT, GPU, 0xf), 40, &v);
        uint64_t before = site;
        CHECK_INT(SC_RULES_WARN, record(&x, &site, mk(0, 0, SW, GPU, 0xf), 41, &v));
        CHECK_INT(SC_RULES_CAUSE_STRONG_VS_RMW, v.cause);
        CHECK_INT(AT, v.prev_cls);
        CHECK_INT(1, v.prev_exact);
        CHECK(sc_rules_site_of(before, v.prev_cls) == 40);
        /* Without the site word the partner may be block 0's own: withheld, flagged. */
        x = 0;
        run(&x, mk(2, 0, AT, GPU, 0xf), &v);
        run(&x, mk(3, 0, AT, GPU, 0xf), &v);
        CHECK_INT(SC_RULES_OK, run(&x, mk(0, 0, SW, GPU, 0xf), &v));
        CHECK(v.flags & SC_RULES_V_WARN_UNSURE);
    }
}

TEST(site_word_names_a_read_the_recorder_followed_with_an_atomic)
{
    /* Check-then-act: block 4's plain read, then its atomicCAS; block 0's atomicCAS
     * races with the read, which the site word still names beside the atomic. */
    ScRulesVerdict v;
    uint64_t x = 0, site = 0;
    world(0, 0);
    record(&x, &site, mk(4, 0, R, NONE, 0xf), 18, &v);
    CHECK_INT(SC_RULES_OK, record(&x, &site, mk(4, 0, AT, GPU, 0xf), 19, &v));
    uint64_t before = site;
    CHECK_INT(SC_RULES_RACE, record(&x, &site, mk(0, 0, AT, GPU, 0xf), 20, &v));
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_VS_PLAIN, v.cause);
    CHECK_INT(R, v.prev_cls);
    CHECK_INT(1, v.prev_exact);
    CHECK(sc_rules_site_of(before, v.prev_cls) == 18);
}

TEST(cell_of_two_footprints_is_conservative)
{
    /* A 4-byte atomic, a barrier, then a 2-byte one: the byte cell met two footprints,
     * so a later 2-byte atomic of the same half is not taken as morally strong. */
    ScRulesVerdict v;
    uint64_t x = 0, n;
    world(0, 0);
    run(&x, mk(0, 0, AT, GPU, 0xf), &v);
    sc_rules_block_barrier(&bclk[0], 0x3u);
    ScRulesAccess a = mk(0, 40, AT, GPU, 0x3);
    CHECK_INT(SC_RULES_SPLIT, sc_rules_access(x, &a, &n, &v));
    uint64_t cell = sc_rules_split_cell(x, 0);
    CHECK_INT(SC_RULES_OK, sc_rules_access_cell(cell, &a, &n, &v));
    CHECK_INT(0, sc_rules_decode(n).mask);
    cell = n;
    a = mk(0, 0, AT, GPU, 0x3);
    CHECK_INT(SC_RULES_RACE, sc_rules_access_cell(cell, &a, &n, &v));
    CHECK(!(v.flags & SC_RULES_V_CAUSE_SURE));
}

TEST(blocks_that_alias_in_the_word_are_told_apart_by_the_site_word)
{
    /* Thread 0 of block 3 writes; thread 0 of block 3 + 2^14 (same 14 low bits, same
     * clocks) writes later. With the recorder's site word they are other blocks. */
    ScRulesVerdict v;
    uint64_t x = 0, n;
    world(0, 0);
    ScRulesAccess a = mk(3, 0, W, NONE, 0xf);
    uint64_t before = x;
    run(&x, a, &v);
    uint64_t site = sc_rules_site_next(0, before, x, &a, 5, 0);
    a = mk(3 + (1u << SC_RULES_BLK_BITS), 0, W, NONE, 0xf);
    a.hint = site;
    CHECK_INT(SC_RULES_RACE, sc_rules_access(x, &a, &n, &v));
    CHECK_INT(SC_RULES_CAUSE_UNSYNCHRONIZED_BLOCKS, v.cause);
    CHECK_INT(1, v.prev_exact);
    /* The block's own thread stays program-ordered with its access. */
    a = mk(3, 0, R, NONE, 0xf);
    a.hint = site;
    CHECK(sc_rules_access(x, &a, &n, &v) != SC_RULES_RACE);
    /* Without a site word the alias stays (a miss). */
    a = mk(3 + (1u << SC_RULES_BLK_BITS), 0, W, NONE, 0xf);
    CHECK(sc_rules_access(x, &a, &n, &v) != SC_RULES_RACE);
}

TEST(site_word_starts_over_when_the_recorder_passes_a_barrier)
{
    /* Same thread, one barrier apart: its earlier read is no longer its own access at
     * the word's clocks, and the site word stops naming it. */
    ScRulesVerdict v;
    uint64_t x = 0, site = 0;
    world(0, 0);
    record(&x, &site, mk(0, 0, R, NONE, 0xf), 1, &v);
    sc_rules_block_barrier(&bclk[0], 3u);
    record(&x, &site, mk(0, 0, W, NONE, 0xf), 2, &v);
    CHECK(sc_rules_site_of(site, W) == 2);
    CHECK(sc_rules_site_of(site, R) == SC_RULES_SITE_NONE);
}

/* A release of thread tid of block blk as the runtime makes it: a __syncwarp of its
 * lane alone, then the record of that point in its clocks. */
static uint64_t release_of(uint32_t blk, uint32_t tid, int gpu)
{
    ScRulesWarpClk *w = &wclk[blk & 1][(tid >> 5) & 1];
    sc_rules_warp_sync(w, 1u << (tid & 31), 0);
    const ScRulesBlockClk *b = &bclk[blk & 1];
    uint32_t known = b->now;
    for (int x = 0; x < 2; x++)
        if (sc_rules_age(b->now, b->seen[tid >> 5][x], SC_RULES_BAR_MOD) >
            sc_rules_age(b->now, known, SC_RULES_BAR_MOD))
            known = b->seen[tid >> 5][x];
    return sc_rules_release_record(blk, tid, w->now, known, w->floor, gpu ? SC_RULES_SPAN_GPU : SC_RULES_SPAN_BLOCK);
}

static ScRulesAccess acquiring(ScRulesAccess a, const uint64_t *recs, uint32_t n)
{
    a.acq = recs;
    a.n_acq = n;
    return a;
}

TEST(acquired_release_orders_across_blocks)
{
    ScRulesVerdict v;
    uint64_t x = 0, y = 0, z = 0, late = 0;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    run(&y, mk(0, 33, W, NONE, 0xf), &v);  /* another warp, ordered by the barrier below */
    sc_rules_block_barrier(&bclk[0], 0x3u);
    run(&z, mk(0, 1, W, NONE, 0xf), &v);   /* another lane, ordered by nothing */
    uint64_t rec = release_of(0, 0, 1);
    run(&late, mk(0, 0, W, NONE, 0xf), &v); /* after the release */

    uint64_t xr = x;
    CHECK_INT(SC_RULES_RACE, run(&xr, mk(1, 0, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_UNSYNCHRONIZED_BLOCKS, v.cause);
    CHECK_INT(SC_RULES_OK, run(&x, acquiring(mk(1, 0, R, NONE, 0xf), &rec, 1), &v));
    CHECK_INT(SC_RULES_OK, run(&y, acquiring(mk(1, 0, R, NONE, 0xf), &rec, 1), &v));
    CHECK_INT(SC_RULES_RACE, run(&z, acquiring(mk(1, 0, R, NONE, 0xf), &rec, 1), &v));
    CHECK_INT(SC_RULES_RACE, run(&late, acquiring(mk(1, 0, R, NONE, 0xf), &rec, 1), &v));

    /* Back: block 1 releases after its read, and block 0's next write takes it. */
    uint64_t back = release_of(1, 0, 1);
    CHECK_INT(SC_RULES_RACE, run(&(uint64_t){x}, mk(0, 0, W, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&x, acquiring(mk(0, 0, W, NONE, 0xf), &back, 1), &v));
    /* A record of another block's thread covers nothing of this one. */
    CHECK(!sc_rules_release_covers(back, &(ScRulesState){.blk = 0, .warp = 0, .lane = 0}));
}

/* The release of one thread covers what a barrier ordered before it, whatever partial
 * syncs the accessor's warp made (a warp leader's own lock). */
TEST(release_covers_barrier_ordered_accesses_of_other_warps)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    release_of(0, 32, 0); /* warp 1's leader gives a block-scope lock back */
    release_of(1, 32, 0);
    sc_rules_block_barrier(&bclk[0], 0x3u);
    sc_rules_block_barrier(&bclk[1], 0x3u);
    run(&x, mk(0, 32, R, NONE, 0xf), &v);
    run(&x, mk(0, 32, W, NONE, 0xf), &v);
    sc_rules_block_barrier(&bclk[0], 0x3u);
    uint64_t rec = release_of(0, 0, 1);
    CHECK_INT(SC_RULES_OK, run(&x, acquiring(mk(1, 32, R, NONE, 0xf), &rec, 1), &v));
    CHECK_INT(SC_RULES_OK, run(&x, acquiring(mk(1, 32, W, NONE, 0xf), &rec, 1), &v));
}

/* What only an acquired release ordered before the new recorder stays unordered for
 * the recorder's block-mates until they synchronize with it (the exhaustive checker's
 * relay/block+grid found the miss when it became BSYNC). */
TEST(acquired_access_is_not_ordered_for_block_mates)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    uint64_t rec = release_of(0, 0, 1);
    CHECK_INT(SC_RULES_OK, run(&x, acquiring(mk(1, 0, R, NONE, 0xf), &rec, 1), &v));
    CHECK_INT(SC_RULES_RACE, run(&(uint64_t){x}, mk(1, 32, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_RACE, run(&(uint64_t){x}, mk(1, 33, W, NONE, 0xf), &v));
    sc_rules_block_barrier(&bclk[1], 0x3u);
    CHECK_INT(SC_RULES_OK, run(&x, mk(1, 32, W, NONE, 0xf), &v));
}

/* A releaser that reads what it published after its release, with no step of its
 * warp clock since, keeps its write covered for those that take the release (the
 * last block of a grid reduction reads its own total); what it writes after the
 * release stays uncovered. */
TEST(releaser_reading_its_value_again_keeps_it_covered)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    uint64_t rec = release_of(0, 0, 1);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 0, R, NONE, 0xf), &v));
    ScRulesState st = sc_rules_decode(x);
    /* No barrier since the release: what one ordered before the read came before it. */
    CHECK_INT(SC_RULES_COVERS_BEFORE | 1 << SC_RULES_POS_BSYNC, sc_rules_release_covers(rec, &st));
    CHECK_INT(SC_RULES_OK, run(&(uint64_t){x}, acquiring(mk(1, 0, R, NONE, 0xf), &rec, 1), &v));
    CHECK_INT(SC_RULES_RACE, run(&(uint64_t){x}, acquiring(mk(1, 0, W, NONE, 0xf), &rec, 1), &v));
    CHECK_INT(SC_RULES_RACE, run(&(uint64_t){x}, mk(1, 0, R, NONE, 0xf), &v));

    uint64_t y = 0;
    run(&y, mk(0, 0, W, NONE, 0xf), &v);
    rec = release_of(0, 0, 1);
    run(&y, mk(0, 0, W, NONE, 0xf), &v); /* after the release */
    CHECK_INT(SC_RULES_RACE, run(&y, acquiring(mk(1, 0, R, NONE, 0xf), &rec, 1), &v));
}

/* A barrier orders a warp's write before the other warp's read, then the first warp
 * releases: a block that takes the release and reads the word is ordered after the
 * write, which the word keeps as the reader's barrier history (BSYNC), though not
 * after the recorded read itself (a write of the word races with it). A barrier after
 * the release makes the history the release's future. */
TEST(release_after_a_barrier_covers_the_barriers_history)
{
    ScRulesVerdict v;
    uint64_t x = 0;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    sc_rules_block_barrier(&bclk[0], 0x3u);
    uint64_t rec = release_of(0, 0, 1);
    CHECK_INT(SC_RULES_OK, run(&x, mk(0, 32, R, NONE, 0xf), &v));
    ScRulesState st = sc_rules_decode(x);
    CHECK_INT(1 << SC_RULES_POS_BSYNC, sc_rules_release_covers(rec, &st));
    CHECK_INT(SC_RULES_OK, run(&(uint64_t){x}, acquiring(mk(1, 0, R, NONE, 0xf), &rec, 1), &v));
    CHECK_INT(SC_RULES_RACE, run(&(uint64_t){x}, acquiring(mk(1, 0, W, NONE, 0xf), &rec, 1), &v));
    CHECK_INT(SC_RULES_RACE, run(&(uint64_t){x}, mk(1, 0, R, NONE, 0xf), &v));

    uint64_t y = 0;
    world(0, 0);
    run(&y, mk(0, 0, W, NONE, 0xf), &v);
    rec = release_of(0, 0, 1);
    sc_rules_block_barrier(&bclk[0], 0x3u);
    run(&y, mk(0, 32, R, NONE, 0xf), &v);
    st = sc_rules_decode(y);
    CHECK_INT(0, sc_rules_release_covers(rec, &st));
}

/* Blocks 1 and 3 of a cluster add to a word of block 0's shared memory, then every
 * block passes a cluster barrier, whose completing thread of block 3 releases for its
 * block; block 0 reads the word. Block 3's record covers the recorder (its own add),
 * and on shared memory it orders the whole history, block 1's add at GRID included:
 * no shadow swap after the barrier's wait can precede one before an arrive. Not on
 * global memory (other blocks reach it), not without the barrier's mark, and not when
 * the record came before the recorder's access. */
TEST(cluster_barrier_orders_a_shared_words_whole_history)
{
    ScRulesVerdict v;
    world(0, 0);
    uint64_t x = 0;
    CHECK_INT(SC_RULES_OK, run(&x, mk(1, 0, AT, GPU, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&x, mk(3, 0, AT, GPU, 0xf), &v));
    CHECK_INT(SC_RULES_POS_GRID, sc_rules_decode(x).reach[AT]);
    uint64_t rec = release_of(3, 0, 1) | SC_RULES_REC_BARRIER, plain = rec & ~SC_RULES_REC_BARRIER;
    ScRulesAccess reader = acquiring(mk(0, 0, R, NONE, 0xf), &rec, 1);
    reader.shared = 1;
    CHECK_INT(SC_RULES_OK, run(&(uint64_t){x}, reader, &v));
    reader.shared = 0;
    CHECK_INT(SC_RULES_RACE, run(&(uint64_t){x}, reader, &v));
    reader = acquiring(mk(0, 0, R, NONE, 0xf), &plain, 1);
    reader.shared = 1;
    CHECK_INT(SC_RULES_RACE, run(&(uint64_t){x}, reader, &v));
    /* Block 3 adds again after its release: the record no longer covers the recorder. */
    CHECK_INT(SC_RULES_OK, run(&x, mk(3, 0, AT, GPU, 0xf), &v));
    reader = acquiring(mk(0, 0, R, NONE, 0xf), &rec, 1);
    reader.shared = 1;
    CHECK_INT(SC_RULES_RACE, run(&x, reader, &v));

    /* The reader's own add came last: its program order orders only its own history,
     * its block's barrier record the rest. */
    uint64_t y = 0;
    CHECK_INT(SC_RULES_OK, run(&y, mk(1, 0, AT, GPU, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&y, mk(0, 0, AT, GPU, 0xf), &v));
    uint64_t own = release_of(0, 0, 1) | SC_RULES_REC_BARRIER;
    reader = acquiring(mk(0, 0, R, NONE, 0xf), &own, 1);
    CHECK_INT(SC_RULES_RACE, run(&(uint64_t){y}, reader, &v));
    reader.shared = 1;
    CHECK_INT(SC_RULES_OK, run(&y, reader, &v));

    /* Block 0 clears a bin, the cluster barrier, then blocks 1 and 3 add to it: block
     * 1's add, through block 0's record, leaves the clearing write at BSYNC of block 1
     * (every thread of block 1 passed the barrier), where block 3's add, holding block
     * 1's record of the same barrier, finds it ordered (ACQ_BSYNC). At LSYNC it raced. */
    world(0, 0);
    uint64_t z = 0;
    CHECK_INT(SC_RULES_OK, run(&z, mk(0, 0, W, NONE, 0xf), &v));
    sc_rules_block_barrier(&bclk[0], 0x3u);
    sc_rules_block_barrier(&bclk[1], 0x3u);
    uint64_t recs[2] = {release_of(0, 0, 1) | SC_RULES_REC_BARRIER, release_of(1, 0, 1) | SC_RULES_REC_BARRIER};
    CHECK_INT(SC_RULES_OK, run(&z, acquiring(mk(1, 32, AT, GPU, 0xf), recs, 2), &v));
    CHECK_INT(SC_RULES_POS_BSYNC, sc_rules_decode(z).reach[W]);
    CHECK_INT(SC_RULES_OK, run(&z, acquiring(mk(3, 0, AT, GPU, 0xf), recs, 2), &v));
    /* Block 3's add took the clearing write through block 1's record, which covers the
     * BSYNC position only (its recorder came after the barrier): BSYNC again, so that
     * block 0's own add, holding block 3's record of the barrier, finds it ordered. */
    CHECK_INT(SC_RULES_POS_BSYNC, sc_rules_decode(z).reach[W]);
    uint64_t all3[3] = {recs[0], recs[1], release_of(3, 0, 1) | SC_RULES_REC_BARRIER};
    CHECK_INT(SC_RULES_OK, run(&z, acquiring(mk(0, 32, AT, GPU, 0xf), all3, 3), &v));
    /* The same with releases that are no barrier's. */
    world(0, 0);
    z = 0;
    run(&z, mk(0, 0, W, NONE, 0xf), &v);
    sc_rules_block_barrier(&bclk[0], 0x3u);
    sc_rules_block_barrier(&bclk[1], 0x3u);
    uint64_t fences[2] = {release_of(0, 0, 1), release_of(1, 0, 1)};
    CHECK_INT(SC_RULES_OK, run(&z, acquiring(mk(1, 32, AT, GPU, 0xf), fences, 2), &v));
    CHECK_INT(SC_RULES_POS_LSYNC, sc_rules_decode(z).reach[W]);
    CHECK_INT(SC_RULES_RACE, run(&z, acquiring(mk(3, 0, AT, GPU, 0xf), fences, 2), &v));
}

/* The quick decision agrees with the rules wherever it decides: every word over the
 * classes' positions (each position for the weak classes, NONE/SELF/BSYNC/GRID for the
 * strong ones), two footprints, xcta, two tiles, and a recorder that is this thread,
 * another lane, another warp or another block, at this thread's clocks or one instance
 * older, met by a weak read or write of the whole word at uniform clocks. It decides
 * the common steps of barrier-ordered code (an empty word, a word barrier-ordered
 * before, this thread again) and none with rows, acquisitions or a trail. */
TEST(quick_decisions_agree_with_the_rules)
{
    static const uint8_t strong_pos[] = {SC_RULES_POS_NONE, SC_RULES_POS_SELF, SC_RULES_POS_BSYNC,
                                         SC_RULES_POS_GRID};
    const uint16_t bar = 7, sync = 5;
    ScRulesAccess acc[2];
    for (int k = 0; k < 2; k++) {
        acc[k] = mk(0, 0, k ? W : R, NONE, 0xf);
        acc[k].bar_now = acc[k].bar_own = bar;
        acc[k].sync_now = acc[k].sync_floor = sync;
        acc[k].bar_seen = NULL;
        acc[k].sync_seen = NULL;
    }
    unsigned long decided = 0, disagreements = 0;
    for (uint32_t reach = 0; reach < 8u * 8u * 4u * 4u * 4u; reach++) {
        ScRulesState s;
        s.reach[SC_RULES_CLS_READ] = (uint8_t)(reach & 7u);
        s.reach[SC_RULES_CLS_WRITE] = (uint8_t)((reach >> 3) & 7u);
        s.reach[SC_RULES_CLS_SREAD] = strong_pos[(reach >> 6) & 3u];
        s.reach[SC_RULES_CLS_SWRITE] = strong_pos[(reach >> 8) & 3u];
        s.reach[SC_RULES_CLS_ATOMIC] = strong_pos[(reach >> 10) & 3u];
        for (uint32_t v = 0; v < 256; v++) {
            s.mask = v & 1u ? 0x3u : 0xfu;
            s.xcta = (uint8_t)((v >> 1) & 1u);
            s.tile = (uint8_t)((v >> 2) & 1u ? 5u : 0u);
            s.lane = (uint8_t)((v >> 3) & 1u);
            s.warp = (uint8_t)((v >> 4) & 1u);
            s.blk = (uint16_t)((v >> 5) & 1u);
            s.bar = (uint16_t)((v >> 6) & 1u ? bar - 1u : bar);
            s.sync = (uint16_t)((v >> 7) & 1u ? sync - 1u : sync);
            uint64_t old = sc_rules_encode(&s);
            for (int k = 0; k < 2; k++) {
                uint64_t quick, full;
                ScRulesVerdict verdict;
                if (!sc_rules_quick(old, &acc[k], &quick))
                    continue;
                decided++;
                int r = sc_rules_access(old, &acc[k], &full, &verdict);
                if ((r != SC_RULES_OK && r != SC_RULES_UNCHANGED) || full != quick)
                    disagreements++;
            }
        }
    }
    CHECK(disagreements == 0);
    CHECK(decided > 10000);

    /* The steps it exists for. */
    uint64_t x = 0, n;
    ScRulesVerdict verdict;
    CHECK(sc_rules_quick(0, &acc[1], &n) && n != 0);
    x = n;
    CHECK(sc_rules_quick(x, &acc[1], &n) && n == x); /* the same thread again */
    ScRulesAccess other = acc[0];
    other.tid = 40;
    CHECK(!sc_rules_quick(x, &other, &n)); /* another warp in the epoch: a race */
    CHECK_INT(SC_RULES_RACE, sc_rules_access(x, &other, &n, &verdict));
    other.bar_now = other.bar_own = bar + 1; /* after a barrier */
    CHECK(sc_rules_quick(x, &other, &n) && n != x);
    /* Readers of other warps in the epoch after: the second changes the word, the
     * third joins the reads and leaves it as it is. */
    uint64_t y;
    other.tid = 64;
    CHECK(sc_rules_quick(n, &other, &y) && y != n);
    other.tid = 96;
    CHECK(sc_rules_quick(y, &other, &x) && x == y);
    ScRulesAccess partial = acc[0];
    partial.sync_floor = sync - 1; /* a partial __syncwarp since the last full one */
    CHECK(!sc_rules_quick(x, &partial, &n));
    ScRulesAccess trailed = other;
    trailed.hint = SC_RULES_SITE_TRAIL;
    CHECK(!sc_rules_quick(x, &trailed, &n));
}

/* Warps 0 and 1 read a word that a barrier ordered their write before: the second
 * read hands the word over and puts the first at BLOCK. Warp 2's read, in the same
 * barrier epoch, then leaves the word as it is (READ_JOINS), and warp 3's write still
 * races with the reads. Another block's read of a word only read so far joins the
 * reads at GRID the same way once another block read it. */
TEST(reads_of_other_warps_join_a_history_of_reads)
{
    ScRulesVerdict v;
    uint64_t x = 0, y = 0, before;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    sc_rules_block_barrier(&bclk[0], 0xfu);
    ScRulesAccess a[4];
    for (int w = 0; w < 4; w++) {
        a[w] = mk(0, (uint32_t)w * 32, w == 3 ? W : R, NONE, 0xf);
        a[w].bar_seen = NULL; /* every barrier so far block-wide, as the runtime passes it */
    }
    CHECK_INT(SC_RULES_OK, run(&x, a[0], &v));
    CHECK_INT(SC_RULES_OK, run(&x, a[1], &v));
    CHECK_INT(SC_RULES_POS_BLOCK, sc_rules_decode(x).reach[R]);
    before = x;
    CHECK_INT(SC_RULES_UNCHANGED, run(&x, a[2], &v));
    CHECK(x == before);
    CHECK_INT(SC_RULES_RACE, run(&x, a[3], &v));

    CHECK_INT(SC_RULES_OK, run(&y, mk(0, 0, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&y, mk(1, 0, R, NONE, 0xf), &v));
    CHECK_INT(SC_RULES_POS_GRID, sc_rules_decode(y).reach[R]);
    before = y;
    CHECK_INT(SC_RULES_UNCHANGED, run(&y, mk(0, 32, R, NONE, 0xf), &v));
    CHECK(y == before);
    CHECK_INT(SC_RULES_RACE, run(&y, mk(1, 32, W, NONE, 0xf), &v));
}

/* Atomics join atomics (ATOMIC_JOINS) as reads join reads: warps 0 and 1 of a block
 * increment a counter, and warp 2's increment leaves the word as it is while warp
 * 3's weak read still races with them; a cta-scoped increment joins only once xcta
 * is set. Across blocks a gpu-scoped increment joins atomics that lie at GRID, a
 * cta-scoped one does not (it races with them: atomic_scope). */
TEST(atomics_of_other_warps_join_a_history_of_atomics)
{
    ScRulesVerdict v;
    uint64_t x = 0, y = 0, before;
    world(0, 0);
    ScRulesAccess a[4];
    for (int w = 0; w < 4; w++) {
        a[w] = mk(0, (uint32_t)w * 32, w == 3 ? R : AT, w == 3 ? NONE : GPU, 0xf);
        a[w].bar_seen = NULL;
    }
    CHECK_INT(SC_RULES_OK, run(&x, a[0], &v));
    CHECK_INT(SC_RULES_OK, run(&x, a[1], &v));
    CHECK_INT(SC_RULES_POS_BLOCK, sc_rules_decode(x).reach[AT]);
    before = x;
    CHECK_INT(SC_RULES_UNCHANGED, run(&x, a[2], &v));
    CHECK(x == before);
    ScRulesAccess cta = a[2];
    cta.scope = CTA;
    CHECK_INT(SC_RULES_OK, run(&x, cta, &v));
    CHECK(sc_rules_decode(x).xcta);
    before = x;
    cta.tid = 64 + 1;
    CHECK_INT(SC_RULES_OK, run(&x, cta, &v)); /* the recorder's own warp: recorded */
    cta = a[1];
    cta.scope = CTA;
    before = x;
    CHECK_INT(SC_RULES_UNCHANGED, run(&x, cta, &v));
    CHECK(x == before);
    CHECK_INT(SC_RULES_RACE, run(&x, a[3], &v));
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_VS_PLAIN, v.cause);

    CHECK_INT(SC_RULES_OK, run(&y, mk(0, 0, AT, GPU, 0xf), &v));
    CHECK_INT(SC_RULES_OK, run(&y, mk(1, 0, AT, GPU, 0xf), &v));
    CHECK_INT(SC_RULES_POS_GRID, sc_rules_decode(y).reach[AT]);
    before = y;
    CHECK_INT(SC_RULES_UNCHANGED, run(&y, mk(0, 32, AT, GPU, 0xf), &v));
    CHECK_INT(SC_RULES_UNCHANGED, run(&y, mk(2, 0, AT, GPU, 0xf), &v));
    CHECK(y == before);
    CHECK_INT(SC_RULES_RACE, run(&y, mk(2, 32, AT, CTA, 0xf), &v));
    CHECK_INT(SC_RULES_CAUSE_ATOMIC_SCOPE, v.cause);
}

/* sc_rules_holds_at against the decoded word, over every combination of positions
 * (with the other fields set, so that they must be masked off). */
TEST(holds_at_finds_a_position_among_the_classes)
{
    for (uint32_t combo = 0; combo < 1u << (SC_RULES_POS_BITS * SC_RULES_NCLS); combo++) {
        uint64_t w = ~SC_RULES_REACH_FIELD | (uint64_t)combo << SC_RULES_REACH_SHIFT;
        ScRulesState st = sc_rules_decode(w);
        for (unsigned p = 0; p <= SC_RULES_POS_GRID; p++) {
            int held = 0;
            for (int c = 0; c < SC_RULES_NCLS; c++)
                held |= st.reach[c] == p;
            CHECK_INT(held, sc_rules_holds_at(w, p));
        }
    }
}

/* The classes of the word trail t led to that access a may take as ordered, judged as
 * the runtime judges them (trail_judge), and in *partner the read the trail names. */
static unsigned trail_classes_naming(const ScRulesTrail *t, ScRulesAccess a, uint64_t *partner)
{
    unsigned after_ordered;
    int before_ordered = trail_judge(t, &a, &after_ordered);
    if (partner)
        *partner = sc_rules_trail_partner(t, SC_RULES_CLS_READ, before_ordered, after_ordered);
    return sc_rules_trail_classes(t, before_ordered, after_ordered);
}

static unsigned trail_classes(const ScRulesTrail *t, ScRulesAccess a)
{
    return trail_classes_naming(t, a, NULL);
}

/* Runs access a on word x and adds it to trail t, as the runtime does for a word whose
 * trail goes on. */
static int run_trailed(uint64_t *x, ScRulesTrail *t, ScRulesAccess a, ScRulesVerdict *v)
{
    static uint32_t site;
    uint64_t old = *x;
    int r = run(x, a, v);
    if (*x != old)
        sc_rules_trail_add(t, sc_rules_stamp(&a, ++site));
    return r;
}

/* Rule 110's border cell: lane 0 of block 0's warp writes it, a full __syncwarp, lane 0
 * releases; after the next full __syncwarp lanes 1 and 0 read it (their clocks order
 * the write) and put it at WSYNC of the reader, where the release, made before those
 * reads, covers nothing. The neighbour in block 1 took the release and reads the cell:
 * the word alone says it races; its trail, begun at the first lane's read (the writer
 * had released since its write), orders the write through the release. Then the
 * neighbour releases, lane 0 takes that release and writes the cell again: the reads
 * of its own lanes sit at GRID of the neighbour's read, and the trail orders them
 * through its clocks and the neighbour's read through the release. A thread of block
 * 1 that took nothing is ordered by neither. */
TEST(trail_orders_a_border_cell_its_owners_read_before_the_neighbour)
{
    ScRulesVerdict v;
    uint64_t x = 0, n;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    sc_rules_warp_sync(&wclk[0][0], 0x3u, 1);
    uint64_t rec = release_of(0, 0, 1);
    sc_rules_warp_sync(&wclk[0][0], 0x3u, 1);
    ScRulesState st = sc_rules_decode(x);
    CHECK_INT(SC_RULES_COVERS_ALL, sc_rules_release_covers(rec, &st));
    ScRulesTrail t = {x, 0, {0}, 0, 0};
    CHECK_INT(SC_RULES_OK, run_trailed(&x, &t, mk(0, 1, R, NONE, 0xf), &v));
    CHECK(sc_rules_restated(x));
    CHECK_INT(SC_RULES_OK, run_trailed(&x, &t, mk(0, 0, R, NONE, 0xf), &v));
    ScRulesAccess neighbour = acquiring(mk(1, 31, R, NONE, 0xf), &rec, 1);
    CHECK_INT(SC_RULES_RACE, sc_rules_access(x, &neighbour, &n, &v));
    unsigned classes = trail_classes(&t, neighbour);
    CHECK(classes & (1u << W));
    CHECK(!(classes & (1u << R)));
    ScRulesAccess idle = mk(1, 30, R, NONE, 0xf);
    CHECK(!(trail_classes(&t, idle) & (1u << W)));
    neighbour.moved = (uint8_t)classes;
    CHECK_INT(SC_RULES_OK, run_trailed(&x, &t, neighbour, &v));
    CHECK_INT(3u, t.n_after);

    uint64_t back = release_of(1, 31, 1);
    sc_rules_warp_sync(&wclk[0][0], 0x3u, 1);
    ScRulesAccess owner = acquiring(mk(0, 0, W, NONE, 0xf), &back, 1);
    CHECK_INT(SC_RULES_RACE, sc_rules_access(x, &owner, &n, &v));
    classes = trail_classes(&t, owner);
    CHECK(classes & (1u << R));
    owner.moved = (uint8_t)classes;
    CHECK_INT(SC_RULES_OK, run(&x, owner, &v));
    /* Without the release, the neighbour's read is not ordered before the owner's
     * write, and the trail names it (the word summarizes it at GRID). */
    uint64_t partner = 0;
    CHECK(!(trail_classes_naming(&t, mk(0, 0, W, NONE, 0xf), &partner) & (1u << R)));
    CHECK_INT(R, sc_rules_stamp_cls(partner));
    CHECK_INT(31u, (uint32_t)((partner >> SC_RULES_LANE_SHIFT) & 31u));
    CHECK_INT(1u, (uint32_t)((partner >> SC_RULES_BLK_SHIFT) & 0x3fffu));
}

/* The last block of a grid reduction: its thread writes the total, releases, stores
 * the flag, releases again (waiting for its own flag with a fence) and reads the
 * total, before block 1, which took the first release, reads it. The reread put the
 * write at LSYNC of the writer's newer clock, which the first release does not cover;
 * the trail the reread began (its thread had released since the write) orders it. */
TEST(trail_orders_a_write_its_releaser_reread_past_a_later_release)
{
    ScRulesVerdict v;
    uint64_t x = 0, n;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    uint64_t first = release_of(0, 0, 1);
    uint64_t second = release_of(0, 0, 1);
    ScRulesState st = sc_rules_decode(x);
    CHECK_INT(SC_RULES_COVERS_ALL, sc_rules_release_covers(second, &st));
    ScRulesTrail t = {x, 0, {0}, 0, 0};
    CHECK_INT(SC_RULES_OK, run_trailed(&x, &t, mk(0, 0, R, NONE, 0xf), &v));
    CHECK(sc_rules_restated(x));
    ScRulesAccess reader = acquiring(mk(1, 0, R, NONE, 0xf), &first, 1);
    CHECK_INT(SC_RULES_RACE, sc_rules_access(x, &reader, &n, &v));
    reader.moved = (uint8_t)trail_classes(&t, reader);
    CHECK(reader.moved & (1u << W));
    CHECK_INT(SC_RULES_OK, run(&x, reader, &v));
}

/* Second readers: blocks 1, 3 and 2 take one release of block 0 and read its write.
 * The word keeps one recorder, so the second is not ordered after the write the first
 * one's read left at LSYNC; the trail the first read began orders it, and the third.
 * A writer that took the release still races with the readers, a reader that took
 * nothing is not ordered, and a trail that is full begins again at the word as it is. */
TEST(trail_orders_second_readers_of_a_release)
{
    ScRulesVerdict v;
    uint64_t x = 0, n;
    world(0, 0);
    run(&x, mk(0, 0, W, NONE, 0xf), &v);
    uint64_t rec = release_of(0, 0, 1);
    ScRulesTrail t = {x, 0, {0}, 0, 0};
    CHECK_INT(SC_RULES_OK, run_trailed(&x, &t, acquiring(mk(1, 0, R, NONE, 0xf), &rec, 1), &v));
    CHECK(sc_rules_restated(x));
    ScRulesAccess second = acquiring(mk(3, 0, R, NONE, 0xf), &rec, 1);
    CHECK_INT(SC_RULES_RACE, sc_rules_access(x, &second, &n, &v));
    second.moved = (uint8_t)trail_classes(&t, second);
    CHECK(second.moved & (1u << W));
    CHECK(!(trail_classes(&t, mk(3, 32, R, NONE, 0xf)) & (1u << W)));
    ScRulesAccess writer = acquiring(mk(3, 0, W, NONE, 0xf), &rec, 1);
    writer.moved = (uint8_t)trail_classes(&t, writer);
    CHECK(!(writer.moved & (1u << R)));
    CHECK_INT(SC_RULES_RACE, sc_rules_access(x, &writer, &n, &v));
    CHECK_INT(SC_RULES_OK, run_trailed(&x, &t, second, &v));
    ScRulesAccess third = acquiring(mk(2, 0, R, NONE, 0xf), &rec, 1);
    third.moved = (uint8_t)trail_classes(&t, third);
    CHECK(third.moved & (1u << W));
    CHECK_INT(SC_RULES_OK, run_trailed(&x, &t, third, &v));
    CHECK_INT(3u, t.n_after);
    /* A fourth reader fills the trail: the first reader's read is lost, its class
     * kept; a fifth reader still finds the write ordered, a writer not the reads. */
    ScRulesAccess fourth = acquiring(mk(4, 0, R, NONE, 0xf), &rec, 1);
    fourth.moved = (uint8_t)trail_classes(&t, fourth);
    CHECK_INT(SC_RULES_OK, run_trailed(&x, &t, fourth, &v));
    CHECK_INT(1u << R, t.lost);
    CHECK(trail_classes(&t, acquiring(mk(5, 0, R, NONE, 0xf), &rec, 1)) & (1u << W));
    CHECK(!(trail_classes(&t, acquiring(mk(5, 0, W, NONE, 0xf), &rec, 1)) & (1u << R)));
}

/* The prerequisite grid's history of a word against a dependent grid's access made
 * before griddepcontrol.wait: every access of that history is unordered with it. One
 * or two accesses of the first grid (one thread, or two blocks where they do not race
 * there), every class and scope, whole words and halves; the second grid's access
 * likewise. Expected: a race where some access of the history conflicts with it and is
 * not morally strong with it (both strong, both scopes .gpu, the same bytes). The only
 * miss allowed is the documented one: a .cta strong read that is not the recorder's
 * latest read, whose scope the site word no longer keeps. */
struct prior_access {
    int cls, scope;
    unsigned mask;
};

static int prior_conflicts(struct prior_access p, struct prior_access c)
{
    int strong_p = p.cls != R && p.cls != W, strong_c = c.cls != R && c.cls != W;
    if (!(p.mask & c.mask) || ((p.cls == R || p.cls == SR) && (c.cls == R || c.cls == SR)))
        return 0;
    return !(strong_p && strong_c && p.scope == GPU && c.scope == GPU && p.mask == c.mask);
}

TEST(prerequisite_grid_races_every_access_before_the_wait)
{
    static const struct prior_access kinds[] = {
        {R, NONE, 0xf}, {W, NONE, 0xf}, {SR, CTA, 0xf}, {SR, GPU, 0xf}, {SW, CTA, 0xf},
        {SW, GPU, 0xf}, {AT, CTA, 0xf}, {AT, GPU, 0xf}, {W, NONE, 0x3}, {AT, GPU, 0x3},
        {R, NONE, 0xc},
    };
    const int n = (int)(sizeof kinds / sizeof kinds[0]);
    int checked = 0, races = 0, misses = 0;
    for (int i = 0; i < n; i++)
        for (int j = -1; j < n; j++)
            for (int other = 0; other < 2; other++) {
                if (j < 0 && other)
                    continue;
                ScRulesVerdict v;
                uint64_t x = 0, site = 0;
                world(0, 0);
                record(&x, &site, mk(0, 0, kinds[i].cls, kinds[i].scope, kinds[i].mask), 7, &v);
                if (j >= 0) {
                    int r = record(&x, &site, mk(other, 0, kinds[j].cls, kinds[j].scope, kinds[j].mask), 8, &v);
                    if (r != SC_RULES_OK || sc_rules_is_split(x))
                        continue;
                }
                for (int k = 0; k < n; k++) {
                    ScRulesAccess a = mk(1, 33, kinds[k].cls, kinds[k].scope, kinds[k].mask);
                    int got = sc_rules_prior_race(x, site, &a, 0);
                    int want = prior_conflicts(kinds[i], kinds[k]) || (j >= 0 && prior_conflicts(kinds[j], kinds[k]));
                    checked++;
                    races += got >= 0;
                    if (got >= 0) {
                        CHECK(want);
                        CHECK(sc_rules_reach(x, got) != SC_RULES_POS_NONE);
                        continue;
                    }
                    if (!want)
                        continue;
                    /* A miss: only a first-grid .cta strong read the site word no longer names. */
                    int cta_read = (kinds[i].cls == SR && kinds[i].scope == CTA && prior_conflicts(kinds[i], kinds[k])) ||
                                   (j >= 0 && kinds[j].cls == SR && kinds[j].scope == CTA &&
                                    prior_conflicts(kinds[j], kinds[k]));
                    CHECK(cta_read);
                    misses++;
                }
            }
    printf("  %d checks, %d races, %d misses of a .cta strong read\n", checked, races, misses);
    CHECK(races > 0);

    /* The partner is named: block 1's weak write, then its own read of the word; a
     * read of the dependent grid races with the write, which the site word keeps. */
    ScRulesVerdict v;
    uint64_t x = 0, site = 0;
    world(0, 0);
    record(&x, &site, mk(1, 5, W, NONE, 0xf), 30, &v);
    record(&x, &site, mk(1, 5, R, NONE, 0xf), 31, &v);
    ScRulesAccess a = mk(0, 0, R, NONE, 0xf);
    CHECK_INT(W, sc_rules_prior_race(x, site, &a, 0));
    CHECK(sc_rules_site_of(site, W) == 30);
    /* Disjoint bytes of the word do not conflict; an empty word has no history. */
    x = 0;
    record(&x, &site, mk(1, 5, W, NONE, 0x3), 32, &v);
    a = mk(0, 0, W, NONE, 0xc);
    CHECK_INT(-1, sc_rules_prior_race(x, site, &a, 0));
    CHECK_INT(-1, sc_rules_prior_race(0, 0, &a, 0));
    /* Byte cells of a split word: the cell of a byte the write covered races, the
     * cell of one it did not is empty. */
    a = mk(0, 0, R, NONE, 0x5);
    CHECK_INT(W, sc_rules_prior_race(sc_rules_split_cell(x, 0), site, &a, 1));
    CHECK_INT(-1, sc_rules_prior_race(sc_rules_split_cell(x, 2), site, &a, 1));
}

int main(void)
{
    RUN(layout_round_trip_at_limits);
    RUN(prerequisite_grid_races_every_access_before_the_wait);
    RUN(split_marker_and_site_word);
    RUN(counters_wrap_at_odd_period);
    RUN(clock_helpers_join_and_floor);
    RUN(missing_barrier_and_its_fix);
    RUN(async_copy_write_races_until_its_completion);
    RUN(async_copy_checks_agree_with_happens_before);
    RUN(async_copy_checks_agree_with_happens_before_under_partial_masks);
    RUN(missing_syncwarp_and_full_mask_fix);
    RUN(partial_mask_orders_only_its_lanes);
    RUN(tile_sync_is_no_false_alarm);
    RUN(unsynchronized_blocks);
    RUN(atomics_vs_plain_and_scope);
    RUN(blocks_of_a_cluster_are_told_by_their_coordinates);
    RUN(cluster_scope_spans_the_blocks_of_its_cluster);
    RUN(strong_plain_write_vs_rmw_warns);
    RUN(strong_write_after_two_blocks_atomics_warns_in_any_order);
    RUN(mixed_size_strong_pair_races);
    RUN(summarized_partner_is_placed_relative_to_the_recorder);
    RUN(bytes_of_different_threads_split_then_stay_exact);
    RUN(same_thread_byte_sweep_merges);
    RUN(fast_path_only_when_nothing_changes);
    RUN(barrier_counter_wraps);
    RUN(concurrent_strong_read_keeps_the_recorder);
    RUN(site_word_names_the_recorders_racing_access);
    RUN(cell_of_two_footprints_is_conservative);
    RUN(blocks_that_alias_in_the_word_are_told_apart_by_the_site_word);
    RUN(site_word_starts_over_when_the_recorder_passes_a_barrier);
    RUN(site_word_names_a_read_the_recorder_followed_with_an_atomic);
    RUN(acquired_release_orders_across_blocks);
    RUN(release_covers_barrier_ordered_accesses_of_other_warps);
    RUN(acquired_access_is_not_ordered_for_block_mates);
    RUN(releaser_reading_its_value_again_keeps_it_covered);
    RUN(release_after_a_barrier_covers_the_barriers_history);
    RUN(cluster_barrier_orders_a_shared_words_whole_history);
    RUN(quick_decisions_agree_with_the_rules);
    RUN(reads_of_other_warps_join_a_history_of_reads);
    RUN(atomics_of_other_warps_join_a_history_of_atomics);
    RUN(holds_at_finds_a_position_among_the_classes);
    RUN(trail_orders_a_write_its_releaser_reread_past_a_later_release);
    RUN(trail_orders_second_readers_of_a_release);
    RUN(trail_orders_a_border_cell_its_owners_read_before_the_neighbour);
    return TEST_REPORT();
}
