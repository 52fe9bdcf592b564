/* sc_select.h: which kernel launches scord checks, in compute-sanitizer's manner
 * (--kernel-name, --kernel-name-exclude, --launch-skip, --launch-count). A launch
 * left out still runs the program's instrumented code, with the runtime off. */
#ifndef SC_SELECT_H
#define SC_SELECT_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/sc_err.h"

typedef enum ScKernelFilterKind {
    SC_KERNEL_FILTER_NONE,      /* "": every kernel */
    SC_KERNEL_FILTER_SUBSTRING, /* kns=TEXT: TEXT occurs in the name */
    SC_KERNEL_FILTER_EXACT,     /* kne=NAME: the name is NAME */
    SC_KERNEL_FILTER_REGEX,     /* regex=RE: RE (POSIX extended) matches part of the name */
} ScKernelFilterKind;

typedef struct ScKernelFilter {
    ScKernelFilterKind kind;
    char *text;
    regex_t re;
} ScKernelFilter;

/* Parses "", "kns=TEXT", "kne=NAME" or "regex=RE"; option names the option in
 * errors. False (err set, f empty) on any other form, an empty TEXT or a regex that
 * does not compile. */
bool sc_kernel_filter_parse(ScKernelFilter *f, const char *spec, const char *option, ScErr *err);
void sc_kernel_filter_free(ScKernelFilter *f);

/* A kernel's names: mangled (as the driver gives it), demangled whole
 * ("void ns::k<2>(int*)") and short ("ns::k<2>"); the last two may be the mangled
 * name again where it cannot be demangled. A filter matches when it matches any of
 * them. */
typedef struct ScKernelNameForms {
    const char *mangled, *demangled, *plain;
} ScKernelNameForms;

bool sc_kernel_filter_matches(const ScKernelFilter *f, const ScKernelNameForms *k);

typedef struct ScLaunchSelect {
    ScKernelFilter include, exclude;
    uint64_t skip;  /* launches of the kernels the filters select, left out first */
    uint64_t count; /* then at most this many checked; 0: all */
    uint64_t seen;  /* launches of selected kernels so far */
    uint64_t left_out; /* launches left out, by any of the four */
} ScLaunchSelect;

/* Negative skip or count, or a filter that does not parse, is an error. */
bool sc_launch_select_init(ScLaunchSelect *s, const char *include, const char *exclude, int skip,
                           int count, ScErr *err);
void sc_launch_select_free(ScLaunchSelect *s);
/* Whether this launch is checked; counts it. */
bool sc_launch_select(ScLaunchSelect *s, const ScKernelNameForms *k);
/* Whether any of the four narrows the check. */
bool sc_launch_select_narrows(const ScLaunchSelect *s);

#endif
