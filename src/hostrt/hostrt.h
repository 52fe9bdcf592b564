/* hostrt.h: the host half of the device runtime that needs no driver: what the race
 * records a launch leaves on the device (ScDevRecord) mean as reports (ScRaceRecord).
 * Every host-side decision about a record's cause is here, pure and tested on the CPU
 * (test_hostrt); the interposer only copies the records back and hands them over. */
#ifndef SC_HOSTRT_H
#define SC_HOSTRT_H

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devrt/devrt_state.h"
#include "report/report.h"

/* What a launch's records are decoded against. */
typedef struct ScRecordLaunch {
    unsigned grid[3], block[3]; /* the launch's shape */
    /* A programmatic dependent launch: its grid_dependency records name an access of
     * the prerequisite grid, of this shape, which never triggered its dependents
     * (prior_quiet: the race is grid_completion). Or a launch unordered with the
     * checked launch before it (another stream): its grid_dependency records name an
     * access of that grid, and the race is unordered_streams. */
    bool dependent, prior_quiet, unordered;
    unsigned prior_grid[3], prior_block[3];
    /* SC_ABI_INFO of every access site by id (0: none): the device names a previous
     * access by site and kind only. */
    const uint32_t *site_infos;
    size_t n_site_infos;
    /* The sites' branch structure (sc_report_opposite_arms); NULL: not known. */
    const ScReport *report;
} ScRecordLaunch;

/* Decodes the filled entries of the device's record table (n entries, free and busy
 * ones skipped) into out, which has room for n; returns how many it wrote. *withheld
 * counts the records that are no race of the program (a strong_vs_rmw whose plain
 * side releases: that write is the synchronization). */
size_t sc_hostrt_decode(const ScDevRecord *dev, size_t n, const ScRecordLaunch *launch,
                        ScRaceRecord *out, size_t *withheld);

/* A copy or memset the host issued on a stream, by the device bytes it reads (writes
 * false) or writes: `size` bytes at base, or for a 2D or 3D one `rows` rows of `size`
 * bytes, `pitch` bytes apart (rows 0 or 1: one). */
typedef struct ScHostCopy {
    uint64_t base, size;
    bool writes;
    uint64_t pitch, rows;
} ScHostCopy;

/* Row r of a copy, as a copy of its own. */
ScHostCopy sc_hostrt_copy_row(const ScHostCopy *copy, uint64_t r);

/* The device bytes of a 2D or 3D copy, side by side (a side in device or unified
 * memory): what it reads, then what it writes, into out; returns how many. The slices
 * of a 3D side are followed when they lie evenly (the side's height is the copy's, or
 * there is one slice); a side of another layout, or an array, is not followed. */
size_t sc_hostrt_memcpy2d_ranges(const CUDA_MEMCPY2D *copy, ScHostCopy out[2]);
size_t sc_hostrt_memcpy3d_ranges(const CUDA_MEMCPY3D *copy, ScHostCopy out[2]);

/* The races of copies with a launch on a stream that nothing orders with theirs, found
 * in the shadow the launch left over their bytes: one record per instruction of the
 * launch and side (its words counted as hazards), cause unordered_streams, the copy's
 * side a copy's (SC_RACE_WHO_COPY). */
typedef struct ScCopyRaces {
    ScRaceRecord *recs; /* room for cap */
    size_t n, cap;
    uint64_t lost;      /* racing words of an instruction that found no room */
} ScCopyRaces;

/* The bytes of the 4-byte word at addr (4-aligned) that the copy covers (0: none). */
uint8_t sc_hostrt_copy_mask(const ScHostCopy *copy, uint64_t addr);

/* One word of a copy's bytes: the shadow word and site word the launch left at addr
 * (4-aligned), or, for a split word, one byte's cell (cell true, mask that byte).
 * copy_later: the copy was issued after the launch, and its side is the current one. */
void sc_hostrt_copy_word(ScCopyRaces *acc, const ScHostCopy *copy, bool copy_later, uint64_t addr,
                         uint8_t mask, uint64_t word, uint64_t site, bool cell,
                         const ScRecordLaunch *launch);

#endif
