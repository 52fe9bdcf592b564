/* ptx_lex.c: PTX text -> tokens, one at a time, with line:column positions. */
#include "ptx/ptx_int.h"

#include <string.h>

/* Character classes as a table: the lexer's inner loops run over every byte. */
enum { C_ALPHA = 1, C_DIGIT = 2, C_FOLLOW = 4, C_HEX = 8, C_SPACE = 16 };

static const unsigned char cls[256] = {
    ['\t'] = C_SPACE, ['\n'] = C_SPACE, ['\v'] = C_SPACE, ['\f'] = C_SPACE, ['\r'] = C_SPACE,
    [' '] = C_SPACE,
#define D(c) [c] = C_DIGIT | C_FOLLOW | C_HEX
    D('0'), D('1'), D('2'), D('3'), D('4'), D('5'), D('6'), D('7'), D('8'), D('9'),
#undef D
#define H(c) [c] = C_ALPHA | C_FOLLOW | C_HEX
    H('a'), H('b'), H('c'), H('d'), H('e'), H('f'), H('A'), H('B'), H('C'), H('D'), H('E'), H('F'),
#undef H
#define A(c) [c] = C_ALPHA | C_FOLLOW
    A('g'), A('h'), A('i'), A('j'), A('k'), A('l'), A('m'), A('n'), A('o'), A('p'), A('q'),
    A('r'), A('s'), A('t'), A('u'), A('v'), A('w'), A('x'), A('y'), A('z'),
    A('G'), A('H'), A('I'), A('J'), A('K'), A('L'), A('M'), A('N'), A('O'), A('P'), A('Q'),
    A('R'), A('S'), A('T'), A('U'), A('V'), A('W'), A('X'), A('Y'), A('Z'),
#undef A
    ['_'] = C_FOLLOW, ['$'] = C_FOLLOW,
};

#define IS(c, k) (cls[(unsigned char)(c)] & (k))

void sc_ptx_lex_init(Lexer *lx, const char *text, size_t len)
{
    *lx = (Lexer){.p = text, .end = text + len, .line_start = text, .line = 1};
}

void sc_ptx_lex_rewind(Lexer *lx, const Token *tok)
{
    lx->p = tok->s;
    lx->line = tok->line;
    lx->line_start = tok->s - (tok->col - 1);
    lx->in_asm = tok->inline_asm;
}

static bool starts(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* nvcc brackets inline asm with these comments; remembering them lets the
 * printer and the instrumenter tell user asm from compiler output. */
static void line_comment(Lexer *lx, const char *body, const char *eol)
{
    while (body < eol && (*body == ' ' || *body == '\t'))
        body++;
    if (starts(body, eol, "begin inline asm"))
        lx->in_asm = true;
    else if (starts(body, eol, "end inline asm"))
        lx->in_asm = false;
}

/* Printed text is NUL-terminated, so a NUL byte inside would cut it short. */
#define NUL_MSG "NUL byte inside the PTX text (only trailing NULs are allowed)"

/* Skips whitespace and comments. Returns an error message, or NULL. */
static const char *skip_space(Lexer *lx)
{
    const char *p = lx->p, *end = lx->end;
    for (;;) {
        while (p < end && IS(*p, C_SPACE)) {
            if (*p == '\n') {
                lx->line++;
                lx->line_start = p + 1;
            }
            p++;
        }
        if (p + 1 < end && p[0] == '/' && p[1] == '/') {
            const char *eol = memchr(p, '\n', (size_t)(end - p));
            if (!eol)
                eol = end;
            if (memchr(p, '\0', (size_t)(eol - p))) {
                lx->p = p;
                return NUL_MSG;
            }
            line_comment(lx, p + 2, eol);
            p = eol;
            continue;
        }
        if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            const char *q = p + 2;
            uint32_t line = lx->line;
            const char *line_start = lx->line_start;
            for (;;) {
                if (q + 1 >= end) {
                    lx->p = p; /* the error points at the comment's start */
                    lx->line = line;
                    lx->line_start = line_start;
                    return "unterminated /* comment: add the closing */";
                }
                if (q[0] == '*' && q[1] == '/')
                    break;
                if (*q == '\0') {
                    lx->p = p;
                    lx->line = line;
                    lx->line_start = line_start;
                    return NUL_MSG;
                }
                if (*q == '\n') {
                    lx->line++;
                    lx->line_start = q + 1;
                }
                q++;
            }
            p = q + 2;
            continue;
        }
        lx->p = p;
        return NULL;
    }
}

static Token make(Lexer *lx, TokKind kind, const char *s, const char *e)
{
    Token t = {.kind = kind, .s = s, .len = (uint32_t)(e - s), .line = lx->line,
               .col = (uint32_t)(s - lx->line_start) + 1, .inline_asm = lx->in_asm};
    lx->p = e;
    return t;
}

static Token error(Lexer *lx, const char *s, const char *msg)
{
    Token t = make(lx, TK_ERROR, s, s);
    t.msg = msg;
    return t;
}

static const char *follow(const char *p, const char *end)
{
    while (p < end && IS(*p, C_FOLLOW))
        p++;
    return p;
}

static Token number(Lexer *lx, const char *s)
{
    const char *p = s, *end = lx->end;
    if (p[0] == '0' && p + 1 < end) {
        char c = p[1];
        if (c == 'f' || c == 'F' || c == 'd' || c == 'D') {
            /* 0f + 8 or 0d + 16 hex digits: the exact IEEE bits. */
            const char *q = p + 2;
            while (q < end && IS(*q, C_HEX))
                q++;
            size_t want = (c == 'f' || c == 'F') ? 8 : 16;
            if ((size_t)(q - p - 2) != want || (q < end && IS(*q, C_FOLLOW)))
                return error(lx, s, want == 8 ? "a 0f float literal needs exactly 8 hex digits"
                                              : "a 0d float literal needs exactly 16 hex digits");
            return make(lx, TK_FLOAT, s, q);
        }
    }
    p = follow(p, end); /* 123, 0x1F, 0b101, 017, 7U, 1e5: the parser checks the spelling */
    if (p - s > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return make(lx, TK_INT, s, p);
    bool is_float = false;
    for (const char *q = s; q < p; q++)
        is_float |= *q == 'e' || *q == 'E';
    if (p + 1 < end && *p == '.' && IS(p[1], C_DIGIT)) {
        is_float = true;
        p = follow(p + 1, end);
    }
    /* A signed exponent (1.5e-3) continues the literal. */
    if ((p[-1] == 'e' || p[-1] == 'E') && p + 1 < end && (*p == '+' || *p == '-') && IS(p[1], C_DIGIT)) {
        is_float = true;
        p = follow(p + 1, end);
    }
    return make(lx, is_float ? TK_FLOAT : TK_INT, s, p);
}

Token sc_ptx_lex_next(Lexer *lx)
{
    const char *msg = skip_space(lx);
    if (msg)
        return error(lx, lx->p, msg);
    const char *s = lx->p, *end = lx->end;
    if (s >= end)
        return make(lx, TK_EOF, s, s);
    unsigned char c = (unsigned char)*s;
    if (IS(c, C_ALPHA) || c == '_' || c == '$' || (c == '%' && s + 1 < end && IS(s[1], C_FOLLOW)))
        return make(lx, TK_IDENT, s, follow(s + 1, end));
    if (IS(c, C_DIGIT))
        return number(lx, s);
    if (c == '.') {
        const char *p = follow(s + 1, end);
        if (p == s + 1)
            return error(lx, s, "'.' must start a directive or modifier name (like .reg or .u32)");
        /* Namespaced modifiers: .shared::cta, .L2::cache_hint, .mbarrier::complete_tx::bytes */
        while (p + 2 < end && p[0] == ':' && p[1] == ':' && IS(p[2], C_FOLLOW))
            p = follow(p + 2, end);
        return make(lx, TK_DOT, s, p);
    }
    if (c == '"') {
        const char *p = s + 1;
        while (p < end && *p != '"' && *p != '\n' && *p)
            p += (*p == '\\' && p + 1 < end && p[1] != '\n' && p[1]) ? 2 : 1;
        if (p < end && !*p)
            return error(lx, p, NUL_MSG);
        if (p >= end || *p != '"')
            return error(lx, s, "unterminated string: close it with '\"' on the same line");
        return make(lx, TK_STRING, s, p + 1);
    }
    if (strchr("{}()[],;:@!+-*/%<>=|&^~?", c) && c) {
        Token t = make(lx, TK_PUNCT, s, s + 1);
        t.punct = (char)c;
        return t;
    }
    if (c == '#')
        return error(lx, s, "preprocessor lines (#...) are not PTX: run the C preprocessor first");
    return error(lx, s, "unexpected character in PTX text");
}

/* After the '}' that closes a directive's block: `.section x { ... }` ends
 * there when a new statement (or the end) follows; `.foo {1, 2};` goes on to
 * its ';'. Looks ahead without moving the lexer. */
static bool block_ends(const Lexer *lx, const char *p)
{
    Lexer look = *lx;
    look.p = p;
    if (skip_space(&look))
        return true;
    if (look.p >= look.end)
        return true;
    char c = *look.p;
    return c == '.' || c == '@' || c == '{' || c == '}' || c == '%' || IS(c, C_ALPHA | C_FOLLOW);
}

static const char *raw_statement(Lexer *lx, const char **why);

/* Verbatim text is printed with its comments, so an inline-asm marker inside
 * it must not change the state for what follows: it would be read again. */
const char *sc_ptx_lex_raw_statement(Lexer *lx, const char **why)
{
    bool in_asm = lx->in_asm;
    const char *end = raw_statement(lx, why);
    lx->in_asm = in_asm;
    return end;
}

static const char *raw_statement(Lexer *lx, const char **why)
{
    uint32_t depth = 0;
    const char *p = lx->p, *end = lx->end;
    while (p < end) {
        char c = *p;
        if (c == '\n') {
            lx->line++;
            lx->line_start = p + 1;
        } else if (c == '\0') {
            lx->p = p;
            *why = NUL_MSG;
            return NULL;
        } else if (c == '"') {
            lx->p = p;
            Token t = sc_ptx_lex_next(lx);
            if (t.kind == TK_ERROR) {
                *why = t.msg;
                return NULL;
            }
            p = lx->p;
            continue;
        } else if (c == '/' && p + 1 < end && (p[1] == '/' || p[1] == '*')) {
            lx->p = p;
            const char *msg = skip_space(lx);
            if (msg) {
                *why = msg;
                return NULL;
            }
            p = lx->p;
            continue;
        } else if (c == '{') {
            depth++;
        } else if (c == '}') {
            if (depth == 0) {
                lx->p = p;
                *why = "unexpected '}' inside a directive: a ';' is missing before it";
                return NULL;
            }
            if (--depth == 0 && block_ends(lx, p + 1)) {
                lx->p = p + 1;
                return p + 1;
            }
        } else if (c == ';' && depth == 0) {
            lx->p = p + 1;
            return p + 1;
        }
        p++;
    }
    lx->p = p;
    *why = depth ? "unclosed '{': add the matching '}'" : "missing ';' at the end of the directive";
    return NULL;
}
