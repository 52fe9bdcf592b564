/* report_int.h: the report model shared by the files of src/report (not an API). */
#ifndef SC_REPORT_INT_H
#define SC_REPORT_INT_H

#include "common/sc_arena.h"
#include "report/report.h"

/* A frame with its names resolved; strings live in the report's arena. */
typedef struct ScReportFrameInfo {
    const char *function;         /* demangled (or as given when not C++) */
    const char *function_mangled;
    const char *file;             /* NULL: no line info */
    uint32_t line, column;
} ScReportFrameInfo;

/* A registered site, or the stand-in for an id nobody registered (known false). */
typedef struct ScReportSiteInfo {
    uint32_t id;
    bool known;
    const char *ptx_function, *ptx_function_mangled;
    uint32_t ptx_line;
    const ScReportFrameInfo *frames; /* n_frames >= 1 when known: frames[0] is the
                                        instruction (file NULL without .loc) */
    size_t n_frames;
    uint32_t function_id;
    const ScReportControlDep *deps;  /* sorted by branch, then arm, no duplicates */
    size_t n_deps;
    bool async_copy;                 /* ScReportSite.async_copy */
} ScReportSiteInfo;

typedef enum ScReportRaceState {
    SC_REPORT_RACE_REPORTED,
    SC_REPORT_RACE_SUPPRESSED,
    SC_REPORT_RACE_BELOW_LEVEL,
} ScReportRaceState;

/* A distinct race: the first occurrence, resolved, plus the count of all. */
typedef struct ScReportRace {
    ScRaceRecord rec;              /* first occurrence, checked */
    uint64_t hazards;
    ScReportSiteInfo cur, prev;
    const char *kernel, *kernel_mangled, *module; /* module may be NULL */
    uint64_t launch;
    uint32_t grid[3], block[3], cluster[3];
    const char *previous_kernel;   /* different_grids: the previous access's launch, its
                                      kernel (demangled) and number; NULL: not known */
    uint64_t previous_launch;
    const char *symbol;            /* shared: the __shared__ variable, or NULL */
    uint64_t symbol_offset;
    bool has_alloc;                /* global: the allocation holding the address */
    ScReportAlloc alloc;           /* kind points into the arena */
    ScReportRaceState state;
    size_t suppression;            /* SUPPRESSED: index of the rule that matched */
    uint64_t id;                   /* REPORTED: 1, 2, ... in order of first occurrence */
    bool printed;
} ScReportRace;

typedef enum ScSuppType {
    SC_SUPP_RACE,     /* any frame's function or file of either access, or the kernel */
    SC_SUPP_RACE_TOP, /* frame #0 of either access only */
    SC_SUPP_KERNEL,   /* the launched kernel */
    SC_SUPP_TYPE_COUNT_
} ScSuppType;

typedef struct ScReportSupp {
    ScSuppType type;
    const char *pattern; /* as written after the ':' */
    uint64_t hits;       /* distinct races it suppressed */
} ScReportSupp;

typedef char *(*ScDemangleFn)(const char *mangled, char *buf, size_t *len, int *status);

struct ScReport {
    ScReportConfig cfg;
    ScArena arena;
    void *libstdcxx;          /* our own dlopen handle, or NULL */
    ScDemangleFn demangle_fn; /* NULL: no demangler (or cfg.demangle off) */

    const char **strings;     /* interned strings: open addressing, NULL = empty */
    size_t n_strings, cap_strings;
    ScReportSiteInfo *sites;  /* open addressing by id, known = false: empty */
    size_t n_sites, cap_sites;

    ScReportRace *races;      /* in order of first occurrence */
    size_t n_races, cap_races;
    uint64_t last_launch_with_races; /* counted in launches_with_races (its number) */
    size_t *race_slots;       /* open addressing: index + 1 into races, 0 = empty */
    size_t cap_race_slots;

    ScReportSupp *supps;
    size_t n_supps, cap_supps;
    const char **unchecked;   /* demangled kernel names, each once */
    size_t n_unchecked, cap_unchecked;

    ScReportCounts counts;
};

/* report_model.c */
const char *sc_report_intern(ScReport *r, const char *s);
const char *sc_report_kind_name(ScRaceKind kind);
/* The access's semantics as reported: a record that gives none reads as weak. Their
 * names, and the scopes': sc_sem_name, sc_scope_name (NULL, JSON's null, for NONE). */
ScSem sc_report_access_sem(const ScRaceAccess *a);
const char *sc_report_space_name(ScRaceSpace space);
/* threadIdx as one number in the launch's block shape (lane = % 32, warp = / 32). */
uint32_t sc_report_linear_thread(const ScReportRace *race, const ScRaceAccess *a);
/* "same_warp", "same_block" or "different_blocks". */
const char *sc_report_relation(const ScReportRace *race);
const char *sc_report_cause_title(ScCause cause);
const char *sc_report_cause_reason(ScCause cause);

/* report_supp.c */
const char *sc_report_supp_type_name(ScSuppType type);
bool sc_report_supp_match(const char *pattern, const char *s);
/* The index of the first suppression that matches race, or -1. */
long sc_report_supp_find(const ScReport *r, const ScReportRace *race);

/* report_text.c */
/* One race as a text block (==== ... ====). */
void sc_report_text_race(const ScReport *r, const ScReportRace *race, ScBuf *out);
/* "Write of size 4 (relaxed, scope .gpu)" / "previous atomic write of size 4 (scope .cta)". */
void sc_report_text_access(const ScRaceAccess *a, bool previous, bool capital, ScBuf *out);
/* "(5,0,0)" */
void sc_report_text_dim3(const uint32_t v[3], ScBuf *out);
void sc_report_text_thread(const ScRaceAccess *a, ScBuf *out);
/* The reason sentence without the hazard count: "Not ordered (same block, different
 * warps): no barrier between the accesses (missing __syncthreads()?)". */
void sc_report_text_reason(const ScReportRace *race, ScBuf *out);
/* The address in words: "0x000010 (__shared__ 'tile'+16)". */
void sc_report_text_address(const ScReportRace *race, ScBuf *out);

/* report_json.c: a writer that can only produce well-formed JSON, pretty-printed
 * with two-space indents; shared with the SARIF emitter. */
typedef struct ScReportJson {
    ScBuf *out;
    unsigned depth;
    bool first;     /* nothing written yet in the innermost container */
    bool after_key; /* a key was written, its value comes next */
} ScReportJson;

void sc_report_json_escape(ScBuf *out, const char *s);
void sc_report_json_object(ScReportJson *j);
void sc_report_json_array(ScReportJson *j);
void sc_report_json_end_object(ScReportJson *j);
void sc_report_json_end_array(ScReportJson *j);
void sc_report_json_key(ScReportJson *j, const char *key);
void sc_report_json_string(ScReportJson *j, const char *s); /* NULL writes null */
void sc_report_json_u64(ScReportJson *j, uint64_t v);
void sc_report_json_int(ScReportJson *j, long long v);
void sc_report_json_null(ScReportJson *j);
void sc_report_json_hex(ScReportJson *j, uint64_t v);    /* "0x7f00" as a string */
void sc_report_json_dim3(ScReportJson *j, const uint32_t v[3]); /* [4,1,1] on one line */
/* The run's totals and its unchecked kernels, as one object: the JSON report's
 * "summary" and the SARIF run's "properties". */
void sc_report_json_counts(ScReportJson *j, const ScReport *r);

#endif
