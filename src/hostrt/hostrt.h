/* hostrt.h: the host half of the device runtime that needs no driver: what the race
 * records a launch leaves on the device (ScDevRecord) mean as reports (ScRaceRecord).
 * Every host-side decision about a record's cause is here, pure and tested on the CPU
 * (test_hostrt); the interposer only copies the records back and hands them over. */
#ifndef SC_HOSTRT_H
#define SC_HOSTRT_H

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

#endif
