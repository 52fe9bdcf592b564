/* report_model.c: the ScReport model: sites, launches, deduplication of race records, filters. */
#include "report/report_int.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#ifndef SCORD_VERSION
#define SCORD_VERSION "unknown"
#endif

static const struct {
    const char *name, *title, *reason;
    ScSeverity severity;
} causes[] = {
#define SC_CAUSE(id, name, severity, title, reason) {name, title, reason, SC_SEVERITY_##severity},
#include "report/report_cause.def"
#undef SC_CAUSE
};
SC_STATIC_ASSERT(SC_ARRAY_LEN(causes) == SC_CAUSE_COUNT_, "one table row per cause");

/* Bytes an access may cover: up to a 256-bit vector of 8 x .b32 ... with room
 * for wider bulk forms; anything larger is a corrupt record. */
#define MAX_ACCESS_SIZE 256

const char *sc_report_cause_name(ScCause cause)
{
    return causes[cause].name;
}

ScSeverity sc_report_cause_severity(ScCause cause)
{
    return causes[cause].severity;
}

const char *sc_report_cause_title(ScCause cause)
{
    return causes[cause].title;
}

const char *sc_report_cause_reason(ScCause cause)
{
    return causes[cause].reason;
}

bool sc_report_cause_parse(const char *name, ScCause *out)
{
    for (size_t i = 0; i < SC_ARRAY_LEN(causes); i++) {
        if (strcmp(causes[i].name, name) == 0) {
            *out = (ScCause)i;
            return true;
        }
    }
    return false;
}

const char *sc_report_severity_name(ScSeverity severity)
{
    switch (severity) {
    case SC_SEVERITY_INFO:
        return "info";
    case SC_SEVERITY_WARNING:
        return "warning";
    case SC_SEVERITY_ERROR:
        return "error";
    }
    return "?";
}

bool sc_report_severity_parse(const char *name, ScSeverity *out)
{
    for (int s = SC_SEVERITY_INFO; s <= SC_SEVERITY_ERROR; s++) {
        if (strcmp(sc_report_severity_name((ScSeverity)s), name) == 0) {
            *out = (ScSeverity)s;
            return true;
        }
    }
    return false;
}

const char *sc_report_kind_name(ScRaceKind kind)
{
    switch (kind) {
    case SC_RACE_KIND_READ:
        return "read";
    case SC_RACE_KIND_WRITE:
        return "write";
    case SC_RACE_KIND_ATOMIC:
        return "atomic";
    case SC_RACE_KIND_BARRIER:
        return "barrier";
    case SC_RACE_KIND_EXIT:
        return "exit";
    }
    return "?";
}

ScSem sc_report_access_sem(const ScRaceAccess *a)
{
    return a->sem == SC_SEM_NONE ? SC_SEM_WEAK : (ScSem)a->sem;
}

/* NULL for SC_RACE_SPACE_NONE. */
const char *sc_report_space_name(ScRaceSpace space)
{
    switch (space) {
    case SC_RACE_SPACE_SHARED:
        return "shared";
    case SC_RACE_SPACE_GLOBAL:
        return "global";
    case SC_RACE_SPACE_NONE:
        return NULL;
    }
    return "?";
}

uint32_t sc_report_linear_thread(const ScReportRace *race, const ScRaceAccess *a)
{
    const uint32_t *d = race->block;
    return a->thread[0] + d[0] * (a->thread[1] + d[1] * a->thread[2]);
}

const char *sc_report_relation(const ScReportRace *race)
{
    const ScRaceAccess *a = &race->rec.cur, *b = &race->rec.prev;
    if (a->who == SC_RACE_WHO_COPY || b->who == SC_RACE_WHO_COPY)
        return "kernel_and_copy";
    if (race->rec.cause == SC_CAUSE_GRID_DEPENDENCY || race->rec.cause == SC_CAUSE_GRID_COMPLETION ||
        race->rec.cause == SC_CAUSE_UNORDERED_STREAMS)
        return "different_grids";
    bool same_block = memcmp(a->block, b->block, sizeof a->block) == 0;
    bool same_warp = same_block &&
                     sc_report_linear_thread(race, a) / 32 == sc_report_linear_thread(race, b) / 32;
    switch ((ScRaceWho)b->who) {
    case SC_RACE_WHO_THREAD:
    case SC_RACE_WHO_WARP:
        break;
    case SC_RACE_WHO_BLOCK:
        return same_block ? "same_block" : "different_blocks";
    case SC_RACE_WHO_ANY:
        return "unknown";
    case SC_RACE_WHO_COPY:
        break;
    }
    return !same_block ? "different_blocks" : same_warp ? "same_warp" : "same_block";
}

void sc_report_config_init(ScReportConfig *cfg, long pid)
{
    *cfg = (ScReportConfig){
        .pid = pid,
        .print_limit = 100,
        .min_severity = SC_SEVERITY_WARNING,
        .demangle = true,
    };
}

void sc_report_set_pid(ScReport *r, long pid)
{
    r->cfg.pid = pid;
}

/* Finds __cxa_demangle: a C++ program already has libstdc++ loaded; a C program
 * gets it loaded for us, never unloaded (RTLD_NODELETE), since libstdc++ does not
 * expect to go away while a process runs. */
static void find_demangler(ScReport *r)
{
    void *fn = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (!fn) {
        r->libstdcxx = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL | RTLD_NODELETE);
        if (r->libstdcxx)
            fn = dlsym(r->libstdcxx, "__cxa_demangle");
    }
    /* dlsym hands out data pointers; POSIX guarantees the conversion works. */
    memcpy(&r->demangle_fn, &fn, sizeof fn);
}

ScReport *sc_report_new(const ScReportConfig *cfg)
{
    ScReport *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->cfg = *cfg;
    r->cfg.version = sc_arena_strndup(&r->arena, cfg->version ? cfg->version : SCORD_VERSION,
                                      strlen(cfg->version ? cfg->version : SCORD_VERSION));
    if (!r->cfg.version) {
        sc_report_free(r);
        return NULL;
    }
    if (cfg->demangle)
        find_demangler(r);
    return r;
}

void sc_report_free(ScReport *r)
{
    if (!r)
        return;
    if (r->libstdcxx)
        dlclose(r->libstdcxx);
    free(r->strings);
    free(r->sites);
    free(r->races);
    free(r->race_slots);
    free(r->supps);
    free(r->unchecked);
    sc_arena_free(&r->arena);
    free(r);
}

void sc_report_demangle(const ScReport *r, const char *name, ScBuf *out)
{
    if (r->demangle_fn && name[0] == '_' && name[1] == 'Z') {
        int status = -1;
        char *d = r->demangle_fn(name, NULL, NULL, &status);
        if (d && status == 0) {
            sc_buf_puts(out, d);
            free(d);
            return;
        }
        free(d);
    }
    sc_buf_puts(out, name);
}

/* Index of the '(' that opens the parameter list ending at s[end - 1] == ')'. */
static size_t param_list_start(const char *s, size_t end)
{
    int depth = 0;
    for (size_t i = end; i-- > 0;) {
        if (s[i] == ')')
            depth++;
        else if (s[i] == '(' && --depth == 0)
            return i;
    }
    return end;
}

void sc_report_short_name(const char *demangled, ScBuf *out)
{
    size_t end = strlen(demangled);
    if (end == 0 || demangled[end - 1] != ')') {
        sc_buf_puts(out, demangled);
        return;
    }
    size_t open = param_list_start(demangled, end);
    if (open == end || open == 0) {
        sc_buf_puts(out, demangled);
        return;
    }
    /* A template function's name is preceded by its return type: the name starts
     * after the last space outside <> and (). */
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i < open; i++) {
        char c = demangled[i];
        if (c == '<' || c == '(')
            depth++;
        else if ((c == '>' || c == ')') && depth > 0)
            depth--;
        else if (c == ' ' && depth == 0)
            start = i + 1;
    }
    sc_buf_append(out, demangled + start, open - start);
}

static uint64_t hash_bytes(const char *s)
{
    uint64_t h = 14695981039346656037u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static uint64_t hash_u64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdu;
    x ^= x >> 33;
    return x;
}

/* Grows an open-addressing table to keep it at most half full. */
static bool grow_strings(ScReport *r)
{
    size_t cap = r->cap_strings ? r->cap_strings * 2 : 256;
    const char **v = calloc(cap, sizeof *v);
    if (!v)
        return false;
    for (size_t i = 0; i < r->cap_strings; i++) {
        const char *s = r->strings[i];
        if (!s)
            continue;
        size_t j = hash_bytes(s) & (cap - 1);
        while (v[j])
            j = (j + 1) & (cap - 1);
        v[j] = s;
    }
    free(r->strings);
    r->strings = v;
    r->cap_strings = cap;
    return true;
}

const char *sc_report_intern(ScReport *r, const char *s)
{
    if (!s)
        return NULL;
    if ((r->n_strings + 1) * 2 > r->cap_strings && !grow_strings(r))
        return NULL;
    size_t j = hash_bytes(s) & (r->cap_strings - 1);
    for (; r->strings[j]; j = (j + 1) & (r->cap_strings - 1)) {
        if (strcmp(r->strings[j], s) == 0)
            return r->strings[j];
    }
    char *copy = sc_arena_strndup(&r->arena, s, strlen(s));
    if (!copy)
        return NULL;
    r->strings[j] = copy;
    r->n_strings++;
    return copy;
}

/* Interns the demangled form of name. */
static const char *intern_demangled(ScReport *r, const char *name)
{
    ScBuf b = {0};
    sc_report_demangle(r, name, &b);
    const char *s = b.oom ? NULL : sc_report_intern(r, b.data ? b.data : "");
    sc_buf_free(&b);
    return s;
}

static bool grow_sites(ScReport *r)
{
    size_t cap = r->cap_sites ? r->cap_sites * 2 : 256;
    ScReportSiteInfo *v = calloc(cap, sizeof *v);
    if (!v)
        return false;
    for (size_t i = 0; i < r->cap_sites; i++) {
        if (!r->sites[i].known)
            continue;
        size_t j = hash_u64(r->sites[i].id) & (cap - 1);
        while (v[j].known)
            j = (j + 1) & (cap - 1);
        v[j] = r->sites[i];
    }
    free(r->sites);
    r->sites = v;
    r->cap_sites = cap;
    return true;
}

static const ScReportSiteInfo *find_site(const ScReport *r, uint32_t id)
{
    if (!r->cap_sites)
        return NULL;
    for (size_t j = hash_u64(id) & (r->cap_sites - 1); r->sites[j].known;
         j = (j + 1) & (r->cap_sites - 1)) {
        if (r->sites[j].id == id)
            return &r->sites[j];
    }
    return NULL;
}

static bool oom(ScErr *err)
{
    return sc_err_set(err, "scord: out of memory while recording races");
}

static bool dep_less(const ScReportControlDep *a, const ScReportControlDep *b)
{
    return a->branch < b->branch || (a->branch == b->branch && a->arm < b->arm);
}

/* The site's dependences, sorted and without duplicates so that two sites
 * compare in one merge; lists are short (the instrumenter keeps at most 16). */
static bool copy_deps(ScReport *r, const ScReportSite *site, ScReportSiteInfo *info)
{
    if (!site->n_deps)
        return true;
    ScReportControlDep *v = sc_arena_alloc(&r->arena, site->n_deps * sizeof *v);
    if (!v)
        return false;
    size_t n = 0;
    for (size_t i = 0; i < site->n_deps; i++) {
        size_t j = n;
        while (j > 0 && dep_less(&site->deps[i], &v[j - 1]))
            j--;
        if (j > 0 && !dep_less(&v[j - 1], &site->deps[i]))
            continue; /* already there */
        memmove(&v[j + 1], &v[j], (n - j) * sizeof *v);
        v[j] = site->deps[i];
        n++;
    }
    info->deps = v;
    info->n_deps = n;
    return true;
}

bool sc_report_add_site(ScReport *r, uint32_t id, const ScReportSite *site, ScErr *err)
{
    ScReportSiteInfo info = {.id = id, .known = true, .ptx_line = site->ptx_line};
    const char *ptx_fn = site->ptx_function ? site->ptx_function : "?";
    info.ptx_function_mangled = sc_report_intern(r, ptx_fn);
    info.ptx_function = intern_demangled(r, ptx_fn);
    size_t n = site->n_frames ? site->n_frames : 1;
    ScReportFrameInfo *frames = sc_arena_alloc(&r->arena, n * sizeof *frames);
    if (!info.ptx_function_mangled || !info.ptx_function || !frames)
        return oom(err);
    frames[0] = (ScReportFrameInfo){.function = info.ptx_function,
                                    .function_mangled = info.ptx_function_mangled};
    for (size_t i = 0; i < site->n_frames; i++) {
        const ScReportFrame *f = &site->frames[i];
        ScReportFrameInfo *fi = &frames[i];
        *fi = (ScReportFrameInfo){.function = info.ptx_function,
                                  .function_mangled = info.ptx_function_mangled};
        if (f->function) {
            fi->function_mangled = sc_report_intern(r, f->function);
            fi->function = intern_demangled(r, f->function);
        }
        fi->file = sc_report_intern(r, f->file);
        fi->line = f->line;
        fi->column = f->column;
        if (!fi->function || !fi->function_mangled || (f->file && !fi->file))
            return oom(err);
    }
    info.frames = frames;
    info.n_frames = n;
    info.function_id = site->function_id;
    info.async_copy = site->async_copy;
    if (!copy_deps(r, site, &info))
        return oom(err);

    const ScReportSiteInfo *old = find_site(r, id);
    if (old) {
        r->sites[old - r->sites] = info;
        return true;
    }
    if ((r->n_sites + 1) * 2 > r->cap_sites && !grow_sites(r))
        return oom(err);
    size_t j = hash_u64(id) & (r->cap_sites - 1);
    while (r->sites[j].known)
        j = (j + 1) & (r->cap_sites - 1);
    r->sites[j] = info;
    r->n_sites++;
    return true;
}

bool sc_report_add_unchecked(ScReport *r, const char *kernel, ScErr *err)
{
    const char *name = intern_demangled(r, kernel);
    if (!name)
        return oom(err);
    for (size_t i = 0; i < r->n_unchecked; i++) {
        if (r->unchecked[i] == name)
            return true;
    }
    if (r->n_unchecked == r->cap_unchecked) {
        size_t cap = r->cap_unchecked ? r->cap_unchecked * 2 : 8;
        const char **v = realloc(r->unchecked, cap * sizeof *v);
        if (!v)
            return oom(err);
        r->unchecked = v;
        r->cap_unchecked = cap;
    }
    r->unchecked[r->n_unchecked++] = name;
    return true;
}

/* A previous access the device could not name (a summarized one) comes with its kind
 * but no size: size 0 means unknown there, and only there. A copy's side has no site,
 * no size and no thread. */
static bool access_ok(const ScRaceAccess *a, bool barrier_divergence, bool previous)
{
    if (a->who == SC_RACE_WHO_COPY)
        return !barrier_divergence && a->site == SC_REPORT_SITE_NONE && a->size == 0 &&
               (a->kind == SC_RACE_KIND_READ || a->kind == SC_RACE_KIND_WRITE);
    if (a->sem > SC_SEM_MMIO || a->scope > SC_SCOPE_SYS || a->who > SC_RACE_WHO_ANY ||
        (a->who != SC_RACE_WHO_THREAD && (!previous || a->site != SC_REPORT_SITE_NONE)))
        return false;
    if (barrier_divergence) {
        return a->kind == SC_RACE_KIND_BARRIER || (previous && a->kind == SC_RACE_KIND_EXIT);
    }
    bool unnamed = previous && a->site == SC_REPORT_SITE_NONE;
    return a->kind <= SC_RACE_KIND_ATOMIC && (a->size >= 1 || unnamed) &&
           a->size <= MAX_ACCESS_SIZE;
}

/* Device memory is not ours to trust: a record with a value out of range is
 * counted as dropped instead of being printed as nonsense. */
static bool record_ok(const ScRaceRecord *rec)
{
    if (rec->cause >= SC_CAUSE_COUNT_ || rec->severity > SC_SEVERITY_ERROR ||
        rec->space > SC_RACE_SPACE_NONE || rec->sync_scope > SC_SCOPE_SYS)
        return false;
    bool bd = rec->cause == SC_CAUSE_BARRIER_DIVERGENCE;
    if (bd != (rec->space == SC_RACE_SPACE_NONE))
        return false;
    bool cur_copy = rec->cur.who == SC_RACE_WHO_COPY, prev_copy = rec->prev.who == SC_RACE_WHO_COPY;
    if ((cur_copy || prev_copy) && (cur_copy == prev_copy || rec->cause != SC_CAUSE_UNORDERED_STREAMS))
        return false;
    return access_ok(&rec->cur, bd, false) && access_ok(&rec->prev, bd, true);
}

/* Whether some branch has both sites on its arms and no arm in common: the
 * accesses lie on opposite paths of it (DESIGN.md, divergent-branch races). */
static bool opposite_arms(const ScReportSiteInfo *a, const ScReportSiteInfo *b)
{
    if (a->function_id != b->function_id)
        return false;
    size_t i = 0, j = 0;
    while (i < a->n_deps && j < b->n_deps) {
        uint32_t branch = a->deps[i].branch;
        if (branch != b->deps[j].branch) {
            if (branch < b->deps[j].branch)
                i++;
            else
                j++;
            continue;
        }
        bool common = false;
        while (i < a->n_deps && a->deps[i].branch == branch && j < b->n_deps && b->deps[j].branch == branch) {
            if (a->deps[i].arm == b->deps[j].arm) {
                common = true;
                i++;
                j++;
            } else if (a->deps[i].arm < b->deps[j].arm) {
                i++;
            } else {
                j++;
            }
        }
        if (!common)
            return true;
        while (i < a->n_deps && a->deps[i].branch == branch)
            i++;
        while (j < b->n_deps && b->deps[j].branch == branch)
            j++;
    }
    return false;
}

bool sc_report_opposite_arms(const ScReport *r, uint32_t site_a, uint32_t site_b)
{
    const ScReportSiteInfo *a = find_site(r, site_a), *b = find_site(r, site_b);
    return a && b && opposite_arms(a, b);
}

/* The dedup key: the unordered pair of sites and the cause. */
static void race_key(const ScRaceRecord *rec, uint32_t *lo, uint32_t *hi)
{
    *lo = rec->cur.site < rec->prev.site ? rec->cur.site : rec->prev.site;
    *hi = rec->cur.site < rec->prev.site ? rec->prev.site : rec->cur.site;
}

static uint64_t race_hash(const ScRaceRecord *rec)
{
    uint32_t lo, hi;
    race_key(rec, &lo, &hi);
    return hash_u64(((uint64_t)hi << 32 | lo) ^ hash_u64(rec->cause + 1));
}

static bool same_race(const ScRaceRecord *a, const ScRaceRecord *b)
{
    uint32_t alo, ahi, blo, bhi;
    race_key(a, &alo, &ahi);
    race_key(b, &blo, &bhi);
    return a->cause == b->cause && alo == blo && ahi == bhi;
}

static bool grow_race_slots(ScReport *r)
{
    size_t cap = r->cap_race_slots ? r->cap_race_slots * 2 : 64;
    size_t *v = calloc(cap, sizeof *v);
    if (!v)
        return false;
    for (size_t i = 0; i < r->n_races; i++) {
        size_t j = race_hash(&r->races[i].rec) & (cap - 1);
        while (v[j])
            j = (j + 1) & (cap - 1);
        v[j] = i + 1;
    }
    free(r->race_slots);
    r->race_slots = v;
    r->cap_race_slots = cap;
    return true;
}

/* The slot of rec's race (pair and cause), or the empty one where it would go. */
static size_t probe_race(const ScReport *r, const ScRaceRecord *rec)
{
    size_t j = race_hash(rec) & (r->cap_race_slots - 1);
    while (r->race_slots[j] && !same_race(&r->races[r->race_slots[j] - 1].rec, rec))
        j = (j + 1) & (r->cap_race_slots - 1);
    return j;
}

bool sc_report_has_race(const ScReport *r, const ScRaceRecord *rec)
{
    size_t slot = r->cap_race_slots ? r->race_slots[probe_race(r, rec)] : 0;
    return slot && r->races[slot - 1].rec.space == rec->space;
}

static ScReportSiteInfo resolve_site(const ScReport *r, uint32_t id)
{
    const ScReportSiteInfo *s = find_site(r, id);
    return s ? *s : (ScReportSiteInfo){.id = id};
}

/* The __shared__ variable holding off: one whose extent contains it, else the
 * extern (dynamic) array that starts highest at or below it. */
static const ScReportSymbol *find_symbol(const ScReportLaunch *l, uint64_t off)
{
    const ScReportSymbol *dyn = NULL;
    for (size_t i = 0; i < l->n_shared; i++) {
        const ScReportSymbol *s = &l->shared[i];
        if (s->size && off >= s->offset && off - s->offset < s->size)
            return s;
        if (!s->size && off >= s->offset && (!dyn || s->offset > dyn->offset))
            dyn = s;
    }
    return dyn;
}

static bool resolve_race(ScReport *r, ScReportRace *race, const ScReportLaunch *l)
{
    race->cur = resolve_site(r, race->rec.cur.site);
    race->prev = resolve_site(r, race->rec.prev.site);
    race->kernel_mangled = sc_report_intern(r, l->kernel ? l->kernel : "?");
    race->kernel = intern_demangled(r, l->kernel ? l->kernel : "?");
    race->module = sc_report_intern(r, l->module);
    race->launch = l->number;
    memcpy(race->grid, l->grid, sizeof race->grid);
    memcpy(race->block, l->block, sizeof race->block);
    memcpy(race->cluster, l->cluster, sizeof race->cluster);
    if (!race->kernel || !race->kernel_mangled || (l->module && !race->module))
        return false;
    if (l->previous_kernel && strcmp(sc_report_relation(race), "different_grids") == 0) {
        race->previous_kernel = intern_demangled(r, l->previous_kernel);
        race->previous_launch = l->previous_number;
        if (!race->previous_kernel)
            return false;
    }
    switch ((ScRaceSpace)race->rec.space) {
    case SC_RACE_SPACE_SHARED: {
        const ScReportSymbol *s = find_symbol(l, race->rec.address);
        if (s) {
            race->symbol = sc_report_intern(r, s->name ? s->name : "?");
            race->symbol_offset = race->rec.address - s->offset;
            if (!race->symbol)
                return false;
        }
        break;
    }
    case SC_RACE_SPACE_GLOBAL:
        if (r->cfg.find_alloc &&
            r->cfg.find_alloc(r->cfg.alloc_ctx, race->rec.address, &race->alloc)) {
            race->has_alloc = true;
            race->alloc.kind = sc_report_intern(r, race->alloc.kind ? race->alloc.kind : "?");
            if (!race->alloc.kind)
                return false;
        }
        break;
    case SC_RACE_SPACE_NONE:
        break;
    }
    return true;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

/* Adds a race for rec's first occurrence and decides whether it is reported.
 * Returns it, or NULL when out of memory. */
static ScReportRace *new_race(ScReport *r, const ScRaceRecord *rec, const ScReportLaunch *l)
{
    if (r->n_races == r->cap_races) {
        size_t cap = r->cap_races ? r->cap_races * 2 : 16;
        ScReportRace *v = realloc(r->races, cap * sizeof *v);
        if (!v)
            return NULL;
        r->races = v;
        r->cap_races = cap;
    }
    ScReportRace *race = &r->races[r->n_races];
    *race = (ScReportRace){.rec = *rec};
    if (!resolve_race(r, race, l))
        return NULL;
    r->n_races++;
    long supp;
    if (rec->severity < r->cfg.min_severity) {
        race->state = SC_REPORT_RACE_BELOW_LEVEL;
    } else if ((supp = sc_report_supp_find(r, race)) >= 0) {
        race->state = SC_REPORT_RACE_SUPPRESSED;
        race->suppression = (size_t)supp;
        r->supps[supp].hits++;
        r->counts.suppressed++;
    } else {
        race->state = SC_REPORT_RACE_REPORTED;
        race->id = ++r->counts.races;
        r->counts.by_severity[rec->severity < 3 ? rec->severity : SC_SEVERITY_ERROR]++;
        race->printed = !r->cfg.print_limit || race->id <= r->cfg.print_limit;
        if (!race->printed)
            r->counts.not_printed++;
    }
    return race;
}

static bool unnamed_previous(const ScRaceRecord *rec)
{
    return rec->cause != SC_CAUSE_BARRIER_DIVERGENCE && rec->prev.site == SC_REPORT_SITE_NONE &&
           rec->prev.who != SC_RACE_WHO_COPY;
}

/* A race whose previous access the device could not name (the shadow word summarized
 * it) is, as far as scord can tell, one of the races already known at the same
 * instruction with the same cause and a named partner of the same kind: its
 * occurrences count there rather than as a race of its own with half a pair. */
static ScReportRace *named_twin(ScReport *r, const ScRaceRecord *rec)
{
    for (size_t i = 0; i < r->n_races; i++) {
        ScReportRace *race = &r->races[i];
        const ScRaceRecord *o = &race->rec;
        if (o->cause != rec->cause || o->space != rec->space || unnamed_previous(o) ||
            o->cur.who == SC_RACE_WHO_COPY || o->prev.who == SC_RACE_WHO_COPY)
            continue;
        if ((o->cur.site == rec->cur.site && o->prev.kind == rec->prev.kind) ||
            (o->prev.site == rec->cur.site && o->cur.kind == rec->prev.kind))
            return race;
    }
    return NULL;
}

/* Folds a launch's records into the races and prints the new ones (text NULL: none);
 * *with_races: one of them is reported. */
static bool add_records(ScReport *r, const ScReportLaunch *launch, const ScRaceRecord *recs, size_t n,
                        ScBuf *text, ScErr *err, bool *with_races_out)
{
    size_t first_new = r->n_races;
    bool with_races = false;
    /* Records whose previous instruction is named first, so that the others can fold
     * into them. */
    for (size_t k = 0; k < 2 * n; k++) {
        size_t i = k % n;
        if ((k < n) == unnamed_previous(&recs[i]))
            continue;
        if (!record_ok(&recs[i])) {
            r->counts.dropped = add_sat(r->counts.dropped, 1);
            continue;
        }
        const ScRaceRecord *rec = &recs[i];
        if ((r->n_races + 1) * 2 > r->cap_race_slots && !grow_race_slots(r))
            return oom(err);
        ScReportRace *race = unnamed_previous(rec) ? named_twin(r, rec) : NULL;
        if (!race) {
            size_t *slot = &r->race_slots[probe_race(r, rec)];
            if (*slot) {
                race = &r->races[*slot - 1];
            } else {
                race = new_race(r, rec, launch);
                if (!race)
                    return oom(err);
                *slot = r->n_races;
            }
        }
        uint64_t hazards = rec->hazards ? rec->hazards : 1;
        race->hazards = add_sat(race->hazards, hazards);
        if (race->state == SC_REPORT_RACE_REPORTED) {
            r->counts.hazards = add_sat(r->counts.hazards, hazards);
            with_races = true;
        }
    }
    *with_races_out = with_races;
    /* Printed once the whole launch is folded, so a block counts every hazard
     * of the launch that found it. */
    for (size_t i = first_new; text && i < r->n_races; i++) {
        if (r->races[i].printed)
            sc_report_text_race(r, &r->races[i], text);
    }
    if (text && text->oom)
        return oom(err);
    return true;
}

bool sc_report_add_launch(ScReport *r, const ScReportLaunch *launch, const ScRaceRecord *recs,
                          size_t n, uint64_t dropped, ScBuf *text, ScErr *err)
{
    r->counts.launches++;
    r->counts.dropped = add_sat(r->counts.dropped, dropped);
    bool with_races = false;
    bool ok = add_records(r, launch, recs, n, text, err, &with_races);
    if (with_races) {
        r->counts.launches_with_races++;
        r->last_launch_with_races = launch->number;
    }
    return ok;
}

bool sc_report_add_late_races(ScReport *r, const ScReportLaunch *launch, const ScRaceRecord *recs,
                              size_t n, ScBuf *text, ScErr *err)
{
    bool with_races = false;
    bool ok = add_records(r, launch, recs, n, text, err, &with_races);
    if (with_races && r->last_launch_with_races != launch->number) {
        r->counts.launches_with_races++;
        r->last_launch_with_races = launch->number;
    }
    return ok;
}

void sc_report_counts(const ScReport *r, ScReportCounts *out)
{
    *out = r->counts;
}
