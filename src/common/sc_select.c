/* sc_select.c: the kernel filters and the launch range of sc_select.h. */
#include "common/sc_select.h"

#include <stdlib.h>
#include <string.h>

bool sc_kernel_filter_parse(ScKernelFilter *f, const char *spec, const char *option, ScErr *err)
{
    *f = (ScKernelFilter){0};
    if (!spec[0])
        return true;
    static const struct {
        const char *prefix;
        ScKernelFilterKind kind;
    } forms[] = {{"kns=", SC_KERNEL_FILTER_SUBSTRING},
                 {"kne=", SC_KERNEL_FILTER_EXACT},
                 {"regex=", SC_KERNEL_FILTER_REGEX}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        size_t n = strlen(forms[i].prefix);
        if (strncmp(spec, forms[i].prefix, n) != 0)
            continue;
        const char *text = spec + n;
        if (!text[0])
            return sc_err_set(err, "%s %s: nothing after %s", option, spec, forms[i].prefix);
        if (forms[i].kind == SC_KERNEL_FILTER_REGEX) {
            int rc = regcomp(&f->re, text, REG_EXTENDED | REG_NOSUB);
            if (rc != 0) {
                char why[160];
                regerror(rc, &f->re, why, sizeof why);
                return sc_err_set(err, "%s %s: the regular expression does not compile: %s", option,
                                  spec, why);
            }
        }
        if (!(f->text = strdup(text))) {
            if (forms[i].kind == SC_KERNEL_FILTER_REGEX)
                regfree(&f->re);
            return sc_err_set(err, "out of memory");
        }
        f->kind = forms[i].kind;
        return true;
    }
    return sc_err_set(err, "%s %s: a filter is kns=TEXT (part of the name), kne=NAME (the whole name) "
                           "or regex=RE",
                      option, spec);
}

void sc_kernel_filter_free(ScKernelFilter *f)
{
    if (f->kind == SC_KERNEL_FILTER_REGEX)
        regfree(&f->re);
    free(f->text);
    *f = (ScKernelFilter){0};
}

static bool matches_name(const ScKernelFilter *f, const char *name)
{
    if (!name)
        return false;
    switch (f->kind) {
    case SC_KERNEL_FILTER_NONE:
        return true;
    case SC_KERNEL_FILTER_SUBSTRING:
        return strstr(name, f->text) != NULL;
    case SC_KERNEL_FILTER_EXACT:
        return strcmp(name, f->text) == 0;
    case SC_KERNEL_FILTER_REGEX:
        return regexec(&f->re, name, 0, NULL, 0) == 0;
    }
    return false;
}

bool sc_kernel_filter_matches(const ScKernelFilter *f, const ScKernelNameForms *k)
{
    return f->kind == SC_KERNEL_FILTER_NONE || matches_name(f, k->mangled) ||
           matches_name(f, k->demangled) || matches_name(f, k->plain);
}

bool sc_launch_select_init(ScLaunchSelect *s, const char *include, const char *exclude, int skip,
                           int count, ScErr *err)
{
    *s = (ScLaunchSelect){0};
    if (skip < 0)
        return sc_err_set(err, "--launch-skip %d: a number of launches is 0 or more", skip);
    if (count < 0)
        return sc_err_set(err, "--launch-count %d: a number of launches is 0 or more", count);
    if (!sc_kernel_filter_parse(&s->include, include, "--kernel-name", err))
        return false;
    if (!sc_kernel_filter_parse(&s->exclude, exclude, "--kernel-name-exclude", err)) {
        sc_kernel_filter_free(&s->include);
        return false;
    }
    s->skip = (uint64_t)skip;
    s->count = (uint64_t)count;
    return true;
}

void sc_launch_select_free(ScLaunchSelect *s)
{
    sc_kernel_filter_free(&s->include);
    sc_kernel_filter_free(&s->exclude);
}

bool sc_launch_select(ScLaunchSelect *s, const ScKernelNameForms *k)
{
    bool chosen = sc_kernel_filter_matches(&s->include, k) &&
                  (s->exclude.kind == SC_KERNEL_FILTER_NONE || !sc_kernel_filter_matches(&s->exclude, k));
    if (chosen) {
        uint64_t n = s->seen++;
        chosen = n >= s->skip && (s->count == 0 || n - s->skip < s->count);
    }
    s->left_out += !chosen;
    return chosen;
}

bool sc_launch_select_narrows(const ScLaunchSelect *s)
{
    return s->include.kind != SC_KERNEL_FILTER_NONE || s->exclude.kind != SC_KERNEL_FILTER_NONE ||
           s->skip || s->count;
}
