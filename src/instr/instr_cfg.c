/* instr_cfg.c: one function's control flow: blocks, post-dominators, and the branch arms each site depends on. */
#include "instr/instr_int.h"

#include <stdlib.h>
#include <string.h>

/*
 * Only the instrumenter sees a kernel's branches, and the host needs them to
 * tell a divergent-branch race from a missing __syncwarp (DESIGN.md): two
 * accesses race on opposite arms of one branch when both are control
 * dependent on it through different successor edges. Control dependence is
 * read off the post-dominator tree (Ferrante, Ottenstein and Warren), which
 * Cooper, Harvey and Kennedy's iterative algorithm builds over the reversed
 * graph in near-linear time for the structured code compilers emit.
 *
 * Whatever cannot be understood exactly (a branch to a label or table that
 * does not resolve, a block from which the function cannot end) leaves every
 * site of the function without dependences: the race then keeps the cause the
 * device gave it, never a more specific one it may not deserve.
 */

#define NONE UINT32_MAX
/* Blocks one site's search may visit: deep enough for any nesting seen in
 * practice, bounded so that a function of thousands of blocks stays linear. */
#define MAX_VISITED 64

typedef struct Edge {
    uint32_t to, arm;
} Edge;

/* "block depends on edge arm of branch_block", chained per block. */
typedef struct Dep {
    uint32_t branch_block, arm, next;
} Dep;

typedef struct Block {
    const ScPtxStmt *first; /* its first instruction; NULL when it has none */
    const ScPtxStmt *term; /* the bra/brx/ret/exit/trap ending it; NULL when it falls through */
    uint32_t term_scope;
    uint32_t first_edge, n_edges;
    uint32_t first_pred, n_preds;
    uint32_t branch;       /* term's index among the module's instructions */
    bool divergent;        /* two or more edges and not .uni: lanes of a warp may part here */
    uint32_t deps_head;    /* first Dep of this block, NONE when none */
    bool closed;           /* deps below are computed */
    const ScInstrControlDep *deps;
    uint32_t n_deps;
} Block;

/* A label or a .branchtargets table: PTX scopes both to their { } block. */
typedef struct Name {
    const char *name;
    uint32_t scope;
    uint32_t block;           /* label: the block it starts */
    const ScPtxStmt *table;   /* table: its directive; NULL for a label */
    uint32_t next;            /* next name in the same hash slot */
} Name;

struct ScInstrCfg {
    bool analyzable;
    Block *blocks;            /* n_blocks of the body, then the virtual exit */
    uint32_t n_blocks, exit;
    Edge *edges;
    uint32_t n_edges, cap_edges;
    uint32_t *preds;
    uint32_t *scope_parent, *scope_depth;
    uint32_t n_scopes;
    Name *names;
    uint32_t n_names;
    uint32_t *name_slots;     /* chain heads, NONE = empty */
    uint32_t cap_name_slots;
    const ScPtxStmt **map_keys; /* instruction -> block, open addressing */
    uint32_t *map_blocks;
    uint32_t cap_map;
    uint32_t *idom, *po, *order, *iter;
    Dep *deps;
    uint32_t n_deps, cap_deps;
    uint32_t *queue, *seen;
    uint32_t stamp;
};

static uint32_t pow2_above(uint32_t n)
{
    uint32_t c = 16;
    while (c < 2 * n)
        c *= 2;
    return c;
}

static uint32_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdu;
    x ^= x >> 33;
    return (uint32_t)x;
}

static uint32_t hash_name(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void map_put(ScInstrCfg *g, const ScPtxStmt *s, uint32_t block)
{
    uint32_t j = hash_ptr(s) & (g->cap_map - 1);
    while (g->map_keys[j])
        j = (j + 1) & (g->cap_map - 1);
    g->map_keys[j] = s;
    g->map_blocks[j] = block;
}

static uint32_t map_get(const ScInstrCfg *g, const ScPtxStmt *s)
{
    for (uint32_t j = hash_ptr(s) & (g->cap_map - 1); g->map_keys[j]; j = (j + 1) & (g->cap_map - 1))
        if (g->map_keys[j] == s)
            return g->map_blocks[j];
    return NONE;
}

static void add_name(ScInstrCfg *g, const char *name, uint32_t scope, uint32_t block, const ScPtxStmt *table)
{
    uint32_t slot = hash_name(name, strlen(name)) & (g->cap_name_slots - 1);
    g->names[g->n_names] = (Name){name, scope, block, table, g->name_slots[slot]};
    g->name_slots[slot] = g->n_names++;
}

/* Whether scope `outer` encloses (or is) `inner`. */
static bool encloses(const ScInstrCfg *g, uint32_t outer, uint32_t inner)
{
    while (g->scope_depth[inner] > g->scope_depth[outer])
        inner = g->scope_parent[inner];
    return inner == outer;
}

/* The label (or table) `name` means at a statement of `scope`: the one
 * declared in the innermost enclosing block, as ptxas resolves it. */
static const Name *resolve(const ScInstrCfg *g, const char *name, size_t len, uint32_t scope, bool table)
{
    const Name *best = NULL;
    uint32_t slot = hash_name(name, len) & (g->cap_name_slots - 1);
    for (uint32_t i = g->name_slots[slot]; i != NONE; i = g->names[i].next) {
        const Name *n = &g->names[i];
        if ((n->table != NULL) != table || strncmp(n->name, name, len) != 0 || n->name[len] != '\0')
            continue;
        if (encloses(g, n->scope, scope) && (!best || g->scope_depth[n->scope] > g->scope_depth[best->scope]))
            best = n;
    }
    return best;
}

static bool is_terminator(const ScPtxInstr *in)
{
    static const char *const ops[] = {"bra", "brx", "ret", "exit", "trap"};
    for (size_t i = 0; i < SC_ARRAY_LEN(ops); i++)
        if (strcmp(in->opcode, ops[i]) == 0)
            return true;
    return false;
}

static bool add_edge(ScInstrCfg *g, uint32_t to, uint32_t arm, ScErr *err)
{
    if (g->n_edges == g->cap_edges) {
        uint32_t cap = g->cap_edges ? g->cap_edges * 2 : 64;
        Edge *e = realloc(g->edges, cap * sizeof *e);
        if (!e)
            return sc_err_set(err, "out of memory");
        g->edges = e;
        g->cap_edges = cap;
    }
    g->edges[g->n_edges++] = (Edge){to, arm};
    return true;
}

static bool add_dep(ScInstrCfg *g, uint32_t block, uint32_t branch_block, uint32_t arm, ScErr *err)
{
    if (g->n_deps == g->cap_deps) {
        uint32_t cap = g->cap_deps ? g->cap_deps * 2 : 64;
        Dep *d = realloc(g->deps, cap * sizeof *d);
        if (!d)
            return sc_err_set(err, "out of memory");
        g->deps = d;
        g->cap_deps = cap;
    }
    g->deps[g->n_deps] = (Dep){branch_block, arm, g->blocks[block].deps_head};
    g->blocks[block].deps_head = g->n_deps++;
    return true;
}

/* ---- building the graph ---------------------------------------------------- */

static uint32_t new_block(ScInstrCfg *g)
{
    g->blocks[g->n_blocks] = (Block){.deps_head = NONE};
    return g->n_blocks++;
}

/* Blocks split at labels and after every bra, brx, ret, exit and trap; the
 * labels, tables and scopes go into their tables on the way. */
static void split_blocks(ScInstrCfg *g, const ScPtxFunc *f, uint32_t *instr_index)
{
    uint32_t scope = 0, b = new_block(g);
    bool started = false, ended = false;
    for (const ScPtxStmt *s = f->first; s; s = s->next) {
        switch (s->kind) {
        case SC_PTX_STMT_OPEN:
            g->scope_parent[g->n_scopes] = scope;
            g->scope_depth[g->n_scopes] = g->scope_depth[scope] + 1;
            scope = g->n_scopes++;
            break;
        case SC_PTX_STMT_CLOSE:
            scope = g->scope_parent[scope];
            break;
        case SC_PTX_STMT_LABEL:
            if (started || ended) {
                b = new_block(g);
                started = ended = false;
            }
            add_name(g, s->u.label, scope, b, NULL);
            break;
        case SC_PTX_STMT_BRANCHTARGETS:
            if (s->u.dir.label)
                add_name(g, s->u.dir.label, scope, NONE, s);
            break;
        case SC_PTX_STMT_INSTR:
            if (ended) {
                b = new_block(g);
                ended = false;
            }
            started = true;
            if (!g->blocks[b].first)
                g->blocks[b].first = s;
            map_put(g, s, b);
            if (is_terminator(&s->u.instr)) {
                g->blocks[b].term = s;
                g->blocks[b].term_scope = scope;
                g->blocks[b].branch = *instr_index;
                ended = true;
            }
            (*instr_index)++;
            break;
        case SC_PTX_STMT_VAR:
        case SC_PTX_STMT_LOC:
        case SC_PTX_STMT_PRAGMA:
        case SC_PTX_STMT_CALLPROTO:
        case SC_PTX_STMT_CALLTARGETS:
        case SC_PTX_STMT_UNKNOWN:
            break;
        }
    }
}

/* Edges to every label of brx's `.branchtargets` list, in order. *understood
 * turns false when the table or one of its labels does not resolve; false
 * only when out of memory. */
static bool table_edges(ScInstrCfg *g, const ScPtxStmt *brx, uint32_t scope, uint32_t *arm, bool *understood,
                        ScErr *err)
{
    static const char blanks[] = " \t\n\r";
    const char *tname = brx->u.instr.ops[1].text;
    const Name *t = tname ? resolve(g, tname, strlen(tname), scope, true) : NULL;
    if (!t) {
        *understood = false;
        return true;
    }
    for (const char *p = t->table->u.dir.args + strspn(t->table->u.dir.args, blanks); *p;) {
        size_t len = strcspn(p, ", \t\n\r");
        const Name *l = len ? resolve(g, p, len, t->scope, false) : NULL;
        if (!l) {
            *understood = false;
            return true;
        }
        if (!add_edge(g, l->block, (*arm)++, err))
            return false;
        p += len;
        p += strspn(p, blanks);
        if (*p == ',')
            p += 1 + strspn(p + 1, blanks);
    }
    if (*arm == 0)
        *understood = false;
    return true;
}

/* Successor edges, numbered by arm: a branch's targets in order (bra: its
 * label; brx.idx: its table; ret, exit, trap: the virtual exit), then the
 * fall-through when the terminator is guarded or there is none. */
static bool link_blocks(ScInstrCfg *g, ScErr *err)
{
    for (uint32_t b = 0; b < g->n_blocks && g->analyzable; b++) {
        Block *bl = &g->blocks[b];
        uint32_t fall = b + 1 < g->n_blocks ? b + 1 : g->exit, arm = 0;
        bl->first_edge = g->n_edges;
        const ScPtxStmt *t = bl->term;
        if (t) {
            const ScPtxInstr *in = &t->u.instr;
            if (strcmp(in->opcode, "bra") == 0) {
                const char *name = in->ops[0].text;
                const Name *l = name ? resolve(g, name, strlen(name), bl->term_scope, false) : NULL;
                if (!l)
                    g->analyzable = false;
                else if (!add_edge(g, l->block, arm++, err))
                    return false;
            } else if (strcmp(in->opcode, "brx") == 0) {
                if (!table_edges(g, t, bl->term_scope, &arm, &g->analyzable, err))
                    return false;
            } else if (!add_edge(g, g->exit, arm++, err)) {
                return false;
            }
        }
        if ((!t || t->u.instr.guard) && !add_edge(g, fall, arm, err))
            return false;
        bl->n_edges = g->n_edges - bl->first_edge;
        bl->divergent = t && bl->n_edges >= 2 && !sc_ptx_instr_has_mod(t, "uni");
    }
    return true;
}

static void find_preds(ScInstrCfg *g)
{
    uint32_t n = g->exit + 1;
    for (uint32_t i = 0; i < g->n_edges; i++)
        g->blocks[g->edges[i].to].n_preds++;
    uint32_t at = 0;
    for (uint32_t b = 0; b < n; b++) {
        g->blocks[b].first_pred = at;
        at += g->blocks[b].n_preds;
        g->blocks[b].n_preds = 0;
    }
    for (uint32_t b = 0; b < g->n_blocks; b++) {
        const Block *bl = &g->blocks[b];
        for (uint32_t e = bl->first_edge; e < bl->first_edge + bl->n_edges; e++) {
            Block *to = &g->blocks[g->edges[e].to];
            g->preds[to->first_pred + to->n_preds++] = b;
        }
    }
}

/* Post-order of the reversed graph from the exit, iteratively (bodies have
 * thousands of blocks). A block that cannot reach the exit (an endless loop)
 * has no post-dominator: the function is then left unanalyzed. */
static void order_from_exit(ScInstrCfg *g)
{
    uint32_t n = g->exit + 1, top = 0, count = 0;
    for (uint32_t b = 0; b < n; b++)
        g->po[b] = NONE;
    g->queue[top++] = g->exit;
    g->iter[g->exit] = 0;
    g->po[g->exit] = NONE - 1; /* on the stack */
    while (top) {
        uint32_t v = g->queue[top - 1];
        const Block *bl = &g->blocks[v];
        if (g->iter[v] < bl->n_preds) {
            uint32_t u = g->preds[bl->first_pred + g->iter[v]++];
            if (g->po[u] == NONE) {
                g->po[u] = NONE - 1;
                g->iter[u] = 0;
                g->queue[top++] = u;
            }
            continue;
        }
        top--;
        g->order[count] = v;
        g->po[v] = count++;
    }
    if (count != n)
        g->analyzable = false;
}

static uint32_t intersect(const ScInstrCfg *g, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (g->po[a] < g->po[b])
            a = g->idom[a];
        while (g->po[b] < g->po[a])
            b = g->idom[b];
    }
    return a;
}

static void post_dominators(ScInstrCfg *g)
{
    uint32_t n = g->exit + 1;
    for (uint32_t b = 0; b < n; b++)
        g->idom[b] = NONE;
    g->idom[g->exit] = g->exit;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = n - 1; k-- > 0;) { /* reverse post-order, the exit (last) excluded */
            uint32_t v = g->order[k], best = NONE;
            const Block *bl = &g->blocks[v];
            for (uint32_t e = bl->first_edge; e < bl->first_edge + bl->n_edges; e++) {
                uint32_t s = g->edges[e].to;
                if (g->idom[s] != NONE)
                    best = best == NONE ? s : intersect(g, s, best);
            }
            if (best != g->idom[v]) {
                g->idom[v] = best;
                changed = true;
            }
        }
    }
}

/* Every block on the post-dominator chain from an edge's target up to (not
 * including) the branch's immediate post-dominator depends on that edge. */
static bool control_dependences(ScInstrCfg *g, ScErr *err)
{
    for (uint32_t x = 0; x < g->n_blocks; x++) {
        const Block *bl = &g->blocks[x];
        if (bl->n_edges < 2)
            continue;
        for (uint32_t e = bl->first_edge; e < bl->first_edge + bl->n_edges; e++)
            for (uint32_t r = g->edges[e].to; r != g->idom[x] && r != g->exit; r = g->idom[r])
                if (!add_dep(g, r, x, g->edges[e].arm, err))
                    return false;
    }
    return true;
}

bool sc_instr_cfg_new(const ScPtxFunc *f, uint32_t *instr_base, ScInstrCfg **out, ScErr *err)
{
    *out = NULL;
    uint32_t n_instr = 0, n_labels = 0, n_tables = 0, n_opens = 0;
    for (const ScPtxStmt *s = f->first; s; s = s->next) {
        n_instr += s->kind == SC_PTX_STMT_INSTR;
        n_labels += s->kind == SC_PTX_STMT_LABEL;
        n_tables += s->kind == SC_PTX_STMT_BRANCHTARGETS;
        n_opens += s->kind == SC_PTX_STMT_OPEN;
    }
    ScInstrCfg *g = calloc(1, sizeof *g);
    if (!g)
        return sc_err_set(err, "out of memory");
    uint32_t max_nodes = n_instr + n_labels + 2; /* every block starts at one of them, plus the exit */
    g->analyzable = true;
    g->cap_map = pow2_above(n_instr);
    g->cap_name_slots = pow2_above(n_labels + n_tables);
    g->blocks = calloc(max_nodes, sizeof *g->blocks);
    g->scope_parent = calloc(n_opens + 1, sizeof *g->scope_parent);
    g->scope_depth = calloc(n_opens + 1, sizeof *g->scope_depth);
    g->names = calloc(n_labels + n_tables + 1, sizeof *g->names);
    g->name_slots = malloc(g->cap_name_slots * sizeof *g->name_slots);
    g->map_keys = calloc(g->cap_map, sizeof *g->map_keys);
    g->map_blocks = calloc(g->cap_map, sizeof *g->map_blocks);
    g->preds = calloc(1, sizeof *g->preds); /* resized once the edges are known */
    g->idom = calloc(max_nodes, sizeof *g->idom);
    g->po = calloc(max_nodes, sizeof *g->po);
    g->order = calloc(max_nodes, sizeof *g->order);
    g->iter = calloc(max_nodes, sizeof *g->iter);
    g->queue = calloc(max_nodes, sizeof *g->queue);
    g->seen = calloc(max_nodes, sizeof *g->seen);
    if (!g->blocks || !g->scope_parent || !g->scope_depth || !g->names || !g->name_slots || !g->map_keys ||
        !g->map_blocks || !g->preds || !g->idom || !g->po || !g->order || !g->iter || !g->queue || !g->seen) {
        sc_instr_cfg_free(g);
        return sc_err_set(err, "out of memory");
    }
    memset(g->name_slots, 0xff, g->cap_name_slots * sizeof *g->name_slots);
    g->n_scopes = 1;
    split_blocks(g, f, instr_base);
    g->exit = new_block(g);
    g->n_blocks = g->exit;
    if (!link_blocks(g, err)) {
        sc_instr_cfg_free(g);
        return false;
    }
    if (g->analyzable) {
        uint32_t *p = realloc(g->preds, (g->n_edges + 1) * sizeof *p);
        if (!p) {
            sc_instr_cfg_free(g);
            return sc_err_set(err, "out of memory");
        }
        g->preds = p;
        find_preds(g);
        order_from_exit(g);
    }
    if (g->analyzable) {
        post_dominators(g);
        if (!control_dependences(g, err)) {
            sc_instr_cfg_free(g);
            return false;
        }
    }
    *out = g;
    return true;
}

/* ---- a site's dependences ------------------------------------------------ */

static void add_unique(ScInstrControlDep *v, uint32_t *n, ScInstrControlDep d)
{
    for (uint32_t i = 0; i < *n; i++)
        if (v[i].branch == d.branch && v[i].arm == d.arm)
            return;
    v[(*n)++] = d;
}

static bool dep_less(ScInstrControlDep a, ScInstrControlDep b)
{
    return a.branch < b.branch || (a.branch == b.branch && a.arm < b.arm);
}

/* The divergent branches block b depends on, directly or through the blocks
 * of the branches it depends on (an access in an if nested in an arm lies on
 * that arm too), nearest first until the list is full. */
static bool close_block(ScInstrCfg *g, uint32_t b, ScArena *arena, ScErr *err)
{
    ScInstrControlDep v[SC_INSTR_MAX_CONTROL_DEPS];
    uint32_t n = 0, qn = 0;
    if (++g->stamp == 0) {
        memset(g->seen, 0, (g->exit + 1) * sizeof *g->seen);
        g->stamp = 1;
    }
    g->seen[b] = g->stamp;
    g->queue[qn++] = b;
    for (uint32_t qi = 0; qi < qn && qi < MAX_VISITED && n < SC_INSTR_MAX_CONTROL_DEPS; qi++) {
        for (uint32_t d = g->blocks[g->queue[qi]].deps_head; d != NONE && n < SC_INSTR_MAX_CONTROL_DEPS;
             d = g->deps[d].next) {
            uint32_t x = g->deps[d].branch_block;
            if (g->blocks[x].divergent)
                add_unique(v, &n, (ScInstrControlDep){g->blocks[x].branch, g->deps[d].arm});
            if (g->seen[x] != g->stamp) {
                g->seen[x] = g->stamp;
                g->queue[qn++] = x;
            }
        }
    }
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && dep_less(v[j], v[j - 1]); j--) {
            ScInstrControlDep t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    Block *bl = &g->blocks[b];
    if (n) {
        ScInstrControlDep *copy = sc_arena_alloc(arena, n * sizeof *copy);
        if (!copy)
            return sc_err_set(err, "out of memory");
        memcpy(copy, v, n * sizeof *copy);
        bl->deps = copy;
    }
    bl->n_deps = n;
    bl->closed = true;
    return true;
}

uint32_t sc_instr_cfg_block(const ScInstrCfg *g, const ScPtxStmt *stmt)
{
    return g->analyzable ? map_get(g, stmt) : SC_INSTR_NO_BLOCK;
}

bool sc_instr_cfg_if_then(const ScInstrCfg *g, uint32_t b, const ScPtxStmt **branch, const ScPtxStmt **join)
{
    if (!g->analyzable || b >= g->n_blocks)
        return false;
    const Block *then = &g->blocks[b];
    if (then->n_preds != 1 || then->n_edges != 1 || !then->first)
        return false;
    uint32_t br = g->preds[then->first_pred], j = g->edges[then->first_edge].to;
    const Block *head = &g->blocks[br];
    if (!head->divergent || head->n_edges != 2 || strcmp(head->term->u.instr.opcode, "bra") != 0 || j == g->exit)
        return false;
    const Edge *e = &g->edges[head->first_edge];
    bool arms = (e[0].to == b && e[1].to == j) || (e[0].to == j && e[1].to == b);
    const Block *jb = &g->blocks[j];
    if (!arms || jb->n_preds != 2 || !jb->first || !(br < b && b < j))
        return false;
    /* A call would run whatever the callee does between an access and its check. */
    for (const ScPtxStmt *s = then->first; s && s->kind != SC_PTX_STMT_LABEL && s != then->term; s = s->next)
        if (s->kind == SC_PTX_STMT_INSTR && strcmp(s->u.instr.opcode, "call") == 0)
            return false;
    *branch = head->term;
    *join = jb->first;
    return true;
}

bool sc_instr_cfg_deps(ScInstrCfg *g, const ScPtxStmt *stmt, ScArena *arena, const ScInstrControlDep **deps,
                       uint32_t *n, ScErr *err)
{
    *deps = NULL;
    *n = 0;
    uint32_t b = g->analyzable ? map_get(g, stmt) : NONE;
    if (b == NONE)
        return true;
    if (!g->blocks[b].closed && !close_block(g, b, arena, err))
        return false;
    *deps = g->blocks[b].deps;
    *n = g->blocks[b].n_deps;
    return true;
}

uint32_t sc_instr_cfg_n_blocks(const ScInstrCfg *g)
{
    return g->analyzable ? g->n_blocks : 0;
}

const ScPtxStmt *sc_instr_cfg_first(const ScInstrCfg *g, uint32_t b)
{
    return g->blocks[b].first;
}

const ScPtxStmt *sc_instr_cfg_next(const ScInstrCfg *g, uint32_t b, const ScPtxStmt *s)
{
    if (s == g->blocks[b].term)
        return NULL;
    for (s = s->next; s && s->kind != SC_PTX_STMT_INSTR; s = s->next)
        if (s->kind == SC_PTX_STMT_LABEL)
            return NULL;
    return s && map_get(g, s) == b ? s : NULL;
}

uint32_t sc_instr_cfg_n_succs(const ScInstrCfg *g, uint32_t b)
{
    return g->blocks[b].n_edges;
}

uint32_t sc_instr_cfg_succ(const ScInstrCfg *g, uint32_t b, uint32_t i)
{
    uint32_t to = g->edges[g->blocks[b].first_edge + i].to;
    return to == g->exit ? SC_INSTR_NO_BLOCK : to;
}

void sc_instr_cfg_free(ScInstrCfg *g)
{
    if (!g)
        return;
    free(g->blocks);
    free(g->edges);
    free(g->preds);
    free(g->scope_parent);
    free(g->scope_depth);
    free(g->names);
    free(g->name_slots);
    free(g->map_keys);
    free(g->map_blocks);
    free(g->idom);
    free(g->po);
    free(g->order);
    free(g->iter);
    free(g->deps);
    free(g->queue);
    free(g->seen);
    free(g);
}
