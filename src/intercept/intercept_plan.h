/* intercept_plan.h: what scord does with one code image the program loads:
 * load PTX of its own in its place, or let the original run unchecked and say why.
 * Pure: no driver calls, so the decision is unit-tested on the CPU. */
#ifndef SC_INTERCEPT_PLAN_H
#define SC_INTERCEPT_PLAN_H

#include "common/sc_defs.h"
#include "fatbin/fatbin.h"

typedef enum ScPlanVerdict {
    SC_PLAN_PTX,        /* scord hands the driver PTX text it controls */
    SC_PLAN_LINK,       /* -rdc image: scord links the PTX of every translation unit */
    SC_PLAN_UNCHECKED,  /* the image has no PTX: it runs as it is, unchecked */
    SC_PLAN_UNREADABLE, /* scord cannot read the image: it runs as it is, unchecked */
} ScPlanVerdict;

/* One input of an -rdc image's link: a translation unit's PTX, or relocatable machine
 * code where a unit has no PTX for the device (nvcc adds libcudadevrt that way). */
typedef struct ScLinkInput {
    bool is_ptx;
    uint8_t *data; /* malloc'd; PTX is NUL-terminated */
    size_t len;
} ScLinkInput;

typedef struct ScLoadPlan {
    ScPlanVerdict verdict;
    ScImageKind kind;
    char *ptx;            /* SC_PLAN_PTX: malloc'd, NUL-terminated; must outlive the module */
    size_t ptx_len;
    ScLinkInput *link;    /* SC_PLAN_LINK: the code of each translation unit */
    size_t n_link;
    char what[256];       /* the image: "fat binary: sm_75 ELF, compute_75 PTX 9.0 zstd" */
    char chosen[192];     /* SC_PLAN_PTX/LINK: the entries picked: "compute_75 PTX 9.0" */
    char reason[640];     /* otherwise: why it runs unchecked */
    unsigned elf_arch;    /* SC_PLAN_UNCHECKED: the SM of its machine code, for the hint */
    ScKernelNames kernels; /* SC_PLAN_UNCHECKED: the kernels that run unchecked, if known */
} ScLoadPlan;

/* avail: bytes readable at image, SIZE_MAX when unknown (a pointer from a driver
 * call: a wrapper's pointers are then bounded by the loaded object holding them).
 * device_sm: compute capability of the device, e.g. 90. */
void sc_plan_image(const void *image, size_t avail, unsigned device_sm, ScLoadPlan *plan);
void sc_plan_free(ScLoadPlan *plan);
/* How to rebuild so that an unchecked image's kernels get checked. */
void sc_plan_rebuild_hint(const ScLoadPlan *plan, char *buf, size_t n);
const char *sc_plan_verdict_name(ScPlanVerdict v);

/* The options that compile an NVRTC program to PTX when `opts` compile it to machine
 * code: the same, with the real architecture (sm_90, sm_90a, sm_100f...) replaced by its
 * virtual one (compute_90...). out[] gets the n pointers, the replaced one pointing into
 * buf. False when the options name no real architecture (NVRTC then made PTX, which
 * scord reads itself), ask for LTO IR, or do not fit. */
bool sc_plan_nvrtc_twin_options(const char *const *opts, int n, const char **out, char *buf, size_t cap);
/* The SHA-256 of a cubin (an ELF image, its size read from its headers; avail as for
 * sc_plan_image). False for anything else. */
bool sc_plan_cubin_hash(const void *image, size_t avail, uint8_t hash[32]);
/* Whether PTX text defines every kernel of `k` (a `.entry` of that name); else *missing
 * names the first it lacks. */
bool sc_plan_ptx_defines(const char *ptx, const ScKernelNames *k, const char **missing);

#endif
