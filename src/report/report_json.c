/* report_json.c: a JSON writer that cannot produce an invalid document, and the JSON report. */
#include "report/report_int.h"

#include <inttypes.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not one:
 * overlong forms, surrogates and code points past U+10FFFF are invalid. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    if (!n || c >= 0xf5 || c == 0xc0 || c == 0xc1)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) /* also stops at the terminating NUL */
            return 0;
    }
    if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0) ||
        (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))
        return 0;
    return n;
}

void sc_report_json_escape(ScBuf *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    sc_buf_puts(out, "\"");
    while (*p) {
        unsigned char c = *p;
        size_t n = utf8_len(p);
        if (!n) {
            /* File names and symbols are bytes; JSON is UTF-8. */
            sc_buf_puts(out, "\\ufffd");
            p++;
            continue;
        }
        if (n > 1) {
            sc_buf_append(out, p, n);
        } else if (c == '"' || c == '\\') {
            sc_buf_printf(out, "\\%c", c);
        } else if (c == '\n') {
            sc_buf_puts(out, "\\n");
        } else if (c == '\t') {
            sc_buf_puts(out, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            sc_buf_printf(out, "\\u%04x", c);
        } else {
            sc_buf_append(out, p, 1);
        }
        p += n;
    }
    sc_buf_puts(out, "\"");
}

static void newline(ScReportJson *j)
{
    sc_buf_puts(j->out, "\n");
    for (unsigned i = 0; i < j->depth; i++)
        sc_buf_puts(j->out, "  ");
}

/* Separator and indent before a value; a value after a key stays on its line. */
static void before_value(ScReportJson *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth) {
        if (!j->first)
            sc_buf_puts(j->out, ",");
        newline(j);
    }
    j->first = false;
}

static void open_container(ScReportJson *j, const char *bracket)
{
    before_value(j);
    sc_buf_puts(j->out, bracket);
    j->depth++;
    j->first = true;
}

static void close_container(ScReportJson *j, const char *bracket)
{
    j->depth--;
    if (!j->first)
        newline(j);
    sc_buf_puts(j->out, bracket);
    j->first = false;
}

void sc_report_json_object(ScReportJson *j)
{
    open_container(j, "{");
}

void sc_report_json_array(ScReportJson *j)
{
    open_container(j, "[");
}

void sc_report_json_end_object(ScReportJson *j)
{
    close_container(j, "}");
}

void sc_report_json_end_array(ScReportJson *j)
{
    close_container(j, "]");
}

void sc_report_json_key(ScReportJson *j, const char *key)
{
    before_value(j);
    sc_report_json_escape(j->out, key);
    sc_buf_puts(j->out, ": ");
    j->after_key = true;
}

void sc_report_json_string(ScReportJson *j, const char *s)
{
    before_value(j);
    if (s)
        sc_report_json_escape(j->out, s);
    else
        sc_buf_puts(j->out, "null");
}

void sc_report_json_u64(ScReportJson *j, uint64_t v)
{
    before_value(j);
    sc_buf_printf(j->out, "%" PRIu64, v);
}

void sc_report_json_int(ScReportJson *j, long long v)
{
    before_value(j);
    sc_buf_printf(j->out, "%lld", v);
}

void sc_report_json_null(ScReportJson *j)
{
    before_value(j);
    sc_buf_puts(j->out, "null");
}

void sc_report_json_hex(ScReportJson *j, uint64_t v)
{
    before_value(j);
    sc_buf_printf(j->out, "\"0x%" PRIx64 "\"", v);
}

void sc_report_json_dim3(ScReportJson *j, const uint32_t v[3])
{
    before_value(j);
    sc_buf_printf(j->out, "[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "]", v[0], v[1], v[2]);
}

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

static void key_null(ScReportJson *j, const char *key)
{
    sc_report_json_key(j, key);
    sc_report_json_null(j);
}

static void put_address(ScReportJson *j, const ScReportRace *race)
{
    sc_report_json_key(j, "address");
    switch ((ScRaceSpace)race->rec.space) {
    case SC_RACE_SPACE_SHARED:
        sc_report_json_object(j);
        key_u64(j, "shared_offset", race->rec.address);
        key_string(j, "symbol", race->symbol);
        if (race->symbol)
            key_u64(j, "symbol_offset", race->symbol_offset);
        else
            key_null(j, "symbol_offset");
        sc_report_json_end_object(j);
        break;
    case SC_RACE_SPACE_GLOBAL:
        sc_report_json_object(j);
        sc_report_json_key(j, "global");
        sc_report_json_hex(j, race->rec.address);
        if (race->has_alloc) {
            key_u64(j, "allocation", race->alloc.serial);
            key_string(j, "allocation_kind", race->alloc.kind);
            sc_report_json_key(j, "allocation_base");
            sc_report_json_hex(j, race->alloc.base);
            key_u64(j, "allocation_size", race->alloc.size);
            key_u64(j, "offset", race->rec.address - race->alloc.base);
        } else {
            key_null(j, "allocation");
            key_null(j, "allocation_kind");
            key_null(j, "allocation_base");
            key_null(j, "allocation_size");
            key_null(j, "offset");
        }
        sc_report_json_end_object(j);
        break;
    case SC_RACE_SPACE_NONE:
        sc_report_json_null(j);
        break;
    }
}

static void put_access(ScReportJson *j, const char *role, const ScRaceAccess *a,
                       const ScReportSiteInfo *site)
{
    sc_report_json_object(j);
    key_string(j, "role", role);
    key_string(j, "kind", sc_report_kind_name((ScRaceKind)a->kind));
    key_string(j, "sem", sc_sem_name(sc_report_access_sem(a)));
    key_string(j, "scope", sc_scope_name((ScScope)a->scope));
    if (a->size == 0 && a->kind <= SC_RACE_KIND_ATOMIC)
        key_null(j, "size"); /* a memory access the device could not name */
    else
        key_u64(j, "size", a->size);
    const ScReportFrameInfo *f = site->known ? &site->frames[0] : NULL;
    if (f && f->file) {
        key_string(j, "file", f->file);
        key_u64(j, "line", f->line);
        key_u64(j, "column", f->column);
    } else {
        key_null(j, "file");
        key_null(j, "line");
        key_null(j, "column");
    }
    if (f)
        key_u64(j, "ptx_line", site->ptx_line);
    else
        key_null(j, "ptx_line");
    sc_report_json_key(j, "inlined_at");
    sc_report_json_array(j);
    for (size_t i = 1; f && i < site->n_frames; i++) {
        const ScReportFrameInfo *at = &site->frames[i];
        sc_report_json_object(j);
        key_string(j, "file", at->file);
        if (at->file)
            key_u64(j, "line", at->line);
        else
            key_null(j, "line");
        /* The function that was inlined at file:line, as in DWARF. */
        key_string(j, "function", site->frames[i - 1].function);
        sc_report_json_end_object(j);
    }
    sc_report_json_end_array(j);
    sc_report_json_key(j, "thread");
    sc_report_json_dim3(j, a->thread);
    sc_report_json_key(j, "block");
    sc_report_json_dim3(j, a->block);
    static const char *const who[] = {"thread", "warp", "block", "any", "copy"};
    key_string(j, "who", who[a->who]);
    sc_report_json_end_object(j);
}

static void put_race(ScReportJson *j, const ScReportRace *race)
{
    const ScRaceRecord *rec = &race->rec;
    sc_report_json_object(j);
    key_u64(j, "id", race->id);
    key_string(j, "severity", sc_report_severity_name((ScSeverity)rec->severity));
    key_string(j, "cause", sc_report_cause_name((ScCause)rec->cause));
    key_string(j, "space", sc_report_space_name((ScRaceSpace)rec->space));
    put_address(j, race);
    if (rec->space == SC_RACE_SPACE_NONE || rec->cur.who == SC_RACE_WHO_COPY)
        key_null(j, "size");
    else
        key_u64(j, "size", rec->cur.size);
    key_u64(j, "hazards", race->hazards);
    key_string(j, "relation", sc_report_relation(race));
    key_string(j, "kernel", race->kernel);
    key_string(j, "kernel_mangled", race->kernel_mangled);
    key_u64(j, "launch", race->launch);
    if (race->previous_kernel) {
        key_string(j, "previous_kernel", race->previous_kernel);
        key_u64(j, "previous_launch", race->previous_launch);
    }
    sc_report_json_key(j, "grid");
    sc_report_json_dim3(j, race->grid);
    sc_report_json_key(j, "block_dim");
    sc_report_json_dim3(j, race->block);
    sc_report_json_key(j, "accesses");
    sc_report_json_array(j);
    put_access(j, "current", &rec->cur, &race->cur);
    put_access(j, "previous", &rec->prev, &race->prev);
    sc_report_json_end_array(j);
    sc_report_json_end_object(j);
}

void sc_report_json_counts(ScReportJson *j, const ScReport *r)
{
    const ScReportCounts *c = &r->counts;
    sc_report_json_object(j);
    key_u64(j, "races", c->races);
    key_u64(j, "hazards", c->hazards);
    key_u64(j, "kernel_launches", c->launches);
    key_u64(j, "launches_with_races", c->launches_with_races);
    key_u64(j, "dropped", c->dropped);
    key_u64(j, "suppressed", c->suppressed);
    sc_report_json_key(j, "unchecked_kernels");
    sc_report_json_array(j);
    for (size_t i = 0; i < r->n_unchecked; i++)
        sc_report_json_string(j, r->unchecked[i]);
    sc_report_json_end_array(j);
    sc_report_json_end_object(j);
}

void sc_report_emit_json(const ScReport *r, ScBuf *out)
{
    ScReportJson j = {.out = out};
    sc_report_json_object(&j);
    key_string(&j, "tool", "scord");
    /* docs/report-format.md, "JSON": the number moves when a field changes its meaning
     * or goes; fields may be added within one. */
    key_string(&j, "schema", "scord-report/1");
    key_string(&j, "version", r->cfg.version);
    sc_report_json_key(&j, "pid");
    sc_report_json_int(&j, r->cfg.pid);
    sc_report_json_key(&j, "races");
    sc_report_json_array(&j);
    for (size_t i = 0; i < r->n_races; i++) {
        if (r->races[i].state == SC_REPORT_RACE_REPORTED)
            put_race(&j, &r->races[i]);
    }
    sc_report_json_end_array(&j);
    sc_report_json_key(&j, "summary");
    sc_report_json_counts(&j, r);
    sc_report_json_end_object(&j);
    sc_buf_puts(out, "\n");
}
