/* report_sarif.c: the report as one SARIF 2.1.0 log (one run, one result per distinct race). */
#include "report/report_int.h"

#include <inttypes.h>
#include <string.h>

static void key_string(ScReportJson *j, const char *key, const char *s)
{
    sc_report_json_key(j, key);
    sc_report_json_string(j, s);
}

static void key_u64(ScReportJson *j, const char *key, uint64_t v)
{
    sc_report_json_key(j, key);
    sc_report_json_u64(j, v);
}

static void message(ScReportJson *j, const char *text)
{
    sc_report_json_key(j, "message");
    sc_report_json_object(j);
    key_string(j, "text", text);
    sc_report_json_end_object(j);
}

/* A file name as a URI reference: absolute paths become file:// URIs, relative
 * ones stay relative; every byte outside RFC 3986's unreserved set and '/' is
 * percent-encoded (':' too, so a relative name never reads as a scheme). */
static void put_uri(ScBuf *out, const char *file)
{
    if (file[0] == '/')
        sc_buf_puts(out, "file://");
    for (const unsigned char *p = (const unsigned char *)file; *p; p++) {
        unsigned char c = *p;
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                     c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (plain)
            sc_buf_append(out, p, 1);
        else
            sc_buf_printf(out, "%%%02X", c);
    }
}

static void physical(ScReportJson *j, const ScReportFrameInfo *f)
{
    ScBuf uri = {0};
    put_uri(&uri, f->file);
    sc_report_json_key(j, "physicalLocation");
    sc_report_json_object(j);
    sc_report_json_key(j, "artifactLocation");
    sc_report_json_object(j);
    key_string(j, "uri", uri.data ? uri.data : "");
    sc_report_json_end_object(j);
    sc_buf_free(&uri);
    if (f->line) {
        sc_report_json_key(j, "region");
        sc_report_json_object(j);
        key_u64(j, "startLine", f->line);
        if (f->column)
            key_u64(j, "startColumn", f->column);
        sc_report_json_end_object(j);
    }
    sc_report_json_end_object(j);
}

static void logical(ScReportJson *j, const ScReportFrameInfo *f)
{
    sc_report_json_key(j, "logicalLocations");
    sc_report_json_array(j);
    sc_report_json_object(j);
    key_string(j, "fullyQualifiedName", f->function);
    if (strcmp(f->function, f->function_mangled) != 0)
        key_string(j, "decoratedName", f->function_mangled);
    key_string(j, "kind", "function");
    sc_report_json_end_object(j);
    sc_report_json_end_array(j);
}

/* "write of size 4 by thread (5,0,0) in block (1,0,0) (PTX line 120)" */
static void describe_side(const ScReportRace *race, bool previous, ScBuf *out)
{
    const ScRaceAccess *a = previous ? &race->rec.prev : &race->rec.cur;
    const ScReportSiteInfo *s = previous ? &race->prev : &race->cur;
    if (race->rec.cause == SC_CAUSE_BARRIER_DIVERGENCE) {
        sc_buf_puts(out, previous ? "not reached by thread " : "barrier reached by thread ");
    } else {
        sc_report_text_access(a, previous, false, out);
        sc_buf_puts(out, " by ");
    }
    if (race->rec.cause == SC_CAUSE_BARRIER_DIVERGENCE) {
        sc_report_text_dim3(a->thread, out);
        sc_buf_puts(out, " in block ");
        sc_report_text_dim3(a->block, out);
    } else {
        sc_report_text_thread(a, out);
    }
    if (a->kind == SC_RACE_KIND_EXIT)
        sc_buf_puts(out, ", which exited");
    else if (previous && a->kind == SC_RACE_KIND_BARRIER)
        sc_buf_puts(out, ", which waits at another barrier");
    if (s->known)
        sc_buf_printf(out, " (PTX line %" PRIu32 ")", s->ptx_line);
    else if (s->id != SC_REPORT_SITE_NONE)
        sc_buf_printf(out, " (unknown site %" PRIu32 ")", s->id);
}

static void location(ScReportJson *j, const ScReportRace *race, bool previous)
{
    const ScReportSiteInfo *s = previous ? &race->prev : &race->cur;
    sc_report_json_object(j);
    if (previous)
        key_u64(j, "id", 1);
    if (s->known) {
        if (s->frames[0].file)
            physical(j, &s->frames[0]);
        logical(j, &s->frames[0]);
    }
    ScBuf text = {0};
    describe_side(race, previous, &text);
    message(j, text.data ? text.data : "");
    sc_buf_free(&text);
    sc_report_json_end_object(j);
}

/* The inlined-at chain of a site as a SARIF stack, innermost frame first. */
static void stack(ScReportJson *j, const ScReportSiteInfo *s, const char *what)
{
    sc_report_json_object(j);
    message(j, what);
    sc_report_json_key(j, "frames");
    sc_report_json_array(j);
    for (size_t i = 0; i < s->n_frames; i++) {
        sc_report_json_object(j);
        sc_report_json_key(j, "location");
        sc_report_json_object(j);
        if (s->frames[i].file)
            physical(j, &s->frames[i]);
        logical(j, &s->frames[i]);
        sc_report_json_end_object(j);
        sc_report_json_end_object(j);
    }
    sc_report_json_end_array(j);
    sc_report_json_end_object(j);
}

static const char *level(ScSeverity s)
{
    switch (s) {
    case SC_SEVERITY_INFO:
        return "note";
    case SC_SEVERITY_WARNING:
        return "warning";
    case SC_SEVERITY_ERROR:
        return "error";
    }
    return "none";
}

static void rule_id(ScCause cause, ScBuf *out)
{
    sc_buf_printf(out, "scord/%s", sc_report_cause_name(cause));
}

static void result_message(const ScReportRace *race, ScBuf *out)
{
    ScCause cause = (ScCause)race->rec.cause;
    const char *title = sc_report_cause_title(cause);
    sc_buf_printf(out, "%c%s", title[0] - 'a' + 'A', title + 1);
    if (race->rec.space != SC_RACE_SPACE_NONE) {
        sc_buf_puts(out, race->rec.space == SC_RACE_SPACE_SHARED ? " on __shared__ memory at "
                                                                  : " on global memory at ");
        sc_report_text_address(race, out);
    }
    sc_buf_puts(out, ": ");
    describe_side(race, false, out);
    sc_buf_puts(out, "; ");
    describe_side(race, true, out);
    sc_buf_printf(out, "; kernel %s launch #%" PRIu64 ". ", race->kernel, race->launch);
    sc_report_text_reason(race, out);
    sc_buf_printf(out, " [%" PRIu64 " hazard%s]", race->hazards, race->hazards == 1 ? "" : "s");
}

static void put_result(ScReportJson *j, const ScReportRace *race)
{
    ScCause cause = (ScCause)race->rec.cause;
    ScBuf b = {0};
    rule_id(cause, &b);
    sc_report_json_object(j);
    key_string(j, "ruleId", b.data ? b.data : "");
    key_u64(j, "ruleIndex", cause);
    key_string(j, "level", level((ScSeverity)race->rec.severity));
    sc_buf_free(&b);
    result_message(race, &b);
    message(j, b.data ? b.data : "");
    sc_buf_free(&b);
    sc_report_json_key(j, "locations");
    sc_report_json_array(j);
    location(j, race, false);
    sc_report_json_end_array(j);
    sc_report_json_key(j, "relatedLocations");
    sc_report_json_array(j);
    location(j, race, true);
    sc_report_json_end_array(j);
    if (race->cur.known || race->prev.known) {
        sc_report_json_key(j, "stacks");
        sc_report_json_array(j);
        if (race->cur.known)
            stack(j, &race->cur, "current access");
        if (race->prev.known)
            stack(j, &race->prev, "previous access");
        sc_report_json_end_array(j);
    }
    key_u64(j, "occurrenceCount", race->hazards ? race->hazards : 1);
    sc_report_json_key(j, "properties");
    sc_report_json_object(j);
    key_u64(j, "id", race->id);
    key_string(j, "cause", sc_report_cause_name(cause));
    key_string(j, "space", sc_report_space_name((ScRaceSpace)race->rec.space));
    key_string(j, "relation", sc_report_relation(race));
    key_u64(j, "hazards", race->hazards);
    key_string(j, "kernel", race->kernel);
    key_u64(j, "launch", race->launch);
    if (race->previous_kernel) {
        key_string(j, "previous_kernel", race->previous_kernel);
        key_u64(j, "previous_launch", race->previous_launch);
    }
    sc_report_json_end_object(j);
    sc_report_json_end_object(j);
}

static void put_rules(ScReportJson *j)
{
    sc_report_json_key(j, "rules");
    sc_report_json_array(j);
    for (int c = 0; c < SC_CAUSE_COUNT_; c++) {
        ScBuf b = {0};
        sc_report_json_object(j);
        rule_id((ScCause)c, &b);
        key_string(j, "id", b.data ? b.data : "");
        sc_buf_free(&b);
        sc_buf_printf(&b, "%s: %s", sc_report_cause_title((ScCause)c),
                      sc_report_cause_reason((ScCause)c));
        sc_report_json_key(j, "shortDescription");
        sc_report_json_object(j);
        key_string(j, "text", b.data ? b.data : "");
        sc_report_json_end_object(j);
        sc_buf_free(&b);
        sc_report_json_key(j, "defaultConfiguration");
        sc_report_json_object(j);
        key_string(j, "level", level(sc_report_cause_severity((ScCause)c)));
        sc_report_json_end_object(j);
        sc_report_json_end_object(j);
    }
    sc_report_json_end_array(j);
}

void sc_report_emit_sarif(const ScReport *r, ScBuf *out)
{
    ScReportJson j = {.out = out};
    sc_report_json_object(&j);
    key_string(&j, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    key_string(&j, "version", "2.1.0");
    sc_report_json_key(&j, "runs");
    sc_report_json_array(&j);
    sc_report_json_object(&j);
    sc_report_json_key(&j, "tool");
    sc_report_json_object(&j);
    sc_report_json_key(&j, "driver");
    sc_report_json_object(&j);
    key_string(&j, "name", "scord");
    key_string(&j, "version", r->cfg.version);
    put_rules(&j);
    sc_report_json_end_object(&j);
    sc_report_json_end_object(&j);
    sc_report_json_key(&j, "results");
    sc_report_json_array(&j);
    for (size_t i = 0; i < r->n_races; i++) {
        if (r->races[i].state == SC_REPORT_RACE_REPORTED)
            put_result(&j, &r->races[i]);
    }
    sc_report_json_end_array(&j);
    sc_report_json_key(&j, "properties");
    sc_report_json_counts(&j, r);
    sc_report_json_end_object(&j);
    sc_report_json_end_array(&j);
    sc_report_json_end_object(&j);
    sc_buf_puts(out, "\n");
}
