/* ptx.h: PTX modules in memory: parse text, query, edit, print. The whole public API of src/ptx (front end core). */
#ifndef SC_PTX_H
#define SC_PTX_H

#include "common/sc_arena.h"
#include "common/sc_buf.h"
#include "common/sc_defs.h"
#include "common/sc_err.h"

/*
 * A parsed module owns every node and string through one arena: nothing is
 * freed piecemeal, sc_ptx_module_free() frees it all. Strings are
 * NUL-terminated copies (the source text may be freed after parsing) and are
 * spelled as in the source: opcodes and modifiers without their dot
 * ("atom", {"global","cta","add","u32"}), registers with their '%'.
 *
 * Layout:
 *   ScPtxModule   header (.version/.target/.address_size) + ordered list of
 *                 top-level items (ScPtxItem: variables, functions, .file,
 *                 .section, .pragma, anything else kept verbatim).
 *   ScPtxFunc     .entry/.func: signature, performance directives, and the
 *                 body as one flat doubly-linked list of ScPtxStmt in source
 *                 order; nested { } scopes are OPEN/CLOSE statements and every
 *                 statement carries its nesting depth, so that edits are plain
 *                 list splices.
 *   ScPtxStmt     one statement of a body: instruction, label, declaration,
 *                 .loc, { or }, .pragma, .callprototype, .calltargets,
 *                 .branchtargets, or an unknown directive kept verbatim.
 *
 * Positions are 1-based (line, column) in the parsed text. Every statement also
 * points at the governing .loc (the last .loc before it in the body), whose
 * inlined_at chain is resolved to earlier .loc statements of the same body.
 */

typedef struct ScPtxModule ScPtxModule;
typedef struct ScPtxFunc ScPtxFunc;
typedef struct ScPtxStmt ScPtxStmt;
typedef struct ScPtxOperand ScPtxOperand;

typedef struct ScPtxPos {
    uint32_t line, col;
} ScPtxPos;

/* ---- debug locations -------------------------------------------------- */

/* One `.loc file line col [, function_name LABEL[+off], inlined_at f l c]`. */
typedef struct ScPtxLoc {
    uint32_t file, line, col;
    const char *function_name;  /* label in .debug_str ("$L__info_string0"), NULL if none */
    int64_t function_name_off;  /* the `+off` after the label, 0 if none */
    /* The call site this code was inlined into, NULL if not inlined. It is the
     * latest earlier .loc of the body with the inlined_at coordinates (so it
     * carries its own function_name and inlined_at: the chain); when no such
     * .loc exists, a node with only file/line/col. */
    const struct ScPtxLoc *inlined_at;
} ScPtxLoc;

/* ---- operands ---------------------------------------------------------- */

typedef enum ScPtxOperandKind {
    SC_PTX_OPND_REG,    /* %r1, %tid.x (name "%tid", component "x"), or a name declared .reg */
    SC_PTX_OPND_INT,    /* 42, -1, 0x1F, 017, 0b101, 7U: value + spelling */
    SC_PTX_OPND_FLOAT,  /* 0f3F800000, 0d3FF0000000000000, 1.5: value + spelling */
    SC_PTX_OPND_SYMBOL, /* variable, parameter or function name */
    SC_PTX_OPND_LABEL,  /* a name declared as a label in the same body */
    SC_PTX_OPND_SINK,   /* _ */
    SC_PTX_OPND_ADDR,   /* [base], [base+off], [imm], [a, b, {c}] (tex/surf), optional .unified */
    SC_PTX_OPND_VEC,    /* {a, _, b} */
    SC_PTX_OPND_LIST,   /* (a, b): call argument / return lists */
    SC_PTX_OPND_PAIR,   /* a|b: the two destinations of setp, shfl.sync ... */
    SC_PTX_OPND_EXPR,   /* any other constant expression, kept verbatim in text */
} ScPtxOperandKind;

typedef struct ScPtxAddr {
    const ScPtxOperand *base; /* REG, SYMBOL, INT ([imm]) or EXPR */
    int64_t offset;           /* the +off / +-off / -off; 0 if none */
    const char *offset_text;  /* its spelling with sign ("-8", "0x10"), NULL if none */
    bool unified;             /* [a].unified */
    /* tex/surf forms [tex, sampler, {coords}]: the elements after the first. */
    const ScPtxOperand *rest;
    uint32_t n_rest;
} ScPtxAddr;

struct ScPtxOperand {
    ScPtxOperandKind kind;
    bool negated;       /* !%p (predicate operands of setp/selp/...) */
    ScPtxPos pos;
    /* REG, SYMBOL, LABEL: the name. INT, FLOAT, EXPR: the spelling, sign included. */
    const char *text;
    const char *component; /* REG: "x" of %tid.x, NULL otherwise */
    union {
        struct {
            uint64_t bits;     /* two's complement value of the literal */
            bool is_unsigned;  /* had a U suffix */
        } i;                   /* INT */
        struct {
            double value;
            bool exact_bits;   /* 0f/0d form: bits holds the IEEE pattern as written */
            uint64_t bits;
        } f;                   /* FLOAT */
        ScPtxAddr addr;        /* ADDR */
        struct {
            const ScPtxOperand *items;
            uint32_t n;
        } list;                /* VEC, LIST, PAIR (n == 2) */
    } u;
};

/* ---- declarations ------------------------------------------------------ */

typedef enum ScPtxLinkage {
    SC_PTX_LINK_NONE,
    SC_PTX_LINK_VISIBLE,
    SC_PTX_LINK_EXTERN,
    SC_PTX_LINK_WEAK,
    SC_PTX_LINK_COMMON,
} ScPtxLinkage;

/* One name of a declaration: `%r<221>`, `smem[4][32]`, `x = 5`. */
typedef struct ScPtxDeclarator {
    const char *name;
    uint32_t range;           /* %r<221>: 221; 0 when not parameterized */
    bool has_range;
    const uint64_t *dims;     /* array dimensions; SC_PTX_DIM_UNSIZED for [] */
    uint32_t n_dims;
    const char *init;         /* initializer after '=', verbatim; NULL if none */
    ScPtxPos pos;
} ScPtxDeclarator;
#define SC_PTX_DIM_UNSIZED UINT64_MAX

/* A variable, register or parameter declaration:
 * [linkage] .space [.attribute(...)] [.align N] [.vN] .type [.ptr [.space] [.align N]] declarators */
typedef struct ScPtxVar {
    ScPtxLinkage linkage;
    const char *space;        /* "reg", "global", "shared", "const", "local", "param", "tex", ... */
    const char *attribute;    /* verbatim "(.managed)" of .attribute(.managed), NULL if none */
    uint32_t align;           /* 0 if no .align */
    uint32_t vec;             /* 2, 4, 8 for .v2/.v4/.v8; 0 if scalar */
    const char *type;         /* "b32", "u64", "pred", "f16x2", "texref", ... */
    bool ptr;                 /* kernel parameter attribute .ptr */
    const char *ptr_space;    /* .ptr .global: "global", NULL if none */
    uint32_t ptr_align;       /* .ptr .align N: N, 0 if none */
    const ScPtxDeclarator *decls;
    uint32_t n_decls;         /* 1 except for `.reg .b32 a, b;` */
    ScPtxPos pos;
} ScPtxVar;

/* A directive written after a function signature (.maxntid 128, 1, 1;
 * .reqntid; .minnctapersm; .maxnreg; .explicitcluster; .reqnctapercluster;
 * .maxclusterrank; .noreturn; .pragma "..."), or any other directive kept
 * verbatim: name without its dot, args verbatim ("" when none). */
typedef struct ScPtxDirective {
    const char *label;        /* "prototype_3" of `prototype_3: .callprototype ...`; NULL if none */
    const char *name;         /* "maxntid", "pragma", "callprototype", ... */
    const char *args;         /* "128, 1, 1", "\"nounroll\"" */
    ScPtxPos pos;
} ScPtxDirective;

/* ---- statements -------------------------------------------------------- */

typedef enum ScPtxStmtKind {
    SC_PTX_STMT_INSTR,
    SC_PTX_STMT_LABEL,
    SC_PTX_STMT_VAR,          /* .reg/.local/.shared/.param/... inside a body */
    SC_PTX_STMT_LOC,          /* .loc */
    SC_PTX_STMT_OPEN,         /* { */
    SC_PTX_STMT_CLOSE,        /* } */
    SC_PTX_STMT_PRAGMA,       /* .pragma "...";  (directive) */
    SC_PTX_STMT_CALLPROTO,    /* label: .callprototype ...;  (directive, args verbatim) */
    SC_PTX_STMT_CALLTARGETS,  /* label: .calltargets a, b;  (directive) */
    SC_PTX_STMT_BRANCHTARGETS,/* label: .branchtargets a, b;  (directive) */
    SC_PTX_STMT_UNKNOWN,      /* any other directive, verbatim (directive) */
} ScPtxStmtKind;

typedef struct ScPtxInstr {
    const char *guard;        /* "%p1" of @%p1 / @!%p1, NULL if unguarded */
    bool guard_negated;
    const char *opcode;       /* "atom" */
    const char *const *mods;  /* {"global","cta","add","u32"}: dot-modifiers in written order */
    uint32_t n_mods;
    const ScPtxOperand *ops;
    uint32_t n_ops;
} ScPtxInstr;

struct ScPtxStmt {
    ScPtxStmtKind kind;
    ScPtxStmt *prev, *next;   /* body order; NULL at the ends */
    ScPtxFunc *func;          /* enclosing function */
    uint32_t depth;           /* { } nesting: 0 in the body itself; OPEN/CLOSE carry the outer depth */
    ScPtxPos pos;             /* first token; 0:0 for inserted statements */
    const ScPtxLoc *loc;      /* governing .loc (for LOC: the previous one); NULL if none */
    bool inline_asm;          /* between nvcc's `// begin inline asm` and `// end inline asm` */
    union {
        ScPtxInstr instr;     /* INSTR */
        const char *label;    /* LABEL: name without ':' */
        ScPtxVar var;         /* VAR */
        ScPtxLoc loc;         /* LOC */
        ScPtxDirective dir;   /* PRAGMA, CALLPROTO, CALLTARGETS, BRANCHTARGETS, UNKNOWN */
    } u;
};

/* ---- functions and the module ----------------------------------------- */

struct ScPtxFunc {
    ScPtxLinkage linkage;
    bool is_entry;            /* .entry (kernel) rather than .func */
    const char *attribute;    /* verbatim "(...)" of .attribute(...) before the name, NULL if none */
    const char *name;
    bool has_rets;            /* a return list was written, even if empty */
    const ScPtxVar *rets;
    uint32_t n_rets;
    bool has_params;          /* a parameter list was written, even if empty */
    const ScPtxVar *params;
    uint32_t n_params;
    const ScPtxDirective *dirs; /* performance directives, .noreturn, .pragma, in order */
    uint32_t n_dirs;
    bool has_body;            /* false: a declaration (prototype) ending in ';' */
    ScPtxStmt *first, *last;  /* body */
    ScPtxPos pos;
};

typedef enum ScPtxItemKind {
    SC_PTX_ITEM_VAR,          /* module-scope variable (.global/.shared/.const/...) */
    SC_PTX_ITEM_FUNC,         /* .entry/.func definition or declaration */
    SC_PTX_ITEM_FILE,         /* .file idx "name" [, timestamp, size] */
    SC_PTX_ITEM_SECTION,      /* .section name { ... }: text is the whole directive verbatim */
    SC_PTX_ITEM_PRAGMA,       /* module-scope .pragma: text is the whole directive verbatim */
    SC_PTX_ITEM_UNKNOWN,      /* any other directive, whole text verbatim (.alias, ...) */
} ScPtxItemKind;

typedef struct ScPtxItem {
    ScPtxItemKind kind;
    struct ScPtxItem *prev, *next;
    ScPtxPos pos;
    union {
        ScPtxVar var;         /* VAR */
        ScPtxFunc *func;      /* FUNC */
        struct {
            uint32_t index;
            const char *name;   /* unquoted path, escapes kept as written */
            const char *extra;  /* ", timestamp, size" verbatim, NULL if none */
        } file;               /* FILE */
        const char *text;     /* SECTION, PRAGMA, UNKNOWN */
    } u;
} ScPtxItem;

struct ScPtxModule {
    ScArena arena;
    const char *filename;     /* as given to the parser, used in error messages */
    uint32_t version_major, version_minor;
    const char *const *targets; /* .target list in order: {"sm_90a", "debug"} */
    uint32_t n_targets;
    uint32_t address_size;    /* 32 or 64; 0 when the module omits .address_size */
    ScPtxItem *first, *last;
    /* Fresh-name state: every declared name is checked against the private
     * prefixes on the way in, so generated names never collide. */
    uint64_t next_fresh_reg, next_fresh_label;
    struct ScPtxEditCache *edit_cache; /* private to ptx_edit.c */
};

/* ---- parsing ----------------------------------------------------------- */

/* Limits: input shorter than 4 GiB, { } nesting up to SC_PTX_MAX_DEPTH, operand
 * nesting ({ } inside [ ] inside ( )) up to SC_PTX_MAX_OPND_DEPTH. */
#define SC_PTX_MAX_DEPTH 256
#define SC_PTX_MAX_OPND_DEPTH 8

/* Parses a whole module. `text` need not be NUL-terminated. On error returns
 * NULL with err set to "FILENAME:LINE:COL: error: MESSAGE". */
ScPtxModule *sc_ptx_parse(const char *text, size_t len, const char *filename, ScErr *err);
void sc_ptx_module_free(ScPtxModule *m);

/* ---- printing ---------------------------------------------------------- */

/* Appends valid PTX for the module (false if out of memory). Comments are not
 * kept; nvcc's inline-asm markers are re-emitted around inline_asm statements. */
bool sc_ptx_print(const ScPtxModule *m, ScBuf *out);
void sc_ptx_print_stmt(const ScPtxStmt *s, ScBuf *out);      /* one statement, no newline */
void sc_ptx_print_operand(const ScPtxOperand *o, ScBuf *out);

/* Structural equality, positions ignored. On a difference returns false and,
 * if why is not NULL, appends where the two modules first differ. */
bool sc_ptx_module_equal(const ScPtxModule *a, const ScPtxModule *b, ScBuf *why);

/* ---- queries ----------------------------------------------------------- */

bool sc_ptx_instr_has_mod(const ScPtxStmt *s, const char *mod);
ScPtxFunc *sc_ptx_find_func(const ScPtxModule *m, const char *name);
/* The path of `.file index`, NULL if the module has no such .file. */
const char *sc_ptx_file_name(const ScPtxModule *m, uint32_t index);
/* The string a .loc function_name label points at in `.section .debug_str`
 * (a mangled name), appended to out; false if the label is not there. */
bool sc_ptx_debug_str(const ScPtxModule *m, const char *label, ScBuf *out);
/* The SM number of the module's target (90 for sm_90a or compute_90), 0 if none. */
unsigned sc_ptx_target_sm(const ScPtxModule *m);

/* ---- editing ----------------------------------------------------------- */

/* Statements to insert are PTX text of one or more body statements
 * (instructions, labels, declarations, balanced { } blocks). Inserted
 * statements take the enclosing depth and function, and the .loc governing the
 * insertion point. Each returns the first inserted statement, or NULL with err
 * set (the module is left unchanged on error). */
ScPtxStmt *sc_ptx_insert_before(ScPtxModule *m, ScPtxStmt *at, const char *ptx, ScErr *err);
ScPtxStmt *sc_ptx_insert_after(ScPtxModule *m, ScPtxStmt *at, const char *ptx, ScErr *err);
/* Before the first statement of the body that is not a declaration or .loc. */
ScPtxStmt *sc_ptx_insert_at_entry(ScPtxModule *m, ScPtxFunc *f, const char *ptx, ScErr *err);
/* Before every ret and exit of f (a guarded `@p ret` becomes
 * `@!p bra L; <ptx> ret; L:`). Returns the number of sites, or -1 with err set. */
int sc_ptx_insert_before_exits(ScPtxModule *m, ScPtxFunc *f, const char *ptx, ScErr *err);
/* Removes a statement from its body (an OPEN or CLOSE alone would unbalance
 * the body, so those are refused). */
bool sc_ptx_remove(ScPtxStmt *s, ScErr *err);
/* Inserts the dot-modifier `mod` (no dot) into instruction s before its modifier
 * number `at` (at == n_mods appends). */
bool sc_ptx_insert_mod(ScPtxModule *m, ScPtxStmt *s, uint32_t at, const char *mod, ScErr *err);

/* Declares a fresh register `.reg .TYPE %__scN;` at the top of f's body and
 * returns its name (arena string), NULL with err set on failure. */
const char *sc_ptx_fresh_reg(ScPtxModule *m, ScPtxFunc *f, const char *type, ScErr *err);
/* A label name `$__scLN` unused in the module (declare it by inserting "NAME:"). */
const char *sc_ptx_fresh_label(ScPtxModule *m, ScErr *err);

/* Adds module-scope declarations (variables, .func prototypes) after the
 * header, before every existing item. Fails if a name is already defined. */
bool sc_ptx_add_decls(ScPtxModule *m, const char *ptx, ScErr *err);
/* Adds a .func definition: its prototype goes after the header (so every
 * existing function can call it), its body after the last function. */
ScPtxFunc *sc_ptx_add_func(ScPtxModule *m, const char *ptx, ScErr *err);

/* Raise, never lower: .version to at least major.minor, .target to at least
 * sm_SM (an arch-specific sm_90a already >= 90 is kept). */
void sc_ptx_require_version(ScPtxModule *m, unsigned major, unsigned minor);
bool sc_ptx_require_target(ScPtxModule *m, unsigned sm, ScErr *err);

#endif
