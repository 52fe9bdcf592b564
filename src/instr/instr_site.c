/* instr_site.c: the site and kernel tables the host resolves race records with (PTX line, .loc chain, function names). */
#include "instr/instr_int.h"

#include <stdlib.h>
#include <string.h>

static const char *copy_str(ScInstrResult *res, const char *s, ScErr *err)
{
    char *c = sc_arena_strndup(&res->arena, s, strlen(s));
    if (!c)
        sc_err_set(err, "out of memory");
    return c;
}

static bool cache_grow(ScInstrCache *c, ScErr *err)
{
    if (c->n < c->cap)
        return true;
    uint32_t cap = c->cap ? c->cap * 2 : 16;
    const char **keys = realloc(c->keys, cap * sizeof *keys);
    if (keys)
        c->keys = keys;
    uint32_t *idx = realloc(c->indices, cap * sizeof *idx);
    if (idx)
        c->indices = idx;
    const char **values = realloc(c->values, cap * sizeof *values);
    if (values)
        c->values = values;
    if (!keys || !idx || !values)
        return sc_err_set(err, "out of memory");
    c->cap = cap;
    return true;
}

static void cache_free(ScInstrCache *c)
{
    free(c->keys);
    free(c->indices);
    free(c->values);
    memset(c, 0, sizeof *c);
}

/* The mangled name a .loc's function_name label points at, copied; NULL when
 * the label is not in .debug_str or carries an offset (nvcc writes none: a
 * string at label+off would need the section's bytes, which the front end
 * does not expose). */
static bool function_name(ScInstrSites *st, const ScPtxLoc *loc, const char **out, ScErr *err)
{
    *out = NULL;
    if (!loc->function_name || loc->function_name_off != 0)
        return true;
    ScInstrCache *c = &st->functions;
    for (uint32_t i = 0; i < c->n; i++)
        if (strcmp(c->keys[i], loc->function_name) == 0) {
            *out = c->values[i];
            return true;
        }
    if (!cache_grow(c, err))
        return false;
    st->tmp.len = 0;
    const char *value = NULL;
    if (sc_ptx_debug_str(st->m, loc->function_name, &st->tmp) && st->tmp.len) {
        if (st->tmp.oom)
            return sc_err_set(err, "out of memory");
        if (!(value = copy_str(st->res, st->tmp.data, err)))
            return false;
    }
    c->keys[c->n] = loc->function_name;
    c->values[c->n++] = value;
    *out = value;
    return true;
}

static bool file_path(ScInstrSites *st, uint32_t index, const char **out, ScErr *err)
{
    ScInstrCache *c = &st->files;
    for (uint32_t i = 0; i < c->n; i++)
        if (c->indices[i] == index) {
            *out = c->values[i];
            return true;
        }
    if (!cache_grow(c, err))
        return false;
    const char *name = sc_ptx_file_name(st->m, index);
    const char *value = NULL;
    if (name && !(value = copy_str(st->res, name, err)))
        return false;
    c->keys[c->n] = NULL;
    c->indices[c->n] = index;
    c->values[c->n++] = value;
    *out = value;
    return true;
}

static bool frames_of(ScInstrSites *st, const ScPtxLoc *loc, const ScInstrFrame **frames, uint32_t *n, ScErr *err)
{
    if (loc == st->last_loc) {
        *frames = st->last_frames;
        *n = st->last_n_frames;
        return true;
    }
    uint32_t count = 0;
    /* The chain ends: every inlined_at points at an earlier .loc of the body. */
    for (const ScPtxLoc *l = loc; l; l = l->inlined_at)
        count++;
    ScInstrFrame *f = NULL;
    if (count) {
        f = sc_arena_alloc(&st->res->arena, count * sizeof *f);
        if (!f)
            return sc_err_set(err, "out of memory");
    }
    uint32_t i = 0;
    for (const ScPtxLoc *l = loc; l; l = l->inlined_at, i++) {
        f[i].file = l->file;
        f[i].line = l->line;
        f[i].col = l->col;
        if (!file_path(st, l->file, &f[i].path, err) || !function_name(st, l, &f[i].function, err))
            return false;
    }
    st->last_loc = loc;
    st->last_frames = *frames = f;
    st->last_n_frames = *n = count;
    return true;
}

bool sc_instr_add_site(ScInstrSites *st, ScInstrSiteKind kind, ScInstrUnchecked why, const ScPtxStmt *stmt,
                       uint32_t info, uint32_t *id, ScErr *err)
{
    ScInstrResult *res = st->res;
    if ((uint64_t)st->site_base + res->n_sites >= UINT32_MAX)
        return sc_err_set(err, "site ids would pass %u (site base %u + %u sites): the process has used them all",
                          UINT32_MAX - 1, st->site_base, res->n_sites);
    if (res->n_sites == st->cap_sites) {
        uint32_t cap = st->cap_sites ? st->cap_sites * 2 : 64;
        ScInstrSite *s = realloc(res->sites, cap * sizeof *s);
        if (!s)
            return sc_err_set(err, "out of memory");
        res->sites = s;
        st->cap_sites = cap;
    }
    ScInstrSite *s = &res->sites[res->n_sites];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->unchecked = why;
    s->id = st->site_base + res->n_sites;
    s->ptx_line = stmt->pos.line;
    s->ptx_col = stmt->pos.col;
    s->info = info;
    if (stmt->func != st->last_func) {
        if (!(st->last_func_name = copy_str(res, stmt->func->name, err)))
            return false;
        st->last_func = stmt->func;
        st->last_func_id = s->id;
    }
    s->function = st->last_func_name;
    s->function_id = st->last_func_id;
    if (st->cfg && !sc_instr_cfg_deps(st->cfg, stmt, &res->arena, &s->deps, &s->n_deps, err))
        return false;
    st->tmp.len = 0;
    sc_ptx_print_stmt(stmt, &st->tmp);
    if (st->tmp.oom)
        return sc_err_set(err, "out of memory");
    if (!(s->instr = copy_str(res, st->tmp.data ? st->tmp.data : "", err)))
        return false;
    if (!frames_of(st, stmt->loc, &s->frames, &s->n_frames, err))
        return false;
    *id = s->id;
    res->n_sites++;
    return true;
}

bool sc_instr_add_kernel(ScInstrSites *st, const char *name, ScErr *err)
{
    ScInstrResult *res = st->res;
    if (res->n_kernels == st->cap_kernels) {
        uint32_t cap = st->cap_kernels ? st->cap_kernels * 2 : 8;
        ScInstrKernel *k = realloc(res->kernels, cap * sizeof *k);
        if (!k)
            return sc_err_set(err, "out of memory");
        res->kernels = k;
        st->cap_kernels = cap;
    }
    ScInstrKernel *k = &res->kernels[res->n_kernels];
    memset(k, 0, sizeof *k);
    if (!(k->name = copy_str(res, name, err)))
        return false;
    res->n_kernels++;
    return true;
}

void sc_instr_sites_done(ScInstrSites *st)
{
    cache_free(&st->functions);
    cache_free(&st->files);
    sc_buf_free(&st->tmp);
}

void sc_instr_result_free(ScInstrResult *res)
{
    if (!res)
        return;
    free(res->sites);
    free(res->kernels);
    sc_arena_free(&res->arena);
    memset(res, 0, sizeof *res);
}

const char *sc_instr_site_kind_name(ScInstrSiteKind k)
{
    switch (k) {
    case SC_INSTR_SITE_ACCESS:
        return "access";
    case SC_INSTR_SITE_BARRIER:
        return "barrier";
    case SC_INSTR_SITE_SYNCWARP:
        return "syncwarp";
    case SC_INSTR_SITE_FENCE:
        return "fence";
    case SC_INSTR_SITE_MBARRIER:
        return "mbarrier";
    case SC_INSTR_SITE_ASYNC_COPY:
        return "async_copy";
    case SC_INSTR_SITE_UNCHECKED:
        return "unchecked";
    case SC_INSTR_SITE_PRUNED:
        return "pruned";
    }
    return "?";
}

const char *sc_instr_unchecked_name(ScInstrUnchecked u)
{
    switch (u) {
    case SC_INSTR_UNCHECKED_NONE:
        return "none";
    case SC_INSTR_UNCHECKED_ASYNC:
        return "tensor copies other than tile mode, multicast bulk copies, bulk reductions "
               "(cp.reduce.async.bulk), st.async, red.async";
    case SC_INSTR_UNCHECKED_MATRIX:
        return "matrix loads and stores (ldmatrix, stmatrix, wmma, wgmma)";
    case SC_INSTR_UNCHECKED_MULTIMEM:
        return "multimem accesses";
    }
    return "?";
}
