/* devrt.h: the device runtime's PTX text and relocatable cubins, embedded in the
 * library at build time (src/devrt/devrt.mk); scord links every module it instruments
 * with the cubin for the device, or with the text where there is none.
 * Its symbols all start with __scord_; the calls it defines are devrt_abi.h's and
 * the state it reads is devrt_state.h's. */
#ifndef SC_DEVRT_H
#define SC_DEVRT_H

#include <stddef.h>

/* NUL-terminated PTX of a module compiled for compute_75 with -rdc=true, declaring
 * `.version 6.3` (the lowest its instructions need, DEVRT_PTX_VERSION in devrt.mk): the
 * .visible .func definitions of devrt_abi.h, the runtime's own __scord_ functions, and
 * the module-scope variables __scord_state (.global .u64) and __scord_slot (.shared
 * .u32). */
extern const char sc_devrt_ptx[];
extern const size_t sc_devrt_ptx_len; /* strlen(sc_devrt_ptx) */

/* The same runtime compiled for compute_90, declaring `.version 8.3`: it changes a
 * shadow word and its site word with one 128-bit compare-and-swap where the sm_75 text
 * holds the word while it writes both (docs/devrt.md). */
extern const char sc_devrt_ptx_sm90[];
extern const size_t sc_devrt_ptx_sm90_len;

/* The runtime text for a device of compute capability device_sm (major * 10 + minor). */
static inline const char *sc_devrt_ptx_for(int device_sm)
{
    return device_sm >= 90 ? sc_devrt_ptx_sm90 : sc_devrt_ptx;
}

/* The registers per thread the prebuilt runtime's functions may use (ptxas
 * --maxrregcount, which src/devrt/devrt.mk reads from here), and the cap scord's
 * compiles put on every instrumented kernel (CU_JIT_MAX_REGISTERS): what 1,024
 * threads per block leave, so that every block size the program's kernels allowed
 * still launches. */
#define SC_DEVRT_CUBIN_REGS 64

/* The runtime compiled by ptxas -c at build time for sm_<sm> (the text for that
 * architecture, SC_DEVRT_CUBIN_REGS registers): a relocatable ELF from data to end. */
typedef struct ScDevrtCubin {
    int sm;
    const unsigned char *data, *end;
} ScDevrtCubin;

/* The cubins the build made, ending with one whose sm is 0. */
extern const ScDevrtCubin sc_devrt_cubins[];

/* The cubin for a device of compute capability device_sm exactly (a relocatable cubin
 * links only into code for its own architecture), NULL when the build has none. */
static inline const ScDevrtCubin *sc_devrt_cubin_for(int device_sm)
{
    for (const ScDevrtCubin *c = sc_devrt_cubins; c->sm; c++)
        if (c->sm == device_sm)
            return c;
    return NULL;
}

#endif
