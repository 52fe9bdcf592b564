/* sc_options.c: defaults, parsing and formatting of the options in options.def,
 * and both ends of the races=N status line. */
#include "common/sc_options.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct OptionEntry {
    ScOptionInfo info;
    size_t offset;
} OptionEntry;

static const OptionEntry options[] = {
#define SC_OPTION(type, name, def, help)                                                  \
    {{#name, SC_OPTION_TYPE_##type, help}, offsetof(ScOptions, name)},
#include "common/options.def"
#undef SC_OPTION
};

size_t sc_options_count(void)
{
    return SC_ARRAY_LEN(options);
}

const ScOptionInfo *sc_options_info(size_t i)
{
    return i < SC_ARRAY_LEN(options) ? &options[i].info : NULL;
}

static const OptionEntry *find_n(const char *name, size_t len)
{
    for (size_t i = 0; i < SC_ARRAY_LEN(options); i++)
        if (strlen(options[i].info.name) == len && memcmp(options[i].info.name, name, len) == 0)
            return &options[i];
    return NULL;
}

const ScOptionInfo *sc_options_find(const char *name)
{
    const OptionEntry *e = find_n(name, strlen(name));
    return e ? &e->info : NULL;
}

/* info is always the first member of an OptionEntry in options[]. */
static const OptionEntry *entry_of(const ScOptionInfo *opt)
{
    return (const OptionEntry *)opt;
}

#define SC_OPTION_INIT_BOOL(name, def) o->name = def;
#define SC_OPTION_INIT_INT(name, def) o->name = def;
#define SC_OPTION_INIT_STRING(name, def)                                                  \
    SC_STATIC_ASSERT(sizeof(def) <= SC_OPTION_STRING_MAX, "default of " #name " too long"); \
    memcpy(o->name, def, sizeof(def));

void sc_options_init(ScOptions *o)
{
    memset(o, 0, sizeof *o);
#define SC_OPTION(type, name, def, help) SC_OPTION_INIT_##type(name, def)
#include "common/options.def"
#undef SC_OPTION
}

static bool parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "true") || !strcmp(v, "1"))
        *out = true;
    else if (!strcmp(v, "false") || !strcmp(v, "0"))
        *out = false;
    else
        return false;
    return true;
}

static bool parse_int(const char *v, int *out)
{
    if (!*v)
        return false;
    long n = 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        n = n * 10 + (*p - '0');
        if (n > INT_MAX)
            return false;
    }
    *out = (int)n;
    return true;
}

/* The options whose value is one of a few words, listed in the order of the codes
 * the library gives them (sc_options_choice). */
static const struct {
    const char *option;
    const char *words[6];
} choices[] = {
    {"error_level", {"error", "warning"}},
    {"shadow", {"full", "cache"}},
    {"cut", {"none", "hooks", "access", "grouping", "shadow"}},
    {"report_level", {"info", "warning", "error"}}, /* ScSeverity's order */
};

/* The integer options whose values end below INT_MAX. */
static const struct {
    const char *option;
    int max;
} int_limits[] = {
    {"error_exitcode", 255}, /* an exit code */
};

static int int_max(const char *option)
{
    for (size_t i = 0; i < SC_ARRAY_LEN(int_limits); i++)
        if (strcmp(int_limits[i].option, option) == 0)
            return int_limits[i].max;
    return INT_MAX;
}

/* The word list of an option of few words, NULL for any other option. */
static const char *const *choice_words(const char *option)
{
    for (size_t i = 0; i < SC_ARRAY_LEN(choices); i++)
        if (strcmp(choices[i].option, option) == 0)
            return choices[i].words;
    return NULL;
}

#define CHOICE_WORDS SC_ARRAY_LEN(choices[0].words)

int sc_options_choice(const char *option, const char *value)
{
    const char *const *words = choice_words(option);
    for (int w = 0; words && w < (int)CHOICE_WORDS && words[w]; w++)
        if (strcmp(words[w], value) == 0)
            return w;
    return -1;
}

/* A value of an option of few words that is none of them: err names them. */
static bool check_choice(const char *option, const char *value, ScErr *err)
{
    const char *const *words = choice_words(option);
    if (!words || sc_options_choice(option, value) >= 0)
        return true;
    ScBuf list = {0};
    for (size_t w = 0; w < CHOICE_WORDS && words[w]; w++)
        sc_buf_printf(&list, "%s%s", w ? ", " : "", words[w]);
    sc_err_set(err, "bad value '%s': expected one of %s", value, list.data ? list.data : "");
    sc_buf_free(&list);
    return false;
}

bool sc_options_set(ScOptions *o, const ScOptionInfo *opt, const char *value, ScErr *err)
{
    void *field = (char *)o + entry_of(opt)->offset;
    switch (opt->type) {
    case SC_OPTION_TYPE_BOOL:
        if (!parse_bool(value, field))
            return sc_err_set(err, "bad value '%s': expected true, false, 1 or 0", value);
        return true;
    case SC_OPTION_TYPE_INT: {
        int n, max = int_max(opt->name);
        if (!parse_int(value, &n) || n > max)
            return sc_err_set(err, "bad value '%s': expected a whole number from 0 to %d", value, max);
        *(int *)field = n;
        return true;
    }
    case SC_OPTION_TYPE_STRING: {
        size_t len = strlen(value);
        if (len >= SC_OPTION_STRING_MAX)
            return sc_err_set(err, "value too long (%zu bytes; at most %d)", len,
                              SC_OPTION_STRING_MAX - 1);
        if (!check_choice(opt->name, value, err))
            return false;
        memcpy(field, value, len + 1);
        return true;
    }
    }
    return sc_err_set(err, "option %s has no known type", opt->name);
}

void sc_options_format_value(const ScOptions *o, const ScOptionInfo *opt, ScBuf *out)
{
    const void *field = (const char *)o + entry_of(opt)->offset;
    switch (opt->type) {
    case SC_OPTION_TYPE_BOOL:
        sc_buf_puts(out, *(const bool *)field ? "true" : "false");
        return;
    case SC_OPTION_TYPE_INT:
        sc_buf_printf(out, "%d", *(const int *)field);
        return;
    case SC_OPTION_TYPE_STRING:
        sc_buf_puts(out, field);
        return;
    }
}

static void list_names(ScBuf *out)
{
    for (size_t i = 0; i < SC_ARRAY_LEN(options); i++)
        sc_buf_printf(out, "%s%s", i ? ", " : "", options[i].info.name);
}

static bool unknown_name(const char *name, size_t len, size_t col, ScErr *err)
{
    ScBuf names = {0};
    list_names(&names);
    sc_err_set(err, "column %zu: unknown option '%.*s'; valid options: %s", col, (int)len,
               name, names.data ? names.data : "");
    sc_buf_free(&names);
    return false;
}

bool sc_options_parse_env(const char *s, ScOptions *o, ScErr *err)
{
    char value[SC_OPTION_STRING_MAX];
    size_t i = 0;
    while (s[i]) {
        if (s[i] == ':') {
            i++;
            continue;
        }
        size_t name_at = i;
        while (s[i] && s[i] != '=' && s[i] != ':')
            i++;
        size_t name_len = i - name_at;
        if (s[i] != '=')
            return sc_err_set(err, "column %zu: expected name=value, found '%.*s'",
                              name_at + 1, (int)name_len, s + name_at);
        const OptionEntry *e = find_n(s + name_at, name_len);
        if (!e)
            return unknown_name(s + name_at, name_len, name_at + 1, err);
        i++;
        size_t n = 0;
        while (s[i] && s[i] != ':') {
            char c = s[i];
            if (c == '\\') {
                if (s[i + 1] != ':' && s[i + 1] != '\\')
                    return sc_err_set(err,
                                      "column %zu: '\\' must be followed by ':' or '\\' "
                                      "(write '\\\\' for a backslash)",
                                      i + 1);
                c = s[i + 1];
                i++;
            }
            i++;
            if (n + 1 >= sizeof value)
                return sc_err_set(err, "column %zu: value of %s too long (at most %d bytes)",
                                  name_at + 1, e->info.name, SC_OPTION_STRING_MAX - 1);
            value[n++] = c;
        }
        value[n] = '\0';
        if (!sc_options_set(o, &e->info, value, err)) {
            sc_err_wrap(err, "column %zu: %s: ", name_at + 1, e->info.name);
            return false;
        }
    }
    return true;
}

void sc_options_format_env(const ScOptions *o, ScBuf *out)
{
    ScBuf v = {0};
    for (size_t i = 0; i < SC_ARRAY_LEN(options); i++) {
        v.len = 0;
        sc_options_format_value(o, &options[i].info, &v);
        sc_buf_printf(out, "%s%s=", i ? ":" : "", options[i].info.name);
        for (size_t k = 0; k < v.len; k++) {
            if (v.data[k] == ':' || v.data[k] == '\\')
                sc_buf_append(out, "\\", 1);
            sc_buf_append(out, &v.data[k], 1);
        }
    }
    if (v.oom)
        out->oom = true;
    sc_buf_free(&v);
}

bool sc_options_log_path(const char *pattern, long pid, ScBuf *out, ScErr *err)
{
    for (size_t i = 0; pattern[i]; i++) {
        if (pattern[i] != '%') {
            sc_buf_append(out, &pattern[i], 1);
            continue;
        }
        if (pattern[i + 1] == 'p')
            sc_buf_printf(out, "%ld", pid);
        else if (pattern[i + 1] == '%')
            sc_buf_append(out, "%", 1);
        else
            return sc_err_set(err,
                              "column %zu: '%%' must be followed by 'p' (process id) or "
                              "'%%' (a literal '%%')",
                              i + 1);
        i++;
    }
    return true;
}

int sc_options_status_fd(void)
{
    const char *s = getenv(SC_ENV_STATUS_FD);
    int fd;
    if (!s || !parse_int(s, &fd))
        return -1;
    return fcntl(fd, F_GETFD) == -1 ? -1 : fd;
}

void sc_status_write(int fd, bool used_cuda, unsigned long races)
{
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
        return;
    char line[40];
    int len = used_cuda ? snprintf(line, sizeof line, "races=%lu\n", races) : snprintf(line, sizeof line, "idle\n");

    /* A write to a pipe whose reader is gone raises SIGPIPE, which would kill the
     * program at exit: block it for this thread and swallow one we caused. */
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigpending(&pending);
    bool was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    ssize_t n;
    do
        n = write(fd, line, (size_t)len);
    while (n < 0 && errno == EINTR);
    if (n < 0 && errno == EPIPE && !was_pending) {
        const struct timespec zero = {0, 0};
        while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

bool sc_status_parse(const char *text, size_t len, unsigned long *races, size_t *reports, size_t *idle,
                     ScErr *err)
{
    static const char key[] = "races=", idle_line[] = "idle\n";
    size_t i = 0, line = 1;
    while (i < len) {
        size_t at = i;
        if (len - i >= sizeof idle_line - 1 && memcmp(text + i, idle_line, sizeof idle_line - 1) == 0) {
            i += sizeof idle_line - 1;
            (*idle)++;
            line++;
            continue;
        }
        if (len - i < sizeof key - 1 || memcmp(text + i, key, sizeof key - 1) != 0)
            return sc_err_set(err, "status line %zu: expected 'races=<N>' or 'idle'", line);
        i += sizeof key - 1;
        unsigned long n = 0;
        size_t digits = 0;
        for (; i < len && text[i] >= '0' && text[i] <= '9'; i++, digits++) {
            unsigned long d = (unsigned long)(text[i] - '0');
            n = n > (ULONG_MAX - d) / 10 ? ULONG_MAX : n * 10 + d;
        }
        if (!digits || i >= len || text[i] != '\n')
            return sc_err_set(err, "status line %zu: expected 'races=<N>\\n', found '%.*s'",
                              line, (int)(i - at < 40 ? i - at : 40), text + at);
        i++;
        *races = *races > ULONG_MAX - n ? ULONG_MAX : *races + n;
        (*reports)++;
        line++;
    }
    return true;
}

bool sc_options_list_next(const char **list, char *item, size_t cap)
{
    const char *p = *list;
    while (*p == ',')
        p++;
    size_t n = strcspn(p, ",");
    *list = p + n;
    if (!n)
        return false;
    snprintf(item, cap, "%.*s", (int)n, p);
    return true;
}
