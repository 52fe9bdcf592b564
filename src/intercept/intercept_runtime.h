/* intercept_runtime.h: the host half of the device runtime: device state of the
 * program's context, shadow for its allocations, and instrumented launches. */
#ifndef SC_INTERCEPT_RUNTIME_H
#define SC_INTERCEPT_RUNTIME_H

#include <cuda.h>

#include "common/sc_defs.h"

/* Device memory scord holds for one context. Guarded by the context lock. */
typedef struct ScRuntime {
    bool ready;               /* buffers below exist */
    bool failed;              /* setting up failed once: nothing is checked */
    CUcontext ctx;            /* the context they live in */
    unsigned sm_ids;          /* SM ids the slot bitmap covers */
    CUdeviceptr launch;       /* ScDevLaunch */
    CUdeviceptr bitmap;       /* uint32_t[sm_ids] */
    CUdeviceptr dir;          /* chunk-table addresses, one per directory entry */
    CUdeviceptr records;      /* ScDevRecord[records_cap] */
    uint32_t records_cap;
    uint64_t **tables;        /* host mirrors of the chunk tables, NULL where none */
    CUdeviceptr *table_dev;   /* device address of each chunk table */
    CUdeviceptr threads, blocks, shared_shadow; /* per-slot state, grown as launches need */
    size_t threads_bytes, blocks_bytes, shared_bytes;
    uint32_t launch_tag;
    uint64_t shadow_bytes;    /* all device memory scord holds for shadow and state */
    unsigned long shadow_failures;
} ScRuntime;

/* Gives [base, base + size) global-memory shadow. Called with the context lock
 * held, after the program's allocation succeeded; false (and a warning, once)
 * when the device cannot give the shadow: that memory is then unchecked. */
bool sc_rt_track_alloc(uint64_t base, uint64_t size);

#endif
