/* ptx_query.c: small lookups over a parsed module (modifiers, functions, .file names, .debug_str strings, target). */
#include "ptx/ptx_int.h"

#include <string.h>

bool sc_ptx_instr_has_mod(const ScPtxStmt *s, const char *mod)
{
    if (s->kind != SC_PTX_STMT_INSTR)
        return false;
    for (uint32_t i = 0; i < s->u.instr.n_mods; i++)
        if (strcmp(s->u.instr.mods[i], mod) == 0)
            return true;
    return false;
}

ScPtxFunc *sc_ptx_find_func(const ScPtxModule *m, const char *name)
{
    ScPtxFunc *decl = NULL;
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind != SC_PTX_ITEM_FUNC || strcmp(it->u.func->name, name) != 0)
            continue;
        if (it->u.func->has_body)
            return it->u.func;
        if (!decl)
            decl = it->u.func;
    }
    return decl;
}

const char *sc_ptx_file_name(const ScPtxModule *m, uint32_t index)
{
    for (const ScPtxItem *it = m->first; it; it = it->next)
        if (it->kind == SC_PTX_ITEM_FILE && it->u.file.index == index)
            return it->u.file.name;
    return NULL;
}

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* The bytes after `label:` in `.section .debug_str { label: .b8 104,105,0 ... }`. */
static bool decode_b8(const char *p, ScBuf *out)
{
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',')
            p++;
        if (strncmp(p, ".b8", 3) == 0 && !is_word_char(p[3])) {
            p += 3;
            continue;
        }
        if (*p < '0' || *p > '9')
            return true; /* the next label or the closing brace: the string ended without a NUL */
        unsigned v = 0;
        while (*p >= '0' && *p <= '9' && v < 256)
            v = v * 10 + (unsigned)(*p++ - '0');
        if (v == 0 || v > 255)
            return v == 0;
        char c = (char)v;
        sc_buf_append(out, &c, 1);
    }
}

bool sc_ptx_debug_str(const ScPtxModule *m, const char *label, ScBuf *out)
{
    size_t n = strlen(label);
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind != SC_PTX_ITEM_SECTION)
            continue;
        const char *t = it->u.text + strlen(".section");
        while (*t == ' ' || *t == '\t')
            t++;
        if (strncmp(t, ".debug_str", 10) != 0 || is_word_char(t[10]))
            continue;
        for (const char *q = strstr(t, label); q; q = strstr(q + 1, label)) {
            const char *after = q + n;
            while (*after == ' ' || *after == '\t')
                after++;
            if ((q == t || !is_word_char(q[-1])) && *after == ':')
                return decode_b8(after + 1, out);
        }
    }
    return false;
}

unsigned sc_ptx_target_sm(const ScPtxModule *m)
{
    for (uint32_t i = 0; i < m->n_targets; i++) {
        const char *t = m->targets[i];
        const char *d = strncmp(t, "sm_", 3) == 0 ? t + 3 : strncmp(t, "compute_", 8) == 0 ? t + 8 : NULL;
        if (!d || *d < '0' || *d > '9')
            continue;
        unsigned sm = 0;
        while (*d >= '0' && *d <= '9' && sm < 100000)
            sm = sm * 10 + (unsigned)(*d++ - '0');
        return sm;
    }
    return 0;
}
