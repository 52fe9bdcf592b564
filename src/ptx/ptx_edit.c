/* ptx_edit.c: edits of a parsed module: insert statements, fresh names, new module-scope declarations and functions, version/target raises. */
#include "ptx/ptx_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Labels and registers of the function last edited, so that names in inserted
 * text resolve without rescanning the body at every insertion. */
struct ScPtxEditCache {
    const ScPtxFunc *func;
    NameMap names;
};

void sc_ptx_edit_cache_free(ScPtxModule *m)
{
    if (!m->edit_cache)
        return;
    sc_ptx_map_free(&m->edit_cache->names);
    free(m->edit_cache);
    m->edit_cache = NULL;
}

static bool note_stmt_names(NameMap *nm, const ScPtxStmt *s)
{
    switch (s->kind) {
    case SC_PTX_STMT_LABEL:
        return sc_ptx_names_note(nm, s->u.label, NAME_LABEL);
    case SC_PTX_STMT_VAR:
        if (strcmp(s->u.var.space, "reg") != 0)
            return true;
        for (uint32_t i = 0; i < s->u.var.n_decls; i++) {
            const ScPtxDeclarator *d = &s->u.var.decls[i];
            if (!sc_ptx_names_note(nm, d->name, d->has_range ? (uint64_t)d->range << 2 | NAME_RANGE : NAME_REG))
                return false;
        }
        return true;
    case SC_PTX_STMT_CALLPROTO:
    case SC_PTX_STMT_CALLTARGETS:
    case SC_PTX_STMT_BRANCHTARGETS:
    case SC_PTX_STMT_PRAGMA:
    case SC_PTX_STMT_UNKNOWN:
        return !s->u.dir.label || sc_ptx_names_note(nm, s->u.dir.label, NAME_LABEL);
    case SC_PTX_STMT_INSTR:
    case SC_PTX_STMT_LOC:
    case SC_PTX_STMT_OPEN:
    case SC_PTX_STMT_CLOSE:
        return true;
    }
    return true;
}

static const NameMap *func_names(ScPtxModule *m, const ScPtxFunc *f, ScErr *err)
{
    struct ScPtxEditCache *c = m->edit_cache;
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c) {
            sc_err_set(err, "out of memory");
            return NULL;
        }
        m->edit_cache = c;
    }
    if (c->func == f)
        return &c->names;
    sc_ptx_map_clear(&c->names);
    c->func = NULL;
    bool ok = true;
    for (uint32_t i = 0; i < f->n_rets + f->n_params; i++) {
        const ScPtxVar *v = i < f->n_rets ? &f->rets[i] : &f->params[i - f->n_rets];
        if (strcmp(v->space, "reg") == 0)
            ok &= sc_ptx_names_note(&c->names, v->decls[0].name, NAME_REG);
    }
    for (const ScPtxStmt *s = f->first; s; s = s->next)
        ok &= note_stmt_names(&c->names, s);
    if (!ok) {
        sc_err_set(err, "out of memory");
        return NULL;
    }
    c->func = f;
    return &c->names;
}

/* Links first..last between prev and next (either may be NULL: an end of the body). */
static void splice(ScPtxFunc *f, ScPtxStmt *prev, ScPtxStmt *next, ScPtxStmt *first, ScPtxStmt *last)
{
    first->prev = prev;
    last->next = next;
    if (prev)
        prev->next = first;
    else
        f->first = first;
    if (next)
        next->prev = last;
    else
        f->last = last;
}

/* Parses ptx and links it between prev and next at depth. */
static ScPtxStmt *insert_between(ScPtxModule *m, ScPtxFunc *f, ScPtxStmt *prev, ScPtxStmt *next, uint32_t depth,
                                 const ScPtxLoc *loc, const char *ptx, ScErr *err)
{
    const NameMap *names = func_names(m, f, err);
    if (!names)
        return NULL;
    ScPtxStmt *last;
    ScPtxStmt *first = sc_ptx_parse_stmts(m, f, depth, loc, names, ptx, err, &last);
    if (!first) {
        if (!err || !err->set)
            sc_err_set(err, "inserted PTX holds no statement");
        return NULL;
    }
    for (const ScPtxStmt *s = first; s; s = s->next)
        if (!note_stmt_names(&m->edit_cache->names, s)) {
            m->edit_cache->func = NULL; /* rebuilt on the next edit */
            break;
        }
    splice(f, prev, next, first, last);
    return first;
}

static bool check_at(const ScPtxStmt *at, ScErr *err)
{
    if (!at || !at->func || !at->func->has_body)
        return sc_err_set(err, "no statement of a function body to insert next to");
    return true;
}

ScPtxStmt *sc_ptx_insert_before(ScPtxModule *m, ScPtxStmt *at, const char *ptx, ScErr *err)
{
    if (!check_at(at, err))
        return NULL;
    /* Before a '}' is still inside its block. */
    uint32_t depth = at->kind == SC_PTX_STMT_CLOSE ? at->depth + 1 : at->depth;
    return insert_between(m, at->func, at->prev, at, depth, at->loc, ptx, err);
}

ScPtxStmt *sc_ptx_insert_after(ScPtxModule *m, ScPtxStmt *at, const char *ptx, ScErr *err)
{
    if (!check_at(at, err))
        return NULL;
    uint32_t depth = at->kind == SC_PTX_STMT_OPEN ? at->depth + 1 : at->depth;
    const ScPtxLoc *loc = at->kind == SC_PTX_STMT_LOC ? &at->u.loc : at->loc;
    return insert_between(m, at->func, at, at->next, depth, loc, ptx, err);
}

ScPtxStmt *sc_ptx_insert_at_entry(ScPtxModule *m, ScPtxFunc *f, const char *ptx, ScErr *err)
{
    if (!f || !f->has_body) {
        sc_err_set(err, "function %s has no body to insert into", f ? f->name : "(null)");
        return NULL;
    }
    ScPtxStmt *s = f->first;
    while (s && (s->kind == SC_PTX_STMT_VAR || s->kind == SC_PTX_STMT_LOC))
        s = s->next;
    if (s)
        return sc_ptx_insert_before(m, s, ptx, err);
    const ScPtxLoc *loc = !f->last ? NULL : f->last->kind == SC_PTX_STMT_LOC ? &f->last->u.loc : f->last->loc;
    return insert_between(m, f, f->last, NULL, 0, loc, ptx, err);
}

static bool is_exit(const ScPtxStmt *s)
{
    return s->kind == SC_PTX_STMT_INSTR && (strcmp(s->u.instr.opcode, "ret") == 0 || strcmp(s->u.instr.opcode, "exit") == 0);
}

int sc_ptx_insert_before_exits(ScPtxModule *m, ScPtxFunc *f, const char *ptx, ScErr *err)
{
    if (!f || !f->has_body)
        return sc_err_set(err, "function %s has no body to insert into", f ? f->name : "(null)"), -1;
    size_t n = 0, cap = 0;
    ScPtxStmt **sites = NULL;
    for (ScPtxStmt *s = f->first; s; s = s->next) {
        if (!is_exit(s))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            ScPtxStmt **q = realloc(sites, cap * sizeof *q);
            if (!q) {
                free(sites);
                return sc_err_set(err, "out of memory"), -1;
            }
            sites = q;
        }
        sites[n++] = s;
    }
    /* Check the text once, so that a bad snippet fails before any edit. */
    ScPtxStmt *last;
    if (!sc_ptx_parse_stmts(m, f, 0, NULL, NULL, ptx, err, &last)) {
        free(sites);
        if (!err || !err->set)
            sc_err_set(err, "inserted PTX holds no statement");
        return -1;
    }
    ScBuf text = {0};
    int done = 0;
    for (size_t i = 0; i < n; i++) {
        ScPtxStmt *s = sites[i];
        if (!s->u.instr.guard) {
            if (!sc_ptx_insert_before(m, s, ptx, err))
                break;
            done++;
            continue;
        }
        /* @p ret  ->  @!p bra L; <ptx> ret; L: */
        const char *label = sc_ptx_fresh_label(m, err);
        if (!label)
            break;
        /* the label first, so that the branch to it resolves to a label */
        char decl[64];
        snprintf(decl, sizeof decl, "%s:", label);
        ScPtxStmt *target = sc_ptx_insert_after(m, s, decl, err);
        if (!target)
            break;
        text.len = 0;
        sc_buf_printf(&text, "@%s%s bra %s;\n%s", s->u.instr.guard_negated ? "" : "!", s->u.instr.guard, label, ptx);
        if (text.oom)
            sc_err_set(err, "out of memory");
        if (text.oom || !sc_ptx_insert_before(m, s, text.data, err)) {
            sc_ptx_remove(target, NULL);
            break;
        }
        s->u.instr.guard = NULL;
        s->u.instr.guard_negated = false;
        done++;
    }
    sc_buf_free(&text);
    free(sites);
    return err && err->set ? -1 : done;
}

bool sc_ptx_remove(ScPtxStmt *s, ScErr *err)
{
    if (!check_at(s, err))
        return false;
    if (s->kind == SC_PTX_STMT_OPEN || s->kind == SC_PTX_STMT_CLOSE)
        return sc_err_set(err, "removing a lone '{' or '}' would unbalance the body of %s", s->func->name);
    if (s->kind == SC_PTX_STMT_LOC)
        return sc_err_set(err, "removing a .loc would re-attribute the statements after it");
    ScPtxFunc *f = s->func;
    if (s->prev)
        s->prev->next = s->next;
    else
        f->first = s->next;
    if (s->next)
        s->next->prev = s->prev;
    else
        f->last = s->prev;
    s->prev = s->next = NULL;
    return true;
}

bool sc_ptx_insert_mod(ScPtxModule *m, ScPtxStmt *s, uint32_t at, const char *mod, ScErr *err)
{
    if (!check_at(s, err))
        return false;
    if (s->kind != SC_PTX_STMT_INSTR)
        return sc_err_set(err, "a modifier can only be added to an instruction");
    ScPtxInstr *in = &s->u.instr;
    if (at > in->n_mods)
        return sc_err_set(err, "%s has %u modifiers, none at %u", in->opcode, in->n_mods, at);
    const char **mods = sc_arena_alloc(&m->arena, (in->n_mods + 1) * sizeof *mods);
    char *copy = sc_arena_strndup(&m->arena, mod, strlen(mod));
    if (!mods || !copy)
        return sc_err_set(err, "out of memory");
    for (uint32_t i = 0, j = 0; i <= in->n_mods; i++)
        mods[i] = i == at ? copy : in->mods[j++];
    in->mods = mods;
    in->n_mods++;
    return true;
}

/* ---- fresh names ---------------------------------------------------------- */

static const char *fresh(ScPtxModule *m, uint64_t *counter, const char *prefix, ScErr *err)
{
    if (*counter == UINT64_MAX) {
        sc_err_set(err, "no fresh %s names left: the module declares the largest one", prefix);
        return NULL;
    }
    char buf[48];
    int n = snprintf(buf, sizeof buf, "%s%llu", prefix, (unsigned long long)(*counter)++);
    char *name = sc_arena_strndup(&m->arena, buf, (size_t)n);
    if (!name)
        sc_err_set(err, "out of memory");
    return name;
}

const char *sc_ptx_fresh_label(ScPtxModule *m, ScErr *err)
{
    return fresh(m, &m->next_fresh_label, "$__scL", err);
}

static bool valid_type(const char *t)
{
    if (!t || !*t)
        return false;
    for (; *t; t++)
        if (!((*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9') || *t == '_'))
            return false;
    return true;
}

const char *sc_ptx_fresh_reg(ScPtxModule *m, ScPtxFunc *f, const char *type, ScErr *err)
{
    if (!f || !f->has_body) {
        sc_err_set(err, "function %s has no body to declare a register in", f ? f->name : "(null)");
        return NULL;
    }
    if (!valid_type(type)) {
        sc_err_set(err, "register type '%s' is not a PTX type name (write it without the dot: \"b64\")",
                   type ? type : "(null)");
        return NULL;
    }
    const char *name = fresh(m, &m->next_fresh_reg, "%__sc", err);
    if (!name)
        return NULL;
    ScPtxStmt *s = sc_arena_alloc(&m->arena, sizeof *s);
    ScPtxDeclarator *d = sc_arena_alloc(&m->arena, sizeof *d);
    char *ty = sc_arena_strndup(&m->arena, type, strlen(type));
    if (!s || !d || !ty) {
        sc_err_set(err, "out of memory");
        return NULL;
    }
    d->name = name;
    s->kind = SC_PTX_STMT_VAR;
    s->func = f;
    s->u.var = (ScPtxVar){.space = "reg", .type = ty, .decls = d, .n_decls = 1};
    splice(f, NULL, f->first, s, s);
    return name;
}

/* ---- module-scope additions ----------------------------------------------- */

static bool name_defined(const ScPtxModule *m, const char *name, const ScPtxItem **where)
{
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        *where = it;
        if (it->kind == SC_PTX_ITEM_FUNC && strcmp(it->u.func->name, name) == 0)
            return true;
        if (it->kind == SC_PTX_ITEM_VAR)
            for (uint32_t i = 0; i < it->u.var.n_decls; i++)
                if (strcmp(it->u.var.decls[i].name, name) == 0)
                    return true;
    }
    return false;
}

static bool check_new_names(const ScPtxModule *m, const ScPtxItem *it, ScErr *err)
{
    const ScPtxItem *where;
    if (it->kind == SC_PTX_ITEM_FUNC) {
        if (name_defined(m, it->u.func->name, &where))
            return sc_err_set(err, "'%s' is already declared at line %u of the module: pick another name",
                              it->u.func->name, where->pos.line);
        return true;
    }
    for (uint32_t i = 0; i < it->u.var.n_decls; i++)
        if (name_defined(m, it->u.var.decls[i].name, &where))
            return sc_err_set(err, "'%s' is already declared at line %u of the module: pick another name",
                              it->u.var.decls[i].name, where->pos.line);
    return true;
}

static void link_items(ScPtxModule *m, ScPtxItem *prev, ScPtxItem *first, ScPtxItem *last)
{
    ScPtxItem *next = prev ? prev->next : m->first;
    first->prev = prev;
    last->next = next;
    if (prev)
        prev->next = first;
    else
        m->first = first;
    if (next)
        next->prev = last;
    else
        m->last = last;
}

bool sc_ptx_add_decls(ScPtxModule *m, const char *ptx, ScErr *err)
{
    ScPtxItem *last;
    ScPtxItem *first = sc_ptx_parse_items(m, ptx, err, &last);
    if (!first)
        return err && err->set ? false : sc_err_set(err, "no declaration to add");
    for (const ScPtxItem *it = first; it; it = it->next) {
        bool decl = it->kind == SC_PTX_ITEM_VAR || (it->kind == SC_PTX_ITEM_FUNC && !it->u.func->has_body);
        if (!decl)
            return sc_err_set(err, "inserted PTX:%u:%u: error: only variables and .func prototypes can be added "
                                   "here (add definitions with sc_ptx_add_func)",
                              it->pos.line, it->pos.col);
        if (!check_new_names(m, it, err))
            return false;
    }
    link_items(m, NULL, first, last);
    return true;
}

ScPtxFunc *sc_ptx_add_func(ScPtxModule *m, const char *ptx, ScErr *err)
{
    ScPtxItem *last;
    ScPtxItem *def = sc_ptx_parse_items(m, ptx, err, &last);
    if (!def) {
        if (!err || !err->set)
            sc_err_set(err, "no function to add");
        return NULL;
    }
    if (def != last || def->kind != SC_PTX_ITEM_FUNC || !def->u.func->has_body || def->u.func->is_entry) {
        sc_err_set(err, "sc_ptx_add_func takes exactly one .func definition with a body");
        return NULL;
    }
    if (!check_new_names(m, def, err))
        return NULL;
    ScPtxFunc *f = def->u.func;
    ScPtxItem *proto = sc_arena_alloc(&m->arena, sizeof *proto);
    ScPtxFunc *pf = sc_arena_alloc(&m->arena, sizeof *pf);
    if (!proto || !pf) {
        sc_err_set(err, "out of memory");
        return NULL;
    }
    *pf = *f;
    pf->has_body = false;
    pf->first = pf->last = NULL;
    proto->kind = SC_PTX_ITEM_FUNC;
    proto->u.func = pf;
    link_items(m, NULL, proto, proto);
    ScPtxItem *after = m->last;
    while (after && after->kind != SC_PTX_ITEM_FUNC)
        after = after->prev;
    link_items(m, after ? after : m->last, def, def);
    return f;
}

/* ---- version and target --------------------------------------------------- */

void sc_ptx_require_version(ScPtxModule *m, unsigned major, unsigned minor)
{
    if (m->version_major < major || (m->version_major == major && m->version_minor < minor)) {
        m->version_major = major;
        m->version_minor = minor;
    }
}

bool sc_ptx_require_target(ScPtxModule *m, unsigned sm, ScErr *err)
{
    for (uint32_t i = 0; i < m->n_targets; i++) {
        const char *t = m->targets[i];
        if (strncmp(t, "sm_", 3) != 0 && strncmp(t, "compute_", 8) != 0)
            continue;
        if (sc_ptx_target_sm(m) >= sm)
            return true;
        char buf[32];
        int n = snprintf(buf, sizeof buf, "sm_%u", sm);
        char *name = sc_arena_strndup(&m->arena, buf, (size_t)n);
        const char **targets = sc_arena_alloc(&m->arena, m->n_targets * sizeof *targets);
        if (!name || !targets)
            return sc_err_set(err, "out of memory");
        memcpy(targets, m->targets, m->n_targets * sizeof *targets);
        targets[i] = name;
        m->targets = targets;
        return true;
    }
    return sc_err_set(err, "%s: the .target has no sm_XX to raise to sm_%u", m->filename ? m->filename : "module", sm);
}
