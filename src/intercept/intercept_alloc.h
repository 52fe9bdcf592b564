/* intercept_alloc.h: the table of device allocations (base, size, kind), so that
 * a global address in a report can be named as allocation + offset. */
#ifndef SC_INTERCEPT_ALLOC_H
#define SC_INTERCEPT_ALLOC_H

#include "common/sc_defs.h"
#include "instr/instr.h"

typedef enum ScAllocKind {
    SC_ALLOC_DEVICE,  /* cuMemAlloc */
    SC_ALLOC_PITCHED, /* cuMemAllocPitch */
    SC_ALLOC_MANAGED, /* cuMemAllocManaged */
    SC_ALLOC_ASYNC,   /* cuMemAllocAsync / cuMemAllocFromPoolAsync */
    SC_ALLOC_MODULE_VAR, /* a __device__ or __managed__ variable of a loaded module */
} ScAllocKind;

typedef struct ScAlloc {
    uint64_t base;
    uint64_t size;
    ScAllocKind kind;
    unsigned long serial; /* 1 for the program's first allocation, 2 for the next... */
} ScAlloc;

/* Sorted by base; allocations never overlap while live. Not thread-safe: the
 * caller holds the context lock. */
typedef struct ScAllocTable {
    ScAlloc *v;
    size_t n, cap;
    unsigned long next_serial;
    uint64_t live_bytes, peak_bytes;
} ScAllocTable;

/* False only when out of memory. An allocation replaces every one in the table it
 * overlaps: the driver gave their memory again, so they were freed where scord did
 * not see it (a free it missed, a context destroyed with its allocations). */
bool sc_alloc_add(ScAllocTable *t, uint64_t base, uint64_t size, ScAllocKind kind);
/* False when base is not the start of a live allocation. */
bool sc_alloc_remove(ScAllocTable *t, uint64_t base);
/* The live allocation containing addr, or NULL. */
const ScAlloc *sc_alloc_find(const ScAllocTable *t, uint64_t addr);
const char *sc_alloc_kind_name(ScAllocKind kind);
/* Of a kernel's roots, the ones whose values in the launch's parameters point into a
 * live allocation that no written root points into: bit i for roots->at[i]
 * (ScDevLaunch.readonly_roots). */
uint64_t sc_alloc_unwritten_roots(const ScAllocTable *t, const ScInstrRoots *roots, void *const *params);
void sc_alloc_free_table(ScAllocTable *t);

#endif
