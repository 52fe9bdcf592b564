/* report_supp.c: TSan-style suppressions: parsing `type:pattern` lines and matching races. */
#include "report/report_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sc_report_supp_type_name(ScSuppType type)
{
    switch (type) {
    case SC_SUPP_RACE:
        return "race";
    case SC_SUPP_RACE_TOP:
        return "race_top";
    case SC_SUPP_KERNEL:
        return "kernel";
    case SC_SUPP_TYPE_COUNT_:
        break;
    }
    return "?";
}

/* Suppression files are edited by hand: a file too large to be one is a mistake. */
#define MAX_SUPPRESSIONS_FILE (16u << 20)

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool parse_error(ScErr *err, const char *name, size_t line, size_t col, const char *what,
                        const char *text, size_t len)
{
    char types[64] = "";
    for (int t = 0; t < SC_SUPP_TYPE_COUNT_; t++) {
        size_t at = strlen(types);
        snprintf(types + at, sizeof types - at, "%s%s", t ? ", " : "",
                 sc_report_supp_type_name((ScSuppType)t));
    }
    return sc_err_set(err, "%s:%zu:%zu: %s '%.*s'; a suppression is TYPE:PATTERN with TYPE one "
                      "of %s (lines starting with # are comments)",
                      name, line, col, what, (int)(len > 80 ? 80 : len), text, types);
}

bool sc_report_add_suppressions(ScReport *r, const char *text, size_t len, const char *name,
                                ScErr *err)
{
    size_t n_new = 0, cap = 0;
    ScReportSupp *v = NULL;
    size_t lineno = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        const char *s = text + at;
        size_t n = end - at;
        at = end + 1;
        lineno++;
        size_t b = 0;
        while (b < n && is_space(s[b]))
            b++;
        while (n > b && is_space(s[n - 1]))
            n--;
        if (b == n || s[b] == '#')
            continue;
        const char *colon = memchr(s + b, ':', n - b);
        if (!colon || memchr(s + b, '\0', n - b)) {
            free(v);
            return parse_error(err, name, lineno, b + 1, "expected TYPE:PATTERN, found", s + b,
                               n - b);
        }
        size_t type_end = (size_t)(colon - s);
        while (type_end > b && is_space(s[type_end - 1]))
            type_end--;
        size_t pat = (size_t)(colon - s) + 1;
        while (pat < n && is_space(s[pat]))
            pat++;
        int t = 0;
        while (t < SC_SUPP_TYPE_COUNT_ &&
               !(strlen(sc_report_supp_type_name((ScSuppType)t)) == type_end - b &&
                 memcmp(sc_report_supp_type_name((ScSuppType)t), s + b, type_end - b) == 0))
            t++;
        if (t == SC_SUPP_TYPE_COUNT_) {
            free(v);
            return parse_error(err, name, lineno, b + 1, "unknown suppression type", s + b,
                               type_end - b);
        }
        if (pat == n) {
            free(v);
            return parse_error(err, name, lineno, b + 1, "empty pattern in", s + b, n - b);
        }
        if (n_new == cap) {
            cap = cap ? cap * 2 : 8;
            ScReportSupp *nv = realloc(v, cap * sizeof *nv);
            if (!nv) {
                free(v);
                return sc_err_set(err, "%s: out of memory", name);
            }
            v = nv;
        }
        char *p = sc_arena_strndup(&r->arena, s + pat, n - pat);
        if (!p) {
            free(v);
            return sc_err_set(err, "%s: out of memory", name);
        }
        v[n_new++] = (ScReportSupp){.type = (ScSuppType)t, .pattern = p};
    }
    if (n_new && r->n_supps + n_new > r->cap_supps) {
        size_t ncap = r->n_supps + n_new;
        ScReportSupp *nv = realloc(r->supps, ncap * sizeof *nv);
        if (!nv) {
            free(v);
            return sc_err_set(err, "%s: out of memory", name);
        }
        r->supps = nv;
        r->cap_supps = ncap;
    }
    if (n_new)
        memcpy(r->supps + r->n_supps, v, n_new * sizeof *v);
    r->n_supps += n_new;
    free(v);
    return true;
}

bool sc_report_load_suppressions(ScReport *r, const char *path, ScErr *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return sc_err_set(err, "%s: cannot open the suppressions file: %s", path, strerror(errno));
    ScBuf b = {0};
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0 && b.len <= MAX_SUPPRESSIONS_FILE)
        sc_buf_append(&b, chunk, got);
    bool read_error = ferror(f);
    fclose(f);
    bool ok;
    if (read_error)
        ok = sc_err_set(err, "%s: cannot read the suppressions file", path);
    else if (b.len > MAX_SUPPRESSIONS_FILE)
        ok = sc_err_set(err, "%s: larger than %u MiB; is this a suppressions file?", path,
                        MAX_SUPPRESSIONS_FILE >> 20);
    else if (b.oom)
        ok = sc_err_set(err, "%s: out of memory", path);
    else
        ok = sc_report_add_suppressions(r, b.data ? b.data : "", b.len, path, err);
    sc_buf_free(&b);
    return ok;
}

/* TSan's template match: '*' matches any run of characters, a leading '^' and a
 * trailing '$' anchor the match; otherwise the pattern may match anywhere. */
bool sc_report_supp_match(const char *pattern, const char *s)
{
    size_t plen = strlen(pattern), slen = strlen(s), pos = 0;
    bool anchor_start = plen && pattern[0] == '^';
    const char *p = pattern + anchor_start;
    plen -= anchor_start;
    bool anchor_end = plen && p[plen - 1] == '$';
    plen -= anchor_end;
    for (size_t i = 0, first = 1;; first = 0) {
        size_t j = i;
        while (j < plen && p[j] != '*')
            j++;
        size_t len = j - i;
        bool last = j == plen;
        if (first && anchor_start) {
            if (last && anchor_end)
                return len == slen && memcmp(p + i, s, len) == 0;
            if (len > slen || memcmp(p + i, s, len) != 0)
                return false;
            pos = len;
        } else if (last && anchor_end) {
            return len <= slen - pos && memcmp(p + i, s + slen - len, len) == 0;
        } else if (len) {
            const char *hit = memmem(s + pos, slen - pos, p + i, len);
            if (!hit)
                return false;
            pos = (size_t)(hit - s) + len;
        }
        if (last)
            return true;
        i = j + 1;
    }
}

static bool match_name(const char *pattern, const char *name)
{
    return name && sc_report_supp_match(pattern, name);
}

static bool match_frame(const char *pattern, const ScReportFrameInfo *f)
{
    return match_name(pattern, f->function) || match_name(pattern, f->function_mangled) ||
           match_name(pattern, f->file);
}

static bool match_site(const ScReportSupp *s, const ScReportSiteInfo *site)
{
    if (!site->known)
        return false;
    size_t n = s->type == SC_SUPP_RACE_TOP ? 1 : site->n_frames;
    for (size_t i = 0; i < n; i++) {
        if (match_frame(s->pattern, &site->frames[i]))
            return true;
    }
    return s->type == SC_SUPP_RACE && (match_name(s->pattern, site->ptx_function) ||
                                       match_name(s->pattern, site->ptx_function_mangled));
}

static bool match_supp(const ScReportSupp *s, const ScReportRace *race)
{
    bool kernel = match_name(s->pattern, race->kernel) ||
                  match_name(s->pattern, race->kernel_mangled);
    switch (s->type) {
    case SC_SUPP_KERNEL:
        return kernel;
    case SC_SUPP_RACE:
        return kernel || match_site(s, &race->cur) || match_site(s, &race->prev);
    case SC_SUPP_RACE_TOP:
        return match_site(s, &race->cur) || match_site(s, &race->prev);
    case SC_SUPP_TYPE_COUNT_:
        break;
    }
    return false;
}

long sc_report_supp_find(const ScReport *r, const ScReportRace *race)
{
    for (size_t i = 0; i < r->n_supps; i++) {
        if (match_supp(&r->supps[i], race))
            return (long)i;
    }
    return -1;
}
