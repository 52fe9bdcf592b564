/* report.h: race records as the device delivers them, the host tables that resolve
 * them, deduplication, filters, suppressions and the text/JSON/SARIF emitters.
 * Formats: docs/report-format.md. Pure C, no CUDA. */
#ifndef SC_REPORT_H
#define SC_REPORT_H

#include "common/sc_buf.h"
#include "common/sc_err.h"
#include "rules/memory_model.h"

typedef enum ScCause {
#define SC_CAUSE(id, name, severity, title, reason) SC_CAUSE_##id,
#include "report/report_cause.def"
#undef SC_CAUSE
    SC_CAUSE_COUNT_
} ScCause;

/* Ordered: a level keeps every severity at or above it. */
typedef enum ScSeverity {
    SC_SEVERITY_INFO,
    SC_SEVERITY_WARNING,
    SC_SEVERITY_ERROR,
} ScSeverity;

typedef enum ScRaceSpace {
    SC_RACE_SPACE_SHARED, /* address = offset in the block's shared window */
    SC_RACE_SPACE_GLOBAL, /* address = device virtual address */
    SC_RACE_SPACE_NONE,   /* barrier_divergence: no memory location */
} ScRaceSpace;

typedef enum ScRaceKind {
    SC_RACE_KIND_READ,
    SC_RACE_KIND_WRITE,
    SC_RACE_KIND_ATOMIC,  /* atom or red: a read-modify-write */
    SC_RACE_KIND_BARRIER, /* barrier_divergence: a thread at a barrier */
    SC_RACE_KIND_EXIT,    /* barrier_divergence: a thread that exited */
} ScRaceKind;

/* A site id names one instrumented instruction; ids are unique in the process
 * (never reused, also across modules: a module's per-module site index plus a
 * base the loader gives each module). SC_REPORT_SITE_NONE: no instruction (the
 * previous side of a barrier_divergence record for a thread that exited). */
#define SC_REPORT_SITE_NONE UINT32_MAX

/* Who made a previous access the device could not name: the thread a side names,
 * or one that the shadow word summarized relative to the thread it recorded (the
 * thread and block named), which bounds where it was. */
typedef enum ScRaceWho {
    SC_RACE_WHO_THREAD, /* the named thread */
    SC_RACE_WHO_WARP,   /* a thread of the named thread's warp */
    SC_RACE_WHO_BLOCK,  /* a thread of the named block */
    SC_RACE_WHO_ANY,    /* any thread: the access is not tied to the one named */
    SC_RACE_WHO_COPY,   /* no thread: an asynchronous copy or memset the host issued
                           (unordered_streams, either side; no site, no size) */
} ScRaceWho;

/* One side of a race as the device records it. The enum-valued fields are
 * bytes so that the record has one fixed layout on the device and the host;
 * sc_report_add_launch checks every value before it uses one. */
typedef struct ScRaceAccess {
    uint32_t site;
    uint32_t thread[3]; /* threadIdx x, y, z */
    uint32_t block[3];  /* blockIdx x, y, z */
    uint16_t size;      /* bytes accessed, 1..256 (0 for a barrier or exit) */
    uint8_t kind;       /* ScRaceKind */
    uint8_t sem;        /* ScSem; SC_SEM_NONE (a record that gives none) reads as weak */
    uint8_t scope;      /* ScScope */
    uint8_t who;        /* ScRaceWho (a previous side only, but for a copy) */
} ScRaceAccess;

typedef struct ScRaceRecord {
    uint64_t address;   /* see ScRaceSpace */
    uint64_t hazards;   /* dynamic occurrences the device folded into this record (0 reads as 1) */
    uint8_t cause;      /* ScCause */
    uint8_t severity;   /* ScSeverity */
    uint8_t space;      /* ScRaceSpace */
    uint8_t sync_scope; /* ScScope of the too-narrow fence or lock (fence_scope,
                           lock_scope); SC_SCOPE_NONE otherwise */
    ScRaceAccess cur;   /* the access that found the race */
    ScRaceAccess prev;  /* the earlier, conflicting access from the shadow state */
} ScRaceRecord;

/* One source location of a site: frames[0] is the instruction itself, each next
 * frame the place where the previous frame's function was inlined. */
typedef struct ScReportFrame {
    const char *function; /* mangled; NULL = the site's PTX function */
    const char *file;     /* NULL when the module has no line info */
    uint32_t line, column;
} ScReportFrame;

/* A control dependence of a site: it runs only when a divergent conditional
 * branch of its function leaves through successor edge `arm`. */
typedef struct ScReportControlDep {
    uint32_t branch; /* names the branch within the function */
    uint32_t arm;
} ScReportControlDep;

/* What the instrumenter knows about a site. Strings and dependences are copied. */
typedef struct ScReportSite {
    const char *ptx_function; /* mangled name of the .entry or .func holding it */
    uint32_t ptx_line;        /* line in the module's PTX as scord loaded it */
    const ScReportFrame *frames; /* innermost first; n_frames = 0 when there is no .loc */
    size_t n_frames;
    /* Equal for the sites of one PTX function, different for any two functions
     * of the process: dependences compare only within one function. */
    uint32_t function_id;
    const ScReportControlDep *deps; /* any order */
    size_t n_deps;
    bool async_copy; /* a cp.async's destination write, which lands when its group is waited for */
} ScReportSite;

/* A __shared__ variable of the launched kernel. size 0: an extern (dynamic)
 * array, which covers everything from offset on. */
typedef struct ScReportSymbol {
    const char *name;
    uint64_t offset, size;
} ScReportSymbol;

typedef struct ScReportLaunch {
    const char *kernel;  /* mangled */
    const char *module;  /* where the module came from, for the text report; may be NULL */
    uint64_t number;     /* process-wide launch number, 1-based */
    uint32_t grid[3], block[3];
    uint32_t cluster[3]; /* cluster dims; 0,0,0 = no clusters (each block alone) */
    const ScReportSymbol *shared;
    size_t n_shared;
    /* The earlier launch whose accesses its different_grids races name as previous
     * (the grid it depends on programmatically, or the launch before on an unordered
     * stream): its kernel, mangled, and number; previous_kernel NULL: not known. */
    const char *previous_kernel;
    uint64_t previous_number;
} ScReportLaunch;

/* A device allocation, as the interceptor's table knows it. */
typedef struct ScReportAlloc {
    unsigned long serial;
    const char *kind; /* "cudaMalloc", ...; copied */
    uint64_t base, size;
} ScReportAlloc;

/* Finds the allocation holding addr; false when none does. Called during
 * sc_report_add_launch only, so the allocation is still live. */
typedef bool (*ScReportAllocFn)(void *ctx, uint64_t addr, ScReportAlloc *out);

typedef struct ScReportConfig {
    long pid;                /* shown in the text header and the JSON */
    const char *version;     /* scord's version for JSON/SARIF; NULL = SCORD_VERSION */
    unsigned print_limit;    /* most distinct races printed as text; 0 = all */
    ScSeverity min_severity; /* races below it are not reported at all */
    bool demangle;           /* demangle C++ names with __cxa_demangle (see below) */
    ScReportAllocFn find_alloc; /* may be NULL: global addresses stay unresolved */
    void *alloc_ctx;
} ScReportConfig;

typedef struct ScReportCounts {
    uint64_t races;       /* distinct races reported (not suppressed, at the level) */
    uint64_t by_severity[3]; /* of them, at each ScSeverity */
    uint64_t hazards;     /* occurrences folded into them */
    uint64_t suppressed;  /* distinct races a suppression matched */
    uint64_t not_printed; /* reported races past print_limit */
    uint64_t launches, launches_with_races;
    uint64_t dropped;     /* records the device lost or that were malformed */
} ScReportCounts;

typedef struct ScReport ScReport;

/* Defaults: print_limit 100, min_severity warning, demangle on, no allocations. */
void sc_report_config_init(ScReportConfig *cfg, long pid);
/* The process the report speaks for from now on (a fork child's own). */
void sc_report_set_pid(ScReport *r, long pid);
/* NULL only when out of memory. Not thread-safe: callers serialize all calls. */
ScReport *sc_report_new(const ScReportConfig *cfg);
void sc_report_free(ScReport *r);

/* Registers a site (demangling its names now). Re-registering an id replaces it.
 * False when out of memory. */
bool sc_report_add_site(ScReport *r, uint32_t id, const ScReportSite *site, ScErr *err);

/* TSan-style suppressions (docs/report-format.md): `race:`, `race_top:`, `kernel:`
 * lines and `#` comments. name is used in errors (file:line:col). On an error
 * nothing of the text is kept. */
bool sc_report_add_suppressions(ScReport *r, const char *text, size_t len, const char *name,
                                ScErr *err);
bool sc_report_load_suppressions(ScReport *r, const char *path, ScErr *err);

/* Do the two registered sites lie on opposite arms of a divergent branch of their
 * function (some branch both depend on, through no common arm)? False when either is
 * not registered (SC_REPORT_SITE_NONE never is). The record decoder (src/hostrt) names
 * such a same-warp pair divergent_branch. */
bool sc_report_opposite_arms(const ScReport *r, uint32_t site_a, uint32_t site_b);

/* Is a race of rec's unordered pair of instructions, cause and space among the
 * report's? The record decoder names a race seen from its other side as the one
 * already known (src/hostrt). */
bool sc_report_has_race(const ScReport *r, const ScRaceRecord *rec);

/* Takes the records of one completed launch (n may be 0: every launch counts) and
 * the number of records the device could not deliver. Records fold into the race
 * of their unordered site pair and cause; a new race is resolved now (sites,
 * shared symbol, allocation) and, if reported and within print_limit, its text
 * block is appended to text (NULL: print nothing). False (err says why) only when
 * out of memory. */
bool sc_report_add_launch(ScReport *r, const ScReportLaunch *launch, const ScRaceRecord *recs,
                          size_t n, uint64_t dropped, ScBuf *text, ScErr *err);
/* Races of a launch already added, found after it (a copy on a stream unordered with
 * it, issued after it ended): folded and printed as sc_report_add_launch does, the
 * launch not counted again. */
bool sc_report_add_late_races(ScReport *r, const ScReportLaunch *launch, const ScRaceRecord *recs,
                              size_t n, ScBuf *text, ScErr *err);

/* A kernel scord could not check (its module has no PTX); listed in the JSON. */
bool sc_report_add_unchecked(ScReport *r, const char *kernel, ScErr *err);

void sc_report_counts(const ScReport *r, ScReportCounts *out);

/* The closing text: dropped records, races past the print limit, the -lineinfo
 * hint, the suppressions that matched and the final
 * `scord: reported N races (H hazards) in L of K kernel launches; S suppressed`. */
void sc_report_emit_summary(const ScReport *r, ScBuf *out);
/* The whole run as one JSON document (contracts.md) or one SARIF 2.1.0 log. When
 * out->oom is set afterwards the document is truncated: do not write it out. */
void sc_report_emit_json(const ScReport *r, ScBuf *out);
void sc_report_emit_sarif(const ScReport *r, ScBuf *out);

/* Names, for tools and tests. */
const char *sc_report_cause_name(ScCause cause);
ScSeverity sc_report_cause_severity(ScCause cause);
const char *sc_report_severity_name(ScSeverity severity);
/* Parses a name of sc_report_cause_name / sc_report_severity_name. */
bool sc_report_cause_parse(const char *name, ScCause *out);
bool sc_report_severity_parse(const char *name, ScSeverity *out);

/* Appends the demangled form of an Itanium C++ name (one that starts with _Z) to
 * out, or the name unchanged when it is not one, demangling is off or no demangler
 * is available. sc_report_new looks __cxa_demangle up with dlsym, in the process
 * and else in libstdc++.so.6 (opened RTLD_NODELETE), so scord has no C++ in it. */
void sc_report_demangle(const ScReport *r, const char *name, ScBuf *out);
/* The kernel's name without parameter list and return type, for the text's
 * Kernel line: "void ns::k<2>(int*)" -> "ns::k<2>". */
void sc_report_short_name(const char *demangled, ScBuf *out);

#endif
