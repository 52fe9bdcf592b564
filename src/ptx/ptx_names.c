/* ptx_names.c: open-addressing name maps, identifier classification and fresh-name bookkeeping. */
#include "ptx/ptx_int.h"

#include <stdlib.h>
#include <string.h>

uint32_t sc_ptx_hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static NameSlot *find(const NameMap *nm, const char *key, uint32_t len, uint32_t hash)
{
    uint32_t mask = nm->cap - 1;
    for (uint32_t i = hash & mask;; i = (i + 1) & mask) {
        NameSlot *s = &nm->slots[i];
        if (!s->key || (s->hash == hash && s->len == len && memcmp(s->key, key, len) == 0))
            return s;
    }
}

static bool grow(NameMap *nm)
{
    uint32_t cap = nm->cap ? nm->cap * 2 : 64;
    if (cap < nm->cap)
        return false;
    NameSlot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    NameMap bigger = {slots, cap, nm->count};
    for (uint32_t i = 0; i < nm->cap; i++)
        if (nm->slots[i].key)
            *find(&bigger, nm->slots[i].key, nm->slots[i].len, nm->slots[i].hash) = nm->slots[i];
    free(nm->slots);
    *nm = bigger;
    return true;
}

NameSlot *sc_ptx_map_slot(NameMap *nm, const char *key, uint32_t len, uint32_t hash)
{
    if ((nm->count + 1) * 4 >= nm->cap * 3 && !grow(nm))
        return NULL;
    return find(nm, key, len, hash);
}

bool sc_ptx_map_put(NameMap *nm, const char *key, uint32_t len, uint64_t value)
{
    uint32_t hash = sc_ptx_hash(key, len);
    NameSlot *s = sc_ptx_map_slot(nm, key, len, hash);
    if (!s)
        return false;
    if (!s->key) {
        *s = (NameSlot){key, len, hash, 0};
        nm->count++;
    }
    s->value = value;
    return true;
}

bool sc_ptx_map_get(const NameMap *nm, const char *key, uint32_t len, uint64_t *value)
{
    if (!nm->count)
        return false;
    const NameSlot *s = find(nm, key, len, sc_ptx_hash(key, len));
    if (!s->key)
        return false;
    *value = s->value;
    return true;
}

void sc_ptx_map_clear(NameMap *nm)
{
    if (nm->count)
        memset(nm->slots, 0, nm->cap * sizeof *nm->slots);
    nm->count = 0;
}

void sc_ptx_map_free(NameMap *nm)
{
    free(nm->slots);
    *nm = (NameMap){0};
}

bool sc_ptx_names_note(NameMap *nm, const char *name, uint64_t kind)
{
    return sc_ptx_map_put(nm, name, (uint32_t)strlen(name), kind);
}

ScPtxOperandKind sc_ptx_names_classify(const NameMap *nm, const char *name)
{
    size_t len = strlen(name);
    uint64_t v;
    if (sc_ptx_map_get(nm, name, (uint32_t)len, &v)) {
        if (v == NAME_LABEL)
            return SC_PTX_OPND_LABEL;
        if (v == NAME_REG)
            return SC_PTX_OPND_REG;
    }
    /* r7 is a register if `.reg .b32 r<8>;` declared the family r. */
    size_t stem = len;
    while (stem > 0 && name[stem - 1] >= '0' && name[stem - 1] <= '9')
        stem--;
    if (stem == len || stem == 0 || len - stem > 10)
        return SC_PTX_OPND_SYMBOL;
    if (sc_ptx_map_get(nm, name, (uint32_t)stem, &v) && (v & 3) == NAME_RANGE) {
        uint64_t idx = strtoull(name + stem, NULL, 10);
        if (idx < (v >> 2) && (name[stem] != '0' || len - stem == 1))
            return SC_PTX_OPND_REG;
    }
    return SC_PTX_OPND_SYMBOL;
}

/* Fresh names are PREFIX + decimal counter. A declared name PREFIX + D bumps
 * the counter past D; a range PREFIX + D<R> declares PREFIX + D0 .. D(R-1),
 * all below the number spelled D followed by R-1, plus one. */
static void bump(uint64_t *next, const char *name, const char *prefix, bool has_range, uint32_t range)
{
    size_t plen = strlen(prefix);
    if (strncmp(name, prefix, plen) != 0)
        return;
    const char *d = name + plen;
    uint64_t v = 0;
    bool digits = true, overflow = false;
    for (const char *q = d; *q; q++) {
        if (*q < '0' || *q > '9') {
            digits = false;
            break;
        }
        if (v > (UINT64_MAX - 9) / 10)
            overflow = true;
        v = v * 10 + (uint64_t)(*q - '0');
    }
    if (!digits)
        return;
    uint64_t bound;
    if (!has_range) {
        bound = *d ? v + 1 : 0;
    } else if (!*d) {
        bound = range;
    } else if (range == 0) {
        bound = 0;
    } else {
        uint64_t last = range - 1, scale = 10;
        while (scale <= last)
            scale *= 10;
        if (v > (UINT64_MAX - last) / scale)
            overflow = true;
        bound = v * scale + last + 1;
    }
    if (overflow)
        bound = UINT64_MAX;
    if (bound > *next)
        *next = bound;
}

void sc_ptx_fresh_note(ScPtxModule *m, const char *name, bool has_range, uint32_t range)
{
    if (name[0] == '%')
        bump(&m->next_fresh_reg, name, "%__sc", has_range, range);
    else if (name[0] == '$')
        bump(&m->next_fresh_label, name, "$__scL", has_range, range);
}
