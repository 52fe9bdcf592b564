/* sc_options.h: scord's options (declared once in options.def), their SCORD_OPTIONS
 * text form, and the status channel from libscord.so back to the scord launcher. */
#ifndef SC_OPTIONS_H
#define SC_OPTIONS_H

#include "common/sc_buf.h"
#include "common/sc_err.h"

/* Environment the launcher sets for the program (see docs/options.md). */
#define SC_ENV_OPTIONS "SCORD_OPTIONS"     /* name=value:name=value, all options */
#define SC_ENV_STATUS_FD "SCORD_STATUS_FD" /* decimal fd of the status pipe */
#define SC_ENV_LIBRARY "SCORD_LIBRARY"     /* launcher only: library to preload */

/* A STRING option's value holds at most SC_OPTION_STRING_MAX - 1 bytes (a path). */
#define SC_OPTION_STRING_MAX 4096

#define SC_OPTION_FIELD_BOOL(name) bool name
#define SC_OPTION_FIELD_INT(name) int name
#define SC_OPTION_FIELD_STRING(name) char name[SC_OPTION_STRING_MAX]

/* One field per option, named as in options.def: o.verbose, o.log_file ("" when
 * unset), o.error_exitcode, o.print_limit. Plain data: copy it freely. */
typedef struct ScOptions {
#define SC_OPTION(type, name, def, help) SC_OPTION_FIELD_##type(name);
#include "common/options.def"
#undef SC_OPTION
} ScOptions;

typedef enum ScOptionType {
    SC_OPTION_TYPE_BOOL,
    SC_OPTION_TYPE_INT,
    SC_OPTION_TYPE_STRING,
} ScOptionType;

typedef struct ScOptionInfo {
    const char *name; /* as in options.def: "log_file" */
    ScOptionType type;
    const char *help;
} ScOptionInfo;

/* The options in options.def order, for generic code (the launcher, --help). */
size_t sc_options_count(void);
const ScOptionInfo *sc_options_info(size_t i);
/* The option named name (options.def spelling), or NULL. */
const ScOptionInfo *sc_options_find(const char *name);

/* Fills o with the defaults of options.def. */
void sc_options_init(ScOptions *o);
/* Sets one option from its text: BOOL true/false/1/0, INT a non-negative decimal
 * int, STRING any bytes that fit (error_level, shadow and cut: one of their words,
 * sc_options_choice). On a bad value o is unchanged and err says why (without the
 * option's name: callers say where the value came from). */
bool sc_options_set(ScOptions *o, const ScOptionInfo *opt, const char *value, ScErr *err);
/* For an option whose value is one of a few words (error_level, shadow, cut): the
 * word's index in its list, which sc_options_set has already checked; -1 for any
 * other option or word. The lists: error_level error, warning; shadow full, cache;
 * cut none, hooks, access, grouping, shadow. */
int sc_options_choice(const char *option, const char *value);
/* Appends opt's value in o as text that sc_options_set reads back (unescaped). */
void sc_options_format_value(const ScOptions *o, const ScOptionInfo *opt, ScBuf *out);

/* Reads `name=value:name=value` on top of what o holds (call sc_options_init first
 * for defaults). In a value, `\:` is ':' and `\\` is '\'; any other '\' is an error.
 * Empty items are skipped; a later item wins. Errors give the column and, for an
 * unknown name, the valid names; o may be partly updated when it fails. */
bool sc_options_parse_env(const char *s, ScOptions *o, ScErr *err);
/* Appends every option in options.def order in the form sc_options_parse_env
 * reads, values escaped: `verbose=false:log_file=:error_exitcode=0:print_limit=100`. */
void sc_options_format_env(const ScOptions *o, ScBuf *out);

/* Expands a log_file pattern for process pid: %p is the pid, %% is '%'; any other
 * '%' is an error naming its column. */
bool sc_options_log_path(const char *pattern, long pid, ScBuf *out, ScErr *err);

/* The next item of a comma-separated option value (--suppressions), copied into item
 * (cap bytes, cut if longer), *list advanced past it; empty items are skipped. False
 * when none is left. */
bool sc_options_list_next(const char **list, char *item, size_t cap);

/* The status channel. The launcher creates a pipe, passes its write end to the
 * program as SCORD_STATUS_FD (inherited, non-blocking) and reads the other end.
 * Every process of the program that runs libscord.so writes exactly one line
 *     races=<N>\n
 * (N = distinct races it reported, decimal) with sc_status_write when it exits, or,
 * if it never used CUDA (a shell, a compiler), the line
 *     idle\n
 * the launcher adds the races up and counts the processes that checked. A process
 * that writes nothing (not preloaded, killed, _exit) counts as no report. Child processes inherit the fd, so each
 * writes its own line; a line is one write() of fewer than PIPE_BUF bytes, so
 * lines from several processes never interleave. */

/* The fd in SCORD_STATUS_FD, or -1 if it is unset, not a decimal fd or not open. */
int sc_options_status_fd(void);
/* Writes `races=<races>\n` to fd, or `idle\n` for a process that never used CUDA
 * (no-op for fd < 0). Never raises SIGPIPE or blocks: if the launcher is gone or the
 * pipe is full the line is dropped, and it writes only to a pipe, so a program that
 * reused the fd number for a file of its own is not written into. Safe to call from
 * an exit handler. */
void sc_status_write(int fd, bool used_cuda, unsigned long races);
/* The launcher side: adds up the races of the lines in text[0, len) into *races,
 * counts the `races=` lines in *reports and the `idle` lines in *idle. False (err says
 * why) on a line that is neither `races=<N>\n` nor `idle\n`. */
bool sc_status_parse(const char *text, size_t len, unsigned long *races, size_t *reports, size_t *idle,
                     ScErr *err);

#endif
