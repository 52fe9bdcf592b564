/* report_text.c: the human report: one TSan-shaped block per race and the closing summary. */
#include "report/report_int.h"

#include <inttypes.h>
#include <string.h>

/* Names come from the program's binaries: a control character in one must not
 * break the block structure of the log. */
static void put_name(ScBuf *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        sc_buf_append(out, c < 0x20 || c == 0x7f ? "?" : p, 1);
    }
}

static const char *plural(uint64_t n, const char *many)
{
    return n == 1 ? "" : many;
}

void sc_report_text_dim3(const uint32_t v[3], ScBuf *out)
{
    sc_buf_printf(out, "(%" PRIu32 ",%" PRIu32 ",%" PRIu32 ")", v[0], v[1], v[2]);
}

void sc_report_text_access(const ScRaceAccess *a, bool previous, bool capital, ScBuf *out)
{
    ScRaceKind kind = (ScRaceKind)a->kind;
    const char *word = "";
    switch (kind) {
    case SC_RACE_KIND_READ:
        word = "read";
        break;
    case SC_RACE_KIND_WRITE:
        word = "write";
        break;
    case SC_RACE_KIND_ATOMIC:
        word = "atomic write";
        break;
    case SC_RACE_KIND_BARRIER:
        word = "barrier";
        break;
    case SC_RACE_KIND_EXIT:
        word = "exit";
        break;
    }
    char first = word[0];
    if (previous)
        sc_buf_puts(out, capital ? "Previous " : "previous ");
    else if (capital)
        first = (char)(first - 'a' + 'A');
    sc_buf_append(out, &first, 1);
    sc_buf_puts(out, word + 1);
    if (a->size)
        sc_buf_printf(out, " of size %u", (unsigned)a->size);

    /* Only what differs from the plain form: weak for ld/st, relaxed for atom. */
    ScSem sem = sc_report_access_sem(a);
    ScScope scope = (ScScope)a->scope;
    bool show_sem = sem != (kind == SC_RACE_KIND_ATOMIC ? SC_SEM_RELAXED : SC_SEM_WEAK);
    bool show_scope = scope != SC_SCOPE_NONE && sem != SC_SEM_VOLATILE;
    if (show_sem || show_scope) {
        sc_buf_puts(out, " (");
        if (show_sem)
            sc_buf_puts(out, sc_sem_name(sem));
        if (show_scope)
            sc_buf_printf(out, "%sscope .%s", show_sem ? ", " : "", sc_scope_name(scope));
        sc_buf_puts(out, ")");
    }
}

/* "thread (5,0,0) in block (1,0,0)", or, for an access the shadow summarized, how
 * far from the thread it recorded the access may lie. */
void sc_report_text_thread(const ScRaceAccess *a, ScBuf *out)
{
    switch ((ScRaceWho)a->who) {
    case SC_RACE_WHO_THREAD:
        break;
    case SC_RACE_WHO_WARP:
        sc_buf_puts(out, "a thread of the warp of ");
        break;
    case SC_RACE_WHO_BLOCK:
        sc_buf_puts(out, "a thread of block ");
        sc_report_text_dim3(a->block, out);
        return;
    case SC_RACE_WHO_ANY:
        sc_buf_puts(out, "a thread scord did not record");
        return;
    case SC_RACE_WHO_COPY:
        sc_buf_puts(out, "an asynchronous copy or memset the host issued on another stream");
        return;
    }
    sc_buf_puts(out, "thread ");
    sc_report_text_dim3(a->thread, out);
    sc_buf_puts(out, " in block ");
    sc_report_text_dim3(a->block, out);
}

void sc_report_text_address(const ScReportRace *race, ScBuf *out)
{
    uint64_t a = race->rec.address;
    switch ((ScRaceSpace)race->rec.space) {
    case SC_RACE_SPACE_SHARED:
        sc_buf_printf(out, "0x%06" PRIx64 " (__shared__", a);
        if (race->symbol) {
            sc_buf_puts(out, " '");
            put_name(out, race->symbol);
            sc_buf_puts(out, "'");
            if (race->symbol_offset)
                sc_buf_printf(out, "+%" PRIu64, race->symbol_offset);
        }
        sc_buf_puts(out, ")");
        break;
    case SC_RACE_SPACE_GLOBAL:
        sc_buf_printf(out, "0x%" PRIx64, a);
        if (race->has_alloc) {
            sc_buf_puts(out, " (");
            put_name(out, race->alloc.kind);
            sc_buf_printf(out,
                          " allocation #%lu of %" PRIu64 " bytes at 0x%" PRIx64
                          ", offset %" PRIu64 ")",
                          race->alloc.serial, race->alloc.size, race->alloc.base,
                          a - race->alloc.base);
        } else {
            sc_buf_puts(out, " (global, in no allocation scord tracks)");
        }
        break;
    case SC_RACE_SPACE_NONE:
        break;
    }
}

/* The cluster holding a block; without clusters every block is its own. */
static void cluster_of(const ScReportRace *race, const uint32_t block[3], uint32_t out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = race->cluster[i] ? block[i] / race->cluster[i] : block[i];
}

static bool scope_includes(const ScReportRace *race, ScScope scope, const uint32_t a[3],
                           const uint32_t b[3])
{
    uint32_t ca[3], cb[3];
    switch (scope) {
    case SC_SCOPE_NONE:
        return false;
    case SC_SCOPE_CTA:
        return memcmp(a, b, 3 * sizeof *a) == 0;
    case SC_SCOPE_CLUSTER:
        cluster_of(race, a, ca);
        cluster_of(race, b, cb);
        return memcmp(ca, cb, sizeof ca) == 0;
    case SC_SCOPE_GPU:
    case SC_SCOPE_SYS:
        return true;
    }
    return false;
}

/* "block (0,0,0)" or, for cluster scope, "cluster (0,0,0)". */
static void scope_unit(const ScReportRace *race, ScScope scope, const uint32_t block[3],
                       ScBuf *out)
{
    if (scope == SC_SCOPE_CLUSTER) {
        uint32_t c[3];
        cluster_of(race, block, c);
        sc_buf_puts(out, "cluster ");
        sc_report_text_dim3(c, out);
    } else {
        sc_buf_puts(out, "block ");
        sc_report_text_dim3(block, out);
    }
}

/* Why two accesses with scopes are not morally strong: which thread falls
 * outside which scope. */
static void explain_access_scopes(const ScReportRace *race, ScBuf *out)
{
    const ScRaceAccess *side[2] = {&race->rec.cur, &race->rec.prev};
    const char *name[2] = {"current", "previous"};
    const char *sep = ": ";
    if (race->rec.prev.who == SC_RACE_WHO_ANY) {
        sc_buf_puts(out, ": the previous access's block was not recorded");
        return;
    }
    for (int i = 0; i < 2; i++) {
        const ScRaceAccess *a = side[i], *o = side[1 - i];
        ScScope scope = (ScScope)a->scope;
        if (scope == SC_SCOPE_NONE) {
            sc_buf_printf(out, "%sthe %s access is weak (it has no scope)", sep, name[i]);
            sep = "; ";
        } else if (!scope_includes(race, scope, a->block, o->block)) {
            sc_buf_printf(out, "%sscope .%s of the %s access (", sep, sc_scope_name(scope),
                          name[i]);
            scope_unit(race, scope, a->block, out);
            sc_buf_printf(out, ") does not include the %s access's block ", name[1 - i]);
            sc_report_text_dim3(o->block, out);
            if (scope == SC_SCOPE_CLUSTER) {
                sc_buf_puts(out, " in ");
                scope_unit(race, scope, o->block, out);
            }
            sep = "; ";
        }
    }
}

/* fence_scope and lock_scope: the synchronization's scope against both threads. */
static void explain_sync_scope(const ScReportRace *race, ScBuf *out)
{
    ScScope scope = (ScScope)race->rec.sync_scope;
    if (scope == SC_SCOPE_NONE)
        return;
    const uint32_t *a = race->rec.cur.block, *b = race->rec.prev.block;
    sc_buf_printf(out, ": scope .%s", sc_scope_name(scope));
    if (race->rec.prev.who == SC_RACE_WHO_ANY) {
        sc_buf_puts(out, " (the previous access's block was not recorded)");
        return;
    }
    if (scope_includes(race, scope, a, b))
        return;
    sc_buf_puts(out, " does not include both ");
    scope_unit(race, scope, a, out);
    sc_buf_puts(out, " and ");
    scope_unit(race, scope, b, out);
}

void sc_report_text_reason(const ScReportRace *race, ScBuf *out)
{
    ScCause cause = (ScCause)race->rec.cause;
    const char *relation = sc_report_relation(race);
    sc_buf_puts(out, cause == SC_CAUSE_BARRIER_DIVERGENCE ? "Barrier divergence (" : "Not ordered (");
    uint32_t ta = sc_report_linear_thread(race, &race->rec.cur);
    uint32_t tb = sc_report_linear_thread(race, &race->rec.prev);
    ScRaceWho who = (ScRaceWho)race->rec.prev.who;
    if (strcmp(relation, "same_warp") == 0 && who == SC_RACE_WHO_THREAD)
        sc_buf_printf(out, "same warp, lanes %u and %u", ta % 32, tb % 32);
    else if (strcmp(relation, "same_warp") == 0)
        sc_buf_printf(out, "same warp %u", ta / 32);
    else if (strcmp(relation, "same_block") == 0 && who != SC_RACE_WHO_BLOCK)
        sc_buf_printf(out, "same block, warps %u and %u", ta / 32, tb / 32);
    else if (strcmp(relation, "same_block") == 0)
        sc_buf_puts(out, "same block");
    else if (strcmp(relation, "unknown") == 0)
        sc_buf_puts(out, "the other thread was not recorded");
    else if (strcmp(relation, "different_grids") == 0)
        sc_buf_puts(out, "different grids");
    else if (strcmp(relation, "kernel_and_copy") == 0)
        sc_buf_puts(out, "a kernel and a copy");
    else
        sc_buf_puts(out, "different blocks");
    sc_buf_puts(out, "): ");
    sc_buf_puts(out, sc_report_cause_reason(cause));
    if (race->cur.async_copy || race->prev.async_copy)
        sc_buf_puts(out, "; the write is a cp.async's, which lands between its issue and the wait that "
                         "completes its group (cp.async.wait_group or wait_all, or the mbarrier of a "
                         "cp.async.mbarrier.arrive): the other access must be ordered before the issue "
                         "or after that wait");
    switch (cause) {
    case SC_CAUSE_ATOMIC_SCOPE:
        explain_access_scopes(race, out);
        break;
    case SC_CAUSE_FENCE_SCOPE:
    case SC_CAUSE_LOCK_SCOPE:
        explain_sync_scope(race, out);
        break;
    case SC_CAUSE_MISSING_BARRIER:
    case SC_CAUSE_MISSING_SYNCWARP:
    case SC_CAUSE_DIVERGENT_BRANCH:
    case SC_CAUSE_SAME_STORE_LANES:
    case SC_CAUSE_SAME_STORE_LANES_BENIGN:
    case SC_CAUSE_UNSYNCHRONIZED_BLOCKS:
    case SC_CAUSE_ATOMIC_VS_PLAIN:
    case SC_CAUSE_MISSING_FENCE:
    case SC_CAUSE_LOCK_MISSING:
    case SC_CAUSE_LOCK_NO_FENCE:
    case SC_CAUSE_NON_STRONG_SYNC:
    case SC_CAUSE_GRID_DEPENDENCY:
    case SC_CAUSE_STRONG_VS_RMW:
    case SC_CAUSE_BARRIER_DIVERGENCE:
    case SC_CAUSE_GRID_COMPLETION:
    case SC_CAUSE_UNORDERED_STREAMS:
    case SC_CAUSE_COUNT_:
        break;
    }
}

static void put_frames(const ScReportSiteInfo *site, ScBuf *out)
{
    if (site->id == SC_REPORT_SITE_NONE)
        return;
    if (!site->known) {
        sc_buf_printf(out, "    #0 <unknown site %" PRIu32 ">\n", site->id);
        return;
    }
    for (size_t i = 0; i < site->n_frames; i++) {
        const ScReportFrameInfo *f = &site->frames[i];
        sc_buf_printf(out, "    #%zu ", i);
        put_name(out, f->function);
        if (f->file) {
            sc_buf_puts(out, " ");
            put_name(out, f->file);
            sc_buf_printf(out, ":%" PRIu32, f->line);
        }
        if (i == 0)
            sc_buf_printf(out, " (PTX line %" PRIu32 ")", site->ptx_line);
        sc_buf_puts(out, "\n");
    }
}

static void put_thread(const ScRaceAccess *a, ScBuf *out)
{
    sc_report_text_thread(a, out);
}

static void put_accesses(const ScReportRace *race, ScBuf *out)
{
    sc_buf_puts(out, "  ");
    sc_report_text_access(&race->rec.cur, false, true, out);
    sc_buf_puts(out, " at ");
    sc_report_text_address(race, out);
    sc_buf_puts(out, " by ");
    put_thread(&race->rec.cur, out);
    sc_buf_puts(out, race->rec.cur.who == SC_RACE_WHO_COPY ? "\n" : ":\n");
    put_frames(&race->cur, out);
    /* The address is the current access's; a previous access of another size
     * may start elsewhere, so its line gives none. */
    sc_buf_puts(out, "  ");
    sc_report_text_access(&race->rec.prev, true, true, out);
    sc_buf_puts(out, " by ");
    put_thread(&race->rec.prev, out);
    sc_buf_puts(out, race->rec.prev.who == SC_RACE_WHO_COPY     ? "\n"
                     : race->prev.id == SC_REPORT_SITE_NONE ? " (instruction not recorded)\n"
                                                             : ":\n");
    put_frames(&race->prev, out);
}

static void put_divergence(const ScReportRace *race, ScBuf *out)
{
    sc_buf_puts(out, "  Barrier reached by ");
    put_thread(&race->rec.cur, out);
    sc_buf_puts(out, ":\n");
    put_frames(&race->cur, out);
    sc_buf_puts(out, "  Not reached by ");
    put_thread(&race->rec.prev, out);
    sc_buf_puts(out, race->rec.prev.kind == SC_RACE_KIND_EXIT ? ", which exited"
                                                              : ", which waits at another barrier");
    sc_buf_puts(out, race->prev.id == SC_REPORT_SITE_NONE ? "\n" : ":\n");
    put_frames(&race->prev, out);
}

static void put_summary_line(const ScReportRace *race, const char *title, ScBuf *out)
{
    sc_buf_printf(out, "SUMMARY: scord: %s ", title);
    /* A copy has no line of its own: the kernel's access names the race. */
    const ScReportSiteInfo *s = race->rec.cur.who == SC_RACE_WHO_COPY ? &race->prev : &race->cur;
    if (!s->known) {
        sc_buf_puts(out, "in ");
        put_name(out, race->kernel);
    } else {
        const ScReportFrameInfo *f = &s->frames[0];
        if (f->file) {
            put_name(out, f->file);
            sc_buf_printf(out, ":%" PRIu32, f->line);
        } else {
            sc_buf_printf(out, "(PTX line %" PRIu32 ")", s->ptx_line);
        }
        sc_buf_puts(out, " in ");
        put_name(out, f->function);
    }
    sc_buf_puts(out, "\n");
}

void sc_report_text_race(const ScReport *r, const ScReportRace *race, ScBuf *out)
{
    ScCause cause = (ScCause)race->rec.cause;
    const char *title = sc_report_cause_title(cause);
    const char *space = "";
    switch ((ScRaceSpace)race->rec.space) {
    case SC_RACE_SPACE_SHARED:
        space = " on __shared__ memory";
        break;
    case SC_RACE_SPACE_GLOBAL:
        space = " on global memory";
        break;
    case SC_RACE_SPACE_NONE:
        break;
    }
    sc_buf_puts(out, "==================\n");
    sc_buf_printf(out, "%s: scord: %s%s (pid=%ld)\n",
                  race->rec.severity == SC_SEVERITY_INFO ? "INFO" : "WARNING", title, space,
                  r->cfg.pid);
    if (cause == SC_CAUSE_BARRIER_DIVERGENCE)
        put_divergence(race, out);
    else
        put_accesses(race, out);
    sc_buf_puts(out, "  ");
    sc_report_text_reason(race, out);
    sc_buf_printf(out, " [%" PRIu64 " hazard%s]\n", race->hazards, plural(race->hazards, "s"));
    ScBuf name = {0};
    sc_report_short_name(race->kernel, &name);
    sc_buf_puts(out, "  Kernel '");
    put_name(out, name.data ? name.data : "");
    sc_buf_free(&name);
    sc_buf_printf(out, "' launch #%" PRIu64 ", grid ", race->launch);
    sc_report_text_dim3(race->grid, out);
    sc_buf_puts(out, " block ");
    sc_report_text_dim3(race->block, out);
    if (race->cluster[0] || race->cluster[1] || race->cluster[2]) {
        sc_buf_puts(out, " cluster ");
        sc_report_text_dim3(race->cluster, out);
    }
    if (race->module) {
        sc_buf_puts(out, ", module ");
        put_name(out, race->module);
    }
    sc_buf_puts(out, "\n");
    if (race->previous_kernel) {
        sc_report_short_name(race->previous_kernel, &name);
        sc_buf_puts(out, "  Previous access's kernel '");
        put_name(out, name.data ? name.data : "");
        sc_buf_free(&name);
        sc_buf_printf(out, "' launch #%" PRIu64 "\n", race->previous_launch);
    }
    put_summary_line(race, title, out);
    sc_buf_puts(out, "==================\n");
}

static bool lacks_lines(const ScReportSiteInfo *s)
{
    return s->known && !s->frames[0].file;
}

/* The functions of reported races whose accesses have no source lines. */
static void put_lineinfo_hint(const ScReport *r, ScBuf *out)
{
    enum { SHOWN = 3 };
    const char *names[SHOWN];
    size_t n = 0;
    bool more = false;
    for (size_t i = 0; i < r->n_races; i++) {
        const ScReportRace *race = &r->races[i];
        if (race->state != SC_REPORT_RACE_REPORTED)
            continue;
        const ScReportSiteInfo *sides[2] = {&race->cur, &race->prev};
        for (int k = 0; k < 2; k++) {
            if (!lacks_lines(sides[k]))
                continue;
            const char *fn = sides[k]->ptx_function;
            bool seen = false;
            for (size_t j = 0; j < n; j++)
                seen |= names[j] == fn; /* interned: equal names are one pointer */
            if (seen)
                continue;
            if (n < SHOWN)
                names[n++] = fn;
            else
                more = true;
        }
    }
    if (!n)
        return;
    sc_buf_puts(out, "scord: hint: no source lines for ");
    for (size_t j = 0; j < n; j++) {
        sc_buf_puts(out, j ? ", " : "");
        put_name(out, names[j]);
    }
    if (more)
        sc_buf_puts(out, " and more");
    sc_buf_puts(out, "; rebuild with nvcc -lineinfo to see file:line\n");
}

void sc_report_emit_summary(const ScReport *r, ScBuf *out)
{
    const ScReportCounts *c = &r->counts;
    if (c->dropped)
        sc_buf_printf(out,
                      "scord: warning: %" PRIu64 " race occurrence%s could not be recorded by the "
                      "device (its race table was full, or the race's entry was still being "
                      "written) or came back malformed: hazard counts are low, and races may be "
                      "missing\n",
                      c->dropped, plural(c->dropped, "s"));
    if (c->not_printed)
        sc_buf_printf(out,
                      "scord: %" PRIu64 " more race%s not printed (print_limit %u; "
                      "--print-limit=0 prints all)\n",
                      c->not_printed, plural(c->not_printed, "s"), r->cfg.print_limit);
    put_lineinfo_hint(r, out);
    size_t matched = 0;
    for (size_t i = 0; i < r->n_supps; i++)
        matched += r->supps[i].hits > 0;
    if (matched) {
        sc_buf_printf(out, "scord: matched %zu suppression%s:\n", matched, plural(matched, "s"));
        for (size_t i = 0; i < r->n_supps; i++) {
            const ScReportSupp *s = &r->supps[i];
            if (!s->hits)
                continue;
            sc_buf_printf(out, "  %" PRIu64 " %s:", s->hits, sc_report_supp_type_name(s->type));
            put_name(out, s->pattern);
            sc_buf_puts(out, "\n");
        }
    }
    sc_buf_printf(out,
                  "scord: reported %" PRIu64 " race%s (%" PRIu64 " hazard%s) in %" PRIu64
                  " of %" PRIu64 " kernel launch%s; %" PRIu64 " suppressed\n",
                  c->races, plural(c->races, "s"), c->hazards, plural(c->hazards, "s"),
                  c->launches_with_races, c->launches, plural(c->launches, "es"), c->suppressed);
}
