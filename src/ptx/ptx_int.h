/* ptx_int.h: declarations shared by the files of src/ptx and nothing else (lexer, parser entry points, name maps). */
#ifndef SC_PTX_INT_H
#define SC_PTX_INT_H

#include "ptx/ptx.h"

/* ---- ptx_lex.c ---- */

typedef enum TokKind {
    TK_EOF,
    TK_IDENT,   /* foo, %r1, $L__BB0_1, _ */
    TK_DOT,     /* .global, .shared::cta, .L2::256B, .2d: a directive or modifier */
    TK_INT,     /* 12, 0x1f, 017, 0b1, 7U (sign is a separate '-') */
    TK_FLOAT,   /* 0f3F800000, 0d..., 1.5, 2e3 */
    TK_STRING,  /* "..." with its quotes */
    TK_PUNCT,   /* one character: { } ( ) [ ] , ; : @ ! + - * / % < > = | & ^ ~ ? */
    TK_ERROR,   /* lexical error: s points at it, msg says what */
} TokKind;

typedef struct Token {
    TokKind kind;
    char punct;          /* TK_PUNCT: the character */
    bool inline_asm;     /* inside nvcc's begin/end inline asm comments */
    uint32_t len;
    const char *s;
    uint32_t line, col;
    const char *msg;     /* TK_ERROR */
} Token;

typedef struct Lexer {
    const char *p, *end, *line_start;
    uint32_t line;
    bool in_asm;
} Lexer;

void sc_ptx_lex_init(Lexer *lx, const char *text, size_t len);
Token sc_ptx_lex_next(Lexer *lx);
/* Moves the lexer back to the start of tok (so it is read again). */
void sc_ptx_lex_rewind(Lexer *lx, const Token *tok);
/* Reads raw text from the lexer's position to the end of a statement: the
 * first ';' outside braces, or the '}' that closes a brace opened in the
 * text. Strings and comments are skipped whole. Returns the end pointer (just
 * past the terminator), or NULL at end of input / on an unbalanced '}' with
 * *why set. */
const char *sc_ptx_lex_raw_statement(Lexer *lx, const char **why);

/* ---- ptx_names.c: hash maps from byte strings to values ---- */

typedef struct NameSlot {
    const char *key;
    uint32_t len;
    uint32_t hash;
    uint64_t value;
} NameSlot;

typedef struct NameMap {
    NameSlot *slots;
    uint32_t cap, count;
} NameMap;

uint32_t sc_ptx_hash(const char *s, size_t len);
/* The slot for key (value 0 and key NULL when absent); NULL only if out of memory. */
NameSlot *sc_ptx_map_slot(NameMap *nm, const char *key, uint32_t len, uint32_t hash);
/* Inserts or overwrites. The key's bytes must outlive the map. false if out of memory. */
bool sc_ptx_map_put(NameMap *nm, const char *key, uint32_t len, uint64_t value);
bool sc_ptx_map_get(const NameMap *nm, const char *key, uint32_t len, uint64_t *value);
void sc_ptx_map_clear(NameMap *nm);
void sc_ptx_map_free(NameMap *nm);

/* What a body-local name is, for resolving identifiers to registers and labels. */
enum { NAME_LABEL = 1, NAME_REG = 2, NAME_RANGE = 3 /* value >> 2 = range count */ };
/* Records a body name (label, register, register range) in a map. */
bool sc_ptx_names_note(NameMap *nm, const char *name, uint64_t kind);
/* REG or LABEL for an identifier declared in the map, else SYMBOL. */
ScPtxOperandKind sc_ptx_names_classify(const NameMap *nm, const char *name);
/* Bumps the module's fresh-name counters past a declared name. */
void sc_ptx_fresh_note(ScPtxModule *m, const char *name, bool has_range, uint32_t range);

/* ---- ptx_parse.c: entry points for the editor ---- */

/* Parses body statements for insertion into f at depth, governed by loc.
 * Identifiers the text does not declare are resolved against fnames (f's
 * labels and registers). On success returns the first of a detached list
 * (*last set); NULL with err set on error, or with err unset when the text
 * holds no statement. .loc is refused: it would re-attribute what follows. */
ScPtxStmt *sc_ptx_parse_stmts(ScPtxModule *m, ScPtxFunc *f, uint32_t depth, const ScPtxLoc *loc,
                              const NameMap *fnames, const char *text, ScErr *err, ScPtxStmt **last);
/* Parses module-scope items (no header) into a detached list; NULL with err
 * set on error, or with err unset when the text holds no item. */
ScPtxItem *sc_ptx_parse_items(ScPtxModule *m, const char *text, ScErr *err, ScPtxItem **last);

/* ---- ptx_edit.c ---- */

void sc_ptx_edit_cache_free(ScPtxModule *m);

/* Walks every operand of an instruction (nested ones too). */
typedef void (*OperandFn)(ScPtxOperand *o, void *ctx);
void sc_ptx_walk_operands(ScPtxStmt *s, OperandFn fn, void *ctx);

#endif
