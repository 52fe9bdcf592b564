/* test_report.c: the report model, suppressions, escaping and the golden report files. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report.h"
#include "sc_golden.h"
#include "sc_test.h"

#define GOLDEN_DIR "tests/golden/report"

/* ---- a JSON syntax checker (RFC 8259), independent of the emitter ---- */

typedef struct Json {
    const char *p, *end;
    const char *error; /* first problem found */
    int depth;
} Json;

static bool jfail(Json *j, const char *what)
{
    if (!j->error)
        j->error = what;
    return false;
}

static void jspace(Json *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t'))
        j->p++;
}

static bool jlit(Json *j, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n) != 0)
        return jfail(j, "bad literal");
    j->p += n;
    return true;
}

static bool jhex4(Json *j, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++, j->p++) {
        if (j->p >= j->end)
            return jfail(j, "short \\u escape");
        char c = *j->p;
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16;
        if (d == 16)
            return jfail(j, "bad \\u escape");
        *v = *v * 16 + d;
    }
    return true;
}

static bool jstring(Json *j)
{
    j->p++; /* the opening quote */
    while (j->p < j->end) {
        unsigned char c = (unsigned char)*j->p;
        if (c == '"') {
            j->p++;
            return true;
        }
        if (c < 0x20)
            return jfail(j, "raw control character in a string");
        if (c == '\\') {
            j->p++;
            if (j->p >= j->end)
                return jfail(j, "unterminated escape");
            char e = *j->p;
            if (e == 'u') {
                j->p++;
                unsigned v;
                if (!jhex4(j, &v))
                    return false;
                if (v >= 0xd800 && v <= 0xdbff) { /* a surrogate pair needs its second half */
                    if (!jlit(j, "\\u") || !jhex4(j, &v) || v < 0xdc00 || v > 0xdfff)
                        return jfail(j, "lone high surrogate");
                } else if (v >= 0xdc00 && v <= 0xdfff) {
                    return jfail(j, "lone low surrogate");
                }
                continue;
            }
            if (!strchr("\"\\/bfnrt", e))
                return jfail(j, "bad escape");
            j->p++;
            continue;
        }
        size_t n = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
        if (!n || c > 0xf4 || (size_t)(j->end - j->p) < n)
            return jfail(j, "invalid UTF-8");
        for (size_t i = 1; i < n; i++) {
            if (((unsigned char)j->p[i] & 0xc0) != 0x80)
                return jfail(j, "invalid UTF-8");
        }
        unsigned char c1 = (unsigned char)j->p[1];
        if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 >= 0xa0) || (c == 0xf0 && c1 < 0x90) ||
            (c == 0xf4 && c1 >= 0x90))
            return jfail(j, "overlong, surrogate or out-of-range UTF-8");
        j->p += n;
    }
    return jfail(j, "unterminated string");
}

static bool jdigits(Json *j)
{
    const char *s = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
        j->p++;
    return j->p > s || jfail(j, "digits expected");
}

static bool jnumber(Json *j)
{
    if (*j->p == '-')
        j->p++;
    if (j->p < j->end && *j->p == '0')
        j->p++;
    else if (!jdigits(j))
        return false;
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (!jdigits(j))
            return false;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
            j->p++;
        if (!jdigits(j))
            return false;
    }
    return true;
}

static bool jvalue(Json *j);

static bool jcontainer(Json *j, char close, bool object)
{
    if (++j->depth > 64)
        return jfail(j, "nested too deeply");
    j->p++;
    jspace(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        j->depth--;
        return true;
    }
    for (;;) {
        jspace(j);
        if (object) {
            if (j->p >= j->end || *j->p != '"')
                return jfail(j, "object key expected");
            if (!jstring(j))
                return false;
            jspace(j);
            if (j->p >= j->end || *j->p != ':')
                return jfail(j, "':' expected");
            j->p++;
        }
        if (!jvalue(j))
            return false;
        jspace(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            j->depth--;
            return true;
        }
        return jfail(j, "',' or closing bracket expected");
    }
}

static bool jvalue(Json *j)
{
    jspace(j);
    if (j->p >= j->end)
        return jfail(j, "value expected");
    switch (*j->p) {
    case '{':
        return jcontainer(j, '}', true);
    case '[':
        return jcontainer(j, ']', false);
    case '"':
        return jstring(j);
    case 't':
        return jlit(j, "true");
    case 'f':
        return jlit(j, "false");
    case 'n':
        return jlit(j, "null");
    default:
        if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
            return jnumber(j);
        return jfail(j, "value expected");
    }
}

/* NULL when text is one valid JSON document, else what is wrong with it. */
static const char *json_error(const char *text, size_t len)
{
    Json j = {.p = text, .end = text + len};
    if (jvalue(&j)) {
        jspace(&j);
        if (j.p != j.end)
            jfail(&j, "text after the document");
    }
    return j.error;
}

#define CHECK_JSON(buf)                                                        \
    do {                                                                       \
        const char *why_ = json_error((buf)->data ? (buf)->data : "",          \
                                      (buf)->len);                             \
        if (why_) {                                                            \
            printf("%s:%d: invalid JSON: %s\n", __FILE__, __LINE__, why_);     \
            sc_test_checks_failed++;                                           \
        }                                                                      \
    } while (0)

/* ---- helpers building reports in code ---- */

typedef struct Allocs {
    ScReportAlloc v[8];
    size_t n;
} Allocs;

static bool find_alloc(void *ctx, uint64_t addr, ScReportAlloc *out)
{
    const Allocs *a = ctx;
    for (size_t i = 0; i < a->n; i++) {
        if (addr >= a->v[i].base && addr - a->v[i].base < a->v[i].size) {
            *out = a->v[i];
            return true;
        }
    }
    return false;
}

static ScReport *new_report(unsigned print_limit, ScSeverity level)
{
    ScReportConfig cfg;
    sc_report_config_init(&cfg, 7);
    cfg.version = "0.1.0";
    cfg.print_limit = print_limit;
    cfg.min_severity = level;
    ScReport *r = sc_report_new(&cfg);
    CHECK(r != NULL);
    return r;
}

static void add_site(ScReport *r, uint32_t id, const char *fn, const char *file, uint32_t line)
{
    ScReportFrame f = {.file = file, .line = line, .column = 1};
    ScReportSite s = {.ptx_function = fn, .ptx_line = 100 + id, .frames = &f, .n_frames = 1};
    ScErr err = {0};
    CHECK(sc_report_add_site(r, id, &s, &err));
}

static ScRaceRecord shared_race(ScCause cause, uint32_t cur_site, uint32_t prev_site,
                                uint32_t cur_tid, uint32_t prev_tid)
{
    return (ScRaceRecord){
        .address = 16,
        .hazards = 1,
        .cause = (uint8_t)cause,
        .severity = (uint8_t)sc_report_cause_severity(cause),
        .space = SC_RACE_SPACE_SHARED,
        .cur = {.site = cur_site, .thread = {cur_tid, 0, 0}, .size = 4, .kind = SC_RACE_KIND_WRITE},
        .prev = {.site = prev_site, .thread = {prev_tid, 0, 0}, .size = 4,
                 .kind = SC_RACE_KIND_READ},
    };
}

static ScReportLaunch launch_of(const char *kernel, uint64_t number)
{
    return (ScReportLaunch){
        .kernel = kernel, .number = number, .grid = {1, 1, 1}, .block = {256, 1, 1}};
}

static size_t count_of(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* ---- unit tests ---- */

TEST(dedup_folds_unordered_pairs_and_keeps_first)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    add_site(r, 1, "_Z1kPi", "a.cu", 10);
    add_site(r, 2, "_Z1kPi", "a.cu", 20);
    ScRaceRecord recs[4] = {
        shared_race(SC_CAUSE_MISSING_BARRIER, 1, 2, 40, 3),
        shared_race(SC_CAUSE_MISSING_BARRIER, 2, 1, 5, 70), /* same pair, other order */
        shared_race(SC_CAUSE_ATOMIC_VS_PLAIN, 1, 2, 40, 3),  /* same pair, other cause */
        shared_race(SC_CAUSE_MISSING_BARRIER, 1, 2, 41, 4),
    };
    recs[1].hazards = 10;
    recs[3].hazards = 0; /* the device never says 0; it still counts once */
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    ScBuf text = {0};
    ScErr err = {0};
    CHECK(sc_report_add_launch(r, &l, recs, 4, 0, &text, &err));
    ScReportCounts c;
    sc_report_counts(r, &c);
    CHECK_INT(2, c.races);
    CHECK_INT(13, c.hazards);
    CHECK_INT(1, c.launches_with_races);
    CHECK_INT(2, count_of(text.data, "==================\nWARNING"));
    CHECK_CONTAINS(text.data, "by thread (40,0,0) in block (0,0,0)"); /* first occurrence */
    CHECK(!strstr(text.data, "thread (70,0,0)"));
    CHECK_CONTAINS(text.data, "[12 hazards]");
    CHECK_CONTAINS(text.data, "[1 hazard]\n");

    /* A later launch folds into the same races and is counted as one with races. */
    l.number = 2;
    sc_buf_free(&text);
    CHECK(sc_report_add_launch(r, &l, recs, 1, 0, &text, &err));
    CHECK(text.data == NULL); /* nothing new to print */
    l.number = 3;
    CHECK(sc_report_add_launch(r, &l, NULL, 0, 0, &text, &err));
    sc_report_counts(r, &c);
    CHECK_INT(2, c.races);
    CHECK_INT(14, c.hazards);
    CHECK_INT(3, c.launches);
    CHECK_INT(2, c.launches_with_races);
    ScBuf json = {0};
    sc_report_emit_json(r, &json);
    CHECK_JSON(&json);
    CHECK_CONTAINS(json.data, "\"hazards\": 13,\n      \"relation\"");
    sc_buf_free(&json);
    sc_buf_free(&text);
    sc_report_free(r);
}

/* A previous access the shadow word summarized is not the recorded thread's: the
 * report says how far from that thread it may lie instead of naming the recorded
 * thread as the partner (global_lock_outside_race named the writer itself, "lanes 0
 * and 0"). */
TEST(summarized_partner_is_not_named_as_the_recorded_thread)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    add_site(r, 1, "_Z1kPi", "a.cu", 10);
    ScRaceRecord recs[3] = {
        shared_race(SC_CAUSE_LOCK_MISSING, 1, SC_REPORT_SITE_NONE, 0, 0),
        shared_race(SC_CAUSE_MISSING_BARRIER, 1, SC_REPORT_SITE_NONE, 3, 40),
        shared_race(SC_CAUSE_MISSING_SYNCWARP, 1, SC_REPORT_SITE_NONE, 3, 5),
    };
    for (int i = 0; i < 3; i++) {
        recs[i].space = SC_RACE_SPACE_GLOBAL;
        recs[i].address = 0x1000u + 16u * (unsigned)i;
        recs[i].prev.size = 0;
    }
    recs[0].prev.who = SC_RACE_WHO_ANY;
    recs[1].prev.who = SC_RACE_WHO_BLOCK;
    recs[2].prev.who = SC_RACE_WHO_WARP;
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    l.grid[0] = 4;
    ScBuf text = {0}, json = {0};
    ScErr err = {0};
    CHECK(sc_report_add_launch(r, &l, recs, 3, 0, &text, &err));
    CHECK_CONTAINS(text.data, "Previous read by a thread scord did not record (instruction not recorded)\n"
                              "  Not ordered (the other thread was not recorded): ");
    CHECK_CONTAINS(text.data, "Previous read by a thread of block (0,0,0) (instruction not recorded)\n"
                              "  Not ordered (same block): ");
    CHECK_CONTAINS(text.data, "Previous read by a thread of the warp of thread (5,0,0) in block (0,0,0) "
                              "(instruction not recorded)\n  Not ordered (same warp 0): ");
    CHECK(!strstr(text.data, "lanes 0 and 0"));
    sc_report_emit_json(r, &json);
    CHECK_JSON(&json);
    CHECK_INT(1, count_of(json.data, "\"who\": \"any\""));
    CHECK_INT(1, count_of(json.data, "\"who\": \"block\""));
    CHECK_INT(1, count_of(json.data, "\"who\": \"warp\""));
    CHECK_INT(1, count_of(json.data, "\"relation\": \"unknown\""));

    /* A named instruction is the recorded thread's own: a record that places it
     * elsewhere is malformed, and dropped. */
    recs[0].prev.site = 1;
    recs[0].prev.size = 4;
    ScBuf more = {0};
    CHECK(sc_report_add_launch(r, &l, recs, 1, 0, &more, &err));
    ScReportCounts c;
    sc_report_counts(r, &c);
    CHECK_INT(3, c.races);
    CHECK_INT(1, c.dropped);
    sc_buf_free(&more);
    sc_buf_free(&json);
    sc_buf_free(&text);
    sc_report_free(r);
}

/* A race with a cp.async's destination write on either side says when that write
 * lands; the same race between plain accesses does not. */
TEST(async_copy_write_says_when_it_lands)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    add_site(r, 1, "_Z1kPi", "a.cu", 10);
    add_site(r, 2, "_Z1kPi", "a.cu", 12);
    ScReportFrame f = {.file = "a.cu", .line = 8, .column = 1};
    ScReportSite copy = {.ptx_function = "_Z1kPi", .ptx_line = 99, .frames = &f, .n_frames = 1,
                         .async_copy = true};
    ScErr err = {0};
    CHECK(sc_report_add_site(r, 3, &copy, &err));
    ScRaceRecord recs[2] = {
        shared_race(SC_CAUSE_MISSING_BARRIER, 2, 3, 40, 0),
        shared_race(SC_CAUSE_MISSING_BARRIER, 2, 1, 40, 0),
    };
    recs[1].address = 32;
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    ScBuf text = {0};
    CHECK(sc_report_add_launch(r, &l, recs, 2, 0, &text, &err));
    CHECK_INT(1, count_of(text.data, "the write is a cp.async's, which lands between its issue and the "
                                     "wait that completes its group"));
    CHECK_CONTAINS(text.data, "a.cu:8");
    sc_buf_free(&text);
    sc_report_free(r);
}

TEST(print_limit_counts_what_it_hides)
{
    ScReport *r = new_report(2, SC_SEVERITY_WARNING);
    ScRaceRecord recs[3];
    for (uint32_t i = 0; i < 3; i++)
        recs[i] = shared_race(SC_CAUSE_MISSING_BARRIER, 10 * i + 1, 10 * i + 2, 40, 3);
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    ScBuf text = {0}, sum = {0}, json = {0};
    ScErr err = {0};
    CHECK(sc_report_add_launch(r, &l, recs, 3, 0, &text, &err));
    CHECK_INT(2, count_of(text.data, "SUMMARY: scord"));
    sc_report_emit_summary(r, &sum);
    CHECK_CONTAINS(sum.data, "scord: 1 more race not printed (print_limit 2; --print-limit=0 "
                             "prints all)\n");
    CHECK_CONTAINS(sum.data, "scord: reported 3 races (3 hazards) in 1 of 1 kernel launch; "
                             "0 suppressed\n");
    sc_report_emit_json(r, &json);
    CHECK_INT(3, count_of(json.data, "\"role\": \"current\"")); /* JSON has them all */
    ScReportCounts c;
    sc_report_counts(r, &c);
    CHECK_INT(1, c.not_printed);
    sc_buf_free(&text);
    sc_buf_free(&sum);
    sc_buf_free(&json);
    sc_report_free(r);

    r = new_report(0, SC_SEVERITY_WARNING); /* 0 prints all */
    CHECK(sc_report_add_launch(r, &l, recs, 3, 0, &text, &err));
    CHECK_INT(3, count_of(text.data, "SUMMARY: scord"));
    sc_buf_free(&text);
    sc_report_free(r);
}

/* --error-exitcode counts errors, and warnings only when asked (intercept_ctx.c): the
 * counts keep each severity apart. */
TEST(counts_keep_severities_apart)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    ScRaceRecord recs[3] = {shared_race(SC_CAUSE_MISSING_BARRIER, 1, 2, 40, 3),
                            shared_race(SC_CAUSE_STRONG_VS_RMW, 11, 12, 40, 3),
                            shared_race(SC_CAUSE_MISSING_BARRIER, 21, 22, 40, 3)};
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    ScBuf text = {0};
    ScErr err = {0};
    CHECK(sc_report_add_launch(r, &l, recs, 3, 0, &text, &err));
    ScReportCounts c;
    sc_report_counts(r, &c);
    CHECK_INT(3, c.races);
    CHECK_INT(2, c.by_severity[SC_SEVERITY_ERROR]);
    CHECK_INT(1, c.by_severity[SC_SEVERITY_WARNING]);
    CHECK_INT(0, c.by_severity[SC_SEVERITY_INFO]);
    sc_buf_free(&text);
    sc_report_free(r);
}

/* A copy's side: no site, no thread, no size. */
static ScRaceAccess copy_side(uint8_t kind)
{
    return (ScRaceAccess){.site = SC_REPORT_SITE_NONE, .kind = kind, .who = SC_RACE_WHO_COPY};
}

TEST(late_races_count_their_launch_once)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    ScRaceRecord first = shared_race(SC_CAUSE_MISSING_BARRIER, 1, 2, 40, 3);
    ScRaceRecord copy = shared_race(SC_CAUSE_UNORDERED_STREAMS, 3, 4, 80, 7);
    copy.space = SC_RACE_SPACE_GLOBAL;
    copy.cur = copy_side(SC_RACE_KIND_READ);
    ScReportLaunch one = launch_of("_Z1kPi", 1), two = launch_of("_Z1kPi", 2);
    ScBuf text = {0};
    ScErr err = {0};
    CHECK(sc_report_add_launch(r, &one, &first, 1, 0, &text, &err));
    /* A copy after launch 1 races it: launch 1 had races already. */
    CHECK(sc_report_add_late_races(r, &one, &copy, 1, &text, &err));
    ScReportCounts c;
    sc_report_counts(r, &c);
    CHECK_INT(1, c.launches);
    CHECK_INT(1, c.launches_with_races);
    CHECK_INT(2, c.races);
    /* Launch 2 had none of its own, then a copy after it raced it. */
    CHECK(sc_report_add_launch(r, &two, NULL, 0, 0, &text, &err));
    copy.address += 0x1000;
    copy.prev.site = 5;
    CHECK(sc_report_add_late_races(r, &two, &copy, 1, &text, &err));
    sc_report_counts(r, &c);
    CHECK_INT(2, c.launches);
    CHECK_INT(2, c.launches_with_races);
    CHECK_CONTAINS(text.data, "by an asynchronous copy or memset the host issued on another stream\n");
    CHECK_CONTAINS(text.data, "Not ordered (a kernel and a copy)");
    /* A copy's side on a race of another cause, or on both sides, is malformed. */
    ScRaceRecord bad[2] = {copy, copy};
    bad[0].cause = SC_CAUSE_MISSING_BARRIER;
    bad[1].prev = copy_side(SC_RACE_KIND_WRITE);
    CHECK(sc_report_add_launch(r, &two, bad, 2, 0, NULL, &err));
    sc_report_counts(r, &c);
    CHECK_INT(2, c.dropped);
    sc_buf_free(&text);
    sc_report_free(r);
}

TEST(dropped_and_malformed_records_are_never_silent)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    ScRaceRecord bad[6];
    for (int i = 0; i < 6; i++)
        bad[i] = shared_race(SC_CAUSE_MISSING_BARRIER, 1, 2, 1, 40);
    bad[0].cause = SC_CAUSE_COUNT_;
    bad[1].cur.kind = SC_RACE_KIND_BARRIER; /* only barrier_divergence has barriers */
    bad[2].prev.size = 0;
    bad[3].space = SC_RACE_SPACE_NONE;
    bad[4].cur.scope = 9;
    bad[5].severity = 3;
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    ScBuf text = {0}, sum = {0}, json = {0};
    ScErr err = {0};
    CHECK(sc_report_add_launch(r, &l, bad, 6, 5, &text, &err));
    CHECK(text.data == NULL);
    ScReportCounts c;
    sc_report_counts(r, &c);
    CHECK_INT(11, c.dropped);
    CHECK_INT(0, c.races);
    CHECK_INT(0, c.launches_with_races);
    sc_report_emit_summary(r, &sum);
    CHECK_CONTAINS(sum.data, "scord: warning: 11 race occurrences could not be recorded by the device (its "
                             "race table was full, or the race's entry was still being written) or came back "
                             "malformed: hazard counts are low, and races may be missing\n");
    sc_report_emit_json(r, &json);
    CHECK_CONTAINS(json.data, "\"dropped\": 11,");
    sc_buf_free(&text);
    sc_buf_free(&sum);
    sc_buf_free(&json);
    sc_report_free(r);
}

TEST(severity_level_filters_records)
{
    ScRaceRecord recs[2] = {
        shared_race(SC_CAUSE_SAME_STORE_LANES_BENIGN, 1, 1, 0, 1),
        shared_race(SC_CAUSE_STRONG_VS_RMW, 3, 4, 0, 1),
    };
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    ScErr err = {0};
    ScSeverity levels[3] = {SC_SEVERITY_INFO, SC_SEVERITY_WARNING, SC_SEVERITY_ERROR};
    int expected[3] = {2, 1, 0};
    for (int i = 0; i < 3; i++) {
        ScReport *r = new_report(100, levels[i]);
        ScBuf text = {0};
        CHECK(sc_report_add_launch(r, &l, recs, 2, 0, &text, &err));
        ScReportCounts c;
        sc_report_counts(r, &c);
        CHECK_INT(expected[i], c.races);
        CHECK_INT(expected[i] > 0, c.launches_with_races);
        if (levels[i] == SC_SEVERITY_INFO)
            CHECK_CONTAINS(text.data, "INFO: scord: benign data race on __shared__ memory (pid=7)");
        sc_buf_free(&text);
        sc_report_free(r);
    }
}

TEST(names_round_trip)
{
    for (int c = 0; c < SC_CAUSE_COUNT_; c++) {
        ScCause back;
        CHECK(sc_report_cause_parse(sc_report_cause_name((ScCause)c), &back));
        CHECK_INT(c, back);
    }
    ScCause cause;
    CHECK(!sc_report_cause_parse("missing-barrier", &cause));
    CHECK_STR("missing_barrier", sc_report_cause_name(SC_CAUSE_MISSING_BARRIER));
    CHECK_STR("barrier_divergence", sc_report_cause_name(SC_CAUSE_BARRIER_DIVERGENCE));
    CHECK_INT(SC_SEVERITY_INFO, sc_report_cause_severity(SC_CAUSE_SAME_STORE_LANES_BENIGN));
    CHECK_INT(SC_SEVERITY_WARNING, sc_report_cause_severity(SC_CAUSE_STRONG_VS_RMW));
    ScSeverity s;
    CHECK(sc_report_severity_parse("warning", &s) && s == SC_SEVERITY_WARNING);
    CHECK(!sc_report_severity_parse("warn", &s));
}

TEST(demangles_through_libstdcxx)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    ScBuf b = {0};
    sc_report_demangle(r, "_Z6reducePKfPf", &b);
    CHECK_STR("reduce(float const*, float*)", b.data);
    sc_buf_free(&b);
    sc_report_demangle(r, "_ZN2ns4scanILi256EEEvPi", &b);
    CHECK_STR("void ns::scan<256>(int*)", b.data);
    sc_buf_free(&b);
    sc_report_demangle(r, "i", &b); /* a C kernel named like a type code stays itself */
    CHECK_STR("i", b.data);
    sc_buf_free(&b);
    sc_report_demangle(r, "_Zbroken", &b);
    CHECK_STR("_Zbroken", b.data);
    sc_buf_free(&b);
    sc_report_free(r);

    ScReportConfig cfg;
    sc_report_config_init(&cfg, 1);
    cfg.demangle = false;
    r = sc_report_new(&cfg);
    sc_report_demangle(r, "_Z6reducePKfPf", &b);
    CHECK_STR("_Z6reducePKfPf", b.data);
    sc_buf_free(&b);
    sc_report_free(r);
}

TEST(short_names_drop_parameters_and_return_type)
{
    static const char *cases[][2] = {
        {"reduce(float const*, float*)", "reduce"},
        {"void ns::scan<256>(int*)", "ns::scan<256>"},
        {"void k<(anonymous namespace)::T, 2>(T*)", "k<(anonymous namespace)::T, 2>"},
        {"(anonymous namespace)::k(int)", "(anonymous namespace)::k"},
        {"void f<void (*)(int)>(void (*)(int))", "f<void (*)(int)>"},
        {"plain_c_kernel", "plain_c_kernel"},
        {"", ""},
        {"odd)", "odd)"},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(cases); i++) {
        ScBuf b = {0};
        sc_report_short_name(cases[i][0], &b);
        CHECK_STR(cases[i][1], b.data ? b.data : "");
        sc_buf_free(&b);
    }
}

/* Formats a race whose names need every kind of escaping and checks the JSON and
 * SARIF documents stay valid. */
TEST(escaping_keeps_documents_valid)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    /* quote, backslash, newline, tab, DEL, a lone 0xff, a truncated and an
     * overlong sequence, an encoded surrogate, then valid 2-, 3- and 4-byte UTF-8 */
    const char *nasty = "a\"b\\c\nd\te\x7f" "f\xff" "g\xe2\x82" "h\xc0\xaf" "i\xed\xa0\x80"
                        "j\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 /x:y.cu";
    ScReportFrame f = {.function = nasty, .file = nasty, .line = 3, .column = 4};
    ScReportSite s = {.ptx_function = "_Z1kv", .ptx_line = 9, .frames = &f, .n_frames = 1};
    ScErr err = {0};
    CHECK(sc_report_add_site(r, 1, &s, &err));
    ScRaceRecord rec = shared_race(SC_CAUSE_MISSING_BARRIER, 1, 1, 0, 64);
    ScReportSymbol sym = {.name = nasty, .offset = 0, .size = 64};
    ScReportLaunch l = launch_of(nasty, 1);
    l.module = nasty;
    l.shared = &sym;
    l.n_shared = 1;
    ScBuf text = {0}, json = {0}, sarif = {0};
    CHECK(sc_report_add_launch(r, &l, &rec, 1, 0, &text, &err));
    CHECK(sc_report_add_unchecked(r, nasty, &err));
    sc_report_emit_json(r, &json);
    sc_report_emit_sarif(r, &sarif);
    CHECK_JSON(&json);
    CHECK_JSON(&sarif);
    const char *escaped = "\"a\\\"b\\\\c\\nd\\te\\u007ff\\ufffdg\\ufffd\\ufffdh\\ufffd\\ufffdi"
                          "\\ufffd\\ufffd\\ufffdj\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 /x:y.cu\"";
    CHECK_CONTAINS(json.data, escaped);
    /* SARIF URIs: relative, percent-encoded, ':' included. */
    CHECK_CONTAINS(sarif.data, "\"uri\": \"a%22b%5Cc%0Ad%09e%7Ff%FFg%E2%82h%C0%AFi%ED%A0%80j%C3%A9"
                               "%E2%82%AC%F0%9F%98%80%20/x%3Ay.cu\"");
    /* The text log stays one record per line: control characters become '?'. */
    CHECK(!strstr(text.data, "c\nd"));
    CHECK_CONTAINS(text.data, "a\"b\\c?d?e?f");
    sc_buf_free(&text);
    sc_buf_free(&json);
    sc_buf_free(&sarif);
    sc_report_free(r);
}

TEST(json_checker_rejects_what_it_must)
{
    static const char *bad[] = {
        "",          "{",           "{\"a\" 1}",   "[1,]",        "{\"a\":1,}", "\"\x01\"",
        "\"\\x\"",   "\"\\ud800\"", "\"\xff\"",    "01",          "1.",         "[1] [2]",
        "nul",       "\"\xed\xa0\x80\"", "{1:2}",
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(bad); i++) {
        if (!json_error(bad[i], strlen(bad[i])))
            printf("accepted: %s\n", bad[i]);
        CHECK(json_error(bad[i], strlen(bad[i])) != NULL);
    }
    static const char *good[] = {
        "{}", "[]", "{\"a\": [1, -2.5e+3, true, false, null, \"\\u00e9\\ud83d\\ude00\"]}", "0",
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(good); i++)
        CHECK(json_error(good[i], strlen(good[i])) == NULL);
}

TEST(suppression_patterns_match_like_tsan)
{
    static const struct {
        const char *pattern, *s;
        bool match;
    } cases[] = {
        {"reduce", "reduce(float const*, float*)", true},
        {"duce", "reduce(float const*, float*)", true},
        {"^reduce", "reduce(float const*, float*)", true},
        {"^duce", "reduce(float const*, float*)", false},
        {"float*)$", "reduce(float const*, float*)", true},
        {"const$", "reduce(float const*, float*)", false},
        {"^reduce(float const*, float*)$", "reduce(float const*, float*)", true},
        {"^reduce$", "reduce(float const*, float*)", false},
        {"^re*float*)$", "reduce(float const*, float*)", true},
        {"re*xx", "reduce", false},
        {"*", "", true},
        {"^$", "", true},
        {"^$", "x", false},
        {"a*b*c", "xxaxxbxxcxx", true},
        {"a*b*c", "xxcxxbxxaxx", false},
        {"^a*a$", "a", false}, /* the two a's cannot share one character */
        {"^a*a$", "aa", true},
        {"kernels/*.cu$", "src/kernels/scan.cu", true},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(cases); i++) {
        ScReport *r = new_report(100, SC_SEVERITY_WARNING);
        char text[128];
        snprintf(text, sizeof text, "kernel:%s\n", cases[i].pattern);
        ScErr err = {0};
        CHECK(sc_report_add_suppressions(r, text, strlen(text), "t.supp", &err));
        ScRaceRecord rec = shared_race(SC_CAUSE_MISSING_BARRIER, 1, 2, 0, 64);
        ScReportLaunch l = launch_of(cases[i].s, 1);
        CHECK(sc_report_add_launch(r, &l, &rec, 1, 0, NULL, &err));
        ScReportCounts c;
        sc_report_counts(r, &c);
        if ((c.suppressed == 1) != cases[i].match)
            printf("pattern %s on %s: expected %s\n", cases[i].pattern, cases[i].s,
                   cases[i].match ? "a match" : "no match");
        CHECK_INT(cases[i].match, c.suppressed);
        CHECK_INT(!cases[i].match, c.races);
        sc_report_free(r);
    }
}

TEST(suppression_types_choose_what_they_match)
{
    /* Site 1 is in helper() (inlined into k at k.cu:40), site 2 directly in k. */
    ScReportFrame f1[2] = {
        {.function = "_Z6helperv", .file = "lib/helper.cuh", .line = 7, .column = 3},
        {.file = "k.cu", .line = 40, .column = 5},
    };
    ScReportFrame f2 = {.file = "k.cu", .line = 50};
    ScReportSite s1 = {.ptx_function = "_Z1kPi", .ptx_line = 1, .frames = f1, .n_frames = 2};
    ScReportSite s2 = {.ptx_function = "_Z1kPi", .ptx_line = 2, .frames = &f2, .n_frames = 1};
    static const struct {
        const char *supp;
        bool match;
    } cases[] = {
        {"race:helper", true},       /* frame #0 function */
        {"race:_Z6helperv", true},   /* mangled name */
        {"race:helper.cuh", true},   /* frame #0 file */
        {"race:^k.cu$", true},       /* an inlined-at frame's file */
        {"race:^k(int*)$", true},    /* the kernel */
        {"race_top:helper", true},
        {"race_top:k.cu", true},     /* frame #0 of the previous access */
        {"race_top:^k(int*)$", true},
        {"race_top:nothing", false},
        {"kernel:^k(int*)$", true},
        {"kernel:_Z1kPi", true},
        {"kernel:helper", false},
        {"kernel:k.cu", false},
        {"# race:helper", false},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(cases); i++) {
        ScReport *r = new_report(100, SC_SEVERITY_WARNING);
        ScErr err = {0};
        CHECK(sc_report_add_site(r, 1, &s1, &err));
        CHECK(sc_report_add_site(r, 2, &s2, &err));
        CHECK(sc_report_add_suppressions(r, cases[i].supp, strlen(cases[i].supp), "t", &err));
        ScRaceRecord rec = shared_race(SC_CAUSE_MISSING_BARRIER, 1, 2, 0, 64);
        ScReportLaunch l = launch_of("_Z1kPi", 1);
        CHECK(sc_report_add_launch(r, &l, &rec, 1, 0, NULL, &err));
        ScReportCounts c;
        sc_report_counts(r, &c);
        if ((c.suppressed == 1) != cases[i].match)
            printf("%s: expected %s\n", cases[i].supp, cases[i].match ? "a match" : "no match");
        CHECK_INT(cases[i].match, c.suppressed);
        sc_report_free(r);
    }
}

TEST(suppressions_count_hits_and_print_them)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    const char *text = "# scord suppressions\n"
                       "\n"
                       "  race:a.cu  \r\n"
                       "kernel:never\n"
                       "race_top : b.cu\n";
    ScErr err = {0};
    CHECK(sc_report_add_suppressions(r, text, strlen(text), "x.supp", &err));
    add_site(r, 1, "_Z1kPi", "a.cu", 1);
    add_site(r, 2, "_Z1kPi", "a.cu", 2);
    add_site(r, 3, "_Z1kPi", "b.cu", 3);
    add_site(r, 4, "_Z1kPi", "c.cu", 4);
    ScRaceRecord recs[4] = {
        shared_race(SC_CAUSE_MISSING_BARRIER, 1, 2, 0, 64),
        shared_race(SC_CAUSE_MISSING_BARRIER, 2, 4, 0, 64),
        shared_race(SC_CAUSE_MISSING_BARRIER, 3, 4, 0, 64),
        shared_race(SC_CAUSE_MISSING_BARRIER, 4, 4, 0, 64),
    };
    recs[0].hazards = 5;
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    CHECK(sc_report_add_launch(r, &l, recs, 4, 0, NULL, &err));
    CHECK(sc_report_add_launch(r, &l, recs, 1, 0, NULL, &err)); /* folds, no new hit */
    ScBuf sum = {0};
    sc_report_emit_summary(r, &sum);
    CHECK_STR("scord: matched 2 suppressions:\n"
              "  2 race:a.cu\n"
              "  1 race_top:b.cu\n"
              "scord: reported 1 race (1 hazard) in 1 of 2 kernel launches; 3 suppressed\n",
              sum.data);
    sc_buf_free(&sum);
    sc_report_free(r);
}

TEST(suppression_errors_point_at_the_line)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"race:a\nrce:b\n", "x.supp:2:1: unknown suppression type 'rce'; a suppression is "
                            "TYPE:PATTERN with TYPE one of race, race_top, kernel (lines "
                            "starting with # are comments)"},
        {"race:a\n\n   called_from_lib:libfoo.so\n",
         "x.supp:3:4: unknown suppression type 'called_from_lib'"},
        {"reduce\n", "x.supp:1:1: expected TYPE:PATTERN, found 'reduce'"},
        {"race:   \n", "x.supp:1:1: empty pattern in 'race:'"},
        {"Race:x", "x.supp:1:1: unknown suppression type 'Race'"},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(cases); i++) {
        ScReport *r = new_report(100, SC_SEVERITY_WARNING);
        ScErr err = {0};
        CHECK(!sc_report_add_suppressions(r, cases[i].text, strlen(cases[i].text), "x.supp",
                                          &err));
        CHECK_CONTAINS(err.msg, cases[i].message);
        /* Nothing of a file with an error is kept: race:a must not suppress. */
        ScRaceRecord rec = shared_race(SC_CAUSE_MISSING_BARRIER, 1, 2, 0, 64);
        ScReportLaunch l = launch_of("a", 1);
        ScErr e2 = {0};
        CHECK(sc_report_add_launch(r, &l, &rec, 1, 0, NULL, &e2));
        ScReportCounts c;
        sc_report_counts(r, &c);
        CHECK_INT(0, c.suppressed);
        sc_report_free(r);
    }
}

TEST(suppressions_load_from_a_file)
{
    char path[] = "/tmp/scord_test_supp_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("kernel:^k\nrace_tip:x\n", f);
    fclose(f);
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    ScErr err = {0};
    CHECK(!sc_report_load_suppressions(r, path, &err));
    char want[128];
    snprintf(want, sizeof want, "%s:2:1: unknown suppression type 'race_tip'", path);
    CHECK_CONTAINS(err.msg, want);
    remove(path);
    err = (ScErr){0};
    CHECK(!sc_report_load_suppressions(r, "/nonexistent/scord.supp", &err));
    CHECK_STR("/nonexistent/scord.supp: cannot open the suppressions file: No such file or "
              "directory",
              err.msg);
    sc_report_free(r);
}

TEST(sites_resolve_replace_and_stay_unknown)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    add_site(r, 5, "_Z1kPi", "old.cu", 1);
    add_site(r, 5, "_Z1kPi", "new.cu", 2);
    for (uint32_t i = 1000; i < 3000; i++) /* grows the table past its first size */
        add_site(r, i, "_Z1kPi", "many.cu", i);
    ScRaceRecord recs[2] = {
        shared_race(SC_CAUSE_MISSING_BARRIER, 5, 77, 0, 64),
        shared_race(SC_CAUSE_MISSING_BARRIER, 2999, 1000, 0, 64),
    };
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    ScBuf text = {0};
    ScErr err = {0};
    CHECK(sc_report_add_launch(r, &l, recs, 2, 0, &text, &err));
    CHECK_CONTAINS(text.data, "#0 k(int*) new.cu:2 (PTX line 105)\n");
    CHECK_CONTAINS(text.data, "#0 <unknown site 77>\n");
    CHECK_CONTAINS(text.data, "#0 k(int*) many.cu:2999 (PTX line 3099)\n");
    CHECK_CONTAINS(text.data, "#0 k(int*) many.cu:1000 (PTX line 1100)\n");
    CHECK(!strstr(text.data, "old.cu"));
    sc_buf_free(&text);
    sc_report_free(r);
}

static void add_site_deps(ScReport *r, uint32_t id, uint32_t function_id, const ScReportControlDep *deps,
                          size_t n_deps)
{
    ScReportFrame f = {.file = "d.cu", .line = id, .column = 1};
    ScReportSite s = {.ptx_function = "_Z1kPi", .ptx_line = 100 + id, .frames = &f, .n_frames = 1,
                      .function_id = function_id, .deps = deps, .n_deps = n_deps};
    ScErr err = {0};
    CHECK(sc_report_add_site(r, id, &s, &err));
}

/* Whether the report finds sites cur_site and prev_site (registered with their
 * functions and control dependences) on opposite arms of a branch. */
static void check_arms(bool expected, uint32_t cur_site, uint32_t prev_site, const ScReportControlDep *cur_deps,
                       size_t n_cur, uint32_t cur_fn, const ScReportControlDep *prev_deps, size_t n_prev,
                       uint32_t prev_fn)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    add_site_deps(r, cur_site, cur_fn, cur_deps, n_cur);
    if (prev_site != SC_REPORT_SITE_NONE)
        add_site_deps(r, prev_site, prev_fn, prev_deps, n_prev);
    CHECK_INT(expected, sc_report_opposite_arms(r, cur_site, prev_site));
    CHECK_INT(expected, sc_report_opposite_arms(r, prev_site, cur_site));
    sc_report_free(r);
}

/* A previous access the device could not name has size 0 and no site: it folds into
 * a race at the same instruction with the same cause and a named partner of its kind,
 * in whichever order the records come; with no such race it is reported on its own,
 * without a size or frames. */
TEST(unnamed_previous_access_folds_into_named_twin)
{
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    add_site(r, 1, "_Z1kPi", "k.cu", 10);
    add_site(r, 2, "_Z1kPi", "k.cu", 20);
    add_site(r, 3, "_Z1kPi", "k.cu", 30);
    ScRaceRecord recs[4] = {
        shared_race(SC_CAUSE_MISSING_BARRIER, 2, SC_REPORT_SITE_NONE, 3, 40),
        shared_race(SC_CAUSE_MISSING_BARRIER, 1, 2, 3, 40),
        shared_race(SC_CAUSE_MISSING_BARRIER, 3, SC_REPORT_SITE_NONE, 5, 70),
        shared_race(SC_CAUSE_MISSING_BARRIER, 1, SC_REPORT_SITE_NONE, 3, 40),
    };
    recs[0].prev.size = recs[2].prev.size = recs[3].prev.size = 0;
    recs[0].prev.kind = SC_RACE_KIND_WRITE; /* site 1 wrote, as the named race says */
    recs[0].hazards = 5;
    recs[3].prev.kind = SC_RACE_KIND_WRITE; /* no write partner of site 1 is known */
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    ScBuf text = {0};
    ScErr err = {0};
    CHECK(sc_report_add_launch(r, &l, recs, 4, 0, &text, &err));
    ScReportCounts c;
    sc_report_counts(r, &c);
    CHECK_INT(3, c.races);
    CHECK_INT(8, c.hazards);
    CHECK_INT(0, c.dropped);
    CHECK_CONTAINS(text.data, "[6 hazards]");
    CHECK_CONTAINS(text.data, "Previous read by thread (70,0,0) in block (0,0,0) (instruction not recorded)\n");
    CHECK_CONTAINS(text.data, "Previous write by thread (40,0,0) in block (0,0,0) (instruction not recorded)\n");
    CHECK(!strstr(text.data, "of size 0"));
    ScBuf json = {0};
    sc_report_emit_json(r, &json);
    CHECK_CONTAINS(json.data, "\"size\": null");
    sc_buf_free(&json);
    sc_buf_free(&text);
    sc_report_free(r);
}

TEST(opposite_arms_make_a_divergent_branch_race)
{
    const ScReportControlDep taken[] = {{5, 0}}, fall[] = {{5, 1}}, fall_nested[] = {{5, 1}, {9, 0}},
                             both[] = {{5, 0}, {5, 1}}, unsorted[] = {{9, 1}, {5, 0}, {9, 1}},
                             other[] = {{9, 0}, {5, 0}};
    check_arms(true, 1, 2, taken, 1, 7, fall, 1, 7);
    check_arms(true, 1, 2, taken, 1, 7, fall_nested, 2, 7);
    /* Sorted and deduplicated on the way in: branch 9 parts them, branch 5 does not. */
    check_arms(true, 1, 2, unsorted, 3, 7, other, 2, 7);
    /* The same arm, an arm in common, no branch in common, nothing known. */
    check_arms(false, 1, 2, fall, 1, 7, fall_nested, 2, 7);
    check_arms(false, 1, 2, both, 2, 7, fall, 1, 7);
    check_arms(false, 1, 2, taken, 1, 7, other + 1, 0, 7);
    check_arms(false, 1, 2, NULL, 0, 7, NULL, 0, 7);
    /* Branch numbers mean nothing across functions. */
    check_arms(false, 1, 2, taken, 1, 7, fall, 1, 8);
    /* The device could not name the previous access. */
    check_arms(false, 1, SC_REPORT_SITE_NONE, taken, 1, 7, NULL, 0, 0);

    /* Records of one pair (the decoder named them divergent_branch) fold into one
     * race, in either order, and its text gives the reason. */
    ScReport *r = new_report(100, SC_SEVERITY_WARNING);
    add_site_deps(r, 1, 7, taken, 1);
    add_site_deps(r, 2, 7, fall, 1);
    ScRaceRecord recs[2] = {shared_race(SC_CAUSE_DIVERGENT_BRANCH, 1, 2, 3, 20),
                            shared_race(SC_CAUSE_DIVERGENT_BRANCH, 2, 1, 21, 4)};
    recs[1].hazards = 4;
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    ScBuf text = {0};
    ScErr err = {0};
    CHECK(sc_report_add_launch(r, &l, recs, 2, 0, &text, &err));
    ScReportCounts c;
    sc_report_counts(r, &c);
    CHECK_INT(1, c.races);
    CHECK_INT(5, c.hazards);
    CHECK_CONTAINS(text.data, "Not ordered (same warp, lanes 3 and 20): the accesses lie on different paths of "
                              "a divergent branch, with no __syncwarp() to order the paths [5 hazards]");
    sc_buf_free(&text);
    sc_report_free(r);
}

TEST(global_addresses_name_their_allocation)
{
    Allocs allocs = {.v = {{.serial = 3, .kind = "cudaMalloc", .base = 0x7f0000000000, .size = 4096}},
                     .n = 1};
    ScReportConfig cfg;
    sc_report_config_init(&cfg, 7);
    cfg.find_alloc = find_alloc;
    cfg.alloc_ctx = &allocs;
    ScReport *r = sc_report_new(&cfg);
    ScRaceRecord recs[2] = {
        shared_race(SC_CAUSE_UNSYNCHRONIZED_BLOCKS, 1, 2, 0, 0),
        shared_race(SC_CAUSE_UNSYNCHRONIZED_BLOCKS, 3, 4, 0, 0),
    };
    recs[0].space = recs[1].space = SC_RACE_SPACE_GLOBAL;
    recs[0].address = 0x7f0000000040;
    recs[1].address = 0x7f0000001000; /* one past the end */
    recs[0].prev.block[0] = recs[1].prev.block[0] = 1;
    ScReportLaunch l = launch_of("_Z1kPi", 1);
    ScBuf text = {0};
    ScErr err = {0};
    CHECK(sc_report_add_launch(r, &l, recs, 2, 0, &text, &err));
    /* The table may change after the launch: what was resolved stays. */
    allocs.n = 0;
    ScBuf json = {0};
    sc_report_emit_json(r, &json);
    CHECK_CONTAINS(text.data, "at 0x7f0000000040 (cudaMalloc allocation #3 of 4096 bytes at "
                              "0x7f0000000000, offset 64) by thread");
    CHECK_CONTAINS(text.data, "at 0x7f0000001000 (global, in no allocation scord tracks)");
    CHECK_CONTAINS(json.data, "\"allocation\": 3,\n");
    CHECK_CONTAINS(json.data, "\"offset\": 64\n");
    CHECK_CONTAINS(json.data, "\"allocation\": null,\n");
    sc_buf_free(&text);
    sc_buf_free(&json);
    sc_report_free(r);
}

/* ---- golden files: tests/golden/report/NAME.in -> NAME.{txt,json,sarif}.expected ---- */

typedef struct Golden {
    const char *name;
    size_t lineno;
    char error[256];
    ScReport *r;
    ScReportConfig cfg;
    Allocs allocs;
    char alloc_kind[8][32];
    /* the site being described (frames follow its line) */
    bool site_open;
    uint32_t site_id;
    char site_fn[256];
    uint32_t site_ptx;
    ScReportFrame frames[8];
    char frame_fn[8][256], frame_file[8][256];
    size_t n_frames;
    /* the launch being described */
    bool launch_open;
    ScReportLaunch launch;
    char kernel[256], module[256], previous[256];
    bool has_module;
    uint64_t dropped;
    ScReportSymbol shared[8];
    char shared_name[8][64];
    ScRaceRecord recs[16];
    size_t n_recs;
    ScBuf text;
} Golden;

static bool gfail(Golden *g, const char *fmt, const char *arg)
{
    if (!g->error[0]) {
        int n = snprintf(g->error, sizeof g->error, "%s.in:%zu: ", g->name, g->lineno);
        snprintf(g->error + n, sizeof g->error - (size_t)n, fmt, arg);
    }
    return false;
}

/* Splits a line into words; a value may be "quoted" with \" \\ \n \t \xHH
 * escapes. Words are rewritten in place. Returns the count. */
static size_t split(char *line, char **words, size_t max)
{
    size_t n = 0;
    char *p = line;
    while (*p && n < max) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            break;
        words[n++] = p;
        char *w = p;
        bool quoted = false;
        while (*p && (quoted || (*p != ' ' && *p != '\t'))) {
            if (*p == '"') {
                quoted = !quoted;
                p++;
            } else if (quoted && *p == '\\' && p[1]) {
                p++;
                char c = *p++;
                if (c == 'n')
                    *w++ = '\n';
                else if (c == 't')
                    *w++ = '\t';
                else if (c == 'x' && p[0] && p[1]) {
                    char hex[3] = {p[0], p[1], 0};
                    *w++ = (char)strtoul(hex, NULL, 16);
                    p += 2;
                } else
                    *w++ = c;
            } else {
                *w++ = *p++;
            }
        }
        if (*p)
            p++;
        *w = '\0';
    }
    return n;
}

/* The value of key=value in word, or NULL. */
static const char *value_of(const char *word, const char *key)
{
    size_t n = strlen(key);
    return strncmp(word, key, n) == 0 && word[n] == '=' ? word + n + 1 : NULL;
}

static bool parse_u64(Golden *g, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    *out = strtoull(s, &end, 0);
    return (*s && !*end && !errno) || gfail(g, "bad number '%s'", s);
}

static bool parse_dim3(Golden *g, const char *s, uint32_t out[3])
{
    unsigned long v[3];
    char tail;
    if (sscanf(s, "%lu,%lu,%lu%c", &v[0], &v[1], &v[2], &tail) != 3)
        return gfail(g, "bad x,y,z '%s'", s);
    for (int i = 0; i < 3; i++)
        out[i] = (uint32_t)v[i];
    return true;
}

/* A name from the table, or a raw number (to write malformed records). */
static bool parse_enum(Golden *g, const char *s, const char *const *names, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = (uint8_t)i;
            return true;
        }
    }
    uint64_t v;
    if (*s >= '0' && *s <= '9' && parse_u64(g, s, &v) && v < 256) {
        *out = (uint8_t)v;
        return true;
    }
    return gfail(g, "unknown name '%s'", s);
}

static const char *const kind_names[] = {"read", "write", "atomic", "barrier", "exit"};
/* Indexed by ScSem: "none" is a record that gives no semantics. */
static const char *const sem_names[] = {"none",    "weak", "relaxed",  "acquire", "release",
                                        "acq_rel", "sc",   "volatile", "mmio"};
static const char *const scope_names[] = {"none", "cta", "cluster", "gpu", "sys"};
static const char *const space_names[] = {"shared", "global", "none"};
static const char *const severity_names[] = {"info", "warning", "error"};

static bool ensure_report(Golden *g)
{
    if (g->r)
        return true;
    g->cfg.find_alloc = find_alloc;
    g->cfg.alloc_ctx = &g->allocs;
    g->r = sc_report_new(&g->cfg);
    return g->r || gfail(g, "%s", "out of memory");
}

static bool flush_site(Golden *g)
{
    if (!g->site_open)
        return true;
    g->site_open = false;
    ScReportSite s = {.ptx_function = g->site_fn, .ptx_line = g->site_ptx,
                      .frames = g->frames, .n_frames = g->n_frames};
    ScErr err = {0};
    return sc_report_add_site(g->r, g->site_id, &s, &err) || gfail(g, "%s", err.msg);
}

static bool flush_launch(Golden *g)
{
    if (!g->launch_open)
        return true;
    g->launch_open = false;
    g->launch.kernel = g->kernel;
    g->launch.module = g->has_module ? g->module : NULL;
    g->launch.shared = g->shared;
    ScErr err = {0};
    return sc_report_add_launch(g->r, &g->launch, g->recs, g->n_recs, g->dropped, &g->text,
                                &err) ||
           gfail(g, "%s", err.msg);
}

static bool g_config(Golden *g, char **w, size_t n)
{
    if (g->r)
        return gfail(g, "%s", "config must come first");
    for (size_t i = 1; i < n; i++) {
        const char *v;
        uint64_t x;
        if ((v = value_of(w[i], "pid")) && parse_u64(g, v, &x))
            g->cfg.pid = (long)x;
        else if ((v = value_of(w[i], "print_limit")) && parse_u64(g, v, &x))
            g->cfg.print_limit = (unsigned)x;
        else if ((v = value_of(w[i], "level"))) {
            if (!sc_report_severity_parse(v, &g->cfg.min_severity))
                return gfail(g, "bad level '%s'", v);
        } else if ((v = value_of(w[i], "demangle")))
            g->cfg.demangle = strcmp(v, "yes") == 0;
        else
            return gfail(g, "bad config '%s'", w[i]);
    }
    return !g->error[0];
}

static bool copy_str(Golden *g, char *dst, size_t cap, const char *s)
{
    if (strlen(s) >= cap)
        return gfail(g, "too long: '%s'", s);
    memcpy(dst, s, strlen(s) + 1);
    return true;
}

static bool g_site(Golden *g, char **w, size_t n)
{
    uint64_t x;
    if (n < 3 || !parse_u64(g, w[1], &x))
        return gfail(g, "%s", "site ID fn=NAME ptx=LINE");
    g->site_open = true;
    g->site_id = (uint32_t)x;
    g->n_frames = 0;
    for (size_t i = 2; i < n; i++) {
        const char *v;
        if ((v = value_of(w[i], "fn"))) {
            if (!copy_str(g, g->site_fn, sizeof g->site_fn, v))
                return false;
        } else if ((v = value_of(w[i], "ptx")) && parse_u64(g, v, &x)) {
            g->site_ptx = (uint32_t)x;
        } else {
            return gfail(g, "bad site word '%s'", w[i]);
        }
    }
    return !g->error[0];
}

static bool g_frame(Golden *g, char **w, size_t n)
{
    if (!g->site_open || g->n_frames == SC_ARRAY_LEN(g->frames))
        return gfail(g, "%s", "frame outside a site, or too many");
    size_t k = g->n_frames++;
    ScReportFrame *f = &g->frames[k];
    *f = (ScReportFrame){0};
    for (size_t i = 1; i < n; i++) {
        const char *v;
        uint64_t x;
        if ((v = value_of(w[i], "fn"))) {
            if (!copy_str(g, g->frame_fn[k], sizeof g->frame_fn[k], v))
                return false;
            f->function = g->frame_fn[k];
        } else if ((v = value_of(w[i], "file"))) {
            if (!copy_str(g, g->frame_file[k], sizeof g->frame_file[k], v))
                return false;
            f->file = g->frame_file[k];
        } else if ((v = value_of(w[i], "line")) && parse_u64(g, v, &x)) {
            f->line = (uint32_t)x;
        } else if ((v = value_of(w[i], "col")) && parse_u64(g, v, &x)) {
            f->column = (uint32_t)x;
        } else {
            return gfail(g, "bad frame word '%s'", w[i]);
        }
    }
    return !g->error[0];
}

static bool g_launch(Golden *g, char **w, size_t n)
{
    uint64_t x;
    if (!flush_launch(g) || n < 2 || !parse_u64(g, w[1], &x))
        return gfail(g, "%s", "launch NUMBER kernel=NAME ...");
    g->launch_open = true;
    g->launch = (ScReportLaunch){.number = x, .grid = {1, 1, 1}, .block = {1, 1, 1}};
    g->has_module = false;
    g->dropped = 0;
    g->n_recs = 0;
    for (size_t i = 2; i < n; i++) {
        const char *v;
        if ((v = value_of(w[i], "kernel"))) {
            if (!copy_str(g, g->kernel, sizeof g->kernel, v))
                return false;
        } else if ((v = value_of(w[i], "module"))) {
            if (!copy_str(g, g->module, sizeof g->module, v))
                return false;
            g->has_module = true;
        } else if ((v = value_of(w[i], "grid"))) {
            parse_dim3(g, v, g->launch.grid);
        } else if ((v = value_of(w[i], "block"))) {
            parse_dim3(g, v, g->launch.block);
        } else if ((v = value_of(w[i], "cluster"))) {
            parse_dim3(g, v, g->launch.cluster);
        } else if ((v = value_of(w[i], "dropped"))) {
            parse_u64(g, v, &g->dropped);
        } else if ((v = value_of(w[i], "previous"))) {
            /* KERNEL#NUMBER: the launch its different_grids races name as previous */
            const char *hash = strchr(v, '#');
            if (!hash || (size_t)(hash - v) >= sizeof g->previous)
                return gfail(g, "%s", "previous=KERNEL#NUMBER");
            memcpy(g->previous, v, (size_t)(hash - v));
            g->previous[hash - v] = 0;
            g->launch.previous_kernel = g->previous;
            parse_u64(g, hash + 1, &g->launch.previous_number);
        } else {
            return gfail(g, "bad launch word '%s'", w[i]);
        }
    }
    return !g->error[0];
}

static bool g_shared(Golden *g, char **w, size_t n)
{
    size_t k = g->launch.n_shared;
    if (!g->launch_open || n != 4 || k == SC_ARRAY_LEN(g->shared))
        return gfail(g, "%s", "shared NAME OFFSET SIZE, after a launch");
    if (!copy_str(g, g->shared_name[k], sizeof g->shared_name[k], w[1]) ||
        !parse_u64(g, w[2], &g->shared[k].offset) || !parse_u64(g, w[3], &g->shared[k].size))
        return false;
    g->shared[k].name = g->shared_name[k];
    g->launch.n_shared++;
    return true;
}

static bool g_race(Golden *g, char **w, size_t n)
{
    if (!g->launch_open || n < 4 || g->n_recs == SC_ARRAY_LEN(g->recs))
        return gfail(g, "%s", "race CAUSE SPACE ADDRESS [...], after a launch");
    ScRaceRecord *rec = &g->recs[g->n_recs++];
    *rec = (ScRaceRecord){.hazards = 1};
    ScCause cause;
    uint64_t x;
    if (sc_report_cause_parse(w[1], &cause)) {
        rec->cause = (uint8_t)cause;
    } else if (parse_u64(g, w[1], &x)) {
        rec->cause = (uint8_t)x;
        cause = SC_CAUSE_MISSING_BARRIER;
    } else {
        return false;
    }
    rec->severity = (uint8_t)sc_report_cause_severity(cause);
    if (!parse_enum(g, w[2], space_names, SC_ARRAY_LEN(space_names), &rec->space) ||
        !parse_u64(g, w[3], &rec->address))
        return false;
    for (size_t i = 4; i < n; i++) {
        const char *v;
        if ((v = value_of(w[i], "hazards")))
            parse_u64(g, v, &rec->hazards);
        else if ((v = value_of(w[i], "severity")))
            parse_enum(g, v, severity_names, SC_ARRAY_LEN(severity_names), &rec->severity);
        else if ((v = value_of(w[i], "sync")))
            parse_enum(g, v, scope_names, SC_ARRAY_LEN(scope_names), &rec->sync_scope);
        else
            return gfail(g, "bad race word '%s'", w[i]);
    }
    return !g->error[0];
}

static bool g_access(Golden *g, char **w, size_t n, bool previous)
{
    if (!g->n_recs || n < 3)
        return gfail(g, "%s", "cur|prev KIND SIZE site=ID thread=x,y,z block=x,y,z, after a race");
    ScRaceRecord *rec = &g->recs[g->n_recs - 1];
    ScRaceAccess *a = previous ? &rec->prev : &rec->cur;
    uint64_t x;
    if (!parse_enum(g, w[1], kind_names, SC_ARRAY_LEN(kind_names), &a->kind) ||
        !parse_u64(g, w[2], &x))
        return false;
    if (a->kind == SC_RACE_KIND_ATOMIC) /* atom and red default to .relaxed */
        a->sem = SC_SEM_RELAXED;
    a->size = (uint16_t)x;
    for (size_t i = 3; i < n; i++) {
        const char *v;
        if ((v = value_of(w[i], "site"))) {
            if (strcmp(v, "none") == 0)
                a->site = SC_REPORT_SITE_NONE;
            else if (parse_u64(g, v, &x))
                a->site = (uint32_t)x;
        } else if ((v = value_of(w[i], "thread"))) {
            parse_dim3(g, v, a->thread);
        } else if ((v = value_of(w[i], "block"))) {
            parse_dim3(g, v, a->block);
        } else if ((v = value_of(w[i], "sem"))) {
            parse_enum(g, v, sem_names, SC_ARRAY_LEN(sem_names), &a->sem);
        } else if ((v = value_of(w[i], "scope"))) {
            parse_enum(g, v, scope_names, SC_ARRAY_LEN(scope_names), &a->scope);
        } else if ((v = value_of(w[i], "who"))) {
            static const char *const who_names[] = {"thread", "warp", "block", "any", "copy"};
            parse_enum(g, v, who_names, SC_ARRAY_LEN(who_names), &a->who);
        } else {
            return gfail(g, "bad access word '%s'", w[i]);
        }
    }
    return !g->error[0];
}

static bool g_alloc(Golden *g, char **w, size_t n)
{
    if (n != 5 || g->allocs.n == SC_ARRAY_LEN(g->allocs.v))
        return gfail(g, "%s", "alloc SERIAL KIND BASE SIZE");
    size_t k = g->allocs.n++;
    ScReportAlloc *a = &g->allocs.v[k];
    uint64_t serial;
    if (!parse_u64(g, w[1], &serial) ||
        !copy_str(g, g->alloc_kind[k], sizeof g->alloc_kind[k], w[2]) ||
        !parse_u64(g, w[3], &a->base) || !parse_u64(g, w[4], &a->size))
        return false;
    a->serial = (unsigned long)serial;
    a->kind = g->alloc_kind[k];
    return true;
}

static bool golden_line(Golden *g, char *line)
{
    char *w[32];
    size_t n = split(line, w, SC_ARRAY_LEN(w));
    if (!n)
        return true;
    if (strcmp(w[0], "config") == 0)
        return g_config(g, w, n);
    if (!ensure_report(g))
        return false;
    if (strcmp(w[0], "frame") == 0)
        return g_frame(g, w, n);
    if (!flush_site(g))
        return false;
    if (strcmp(w[0], "site") == 0)
        return g_site(g, w, n);
    if (strcmp(w[0], "alloc") == 0)
        return g_alloc(g, w, n);
    if (strcmp(w[0], "supp") == 0) {
        /* the rest of the line, as written */
        const char *rule = w[1];
        ScErr err = {0};
        return (n == 2 && sc_report_add_suppressions(g->r, rule, strlen(rule), "golden", &err)) ||
               gfail(g, "bad suppression: %s", err.msg);
    }
    if (strcmp(w[0], "unchecked") == 0) {
        ScErr err = {0};
        return (n == 2 && sc_report_add_unchecked(g->r, w[1], &err)) ||
               gfail(g, "%s", "unchecked NAME");
    }
    if (strcmp(w[0], "launch") == 0)
        return g_launch(g, w, n);
    if (strcmp(w[0], "shared") == 0)
        return g_shared(g, w, n);
    if (strcmp(w[0], "race") == 0)
        return g_race(g, w, n);
    if (strcmp(w[0], "cur") == 0 || strcmp(w[0], "prev") == 0)
        return g_access(g, w, n, w[0][0] == 'p');
    return gfail(g, "unknown line '%s'", w[0]);
}

static void compare_golden(const char *name, const char *ext, const ScBuf *out)
{
    char expected[512];
    snprintf(expected, sizeof expected, GOLDEN_DIR "/%s.%s.expected", name, ext);
    sc_golden_compare(expected, out->data, out->len);
}

static void run_golden(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, GOLDEN_DIR "/%s.in", name);
    size_t len;
    char *input = ptxt_read_file(path, &len);
    CHECK(input != NULL);
    if (!input)
        return;
    Golden *g = calloc(1, sizeof *g);
    g->name = name;
    sc_report_config_init(&g->cfg, 4242);
    g->cfg.version = "0.1.0";
    for (char *line = input, *next; line && !g->error[0]; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        g->lineno++;
        golden_line(g, line);
    }
    if (!g->error[0] && ensure_report(g) && flush_site(g))
        flush_launch(g);
    if (g->error[0]) {
        printf("%s\n", g->error);
        sc_test_checks_failed++;
    } else {
        ScBuf json = {0}, sarif = {0};
        sc_report_emit_summary(g->r, &g->text);
        sc_report_emit_json(g->r, &json);
        sc_report_emit_sarif(g->r, &sarif);
        CHECK_JSON(&json);
        CHECK_JSON(&sarif);
        compare_golden(name, "txt", &g->text);
        compare_golden(name, "json", &json);
        compare_golden(name, "sarif", &sarif);
        sc_buf_free(&json);
        sc_buf_free(&sarif);
    }
    sc_buf_free(&g->text);
    sc_report_free(g->r);
    free(g);
    free(input);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

TEST(golden_reports)
{
    DIR *d = opendir(GOLDEN_DIR);
    CHECK(d != NULL);
    if (!d) {
        printf("cannot open %s (run from the repository root)\n", GOLDEN_DIR);
        return;
    }
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < SC_ARRAY_LEN(names)) {
        size_t len = strlen(e->d_name);
        if (len > 3 && strcmp(e->d_name + len - 3, ".in") == 0)
            names[n++] = strndup(e->d_name, len - 3);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    CHECK(n >= 5);
    for (size_t i = 0; i < n; i++) {
        run_golden(names[i]);
        free(names[i]);
    }
}

int main(void)
{
    RUN(dedup_folds_unordered_pairs_and_keeps_first);
    RUN(summarized_partner_is_not_named_as_the_recorded_thread);
    RUN(async_copy_write_says_when_it_lands);
    RUN(print_limit_counts_what_it_hides);
    RUN(counts_keep_severities_apart);
    RUN(dropped_and_malformed_records_are_never_silent);
    RUN(severity_level_filters_records);
    RUN(names_round_trip);
    RUN(demangles_through_libstdcxx);
    RUN(short_names_drop_parameters_and_return_type);
    RUN(escaping_keeps_documents_valid);
    RUN(json_checker_rejects_what_it_must);
    RUN(suppression_patterns_match_like_tsan);
    RUN(suppression_types_choose_what_they_match);
    RUN(suppressions_count_hits_and_print_them);
    RUN(suppression_errors_point_at_the_line);
    RUN(suppressions_load_from_a_file);
    RUN(sites_resolve_replace_and_stay_unknown);
    RUN(unnamed_previous_access_folds_into_named_twin);
    RUN(opposite_arms_make_a_divergent_branch_race);
    RUN(global_addresses_name_their_allocation);
    RUN(late_races_count_their_launch_once);
    RUN(golden_reports);
    return TEST_REPORT();
}
