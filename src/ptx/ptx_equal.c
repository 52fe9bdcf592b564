/* ptx_equal.c: structural equality of two modules (what the round-trip tests compare), positions ignored. */
#include "ptx/ptx_int.h"

#include <stdio.h>
#include <string.h>

typedef struct Cmp {
    ScBuf *why;
    const char *where; /* function being compared, NULL at module scope */
    uint32_t line_a, line_b;
} Cmp;

static bool differ(Cmp *c, const char *what, const char *va, const char *vb)
{
    if (c->why) {
        if (c->where)
            sc_buf_printf(c->why, "in '%s', ", c->where);
        sc_buf_printf(c->why, "line %u vs %u: %s differs ('%s' vs '%s')", c->line_a, c->line_b, what,
                      va ? va : "(none)", vb ? vb : "(none)");
    }
    return false;
}

static bool eq_str(Cmp *c, const char *what, const char *a, const char *b)
{
    if (a == b || (a && b && strcmp(a, b) == 0))
        return true;
    return differ(c, what, a, b);
}

static bool eq_num(Cmp *c, const char *what, uint64_t a, uint64_t b)
{
    if (a == b)
        return true;
    char va[24], vb[24];
    snprintf(va, sizeof va, "%llu", (unsigned long long)a);
    snprintf(vb, sizeof vb, "%llu", (unsigned long long)b);
    return differ(c, what, va, vb);
}

static bool eq_operand(Cmp *c, const ScPtxOperand *a, const ScPtxOperand *b)
{
    if (!eq_num(c, "operand kind", a->kind, b->kind) || !eq_num(c, "operand negation", a->negated, b->negated) ||
        !eq_str(c, "operand", a->text, b->text) || !eq_str(c, "register component", a->component, b->component))
        return false;
    switch (a->kind) {
    case SC_PTX_OPND_INT:
        return eq_num(c, "integer value", a->u.i.bits, b->u.i.bits) &&
               eq_num(c, "integer U suffix", a->u.i.is_unsigned, b->u.i.is_unsigned);
    case SC_PTX_OPND_FLOAT:
        return eq_num(c, "float exactness", a->u.f.exact_bits, b->u.f.exact_bits) &&
               eq_num(c, "float bits", a->u.f.bits, b->u.f.bits) &&
               (a->u.f.value == b->u.f.value || (a->u.f.value != a->u.f.value && b->u.f.value != b->u.f.value) ||
                differ(c, "float value", a->text, b->text));
    case SC_PTX_OPND_ADDR: {
        const ScPtxAddr *x = &a->u.addr, *y = &b->u.addr;
        if (!eq_operand(c, x->base, y->base) || !eq_num(c, "address offset", (uint64_t)x->offset, (uint64_t)y->offset) ||
            !eq_str(c, "address offset", x->offset_text, y->offset_text) ||
            !eq_num(c, ".unified", x->unified, y->unified) || !eq_num(c, "address elements", x->n_rest, y->n_rest))
            return false;
        for (uint32_t i = 0; i < x->n_rest; i++)
            if (!eq_operand(c, &x->rest[i], &y->rest[i]))
                return false;
        return true;
    }
    case SC_PTX_OPND_VEC:
    case SC_PTX_OPND_LIST:
    case SC_PTX_OPND_PAIR:
        if (!eq_num(c, "operand list length", a->u.list.n, b->u.list.n))
            return false;
        for (uint32_t i = 0; i < a->u.list.n; i++)
            if (!eq_operand(c, &a->u.list.items[i], &b->u.list.items[i]))
                return false;
        return true;
    case SC_PTX_OPND_REG:
    case SC_PTX_OPND_SYMBOL:
    case SC_PTX_OPND_LABEL:
    case SC_PTX_OPND_SINK:
    case SC_PTX_OPND_EXPR:
        return true;
    }
    return true;
}

static bool eq_var(Cmp *c, const ScPtxVar *a, const ScPtxVar *b)
{
    if (!eq_num(c, "linkage", a->linkage, b->linkage) || !eq_str(c, "state space", a->space, b->space) ||
        !eq_str(c, ".attribute", a->attribute, b->attribute) || !eq_num(c, ".align", a->align, b->align) ||
        !eq_num(c, "vector width", a->vec, b->vec) || !eq_str(c, "type", a->type, b->type) ||
        !eq_num(c, ".ptr", a->ptr, b->ptr) || !eq_str(c, ".ptr space", a->ptr_space, b->ptr_space) ||
        !eq_num(c, ".ptr .align", a->ptr_align, b->ptr_align) ||
        !eq_num(c, "declarator count", a->n_decls, b->n_decls))
        return false;
    for (uint32_t i = 0; i < a->n_decls; i++) {
        const ScPtxDeclarator *x = &a->decls[i], *y = &b->decls[i];
        if (!eq_str(c, "declared name", x->name, y->name) || !eq_num(c, "register range", x->has_range, y->has_range) ||
            !eq_num(c, "register range", x->range, y->range) || !eq_num(c, "array rank", x->n_dims, y->n_dims) ||
            !eq_str(c, "initializer", x->init, y->init))
            return false;
        for (uint32_t k = 0; k < x->n_dims; k++)
            if (!eq_num(c, "array size", x->dims[k], y->dims[k]))
                return false;
    }
    return true;
}

static bool eq_dir(Cmp *c, const ScPtxDirective *a, const ScPtxDirective *b)
{
    return eq_str(c, "directive label", a->label, b->label) && eq_str(c, "directive", a->name, b->name) &&
           eq_str(c, "directive arguments", a->args, b->args);
}

static bool eq_loc(Cmp *c, const ScPtxLoc *a, const ScPtxLoc *b)
{
    for (; a || b; a = a->inlined_at, b = b->inlined_at) {
        if (!a || !b)
            return differ(c, ".loc", a ? "a location" : NULL, b ? "a location" : NULL);
        if (!eq_num(c, ".loc file", a->file, b->file) || !eq_num(c, ".loc line", a->line, b->line) ||
            !eq_num(c, ".loc column", a->col, b->col) ||
            !eq_str(c, ".loc function_name", a->function_name, b->function_name) ||
            !eq_num(c, ".loc function_name offset", (uint64_t)a->function_name_off, (uint64_t)b->function_name_off))
            return false;
    }
    return true;
}

static bool eq_stmt(Cmp *c, const ScPtxStmt *a, const ScPtxStmt *b)
{
    c->line_a = a->pos.line;
    c->line_b = b->pos.line;
    if (!eq_num(c, "statement kind", a->kind, b->kind) || !eq_num(c, "nesting depth", a->depth, b->depth) ||
        !eq_num(c, "inline asm flag", a->inline_asm, b->inline_asm) || !eq_loc(c, a->loc, b->loc))
        return false;
    switch (a->kind) {
    case SC_PTX_STMT_INSTR: {
        const ScPtxInstr *x = &a->u.instr, *y = &b->u.instr;
        if (!eq_str(c, "guard", x->guard, y->guard) || !eq_num(c, "guard negation", x->guard_negated, y->guard_negated) ||
            !eq_str(c, "opcode", x->opcode, y->opcode) || !eq_num(c, "modifier count", x->n_mods, y->n_mods) ||
            !eq_num(c, "operand count", x->n_ops, y->n_ops))
            return false;
        for (uint32_t i = 0; i < x->n_mods; i++)
            if (!eq_str(c, "modifier", x->mods[i], y->mods[i]))
                return false;
        for (uint32_t i = 0; i < x->n_ops; i++)
            if (!eq_operand(c, &x->ops[i], &y->ops[i]))
                return false;
        return true;
    }
    case SC_PTX_STMT_LABEL:
        return eq_str(c, "label", a->u.label, b->u.label);
    case SC_PTX_STMT_VAR:
        return eq_var(c, &a->u.var, &b->u.var);
    case SC_PTX_STMT_LOC:
        return eq_loc(c, &a->u.loc, &b->u.loc);
    case SC_PTX_STMT_OPEN:
    case SC_PTX_STMT_CLOSE:
        return true;
    case SC_PTX_STMT_PRAGMA:
    case SC_PTX_STMT_CALLPROTO:
    case SC_PTX_STMT_CALLTARGETS:
    case SC_PTX_STMT_BRANCHTARGETS:
    case SC_PTX_STMT_UNKNOWN:
        return eq_dir(c, &a->u.dir, &b->u.dir);
    }
    return true;
}

static bool eq_vars(Cmp *c, const ScPtxVar *a, uint32_t na, const ScPtxVar *b, uint32_t nb)
{
    if (!eq_num(c, "parameter count", na, nb))
        return false;
    for (uint32_t i = 0; i < na; i++)
        if (!eq_var(c, &a[i], &b[i]))
            return false;
    return true;
}

static bool eq_func(Cmp *c, const ScPtxFunc *a, const ScPtxFunc *b)
{
    c->line_a = a->pos.line;
    c->line_b = b->pos.line;
    if (!eq_str(c, "function name", a->name, b->name))
        return false;
    c->where = a->name;
    if (!eq_num(c, "linkage", a->linkage, b->linkage) || !eq_num(c, ".entry/.func", a->is_entry, b->is_entry) ||
        !eq_str(c, ".attribute", a->attribute, b->attribute) || !eq_num(c, "return list", a->has_rets, b->has_rets) ||
        !eq_vars(c, a->rets, a->n_rets, b->rets, b->n_rets) ||
        !eq_num(c, "parameter list", a->has_params, b->has_params) ||
        !eq_vars(c, a->params, a->n_params, b->params, b->n_params) ||
        !eq_num(c, "directive count", a->n_dirs, b->n_dirs) || !eq_num(c, "body", a->has_body, b->has_body))
        return false;
    for (uint32_t i = 0; i < a->n_dirs; i++)
        if (!eq_dir(c, &a->dirs[i], &b->dirs[i]))
            return false;
    const ScPtxStmt *x = a->first, *y = b->first;
    for (; x && y; x = x->next, y = y->next) {
        if (!eq_stmt(c, x, y))
            return false;
        if (x->func != a || y->func != b)
            return differ(c, "enclosing function", x->func ? x->func->name : NULL, y->func ? y->func->name : NULL);
    }
    if (x || y)
        return differ(c, "statement count", x ? "more" : "fewer", y ? "more" : "fewer");
    c->where = NULL;
    return true;
}

bool sc_ptx_module_equal(const ScPtxModule *a, const ScPtxModule *b, ScBuf *why)
{
    Cmp c = {.why = why};
    if (!eq_num(&c, ".version major", a->version_major, b->version_major) ||
        !eq_num(&c, ".version minor", a->version_minor, b->version_minor) ||
        !eq_num(&c, ".address_size", a->address_size, b->address_size) ||
        !eq_num(&c, ".target count", a->n_targets, b->n_targets))
        return false;
    for (uint32_t i = 0; i < a->n_targets; i++)
        if (!eq_str(&c, ".target", a->targets[i], b->targets[i]))
            return false;
    const ScPtxItem *x = a->first, *y = b->first;
    for (; x && y; x = x->next, y = y->next) {
        c.line_a = x->pos.line;
        c.line_b = y->pos.line;
        if (!eq_num(&c, "module item kind", x->kind, y->kind))
            return false;
        bool same = true;
        switch (x->kind) {
        case SC_PTX_ITEM_VAR:
            same = eq_var(&c, &x->u.var, &y->u.var);
            break;
        case SC_PTX_ITEM_FUNC:
            same = eq_func(&c, x->u.func, y->u.func);
            break;
        case SC_PTX_ITEM_FILE:
            same = eq_num(&c, ".file index", x->u.file.index, y->u.file.index) &&
                   eq_str(&c, ".file name", x->u.file.name, y->u.file.name) &&
                   eq_str(&c, ".file timestamp/size", x->u.file.extra, y->u.file.extra);
            break;
        case SC_PTX_ITEM_SECTION:
        case SC_PTX_ITEM_PRAGMA:
        case SC_PTX_ITEM_UNKNOWN:
            same = eq_str(&c, "verbatim directive", x->u.text, y->u.text);
            break;
        }
        if (!same)
            return false;
    }
    if (x || y)
        return differ(&c, "module item count", x ? "more" : "fewer", y ? "more" : "fewer");
    return true;
}
