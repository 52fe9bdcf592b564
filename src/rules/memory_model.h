/* memory_model.h: the scopes and semantics of PTX's memory model (PTX ISA chapter 8),
 * defined once for every layer: the PTX front end classifies instructions with them,
 * the instrumenter encodes them into an access's info bits (devrt_abi.h), the device
 * runtime and the rules decide with them, and the reports name them. Their values are
 * part of the device ABI (compiled modules in the cache carry them): append, never
 * renumber. Header-only portable C17 / CUDA C. */
#ifndef SC_RULES_MEMORY_MODEL_H
#define SC_RULES_MEMORY_MODEL_H

/* In inclusion order: a wider scope has a larger value. */
typedef enum ScScope {
    SC_SCOPE_NONE = 0, /* weak accesses, proxy fences, CTA barriers */
    SC_SCOPE_CTA = 1,
    SC_SCOPE_CLUSTER = 2, /* the blocks of one cluster */
    SC_SCOPE_GPU = 3,
    SC_SCOPE_SYS = 4,
} ScScope;

typedef enum ScSem {
    SC_SEM_NONE = 0, /* not a memory or ordering operation; a record that gives none */
    SC_SEM_WEAK = 1,
    SC_SEM_RELAXED = 2,
    SC_SEM_ACQUIRE = 3,
    SC_SEM_RELEASE = 4,
    SC_SEM_ACQ_REL = 5,
    SC_SEM_SC = 6,       /* fence.sc, membar */
    SC_SEM_VOLATILE = 7, /* ld/st.volatile: relaxed at .sys scope */
    SC_SEM_MMIO = 8,     /* ld/st.mmio.relaxed.sys */
} ScSem;

/* The PTX spellings ("acq_rel", "cluster"), for the front end's messages and the
 * reports; NULL for NONE, which each names in its own way, "?" outside the enums. */
static inline const char *sc_sem_name(ScSem s)
{
    static const char *const names[] = {0,      "weak", "relaxed",  "acquire", "release",
                                        "acq_rel", "sc", "volatile", "mmio"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static inline const char *sc_scope_name(ScScope s)
{
    static const char *const names[] = {0, "cta", "cluster", "gpu", "sys"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

#endif
