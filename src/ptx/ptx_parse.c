/* ptx_parse.c: tokens -> ScPtxModule, by recursive descent over PTX productions.
 *
 * Each static function reads one production of the PTX grammar and is named
 * after it (module, header, item, func_decl, var_decl, body, statement,
 * instruction, operand, address ...); `p->tok` is the current token on entry
 * and the first token after the production on return. An error fills the
 * caller's ScErr with file:line:col and unwinds with longjmp to the entry
 * point, which frees everything: all memory is in the module arena or in
 * parser-owned scratch vectors. Every loop consumes a token per round, and
 * the only recursion (operands inside operands) is bounded. */
#include "ptx/ptx_int.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SC_STATIC_ASSERT(offsetof(ScPtxLoc, col) == offsetof(ScPtxLoc, file) + 2 * sizeof(uint32_t),
                 ".loc coordinates are hashed as 12 contiguous bytes");

typedef struct Vec {
    void *data;
    size_t len, cap;
} Vec;

typedef struct Parser {
    Lexer lx;
    Token tok;
    Token la[3]; /* lookahead beyond tok */
    int n_la;
    ScPtxModule *m;
    ScErr *err;
    const char *filename;
    jmp_buf fail;
    NameMap strings; /* interned spellings */
    Vec ops, strs, decls, dims, vars, dirs;
    Vec text; /* chars of balanced_text */
    /* body state */
    ScPtxFunc *func;
    uint32_t depth, base_depth;
    const ScPtxLoc *cur_loc;
    bool snippet; /* parsing text to insert */
    NameMap locs;  /* .loc coordinates -> latest ScPtxLoc */
    NameMap names; /* labels and registers declared in the body */
    const NameMap *outer_names;
    ScPtxStmt *first, *last;
    ScPtxItem *items_first, *items_last; /* module items of inserted text */
} Parser;

/* ---- errors --------------------------------------------------------------- */

static _Noreturn SC_PRINTF(4, 5) void fail_at(Parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sc_err_set(p->err, "%s:%u:%u: error: %s", p->filename, line, col, msg);
    longjmp(p->fail, 1);
}

/* How a token reads in a message: 'foo', or end of input. */
static const char *show(const Token *t, char *buf, size_t size)
{
    if (t->kind == TK_EOF)
        return "end of input";
    int n = t->len > 40 ? 40 : (int)t->len;
    snprintf(buf, size, "'%.*s%s'", n, t->s, t->len > 40 ? "..." : "");
    return buf;
}

#define FAIL_TOK(p, t, ...) fail_at((p), (t)->line, (t)->col, __VA_ARGS__)

static _Noreturn void expected(Parser *p, const char *what)
{
    char buf[64];
    FAIL_TOK(p, &p->tok, "expected %s, found %s", what, show(&p->tok, buf, sizeof buf));
}

static _Noreturn void out_of_memory(Parser *p)
{
    FAIL_TOK(p, &p->tok, "out of memory while parsing");
}

/* ---- memory --------------------------------------------------------------- */

static void *alloc(Parser *p, size_t size)
{
    void *q = sc_arena_alloc(&p->m->arena, size);
    if (!q)
        out_of_memory(p);
    return q;
}

static const char *copy(Parser *p, const char *s, size_t len)
{
    char *q = sc_arena_strndup(&p->m->arena, s, len);
    if (!q)
        out_of_memory(p);
    return q;
}

static const char *intern(Parser *p, const char *s, size_t len)
{
    uint32_t h = sc_ptx_hash(s, len);
    NameSlot *slot = sc_ptx_map_slot(&p->strings, s, (uint32_t)len, h);
    if (!slot)
        out_of_memory(p);
    if (!slot->key) {
        *slot = (NameSlot){copy(p, s, len), (uint32_t)len, h, 0};
        p->strings.count++;
    }
    return slot->key;
}

static void *push(Parser *p, Vec *v, size_t size)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        void *d = realloc(v->data, cap * size);
        if (!d)
            out_of_memory(p);
        v->data = d;
        v->cap = cap;
    }
    void *slot = (char *)v->data + v->len++ * size;
    memset(slot, 0, size);
    return slot;
}

/* Moves the elements pushed since `base` into the arena. */
static void *pop_to_arena(Parser *p, Vec *v, size_t size, size_t base, uint32_t *n)
{
    size_t count = v->len - base;
    *n = (uint32_t)count;
    if (!count)
        return NULL;
    void *q = alloc(p, count * size);
    memcpy(q, (char *)v->data + base * size, count * size);
    v->len = base;
    return q;
}

/* ---- tokens --------------------------------------------------------------- */

static Token lex(Parser *p)
{
    Token t = sc_ptx_lex_next(&p->lx);
    if (t.kind == TK_ERROR)
        FAIL_TOK(p, &t, "%s", t.msg);
    return t;
}

static void next(Parser *p)
{
    if (p->n_la) {
        p->tok = p->la[0];
        memmove(p->la, p->la + 1, (size_t)--p->n_la * sizeof p->la[0]);
    } else {
        p->tok = lex(p);
    }
}

static const Token *peek(Parser *p, int k)
{
    while (p->n_la < k)
        p->la[p->n_la++] = lex(p);
    return &p->la[k - 1];
}

static bool is_punct(const Token *t, char c)
{
    return t->kind == TK_PUNCT && t->punct == c;
}

static bool word_is(const char *s, size_t len, const char *w)
{
    return strlen(w) == len && memcmp(s, w, len) == 0;
}

static bool is_dot(const Token *t, const char *w)
{
    return t->kind == TK_DOT && word_is(t->s + 1, t->len - 1, w);
}

static bool is_ident(const Token *t, const char *w)
{
    return t->kind == TK_IDENT && word_is(t->s, t->len, w);
}

static void expect(Parser *p, char c, const char *where)
{
    if (!is_punct(&p->tok, c)) {
        char what[64];
        snprintf(what, sizeof what, "'%c' %s", c, where);
        expected(p, what);
    }
    next(p);
}

static const char *tok_end(const Token *t)
{
    return t->s + t->len;
}

/* Re-reads the text from `from` as one raw statement (see
 * sc_ptx_lex_raw_statement) and returns its end; tok is the token after it. */
static const char *raw_statement(Parser *p, const Token *from)
{
    sc_ptx_lex_rewind(&p->lx, from);
    p->n_la = 0;
    const char *why = NULL;
    const char *end = sc_ptx_lex_raw_statement(&p->lx, &why);
    if (!end) {
        Token at = {.line = p->lx.line, .col = (uint32_t)(p->lx.p - p->lx.line_start) + 1};
        FAIL_TOK(p, &at, "%s (in the directive that starts at line %u)", why, from->line);
    }
    next(p);
    return end;
}

/* Appends the current token to p->text as the source spaced it: one blank
 * where the source had any gap (white space or a comment), so that the text
 * prints and re-reads to itself; then moves to the next token. */
static void take_token(Parser *p, const char **prev_end)
{
    const Token *t = &p->tok;
    size_t need = p->text.len + t->len + 2;
    if (need > p->text.cap) {
        size_t cap = p->text.cap ? p->text.cap : 256;
        while (cap < need)
            cap *= 2;
        char *d = realloc(p->text.data, cap);
        if (!d)
            out_of_memory(p);
        p->text.data = d;
        p->text.cap = cap;
    }
    char *d = p->text.data;
    if (*prev_end && t->s != *prev_end)
        d[p->text.len++] = ' ';
    memcpy(d + p->text.len, t->s, t->len);
    p->text.len += t->len;
    *prev_end = tok_end(t);
    next(p);
}

/* The tokens up to a stop character outside brackets, as text ("" when none). */
static const char *balanced_text(Parser *p, const char *stops)
{
    const char *prev_end = NULL;
    uint32_t depth = 0;
    p->text.len = 0;
    for (;;) {
        const Token *t = &p->tok;
        if (t->kind == TK_EOF)
            expected(p, "';'");
        if (t->kind == TK_PUNCT) {
            if (depth == 0 && strchr(stops, t->punct))
                break;
            if (t->punct == '(' || t->punct == '[' || t->punct == '{')
                depth++;
            else if (t->punct == ')' || t->punct == ']' || t->punct == '}') {
                if (depth == 0)
                    expected(p, "';'");
                depth--;
            }
        }
        take_token(p, &prev_end);
    }
    return copy(p, p->text.data ? p->text.data : "", p->text.len);
}

/* ---- literals ------------------------------------------------------------- */

static uint64_t int_value(Parser *p, const Token *t, bool *is_unsigned)
{
    const char *s = t->s, *e = tok_end(t);
    *is_unsigned = false;
    if (e > s && e[-1] == 'U') {
        *is_unsigned = true;
        e--;
    }
    unsigned base = 10;
    if (e - s > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (e - s > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s += 2;
    } else if (e - s > 1 && s[0] == '0') {
        base = 8;
        s += 1;
    }
    if (s == e)
        FAIL_TOK(p, t, "malformed integer literal '%.*s'", (int)t->len, t->s);
    uint64_t v = 0;
    for (; s < e; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (*s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            d = 99;
        if (d >= base)
            FAIL_TOK(p, t, "malformed integer literal '%.*s'", (int)t->len, t->s);
        if (v > (UINT64_MAX - d) / base)
            FAIL_TOK(p, t, "integer literal '%.*s' does not fit in 64 bits", (int)t->len, t->s);
        v = v * base + d;
    }
    return v;
}

static uint32_t uint32_value(Parser *p, const char *what)
{
    if (p->tok.kind != TK_INT)
        expected(p, what);
    bool u;
    uint64_t v = int_value(p, &p->tok, &u);
    if (v > UINT32_MAX)
        FAIL_TOK(p, &p->tok, "%s %" PRIu64 " is too large (at most %u)", what, v, UINT32_MAX);
    next(p);
    return (uint32_t)v;
}

static void float_value(Parser *p, const Token *t, ScPtxOperand *o)
{
    const char *s = t->s;
    if (s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
        bool single = s[1] == 'f' || s[1] == 'F';
        uint64_t bits = 0;
        for (uint32_t i = 2; i < t->len; i++) {
            char c = s[i];
            bits = bits << 4 | (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
        }
        o->u.f.exact_bits = true;
        o->u.f.bits = bits;
        if (single) {
            uint32_t b32 = (uint32_t)bits;
            float f;
            memcpy(&f, &b32, sizeof f);
            o->u.f.value = f;
        } else {
            memcpy(&o->u.f.value, &bits, sizeof o->u.f.value);
        }
        return;
    }
    char buf[64];
    char *end = NULL;
    if (t->len >= sizeof buf)
        FAIL_TOK(p, t, "float literal too long");
    memcpy(buf, s, t->len);
    buf[t->len] = '\0';
    o->u.f.value = strtod(buf, &end);
    if (end != buf + t->len)
        FAIL_TOK(p, t, "malformed float literal '%s'", buf);
}

/* ---- operands ------------------------------------------------------------- */

static ScPtxOperand operand(Parser *p, uint32_t depth);

static bool starts_expr(const Token *t)
{
    return t->kind == TK_PUNCT && strchr("+-*/%<>&^~?:!=", t->punct);
}

/* A number, with an optional leading '-'. */
static ScPtxOperand number(Parser *p)
{
    ScPtxOperand o = {.pos = {p->tok.line, p->tok.col}};
    bool neg = false;
    if (is_punct(&p->tok, '-')) {
        neg = true;
        next(p);
    }
    Token t = p->tok;
    char buf[72];
    if (neg) {
        if (t.len + 2 > sizeof buf)
            FAIL_TOK(p, &t, "numeric literal too long");
        buf[0] = '-';
        memcpy(buf + 1, t.s, t.len);
    }
    o.text = neg ? intern(p, buf, t.len + 1) : intern(p, t.s, t.len);
    if (t.kind == TK_INT) {
        o.kind = SC_PTX_OPND_INT;
        o.u.i.bits = int_value(p, &t, &o.u.i.is_unsigned);
        if (neg)
            o.u.i.bits = (uint64_t)0 - o.u.i.bits;
    } else if (t.kind == TK_FLOAT) {
        o.kind = SC_PTX_OPND_FLOAT;
        float_value(p, &t, &o);
        if (neg) {
            o.u.f.value = -o.u.f.value;
            if (o.u.f.exact_bits)
                o.u.f.bits ^= (t.s[1] == 'f' || t.s[1] == 'F') ? 0x80000000u : 0x8000000000000000u;
        }
    } else {
        expected(p, "a number after '-'");
    }
    next(p);
    return o;
}

/* register, symbol, label, sink or number */
static ScPtxOperand primary(Parser *p)
{
    Token t = p->tok;
    if (t.kind == TK_INT || t.kind == TK_FLOAT || is_punct(&t, '-'))
        return number(p);
    if (t.kind != TK_IDENT)
        expected(p, "an operand (register, constant, symbol, [address] or {vector})");
    ScPtxOperand o = {.pos = {t.line, t.col}};
    next(p);
    if (t.len == 1 && t.s[0] == '_') {
        o.kind = SC_PTX_OPND_SINK;
        o.text = "_";
        return o;
    }
    o.kind = t.s[0] == '%' ? SC_PTX_OPND_REG : SC_PTX_OPND_SYMBOL;
    o.text = intern(p, t.s, t.len);
    /* %tid.x, or a component of a vector register: written without spaces. */
    if (p->tok.kind == TK_DOT && p->tok.s == tok_end(&t)) {
        o.component = intern(p, p->tok.s + 1, p->tok.len - 1);
        next(p);
    }
    return o;
}

/* Anything else from start to the end of the operand, kept as text. */
static ScPtxOperand expr_from(Parser *p, const Token *start)
{
    ScPtxOperand o = {.kind = SC_PTX_OPND_EXPR, .pos = {start->line, start->col}};
    sc_ptx_lex_rewind(&p->lx, start);
    p->n_la = 0;
    next(p);
    o.text = balanced_text(p, ",;)]}");
    if (!o.text[0])
        expected(p, "an operand");
    return o;
}

static ScPtxOperand *arena_operand(Parser *p, ScPtxOperand o)
{
    ScPtxOperand *q = alloc(p, sizeof *q);
    *q = o;
    return q;
}

/* (a, b) or {a, _, b} */
static ScPtxOperand operand_list(Parser *p, uint32_t depth, char close, ScPtxOperandKind kind)
{
    ScPtxOperand o = {.kind = kind, .pos = {p->tok.line, p->tok.col}};
    next(p);
    size_t base = p->ops.len;
    if (!is_punct(&p->tok, close)) {
        for (;;) {
            ScPtxOperand item = operand(p, depth + 1);
            *(ScPtxOperand *)push(p, &p->ops, sizeof item) = item;
            if (!is_punct(&p->tok, ','))
                break;
            next(p);
        }
    }
    expect(p, close, kind == SC_PTX_OPND_VEC ? "to close the vector" : "to close the list");
    o.u.list.items = pop_to_arena(p, &p->ops, sizeof(ScPtxOperand), base, &o.u.list.n);
    return o;
}

/* [base], [base+off], [base+-off], [base-off], [imm], [tex, sampler, {c}] and .unified */
static ScPtxOperand address(Parser *p, uint32_t depth)
{
    ScPtxOperand o = {.kind = SC_PTX_OPND_ADDR, .pos = {p->tok.line, p->tok.col}};
    next(p);
    Token start = p->tok;
    if (is_punct(&start, ']'))
        FAIL_TOK(p, &start, "empty address '[]': write a register, symbol or constant inside");
    ScPtxOperand base;
    if (start.kind == TK_INT || start.kind == TK_FLOAT || start.kind == TK_IDENT || is_punct(&start, '-'))
        base = primary(p);
    else
        base = expr_from(p, &start);
    /* The offset: + INT, + - INT or - INT, then ']' or ','. */
    if (base.kind != SC_PTX_OPND_EXPR && (is_punct(&p->tok, '+') || is_punct(&p->tok, '-'))) {
        bool minus = is_punct(&p->tok, '-');
        const Token *n1 = peek(p, 1);
        const Token *n2 = peek(p, 2);
        bool plus_minus = !minus && is_punct(n1, '-') && n2->kind == TK_INT;
        const Token *num = plus_minus ? n2 : n1;
        const Token *after = plus_minus ? peek(p, 3) : n2;
        if (num->kind == TK_INT && (is_punct(after, ']') || is_punct(after, ','))) {
            next(p);
            if (plus_minus)
                next(p);
            ScPtxOperand off = number(p);
            /* number() read only the digits: apply the sign here */
            bool neg = minus || plus_minus;
            if (neg) {
                char buf[72];
                snprintf(buf, sizeof buf, "-%s", off.text);
                off.text = intern(p, buf, strlen(buf));
                off.u.i.bits = (uint64_t)0 - off.u.i.bits;
            }
            o.u.addr.offset = (int64_t)off.u.i.bits;
            o.u.addr.offset_text = off.text;
        }
    }
    if (!is_punct(&p->tok, ']') && !is_punct(&p->tok, ','))
        base = expr_from(p, &start);
    o.u.addr.base = arena_operand(p, base);
    size_t first_rest = p->ops.len;
    while (is_punct(&p->tok, ',')) {
        next(p);
        ScPtxOperand item = operand(p, depth + 1);
        *(ScPtxOperand *)push(p, &p->ops, sizeof item) = item;
    }
    expect(p, ']', "to close the address");
    o.u.addr.rest = pop_to_arena(p, &p->ops, sizeof(ScPtxOperand), first_rest, &o.u.addr.n_rest);
    if (is_dot(&p->tok, "unified")) {
        o.u.addr.unified = true;
        next(p);
    }
    return o;
}

static ScPtxOperand operand(Parser *p, uint32_t depth)
{
    if (depth >= SC_PTX_MAX_OPND_DEPTH)
        FAIL_TOK(p, &p->tok, "operands nested more than %d deep", SC_PTX_MAX_OPND_DEPTH);
    Token start = p->tok;
    bool negated = false;
    if (is_punct(&p->tok, '!')) {
        negated = true;
        next(p);
    }
    ScPtxOperand o;
    const Token *t = &p->tok;
    if (is_punct(t, '['))
        o = address(p, depth);
    else if (is_punct(t, '{'))
        o = operand_list(p, depth, '}', SC_PTX_OPND_VEC);
    else if (is_punct(t, '('))
        o = operand_list(p, depth, ')', SC_PTX_OPND_LIST);
    else
        o = primary(p);
    o.negated = negated;
    o.pos = (ScPtxPos){start.line, start.col};
    if (is_punct(&p->tok, '|')) {
        ScPtxOperand pair = {.kind = SC_PTX_OPND_PAIR, .pos = o.pos};
        next(p);
        ScPtxOperand *items = alloc(p, 2 * sizeof *items);
        items[0] = o;
        items[1] = operand(p, depth + 1);
        pair.u.list.items = items;
        pair.u.list.n = 2;
        o = pair;
    }
    if (starts_expr(&p->tok))
        return expr_from(p, &start);
    return o;
}

/* ---- statements ----------------------------------------------------------- */

static ScPtxStmt *new_stmt(Parser *p, ScPtxStmtKind kind, const Token *at)
{
    ScPtxStmt *s = alloc(p, sizeof *s);
    s->kind = kind;
    s->func = p->func;
    s->depth = p->depth;
    s->pos = p->snippet ? (ScPtxPos){0, 0} : (ScPtxPos){at->line, at->col};
    s->loc = p->cur_loc;
    s->inline_asm = at->inline_asm;
    s->prev = p->last;
    if (p->last)
        p->last->next = s;
    else
        p->first = s;
    p->last = s;
    return s;
}

static void note_name(Parser *p, const char *name, uint64_t kind)
{
    if (!sc_ptx_names_note(&p->names, name, kind))
        out_of_memory(p);
}

/* guard? opcode .mod* operand, ... ; */
static void instruction(Parser *p)
{
    ScPtxStmt *s = new_stmt(p, SC_PTX_STMT_INSTR, &p->tok);
    ScPtxInstr *in = &s->u.instr;
    if (is_punct(&p->tok, '@')) {
        next(p);
        if (is_punct(&p->tok, '!')) {
            in->guard_negated = true;
            next(p);
        }
        if (p->tok.kind != TK_IDENT)
            expected(p, "a predicate register after '@'");
        in->guard = intern(p, p->tok.s, p->tok.len);
        next(p);
    }
    if (p->tok.kind != TK_IDENT)
        expected(p, "an instruction opcode");
    in->opcode = intern(p, p->tok.s, p->tok.len);
    next(p);
    size_t base = p->strs.len;
    while (p->tok.kind == TK_DOT) {
        *(const char **)push(p, &p->strs, sizeof(char *)) = intern(p, p->tok.s + 1, p->tok.len - 1);
        next(p);
    }
    in->mods = pop_to_arena(p, &p->strs, sizeof(char *), base, &in->n_mods);
    base = p->ops.len;
    if (!is_punct(&p->tok, ';')) {
        for (;;) {
            ScPtxOperand o = operand(p, 0);
            *(ScPtxOperand *)push(p, &p->ops, sizeof o) = o;
            if (!is_punct(&p->tok, ','))
                break;
            next(p);
        }
    }
    if (!is_punct(&p->tok, ';')) {
        char buf[64];
        FAIL_TOK(p, &p->tok, "expected ',' or ';' after operand of '%s', found %s (statements end with ';')",
                 in->opcode, show(&p->tok, buf, sizeof buf));
    }
    next(p);
    in->ops = pop_to_arena(p, &p->ops, sizeof(ScPtxOperand), base, &in->n_ops);
}

static bool is_space_word(const char *s, size_t len)
{
    static const char *const spaces[] = {"reg", "sreg", "const", "global", "local", "param", "shared", "tex"};
    for (size_t i = 0; i < SC_ARRAY_LEN(spaces); i++)
        if (word_is(s, len, spaces[i]))
            return true;
    /* .shared::cta, .param::entry ... */
    const char *colon = memchr(s, ':', len);
    return colon && colon > s && is_space_word(s, (size_t)(colon - s));
}

static bool is_space(const Token *t)
{
    return t->kind == TK_DOT && is_space_word(t->s + 1, t->len - 1);
}

static ScPtxLinkage linkage(Parser *p)
{
    static const struct {
        const char *word;
        ScPtxLinkage link;
    } words[] = {{"visible", SC_PTX_LINK_VISIBLE}, {"extern", SC_PTX_LINK_EXTERN},
                 {"weak", SC_PTX_LINK_WEAK}, {"common", SC_PTX_LINK_COMMON}};
    for (size_t i = 0; i < SC_ARRAY_LEN(words); i++)
        if (is_dot(&p->tok, words[i].word)) {
            next(p);
            return words[i].link;
        }
    return SC_PTX_LINK_NONE;
}

/* .attribute(...): the parenthesized part, verbatim */
static const char *attribute(Parser *p)
{
    next(p);
    if (!is_punct(&p->tok, '('))
        expected(p, "'(' after .attribute");
    next(p);
    const char *inside = balanced_text(p, ")");
    expect(p, ')', "to close .attribute(");
    size_t n = strlen(inside);
    char *text = alloc(p, n + 3);
    text[0] = '(';
    memcpy(text + 1, inside, n);
    text[n + 1] = ')';
    return text;
}

/* name <range>? [dim]* (= initializer)? */
static void declarator(Parser *p, ScPtxDeclarator *d, bool in_params)
{
    if (p->tok.kind != TK_IDENT)
        expected(p, "a name in the declaration");
    d->pos = (ScPtxPos){p->tok.line, p->tok.col};
    d->name = intern(p, p->tok.s, p->tok.len);
    next(p);
    if (is_punct(&p->tok, '<')) {
        next(p);
        d->has_range = true;
        d->range = uint32_value(p, "a register count inside '< >'");
        expect(p, '>', "after the register count");
    }
    size_t base = p->dims.len;
    while (is_punct(&p->tok, '[')) {
        next(p);
        uint64_t dim = SC_PTX_DIM_UNSIZED;
        if (!is_punct(&p->tok, ']')) {
            if (p->tok.kind != TK_INT)
                expected(p, "an integer array size or ']'");
            bool u;
            dim = int_value(p, &p->tok, &u);
            if (dim == SC_PTX_DIM_UNSIZED)
                FAIL_TOK(p, &p->tok, "array size too large");
            next(p);
        }
        expect(p, ']', "to close the array size");
        *(uint64_t *)push(p, &p->dims, sizeof dim) = dim;
    }
    d->dims = pop_to_arena(p, &p->dims, sizeof(uint64_t), base, &d->n_dims);
    if (!in_params && is_punct(&p->tok, '=')) {
        next(p);
        d->init = balanced_text(p, ",;");
        if (!d->init[0])
            expected(p, "an initializer after '='");
    }
}

/* .space (.align N | .vN | .type | .ptr .space? .align N? | .attribute(...))* declarator (, declarator)* */
static void var_decl(Parser *p, ScPtxVar *v, ScPtxLinkage link, bool in_params)
{
    v->linkage = link;
    v->pos = (ScPtxPos){p->tok.line, p->tok.col};
    v->space = intern(p, p->tok.s + 1, p->tok.len - 1);
    next(p);
    while (p->tok.kind == TK_DOT) {
        const char *w = p->tok.s + 1;
        size_t n = p->tok.len - 1;
        if (word_is(w, n, "attribute")) {
            v->attribute = attribute(p);
            continue;
        }
        if (word_is(w, n, "align")) {
            next(p);
            uint32_t a = uint32_value(p, "an alignment after .align");
            if (v->ptr)
                v->ptr_align = a;
            else
                v->align = a;
            continue;
        }
        if (word_is(w, n, "ptr"))
            v->ptr = true;
        else if (word_is(w, n, "v2") || word_is(w, n, "v4") || word_is(w, n, "v8"))
            v->vec = (uint32_t)(w[1] - '0');
        else if (v->ptr && !v->ptr_space && is_space_word(w, n))
            v->ptr_space = intern(p, w, n);
        else if (!v->type)
            v->type = intern(p, w, n);
        else
            FAIL_TOK(p, &p->tok, "'.%.*s' after the type '.%s': a declaration has one type", (int)n, w, v->type);
        next(p);
    }
    Token name_tok = p->tok;
    size_t base = p->decls.len;
    for (;;) {
        ScPtxDeclarator d = {0};
        declarator(p, &d, in_params);
        *(ScPtxDeclarator *)push(p, &p->decls, sizeof d) = d;
        sc_ptx_fresh_note(p->m, d.name, d.has_range, d.range);
        if (p->func && word_is(v->space, strlen(v->space), "reg"))
            note_name(p, d.name, d.has_range ? (uint64_t)d.range << 2 | NAME_RANGE : NAME_REG);
        if (in_params || !is_punct(&p->tok, ','))
            break;
        next(p);
    }
    v->decls = pop_to_arena(p, &p->decls, sizeof(ScPtxDeclarator), base, &v->n_decls);
    if (!v->type)
        FAIL_TOK(p, &name_tok, "the declaration of '%s' has no type (like .b32 or .u64)", v->decls[0].name);
}

/* Directive arguments up to ';' (consumed), verbatim. */
static const char *args_to_semicolon(Parser *p)
{
    const char *args = balanced_text(p, ";");
    expect(p, ';', "at the end of the directive");
    return args;
}

/* .loc file line col (, function_name label(+off)?)? (, inlined_at file line col)? */
static void loc_directive(Parser *p)
{
    ScPtxStmt *s = new_stmt(p, SC_PTX_STMT_LOC, &p->tok);
    if (p->snippet)
        FAIL_TOK(p, &p->tok, ".loc in inserted PTX would re-attribute the statements after it: leave it out");
    next(p);
    ScPtxLoc *loc = &s->u.loc;
    loc->file = uint32_value(p, "the file index of .loc");
    loc->line = uint32_value(p, "the line of .loc");
    loc->col = uint32_value(p, "the column of .loc");
    while (is_punct(&p->tok, ',')) {
        next(p);
        if (is_ident(&p->tok, "function_name")) {
            next(p);
            if (p->tok.kind != TK_IDENT)
                expected(p, "a label after function_name");
            loc->function_name = intern(p, p->tok.s, p->tok.len);
            next(p);
            if (is_punct(&p->tok, '+')) {
                next(p);
                bool u;
                if (p->tok.kind != TK_INT)
                    expected(p, "an offset after '+'");
                loc->function_name_off = (int64_t)int_value(p, &p->tok, &u);
                next(p);
            }
        } else if (is_ident(&p->tok, "inlined_at")) {
            next(p);
            uint32_t at[3];
            at[0] = uint32_value(p, "the file index of inlined_at");
            at[1] = uint32_value(p, "the line of inlined_at");
            at[2] = uint32_value(p, "the column of inlined_at");
            uint64_t found;
            if (sc_ptx_map_get(&p->locs, (const char *)at, sizeof at, &found)) {
                loc->inlined_at = (const ScPtxLoc *)(uintptr_t)found;
            } else {
                ScPtxLoc *bare = alloc(p, sizeof *bare);
                bare->file = at[0];
                bare->line = at[1];
                bare->col = at[2];
                loc->inlined_at = bare;
            }
        } else {
            expected(p, "function_name or inlined_at in .loc");
        }
    }
    if (!sc_ptx_map_put(&p->locs, (const char *)&loc->file, 3 * sizeof(uint32_t), (uintptr_t)loc))
        out_of_memory(p);
    p->cur_loc = loc;
}

static ScPtxStmtKind directive_kind(const Token *t)
{
    if (is_dot(t, "pragma"))
        return SC_PTX_STMT_PRAGMA;
    if (is_dot(t, "callprototype"))
        return SC_PTX_STMT_CALLPROTO;
    if (is_dot(t, "calltargets"))
        return SC_PTX_STMT_CALLTARGETS;
    if (is_dot(t, "branchtargets"))
        return SC_PTX_STMT_BRANCHTARGETS;
    return SC_PTX_STMT_UNKNOWN;
}

/* (label:)? .name args ; */
static void body_directive(Parser *p, const Token *label)
{
    const Token *first = label ? label : &p->tok;
    ScPtxStmtKind kind = directive_kind(&p->tok);
    ScPtxStmt *s = new_stmt(p, kind, first);
    ScPtxDirective *d = &s->u.dir;
    d->pos = s->pos;
    if (label) {
        d->label = intern(p, label->s, label->len);
        note_name(p, d->label, NAME_LABEL);
        sc_ptx_fresh_note(p->m, d->label, false, 0);
    }
    d->name = intern(p, p->tok.s + 1, p->tok.len - 1);
    next(p);
    if (kind == SC_PTX_STMT_UNKNOWN) {
        Token from = p->tok;
        const char *end = raw_statement(p, &from);
        d->args = copy(p, from.s, (size_t)(end - from.s));
    } else {
        d->args = args_to_semicolon(p);
    }
}

static void statement(Parser *p)
{
    Token t = p->tok;
    if (is_punct(&t, '{')) {
        if (p->depth + 1 >= SC_PTX_MAX_DEPTH)
            FAIL_TOK(p, &t, "blocks nested more than %d deep", SC_PTX_MAX_DEPTH);
        new_stmt(p, SC_PTX_STMT_OPEN, &t);
        p->depth++;
        next(p);
        return;
    }
    if (is_punct(&t, '}')) {
        if (p->depth == p->base_depth)
            FAIL_TOK(p, &t, "unbalanced '}': no '{' is open here");
        p->depth--;
        new_stmt(p, SC_PTX_STMT_CLOSE, &t);
        next(p);
        return;
    }
    if (t.kind == TK_IDENT && is_punct(peek(p, 1), ':')) {
        if (directive_kind(peek(p, 2)) != SC_PTX_STMT_UNKNOWN && !is_dot(peek(p, 2), "pragma")) {
            next(p);
            next(p);
            body_directive(p, &t);
            return;
        }
        ScPtxStmt *s = new_stmt(p, SC_PTX_STMT_LABEL, &t);
        s->u.label = intern(p, t.s, t.len);
        note_name(p, s->u.label, NAME_LABEL);
        sc_ptx_fresh_note(p->m, s->u.label, false, 0);
        next(p);
        next(p);
        return;
    }
    if (t.kind == TK_DOT) {
        if (is_dot(&t, "loc")) {
            loc_directive(p);
            return;
        }
        ScPtxLinkage link = SC_PTX_LINK_NONE;
        if (is_dot(&t, "extern") || is_dot(&t, "visible") || is_dot(&t, "weak"))
            link = linkage(p);
        if (is_space(&p->tok)) {
            ScPtxStmt *s = new_stmt(p, SC_PTX_STMT_VAR, &t);
            var_decl(p, &s->u.var, link, false);
            expect(p, ';', "at the end of the declaration");
            return;
        }
        if (link != SC_PTX_LINK_NONE)
            expected(p, "a state space (.reg, .shared, .local ...) after the linkage");
        body_directive(p, NULL);
        return;
    }
    if (t.kind == TK_IDENT || is_punct(&t, '@')) {
        instruction(p);
        return;
    }
    expected(p, "an instruction, label, declaration or '}'");
}

static void resolve_operand(ScPtxOperand *o, void *ctx)
{
    Parser *p = ctx;
    if (o->kind != SC_PTX_OPND_SYMBOL)
        return;
    ScPtxOperandKind k = sc_ptx_names_classify(&p->names, o->text);
    if (k == SC_PTX_OPND_SYMBOL && p->outer_names)
        k = sc_ptx_names_classify(p->outer_names, o->text);
    o->kind = k;
}

static void walk(ScPtxOperand *o, OperandFn fn, void *ctx)
{
    fn(o, ctx);
    switch (o->kind) {
    case SC_PTX_OPND_ADDR:
        walk((ScPtxOperand *)o->u.addr.base, fn, ctx);
        for (uint32_t i = 0; i < o->u.addr.n_rest; i++)
            walk((ScPtxOperand *)&o->u.addr.rest[i], fn, ctx);
        break;
    case SC_PTX_OPND_VEC:
    case SC_PTX_OPND_LIST:
    case SC_PTX_OPND_PAIR:
        for (uint32_t i = 0; i < o->u.list.n; i++)
            walk((ScPtxOperand *)&o->u.list.items[i], fn, ctx);
        break;
    case SC_PTX_OPND_REG:
    case SC_PTX_OPND_INT:
    case SC_PTX_OPND_FLOAT:
    case SC_PTX_OPND_SYMBOL:
    case SC_PTX_OPND_LABEL:
    case SC_PTX_OPND_SINK:
    case SC_PTX_OPND_EXPR:
        break;
    }
}

void sc_ptx_walk_operands(ScPtxStmt *s, OperandFn fn, void *ctx)
{
    if (s->kind != SC_PTX_STMT_INSTR)
        return;
    for (uint32_t i = 0; i < s->u.instr.n_ops; i++)
        walk((ScPtxOperand *)&s->u.instr.ops[i], fn, ctx);
}

/* Names are resolved once the whole body is read: a branch may jump forward. */
static void resolve_names(Parser *p)
{
    for (ScPtxStmt *s = p->first; s; s = s->next)
        sc_ptx_walk_operands(s, resolve_operand, p);
}

static void begin_body(Parser *p, ScPtxFunc *f, uint32_t depth)
{
    p->func = f;
    p->depth = p->base_depth = depth;
    p->first = p->last = NULL;
    sc_ptx_map_clear(&p->names);
    sc_ptx_map_clear(&p->locs);
}

/* { statement* } */
static void body(Parser *p, ScPtxFunc *f)
{
    Token open = p->tok;
    /* nvcc's inline-asm markers come in pairs inside one body: a stray one
     * before the body (in a verbatim directive, say) must not leak into it */
    p->lx.in_asm = false;
    next(p);
    begin_body(p, f, 0);
    p->cur_loc = NULL;
    /* .func f(.reg .b32 a): the body may name a without '%' */
    for (uint32_t i = 0; i < f->n_rets + f->n_params; i++) {
        const ScPtxVar *v = i < f->n_rets ? &f->rets[i] : &f->params[i - f->n_rets];
        if (strcmp(v->space, "reg") == 0)
            note_name(p, v->decls[0].name, NAME_REG);
    }
    for (;;) {
        if (p->tok.kind == TK_EOF)
            FAIL_TOK(p, &open, "the body of '%s' has no closing '}'", f->name);
        if (is_punct(&p->tok, '}') && p->depth == 0)
            break;
        statement(p);
    }
    next(p);
    resolve_names(p);
    f->first = p->first;
    f->last = p->last;
    p->func = NULL;
}

/* ( param (, param)* ) */
static const ScPtxVar *param_list(Parser *p, uint32_t *n)
{
    next(p);
    size_t base = p->vars.len;
    if (!is_punct(&p->tok, ')')) {
        for (;;) {
            if (!is_space(&p->tok))
                expected(p, "a parameter declaration (.param or .reg)");
            ScPtxVar v = {0};
            var_decl(p, &v, SC_PTX_LINK_NONE, true);
            *(ScPtxVar *)push(p, &p->vars, sizeof v) = v;
            if (!is_punct(&p->tok, ','))
                break;
            next(p);
        }
    }
    expect(p, ')', "to close the parameter list");
    return pop_to_arena(p, &p->vars, sizeof(ScPtxVar), base, n);
}

/* (.entry | .func) .attribute(...)? (rets)? name (params)? directive* (; | body) */
static ScPtxFunc *func_decl(Parser *p, ScPtxLinkage link)
{
    ScPtxFunc *f = alloc(p, sizeof *f);
    f->linkage = link;
    f->pos = (ScPtxPos){p->tok.line, p->tok.col};
    f->is_entry = is_dot(&p->tok, "entry");
    next(p);
    if (is_dot(&p->tok, "attribute"))
        f->attribute = attribute(p);
    if (!f->is_entry && is_punct(&p->tok, '(')) {
        f->has_rets = true;
        f->rets = param_list(p, &f->n_rets);
    }
    if (p->tok.kind != TK_IDENT)
        expected(p, f->is_entry ? "the kernel name after .entry" : "the function name after .func");
    f->name = intern(p, p->tok.s, p->tok.len);
    sc_ptx_fresh_note(p->m, f->name, false, 0);
    next(p);
    if (is_punct(&p->tok, '(')) {
        f->has_params = true;
        f->params = param_list(p, &f->n_params);
    }
    size_t base = p->dirs.len;
    while (p->tok.kind == TK_DOT) {
        ScPtxDirective d = {.pos = {p->tok.line, p->tok.col}};
        bool pragma = is_dot(&p->tok, "pragma");
        d.name = intern(p, p->tok.s + 1, p->tok.len - 1);
        next(p);
        if (pragma) {
            d.args = args_to_semicolon(p);
        } else {
            /* .maxntid 128, 1, 1 has no ';': it ends at the next directive or the body. */
            const char *prev_end = NULL;
            p->text.len = 0;
            while (p->tok.kind != TK_DOT && p->tok.kind != TK_EOF && !is_punct(&p->tok, '{') &&
                   !is_punct(&p->tok, ';'))
                take_token(p, &prev_end);
            d.args = copy(p, p->text.data ? p->text.data : "", p->text.len);
        }
        *(ScPtxDirective *)push(p, &p->dirs, sizeof d) = d;
    }
    f->dirs = pop_to_arena(p, &p->dirs, sizeof(ScPtxDirective), base, &f->n_dirs);
    if (is_punct(&p->tok, ';')) {
        next(p);
    } else if (is_punct(&p->tok, '{')) {
        f->has_body = true;
        body(p, f);
    } else {
        char buf[64];
        FAIL_TOK(p, &p->tok, "expected '{' or ';' after the signature of '%s', found %s", f->name,
                 show(&p->tok, buf, sizeof buf));
    }
    return f;
}

/* ---- module --------------------------------------------------------------- */

static ScPtxItem *new_item(Parser *p, ScPtxItemKind kind, const Token *at, ScPtxItem **first, ScPtxItem **last)
{
    ScPtxItem *it = alloc(p, sizeof *it);
    it->kind = kind;
    it->pos = (ScPtxPos){at->line, at->col};
    it->prev = *last;
    if (*last)
        (*last)->next = it;
    else
        *first = it;
    *last = it;
    return it;
}

/* .file index "name" (, timestamp, size)? */
static void file_directive(Parser *p, ScPtxItem *it)
{
    next(p);
    it->u.file.index = uint32_value(p, "the file index of .file");
    if (p->tok.kind != TK_STRING)
        expected(p, "a quoted file name after the .file index");
    it->u.file.name = copy(p, p->tok.s + 1, p->tok.len - 2);
    next(p);
    if (is_punct(&p->tok, ',')) {
        const char *prev_end = NULL;
        p->text.len = 0;
        while (is_punct(&p->tok, ',')) {
            take_token(p, &prev_end);
            if (p->tok.kind != TK_INT)
                expected(p, "a timestamp or size (integer) after ',' in .file");
            take_token(p, &prev_end);
        }
        it->u.file.extra = copy(p, p->text.data, p->text.len);
    }
}

static void item(Parser *p, ScPtxItem **first, ScPtxItem **last)
{
    Token start = p->tok;
    if (start.kind != TK_DOT)
        expected(p, "a directive at module scope (.global, .func, .entry, ...)");
    if (is_dot(&start, "file")) {
        file_directive(p, new_item(p, SC_PTX_ITEM_FILE, &start, first, last));
        return;
    }
    if (is_dot(&start, "version") || is_dot(&start, "target") || is_dot(&start, "address_size")) {
        char buf[64];
        FAIL_TOK(p, &start, "%s may appear only once, in the header at the top of the module",
                 show(&start, buf, sizeof buf));
    }
    if (is_dot(&start, "section") || is_dot(&start, "pragma")) {
        ScPtxItem *it = new_item(p, is_dot(&start, "section") ? SC_PTX_ITEM_SECTION : SC_PTX_ITEM_PRAGMA,
                                 &start, first, last);
        const char *end = raw_statement(p, &start);
        it->u.text = copy(p, start.s, (size_t)(end - start.s));
        return;
    }
    ScPtxLinkage link = linkage(p);
    if (is_dot(&p->tok, "entry") || is_dot(&p->tok, "func")) {
        ScPtxItem *it = new_item(p, SC_PTX_ITEM_FUNC, &start, first, last);
        it->u.func = func_decl(p, link);
        it->u.func->pos = it->pos;
        return;
    }
    if (is_space(&p->tok)) {
        ScPtxItem *it = new_item(p, SC_PTX_ITEM_VAR, &start, first, last);
        var_decl(p, &it->u.var, link, false);
        it->u.var.pos = it->pos;
        expect(p, ';', "at the end of the declaration");
        return;
    }
    ScPtxItem *it = new_item(p, SC_PTX_ITEM_UNKNOWN, &start, first, last);
    const char *end = raw_statement(p, &start);
    it->u.text = copy(p, start.s, (size_t)(end - start.s));
}

/* .version M.m  .target t (, t)*  (.address_size N)? */
static void header(Parser *p)
{
    ScPtxModule *m = p->m;
    if (!is_dot(&p->tok, "version"))
        expected(p, "'.version' at the start of the module");
    next(p);
    const Token v = p->tok;
    const char *dot = v.kind == TK_FLOAT ? memchr(v.s, '.', v.len) : NULL;
    bool ok = dot && dot > v.s && dot < tok_end(&v) - 1 && tok_end(&v) - v.s < 12;
    for (const char *c = v.s; ok && c < tok_end(&v); c++)
        ok = c == dot || (*c >= '0' && *c <= '9');
    if (!ok)
        expected(p, "a version like 9.0 after .version");
    m->version_major = (uint32_t)strtoul(v.s, NULL, 10);
    m->version_minor = (uint32_t)strtoul(dot + 1, NULL, 10);
    next(p);
    if (!is_dot(&p->tok, "target"))
        expected(p, "'.target' right after .version");
    next(p);
    size_t base = p->strs.len;
    for (;;) {
        if (p->tok.kind != TK_IDENT)
            expected(p, "a target name like sm_90");
        *(const char **)push(p, &p->strs, sizeof(char *)) = intern(p, p->tok.s, p->tok.len);
        next(p);
        if (!is_punct(&p->tok, ','))
            break;
        next(p);
    }
    m->targets = pop_to_arena(p, &p->strs, sizeof(char *), base, &m->n_targets);
    if (is_dot(&p->tok, "address_size")) {
        next(p);
        Token n = p->tok;
        m->address_size = uint32_value(p, "32 or 64 after .address_size");
        if (m->address_size != 32 && m->address_size != 64)
            FAIL_TOK(p, &n, ".address_size must be 32 or 64, not %u", m->address_size);
    }
}

static void module(Parser *p)
{
    header(p);
    while (p->tok.kind != TK_EOF)
        item(p, &p->m->first, &p->m->last);
}

/* ---- entry points --------------------------------------------------------- */

static void parser_free(Parser *p)
{
    sc_ptx_map_free(&p->strings);
    sc_ptx_map_free(&p->locs);
    sc_ptx_map_free(&p->names);
    free(p->ops.data);
    free(p->strs.data);
    free(p->decls.data);
    free(p->dims.data);
    free(p->vars.data);
    free(p->dirs.data);
    free(p->text.data);
    free(p);
}

static Parser *parser_new(ScPtxModule *m, const char *text, size_t len, const char *filename, ScErr *err)
{
    Parser *p = calloc(1, sizeof *p);
    if (!p) {
        sc_err_set(err, "%s: out of memory", filename);
        return NULL;
    }
    sc_ptx_lex_init(&p->lx, text, len);
    p->m = m;
    p->err = err;
    p->filename = filename;
    return p;
}

/* Runs one production to the end; false if it failed (the error is in p->err). */
static bool run(Parser *p, void (*production)(Parser *))
{
    if (setjmp(p->fail))
        return false;
    next(p);
    production(p);
    return true;
}

ScPtxModule *sc_ptx_parse(const char *text, size_t len, const char *filename, ScErr *err)
{
    const char *name = filename ? filename : "<ptx>";
    /* PTX images handed to the driver end with a NUL, sometimes padded with more */
    while (len > 0 && text[len - 1] == '\0')
        len--;
    if (len >= UINT32_MAX) {
        sc_err_set(err, "%s: %zu bytes of PTX is more than the parser accepts (4 GiB)", name, len);
        return NULL;
    }
    ScPtxModule *m = calloc(1, sizeof *m);
    if (!m) {
        sc_err_set(err, "%s: out of memory", name);
        return NULL;
    }
    m->filename = sc_arena_strndup(&m->arena, name, strlen(name));
    Parser *p = m->filename ? parser_new(m, text, len, m->filename, err) : NULL;
    if (!p) {
        sc_err_set(err, "%s: out of memory", name);
        sc_ptx_module_free(m);
        return NULL;
    }
    bool ok = run(p, module);
    parser_free(p);
    if (!ok) {
        sc_ptx_module_free(m);
        return NULL;
    }
    return m;
}

void sc_ptx_module_free(ScPtxModule *m)
{
    if (!m)
        return;
    sc_ptx_edit_cache_free(m);
    sc_arena_free(&m->arena);
    free(m);
}

static void statements(Parser *p)
{
    while (p->tok.kind != TK_EOF)
        statement(p);
    if (p->depth != p->base_depth)
        FAIL_TOK(p, &p->tok, "%u '{' left open at the end of the inserted PTX", p->depth - p->base_depth);
    resolve_names(p);
}

ScPtxStmt *sc_ptx_parse_stmts(ScPtxModule *m, ScPtxFunc *f, uint32_t depth, const ScPtxLoc *loc,
                              const NameMap *fnames, const char *text, ScErr *err, ScPtxStmt **last)
{
    *last = NULL;
    Parser *p = parser_new(m, text, strlen(text), "inserted PTX", err);
    if (!p)
        return NULL;
    p->snippet = true;
    p->outer_names = fnames;
    begin_body(p, f, depth);
    p->cur_loc = loc;
    ScPtxStmt *first = NULL;
    if (run(p, statements)) {
        first = p->first;
        *last = p->last;
    }
    parser_free(p);
    return first;
}

static void items(Parser *p)
{
    while (p->tok.kind != TK_EOF)
        item(p, &p->items_first, &p->items_last);
}

ScPtxItem *sc_ptx_parse_items(ScPtxModule *m, const char *text, ScErr *err, ScPtxItem **last)
{
    *last = NULL;
    Parser *p = parser_new(m, text, strlen(text), "inserted PTX", err);
    if (!p)
        return NULL;
    ScPtxItem *first = NULL;
    if (run(p, items)) {
        first = p->items_first;
        *last = p->items_last;
    }
    parser_free(p);
    return first;
}
