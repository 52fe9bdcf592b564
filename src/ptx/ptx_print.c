/* ptx_print.c: ScPtxModule -> PTX text that ptxas accepts and sc_ptx_parse reads back identically. */
#include "ptx/ptx_int.h"

#include <string.h>

static void put(ScBuf *b, const char *s)
{
    sc_buf_append(b, s, strlen(s));
}

static void putc_(ScBuf *b, char c)
{
    sc_buf_append(b, &c, 1);
}

static void put_u64(ScBuf *b, uint64_t v)
{
    char buf[24];
    int i = sizeof buf;
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sc_buf_append(b, buf + i, sizeof buf - (size_t)i);
}

static void indent(ScBuf *b, uint32_t depth)
{
    static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
    uint32_t n = depth + 1;
    while (n) {
        uint32_t k = n < 16 ? n : 16;
        sc_buf_append(b, tabs, k);
        n -= k;
    }
}

void sc_ptx_print_operand(const ScPtxOperand *o, ScBuf *b)
{
    if (o->negated)
        putc_(b, '!');
    switch (o->kind) {
    case SC_PTX_OPND_REG:
    case SC_PTX_OPND_SYMBOL:
    case SC_PTX_OPND_LABEL:
        put(b, o->text);
        if (o->component) {
            putc_(b, '.');
            put(b, o->component);
        }
        break;
    case SC_PTX_OPND_INT:
    case SC_PTX_OPND_FLOAT:
    case SC_PTX_OPND_EXPR:
        put(b, o->text);
        break;
    case SC_PTX_OPND_SINK:
        putc_(b, '_');
        break;
    case SC_PTX_OPND_ADDR:
        putc_(b, '[');
        sc_ptx_print_operand(o->u.addr.base, b);
        if (o->u.addr.offset_text) {
            putc_(b, '+');
            put(b, o->u.addr.offset_text);
        }
        for (uint32_t i = 0; i < o->u.addr.n_rest; i++) {
            put(b, ", ");
            sc_ptx_print_operand(&o->u.addr.rest[i], b);
        }
        putc_(b, ']');
        if (o->u.addr.unified)
            put(b, ".unified");
        break;
    case SC_PTX_OPND_VEC:
    case SC_PTX_OPND_LIST:
    case SC_PTX_OPND_PAIR:
        if (o->kind != SC_PTX_OPND_PAIR)
            putc_(b, o->kind == SC_PTX_OPND_VEC ? '{' : '(');
        for (uint32_t i = 0; i < o->u.list.n; i++) {
            if (i)
                put(b, o->kind == SC_PTX_OPND_PAIR ? "|" : ", ");
            sc_ptx_print_operand(&o->u.list.items[i], b);
        }
        if (o->kind != SC_PTX_OPND_PAIR)
            putc_(b, o->kind == SC_PTX_OPND_VEC ? '}' : ')');
        break;
    }
}

static const char *linkage_word(ScPtxLinkage l)
{
    switch (l) {
    case SC_PTX_LINK_NONE:
        return "";
    case SC_PTX_LINK_VISIBLE:
        return ".visible ";
    case SC_PTX_LINK_EXTERN:
        return ".extern ";
    case SC_PTX_LINK_WEAK:
        return ".weak ";
    case SC_PTX_LINK_COMMON:
        return ".common ";
    }
    return "";
}

static void print_var(const ScPtxVar *v, ScBuf *b)
{
    put(b, linkage_word(v->linkage));
    putc_(b, '.');
    put(b, v->space);
    if (v->attribute) {
        put(b, " .attribute");
        put(b, v->attribute);
    }
    if (v->align) {
        put(b, " .align ");
        put_u64(b, v->align);
    }
    if (v->vec) {
        put(b, " .v");
        put_u64(b, v->vec);
    }
    put(b, " .");
    put(b, v->type);
    if (v->ptr) {
        put(b, " .ptr");
        if (v->ptr_space) {
            put(b, " .");
            put(b, v->ptr_space);
        }
        if (v->ptr_align) {
            put(b, " .align ");
            put_u64(b, v->ptr_align);
        }
    }
    for (uint32_t i = 0; i < v->n_decls; i++) {
        const ScPtxDeclarator *d = &v->decls[i];
        put(b, i ? ", " : " ");
        put(b, d->name);
        if (d->has_range) {
            putc_(b, '<');
            put_u64(b, d->range);
            putc_(b, '>');
        }
        for (uint32_t k = 0; k < d->n_dims; k++) {
            putc_(b, '[');
            if (d->dims[k] != SC_PTX_DIM_UNSIZED)
                put_u64(b, d->dims[k]);
            putc_(b, ']');
        }
        if (d->init) {
            put(b, " = ");
            put(b, d->init);
        }
    }
}

static void print_loc(const ScPtxLoc *l, ScBuf *b)
{
    put(b, ".loc\t");
    put_u64(b, l->file);
    putc_(b, ' ');
    put_u64(b, l->line);
    putc_(b, ' ');
    put_u64(b, l->col);
    if (l->function_name) {
        put(b, ", function_name ");
        put(b, l->function_name);
        if (l->function_name_off) {
            putc_(b, '+');
            put_u64(b, (uint64_t)l->function_name_off);
        }
    }
    if (l->inlined_at) {
        put(b, ", inlined_at ");
        put_u64(b, l->inlined_at->file);
        putc_(b, ' ');
        put_u64(b, l->inlined_at->line);
        putc_(b, ' ');
        put_u64(b, l->inlined_at->col);
    }
}

static void print_directive(const ScPtxDirective *d, bool verbatim_end, ScBuf *b)
{
    if (d->label) {
        put(b, d->label);
        put(b, ": ");
    }
    putc_(b, '.');
    put(b, d->name);
    if (d->args[0]) {
        putc_(b, ' ');
        put(b, d->args);
    }
    if (!verbatim_end)
        putc_(b, ';');
}

void sc_ptx_print_stmt(const ScPtxStmt *s, ScBuf *b)
{
    switch (s->kind) {
    case SC_PTX_STMT_INSTR: {
        const ScPtxInstr *in = &s->u.instr;
        if (in->guard) {
            put(b, in->guard_negated ? "@!" : "@");
            put(b, in->guard);
            putc_(b, ' ');
        }
        put(b, in->opcode);
        for (uint32_t i = 0; i < in->n_mods; i++) {
            putc_(b, '.');
            put(b, in->mods[i]);
        }
        for (uint32_t i = 0; i < in->n_ops; i++) {
            put(b, i ? ", " : " \t");
            sc_ptx_print_operand(&in->ops[i], b);
        }
        putc_(b, ';');
        break;
    }
    case SC_PTX_STMT_LABEL:
        put(b, s->u.label);
        putc_(b, ':');
        break;
    case SC_PTX_STMT_VAR:
        print_var(&s->u.var, b);
        putc_(b, ';');
        break;
    case SC_PTX_STMT_LOC:
        print_loc(&s->u.loc, b);
        break;
    case SC_PTX_STMT_OPEN:
        putc_(b, '{');
        break;
    case SC_PTX_STMT_CLOSE:
        putc_(b, '}');
        break;
    case SC_PTX_STMT_PRAGMA:
    case SC_PTX_STMT_CALLPROTO:
    case SC_PTX_STMT_CALLTARGETS:
    case SC_PTX_STMT_BRANCHTARGETS:
        print_directive(&s->u.dir, false, b);
        break;
    case SC_PTX_STMT_UNKNOWN:
        print_directive(&s->u.dir, true, b);
        break;
    }
}

/* Parameters one per line as nvcc writes them; return lists inline. */
static void print_params(const ScPtxVar *v, uint32_t n, bool inline_list, ScBuf *b)
{
    put(b, "(");
    for (uint32_t i = 0; i < n; i++) {
        put(b, inline_list ? (i ? ", " : "") : (i ? ",\n\t" : "\n\t"));
        print_var(&v[i], b);
    }
    put(b, n && !inline_list ? "\n)" : ")");
}

static void print_func(const ScPtxFunc *f, ScBuf *b)
{
    put(b, linkage_word(f->linkage));
    put(b, f->is_entry ? ".entry" : ".func");
    if (f->attribute) {
        put(b, " .attribute");
        put(b, f->attribute);
    }
    if (f->has_rets) {
        putc_(b, ' ');
        print_params(f->rets, f->n_rets, true, b);
    }
    putc_(b, ' ');
    put(b, f->name);
    if (f->has_params)
        print_params(f->params, f->n_params, false, b);
    for (uint32_t i = 0; i < f->n_dirs; i++) {
        put(b, "\n.");
        put(b, f->dirs[i].name);
        if (f->dirs[i].args[0]) {
            putc_(b, ' ');
            put(b, f->dirs[i].args);
        }
        if (strcmp(f->dirs[i].name, "pragma") == 0)
            putc_(b, ';');
    }
    if (!f->has_body) {
        put(b, "\n;\n");
        return;
    }
    put(b, "\n{\n");
    bool in_asm = false;
    for (const ScPtxStmt *s = f->first; s; s = s->next) {
        if (s->inline_asm != in_asm) {
            put(b, s->inline_asm ? "\t// begin inline asm\n" : "\t// end inline asm\n");
            in_asm = s->inline_asm;
        }
        if (s->kind != SC_PTX_STMT_LABEL)
            indent(b, s->depth);
        sc_ptx_print_stmt(s, b);
        putc_(b, '\n');
    }
    if (in_asm)
        put(b, "\t// end inline asm\n");
    put(b, "}\n");
}

bool sc_ptx_print(const ScPtxModule *m, ScBuf *b)
{
    put(b, ".version ");
    put_u64(b, m->version_major);
    putc_(b, '.');
    put_u64(b, m->version_minor);
    put(b, "\n.target ");
    for (uint32_t i = 0; i < m->n_targets; i++) {
        if (i)
            put(b, ", ");
        put(b, m->targets[i]);
    }
    if (m->address_size) {
        put(b, "\n.address_size ");
        put_u64(b, m->address_size);
    }
    put(b, "\n\n");
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        switch (it->kind) {
        case SC_PTX_ITEM_VAR:
            print_var(&it->u.var, b);
            put(b, ";\n");
            break;
        case SC_PTX_ITEM_FUNC:
            print_func(it->u.func, b);
            break;
        case SC_PTX_ITEM_FILE:
            put(b, ".file\t");
            put_u64(b, it->u.file.index);
            put(b, " \"");
            put(b, it->u.file.name);
            putc_(b, '"');
            if (it->u.file.extra)
                put(b, it->u.file.extra);
            putc_(b, '\n');
            break;
        case SC_PTX_ITEM_SECTION:
        case SC_PTX_ITEM_PRAGMA:
        case SC_PTX_ITEM_UNKNOWN:
            put(b, it->u.text);
            putc_(b, '\n');
            break;
        }
    }
    return !b->oom;
}
