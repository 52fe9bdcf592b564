/* test_options.c: options.def defaults, SCORD_OPTIONS parse/format, log paths and
 * the races=N status channel. */
#include "common/sc_options.h"
#include "sc_test.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

/* Counted here independently of sc_options.c, so a table that drops an entry fails. */
static const char *const def_names[] = {
#define SC_OPTION(type, name, def, help) #name,
#include "common/options.def"
#undef SC_OPTION
};

static bool parse(const char *s, ScOptions *o, ScErr *err)
{
    *err = (ScErr){0};
    sc_options_init(o);
    return sc_options_parse_env(s, o, err);
}

static char *format(const ScOptions *o)
{
    ScBuf b = {0};
    sc_options_format_env(o, &b);
    CHECK(!b.oom);
    return sc_buf_take(&b);
}

TEST(defaults)
{
    ScOptions o;
    memset(&o, 0xAB, sizeof o);
    sc_options_init(&o);
    CHECK(!o.verbose);
    CHECK_STR("", o.log_file);
    CHECK_INT(0, o.error_exitcode);
    CHECK_INT(100, o.print_limit);
    char *s = format(&o);
    CHECK_STR("verbose=false:log_file=:error_exitcode=0:error_level=error:print_limit=100:detect=true:json_file=:sarif_file=:cache_dir=:no_cache=false:shadow=full:cut=none:cache_mb=0:prune=true:quick=true:check_graphs=true:triton_ptx=true:suppressions=:report_level=warning:kernel_name=:kernel_name_exclude=:"
        "launch_skip=0:launch_count=0", s);
    free(s);
}

TEST(table_matches_def)
{
    CHECK_INT(SC_ARRAY_LEN(def_names), sc_options_count());
    for (size_t i = 0; i < SC_ARRAY_LEN(def_names); i++) {
        const ScOptionInfo *opt = sc_options_info(i);
        CHECK_STR(def_names[i], opt->name);
        CHECK(sc_options_find(def_names[i]) == opt);
        CHECK(opt->help && strlen(opt->help) > 10);
    }
    CHECK(sc_options_info(sc_options_count()) == NULL);
    CHECK(sc_options_find("log-file") == NULL);
    CHECK(sc_options_find("") == NULL);
}

TEST(parse_values)
{
    ScOptions o;
    ScErr err;
    CHECK(parse("verbose=1:log_file=/tmp/x.log:error_exitcode=7:print_limit=0", &o, &err));
    CHECK(o.verbose);
    CHECK_STR("/tmp/x.log", o.log_file);
    CHECK_INT(7, o.error_exitcode);
    CHECK_INT(0, o.print_limit);
    CHECK(parse("verbose=true", &o, &err) && o.verbose);
    CHECK(parse("verbose=true:verbose=0", &o, &err) && !o.verbose);
    CHECK(parse("verbose=false", &o, &err) && !o.verbose);
    CHECK(parse("print_limit=2147483647", &o, &err));
    CHECK_INT(2147483647, o.print_limit);
    CHECK(parse("log_file=", &o, &err));
    CHECK_STR("", o.log_file);
    /* Empty items (leading, doubled, trailing ':') are skipped. */
    CHECK(parse("::print_limit=3::error_exitcode=4:", &o, &err));
    CHECK_INT(3, o.print_limit);
    CHECK_INT(4, o.error_exitcode);
    CHECK(parse("", &o, &err));
    CHECK_INT(100, o.print_limit);
    /* '=' inside a value is part of it. */
    CHECK(parse("log_file=a=b", &o, &err));
    CHECK_STR("a=b", o.log_file);
}

TEST(escapes)
{
    ScOptions o;
    ScErr err;
    CHECK(parse("log_file=C\\:\\\\dir\\:x:print_limit=5", &o, &err));
    CHECK_STR("C:\\dir:x", o.log_file);
    CHECK_INT(5, o.print_limit);
    CHECK(parse("log_file=\\\\", &o, &err));
    CHECK_STR("\\", o.log_file);

    CHECK(!parse("log_file=a\\b", &o, &err));
    CHECK_STR("column 11: '\\' must be followed by ':' or '\\' (write '\\\\' for a backslash)",
              err.msg);
    CHECK(!parse("log_file=a\\", &o, &err));
    CHECK_CONTAINS(err.msg, "column 11: '\\' must be followed");
}

TEST(round_trip)
{
    static const char *const paths[] = {"", "plain", "a:b", "a\\b", "::\\\\::", "\\:", "%p:%%",
                                        "trailing\\", "x=y:z=w"};
    for (size_t i = 0; i < SC_ARRAY_LEN(paths); i++) {
        ScOptions o, back;
        sc_options_init(&o);
        o.verbose = i % 2;
        o.error_exitcode = (int)i;
        o.print_limit = (int)(1000 + i);
        strcpy(o.log_file, paths[i]);
        char *s = format(&o);
        ScErr err;
        CHECK(parse(s, &back, &err));
        CHECK_STR(paths[i], back.log_file);
        CHECK(back.verbose == o.verbose);
        CHECK_INT(o.error_exitcode, back.error_exitcode);
        CHECK_INT(o.print_limit, back.print_limit);
        CHECK(memcmp(&o, &back, sizeof o) == 0);
        free(s);
    }
    ScOptions o;
    sc_options_init(&o);
    strcpy(o.log_file, "a:b\\c");
    char *s = format(&o);
    CHECK_STR("verbose=false:log_file=a\\:b\\\\c:error_exitcode=0:error_level=error:print_limit=100:detect=true:json_file=:sarif_file=:cache_dir=:no_cache=false:shadow=full:cut=none:cache_mb=0:prune=true:quick=true:check_graphs=true:triton_ptx=true:suppressions=:report_level=warning:kernel_name=:kernel_name_exclude=:"
        "launch_skip=0:launch_count=0", s);
    free(s);
}

TEST(longest_string)
{
    char *s = malloc(SC_OPTION_STRING_MAX + 32);
    strcpy(s, "log_file=");
    size_t head = strlen(s);
    memset(s + head, 'x', SC_OPTION_STRING_MAX - 1);
    s[head + SC_OPTION_STRING_MAX - 1] = '\0';
    ScOptions o;
    ScErr err;
    CHECK(parse(s, &o, &err));
    CHECK_INT(SC_OPTION_STRING_MAX - 1, strlen(o.log_file));
    strcat(s, "x");
    CHECK(!parse(s, &o, &err));
    CHECK_CONTAINS(err.msg, "value of log_file too long (at most 4095 bytes)");

    ScErr err2 = {0};
    CHECK(!sc_options_set(&o, sc_options_find("log_file"), s + head, &err2));
    CHECK_STR("value too long (4096 bytes; at most 4095)", err2.msg);
    free(s);
}

TEST(errors)
{
    ScOptions o;
    ScErr err;
    CHECK(!parse("verbose=1:colour=red", &o, &err));
    CHECK_STR("column 11: unknown option 'colour'; valid options: verbose, log_file, "
              "error_exitcode, error_level, print_limit, detect, json_file, sarif_file, cache_dir, no_cache, shadow, cut, cache_mb, prune, quick, check_graphs, triton_ptx, suppressions, "
                  "report_level, kernel_name, kernel_name_exclude, launch_skip, launch_count",
              err.msg);
    CHECK(!parse("log-file=x", &o, &err));
    CHECK_CONTAINS(err.msg, "unknown option 'log-file'");
    CHECK(!parse("verbose", &o, &err));
    CHECK_STR("column 1: expected name=value, found 'verbose'", err.msg);
    CHECK(!parse("print_limit=5:verbose:x=1", &o, &err));
    CHECK_STR("column 15: expected name=value, found 'verbose'", err.msg);
    CHECK(!parse("=1", &o, &err));
    CHECK_CONTAINS(err.msg, "column 1: unknown option ''");

    static const char *const bad_ints[] = {"", "-1", "+1", "1.5", "0x10", "abc", " 1",
                                           "2147483648", "99999999999999999999"};
    for (size_t i = 0; i < SC_ARRAY_LEN(bad_ints); i++) {
        char s[64];
        snprintf(s, sizeof s, "verbose=1:print_limit=%s", bad_ints[i]);
        CHECK(!parse(s, &o, &err));
        char want[128];
        snprintf(want, sizeof want,
                 "column 11: print_limit: bad value '%s': expected a whole number from 0 "
                 "to 2147483647",
                 bad_ints[i]);
        CHECK_STR(want, err.msg);
    }
    static const char *const bad_bools[] = {"", "yes", "TRUE", "2", "on"};
    for (size_t i = 0; i < SC_ARRAY_LEN(bad_bools); i++) {
        char s[64];
        snprintf(s, sizeof s, "verbose=%s", bad_bools[i]);
        CHECK(!parse(s, &o, &err));
        CHECK_CONTAINS(err.msg, "column 1: verbose: bad value '");
        CHECK_CONTAINS(err.msg, "expected true, false, 1 or 0");
    }

    /* A failed sc_options_set leaves the option as it was. */
    sc_options_init(&o);
    ScErr e2 = {0};
    CHECK(!sc_options_set(&o, sc_options_find("print_limit"), "12x", &e2));
    CHECK_INT(100, o.print_limit);
}

/* error_level, shadow and cut take one of their words, each known by its index;
 * another word is refused where it is read and leaves the option as it was. */
TEST(choices)
{
    CHECK_INT(0, sc_options_choice("error_level", "error"));
    CHECK_INT(1, sc_options_choice("error_level", "warning"));
    CHECK_INT(0, sc_options_choice("shadow", "full"));
    CHECK_INT(1, sc_options_choice("shadow", "cache"));
    static const char *const cuts[] = {"none", "hooks", "access", "grouping", "shadow"};
    for (int i = 0; i < (int)SC_ARRAY_LEN(cuts); i++)
        CHECK_INT(i, sc_options_choice("cut", cuts[i]));
    CHECK_INT(-1, sc_options_choice("cut", "Access"));
    CHECK_INT(-1, sc_options_choice("cut", ""));
    CHECK_INT(-1, sc_options_choice("verbose", "true"));

    ScOptions o;
    ScErr err;
    CHECK(parse("shadow=cache:cut=grouping:error_level=warning", &o, &err));
    CHECK_STR("cache", o.shadow);
    CHECK_STR("grouping", o.cut);
    CHECK_STR("warning", o.error_level);
    CHECK(!parse("verbose=1:shadow=partial", &o, &err));
    CHECK_STR("column 11: shadow: bad value 'partial': expected one of full, cache", err.msg);
    CHECK(!parse("cut=hook", &o, &err));
    CHECK_STR("column 1: cut: bad value 'hook': expected one of none, hooks, access, grouping, "
              "shadow",
              err.msg);
    sc_options_init(&o);
    ScErr e2 = {0};
    CHECK(!sc_options_set(&o, sc_options_find("error_level"), "info", &e2));
    CHECK_STR("bad value 'info': expected one of error, warning", e2.msg);
    CHECK_STR("error", o.error_level);
    /* report_level's words in ScSeverity's order, as the library reads the level. */
    static const char *const levels[] = {"info", "warning", "error"};
    for (int i = 0; i < (int)SC_ARRAY_LEN(levels); i++)
        CHECK_INT(i, sc_options_choice("report_level", levels[i]));
    CHECK(!parse("report_level=loud", &o, &err));
    CHECK_STR("column 1: report_level: bad value 'loud': expected one of info, warning, error", err.msg);
    /* An exit code is 0 to 255, whether the launcher or SCORD_OPTIONS gives it. */
    CHECK(parse("error_exitcode=255", &o, &err));
    CHECK_INT(255, o.error_exitcode);
    CHECK(!parse("error_exitcode=256", &o, &err));
    CHECK_STR("column 1: error_exitcode: bad value '256': expected a whole number from 0 to 255", err.msg);
}

/* Every option in the .def can be set through SCORD_OPTIONS and comes back out. */
TEST(every_option_reachable)
{
    for (size_t i = 0; i < sc_options_count(); i++) {
        const ScOptionInfo *opt = sc_options_info(i);
        const char *value = NULL;
        ScBuf def_value = {0};
        ScOptions defaults;
        sc_options_init(&defaults);
        sc_options_format_value(&defaults, opt, &def_value);
        switch (opt->type) {
        case SC_OPTION_TYPE_BOOL:
            /* the value that is not the default, so that setting it shows */
            value = strcmp(def_value.data, "true") == 0 ? "false" : "true";
            break;
        case SC_OPTION_TYPE_INT:
            value = !strcmp(opt->name, "error_exitcode") ? "242" : "4242"; /* an exit code */
            break;
        case SC_OPTION_TYPE_STRING:
            /* a word other than the default where only words are taken (TEST(choices)) */
            value = !strcmp(opt->name, "error_level")    ? "warning"
                    : !strcmp(opt->name, "shadow")       ? "cache"
                    : !strcmp(opt->name, "cut")          ? "shadow"
                    : !strcmp(opt->name, "report_level") ? "error"
                                                         : "v:al\\ue";
            break;
        }
        sc_buf_free(&def_value);
        ScOptions def, o;
        sc_options_init(&def);
        ScBuf in = {0}, got = {0}, want = {0};
        sc_buf_printf(&in, "%s=", opt->name);
        for (const char *p = value; *p; p++)
            sc_buf_printf(&in, "%s%c", *p == ':' || *p == '\\' ? "\\" : "", *p);
        ScErr err;
        CHECK(parse(in.data, &o, &err));
        CHECK(memcmp(&o, &def, sizeof o) != 0);
        sc_options_format_value(&o, opt, &got);
        CHECK_STR(value, got.data);
        char *env = format(&o);
        sc_buf_printf(&want, "%s=%s", opt->name, in.data + strlen(opt->name) + 1);
        CHECK_CONTAINS(env, want.data);
        free(env);
        sc_buf_free(&in);
        sc_buf_free(&got);
        sc_buf_free(&want);
    }
}

/* docs/options.md describes every option under both of its spellings. */
TEST(docs_list_every_option)
{
    FILE *f = fopen("docs/options.md", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    ScBuf doc = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sc_buf_append(&doc, chunk, n);
    fclose(f);
    for (size_t i = 0; i < sc_options_count(); i++) {
        const char *name = sc_options_info(i)->name;
        char flag[128] = "--";
        for (size_t k = 0; name[k] && k + 3 < sizeof flag; k++)
            flag[k + 2] = name[k] == '_' ? '-' : name[k];
        CHECK_CONTAINS(doc.data, flag);
        char env[128];
        snprintf(env, sizeof env, "`%s`", name);
        CHECK_CONTAINS(doc.data, env);
    }
    CHECK_CONTAINS(doc.data, SC_ENV_OPTIONS);
    CHECK_CONTAINS(doc.data, SC_ENV_STATUS_FD);
    CHECK_CONTAINS(doc.data, SC_ENV_LIBRARY);
    /* And the other way round: each row of the table, "| `--name ...` | `name` |",
     * names an option options.def has, under both spellings. */
    size_t rows = 0;
    for (const char *row = strstr(doc.data, "\n| `--"); row; row = strstr(row + 1, "\n| `--")) {
        char flag[128] = {0}, name[128] = {0};
        if (sscanf(row, "\n| `--%127[a-z0-9-]%*[^|]| `%127[a-z0-9_]`", flag, name) != 2)
            continue; /* a row of another table (exit codes: "| `--error-exitcode` N |") */
        rows++;
        const ScOptionInfo *o = sc_options_find(name);
        if (!o)
            printf("docs/options.md lists --%s (`%s`), which options.def does not have\n", flag, name);
        CHECK(o != NULL);
        for (char *c = flag; *c; c++)
            *c = *c == '-' ? '_' : *c;
        CHECK_STR(name, flag);
    }
    CHECK_INT((int)sc_options_count(), (int)rows);
    sc_buf_free(&doc);
}

TEST(log_path)
{
    ScBuf b = {0};
    ScErr err = {0};
    CHECK(sc_options_log_path("scord-%p.log", 4242, &b, &err));
    CHECK_STR("scord-4242.log", b.data);
    b.len = 0;
    CHECK(sc_options_log_path("/a/%p/%%p-%p", 7, &b, &err));
    CHECK_STR("/a/7/%p-7", b.data);
    b.len = 0;
    CHECK(sc_options_log_path("", 7, &b, &err));
    CHECK(b.data == NULL || b.len == 0);
    CHECK(!sc_options_log_path("log-%d", 1, &b, &err));
    CHECK_STR("column 5: '%' must be followed by 'p' (process id) or '%' (a literal '%')",
              err.msg);
    err = (ScErr){0};
    CHECK(!sc_options_log_path("log%", 1, &b, &err));
    CHECK_CONTAINS(err.msg, "column 4:");
    sc_buf_free(&b);
}

TEST(status_fd_from_env)
{
    int p[2];
    CHECK(pipe(p) == 0);
    char s[32];
    unsetenv(SC_ENV_STATUS_FD);
    CHECK_INT(-1, sc_options_status_fd());
    snprintf(s, sizeof s, "%d", p[1]);
    setenv(SC_ENV_STATUS_FD, s, 1);
    CHECK_INT(p[1], sc_options_status_fd());
    setenv(SC_ENV_STATUS_FD, "", 1);
    CHECK_INT(-1, sc_options_status_fd());
    setenv(SC_ENV_STATUS_FD, "3x", 1);
    CHECK_INT(-1, sc_options_status_fd());
    setenv(SC_ENV_STATUS_FD, "-1", 1);
    CHECK_INT(-1, sc_options_status_fd());
    close(p[0]);
    close(p[1]);
    snprintf(s, sizeof s, "%d", p[1]);
    setenv(SC_ENV_STATUS_FD, s, 1);
    CHECK_INT(-1, sc_options_status_fd()); /* a closed fd */
    unsetenv(SC_ENV_STATUS_FD);
}

static size_t read_all(int fd, char *buf, size_t cap)
{
    size_t len = 0;
    ssize_t n;
    while (len < cap && (n = read(fd, buf + len, cap - len)) > 0)
        len += (size_t)n;
    return len;
}

TEST(status_write_and_parse)
{
    int p[2];
    CHECK(pipe(p) == 0);
    sc_status_write(p[1], true, 3);
    sc_status_write(p[1], true, 0);
    sc_status_write(p[1], false, 7); /* never used CUDA: its count is none */
    sc_status_write(p[1], true, 18446744073709551615ul);
    sc_status_write(-1, true, 5);
    close(p[1]);
    char buf[256];
    size_t len = read_all(p[0], buf, sizeof buf);
    close(p[0]);
    static const char want[] = "races=3\nraces=0\nidle\nraces=18446744073709551615\n";
    CHECK_INT(strlen(want), len);
    CHECK(memcmp(buf, want, len) == 0);

    unsigned long races = 0;
    size_t reports = 0, idle = 0;
    ScErr err = {0};
    CHECK(sc_status_parse(buf, 16, &races, &reports, &idle, &err));
    CHECK_INT(3, races);
    CHECK_INT(2, reports);
    CHECK(sc_status_parse(buf, len, &races, &reports, &idle, &err));
    CHECK(races == 18446744073709551615ul); /* saturates */
    CHECK_INT(5, reports);
    CHECK_INT(1, idle);
    races = 0;
    reports = idle = 0;
    CHECK(sc_status_parse("", 0, &races, &reports, &idle, &err));
    CHECK_INT(0, reports);
    CHECK(sc_status_parse("idle\nidle\n", 10, &races, &reports, &idle, &err));
    CHECK_INT(0, reports);
    CHECK_INT(2, idle);

    static const char *const bad[] = {"races=3", "races=\n", "race=1\n", "races=1x\n",
                                      "races=1\nbogus\n", "races=-1\n", "idle", "idle=1\n"};
    for (size_t i = 0; i < SC_ARRAY_LEN(bad); i++) {
        err = (ScErr){0};
        CHECK(!sc_status_parse(bad[i], strlen(bad[i]), &races, &reports, &idle, &err));
        CHECK_CONTAINS(err.msg, "status line ");
    }
    err = (ScErr){0};
    sc_status_parse("races=1\nbogus\n", 14, &races, &reports, &idle, &err);
    CHECK_STR("status line 2: expected 'races=<N>' or 'idle'", err.msg);
}

/* Writing after the launcher is gone neither kills the program with SIGPIPE nor
 * leaves a SIGPIPE pending; a regular file in the fd's place is never written. */
TEST(status_write_is_harmless)
{
    int p[2];
    CHECK(pipe(p) == 0);
    close(p[0]);
    sc_status_write(p[1], true, 9); /* the test would die here without the guard */
    sigset_t pending;
    sigpending(&pending);
    CHECK(!sigismember(&pending, SIGPIPE));
    close(p[1]);

    char path[] = "/tmp/test_options_statusXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    sc_status_write(fd, true, 9);
    CHECK_INT(0, lseek(fd, 0, SEEK_END));
    close(fd);
    unlink(path);

    /* A full non-blocking pipe drops the line instead of blocking. */
    CHECK(pipe(p) == 0);
    CHECK(fcntl(p[1], F_SETFL, O_NONBLOCK) == 0);
    char junk[4096] = {0};
    while (write(p[1], junk, sizeof junk) > 0)
        ;
    CHECK_INT(EAGAIN, errno);
    sc_status_write(p[1], true, 1);
    close(p[0]);
    close(p[1]);
}

int main(void)
{
    RUN(defaults);
    RUN(table_matches_def);
    RUN(parse_values);
    RUN(escapes);
    RUN(round_trip);
    RUN(longest_string);
    RUN(errors);
    RUN(choices);
    RUN(every_option_reachable);
    RUN(docs_list_every_option);
    RUN(log_path);
    RUN(status_fd_from_env);
    RUN(status_write_and_parse);
    RUN(status_write_is_harmless);
    return TEST_REPORT();
}
