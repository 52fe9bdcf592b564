/* intercept_alloc.c: the sorted table of live device allocations. */
#include "intercept/intercept_alloc.h"

#include <stdlib.h>
#include <string.h>

/* Index of the first allocation whose base is >= base. */
static size_t lower_bound(const ScAllocTable *t, uint64_t base)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].base < base)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool sc_alloc_add(ScAllocTable *t, uint64_t base, uint64_t size, ScAllocKind kind)
{
    size_t i = lower_bound(t, base);
    ScAlloc a = {base, size, kind, ++t->next_serial};
    /* [first, last): the ones it overlaps, the one before it if that reaches into it
     * and those that begin inside it; for an empty one, one at its base. */
    size_t first = i, last = i;
    if (size == 0) {
        last += i < t->n && t->v[i].base == base;
    } else {
        first -= i > 0 && t->v[i - 1].base + t->v[i - 1].size > base;
        while (last < t->n && t->v[last].base < base + size)
            last++;
    }
    for (size_t k = first; k < last; k++)
        t->live_bytes -= t->v[k].size;
    if (last > first) {
        t->v[first] = a;
        memmove(t->v + first + 1, t->v + last, (t->n - last) * sizeof *t->v);
        t->n -= last - first - 1;
    } else {
        if (t->n == t->cap) {
            size_t cap = t->cap ? 2 * t->cap : 64;
            ScAlloc *v = realloc(t->v, cap * sizeof *v);
            if (!v)
                return false;
            t->v = v;
            t->cap = cap;
        }
        memmove(t->v + i + 1, t->v + i, (t->n - i) * sizeof *t->v);
        t->v[i] = a;
        t->n++;
    }
    t->live_bytes += size;
    if (t->live_bytes > t->peak_bytes)
        t->peak_bytes = t->live_bytes;
    return true;
}

bool sc_alloc_remove(ScAllocTable *t, uint64_t base)
{
    size_t i = lower_bound(t, base);
    if (i == t->n || t->v[i].base != base)
        return false;
    t->live_bytes -= t->v[i].size;
    memmove(t->v + i, t->v + i + 1, (t->n - i - 1) * sizeof *t->v);
    t->n--;
    return true;
}

const ScAlloc *sc_alloc_find(const ScAllocTable *t, uint64_t addr)
{
    size_t i = lower_bound(t, addr);
    if (i < t->n && t->v[i].base == addr)
        return &t->v[i];
    if (i == 0)
        return NULL;
    const ScAlloc *a = &t->v[i - 1];
    return addr - a->base < a->size ? a : NULL;
}

const char *sc_alloc_kind_name(ScAllocKind kind)
{
    switch (kind) {
    case SC_ALLOC_DEVICE:
        return "cudaMalloc";
    case SC_ALLOC_PITCHED:
        return "cudaMallocPitch";
    case SC_ALLOC_MANAGED:
        return "cudaMallocManaged";
    case SC_ALLOC_ASYNC:
        return "cudaMallocAsync";
    case SC_ALLOC_MODULE_VAR:
        return "__device__ variable";
    }
    return "?";
}

uint64_t sc_alloc_unwritten_roots(const ScAllocTable *t, const ScInstrRoots *roots, void *const *params)
{
    const ScAlloc *into[SC_INSTR_MAX_ROOTS];
    uint32_t n = roots->n < SC_INSTR_MAX_ROOTS ? roots->n : SC_INSTR_MAX_ROOTS;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t value;
        memcpy(&value, (const uint8_t *)params[roots->at[i].param] + roots->at[i].offset, sizeof value);
        into[i] = sc_alloc_find(t, value);
    }
    uint64_t unwritten = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool hit = !into[i];
        for (uint32_t j = 0; j < n && !hit; j++)
            hit = (roots->written >> j & 1) && into[j] == into[i];
        if (!hit)
            unwritten |= UINT64_C(1) << i;
    }
    return unwritten;
}

void sc_alloc_free_table(ScAllocTable *t)
{
    free(t->v);
    *t = (ScAllocTable){0};
}
