/* test_cli.c: the scord launcher, run as a program on ordinary (non-CUDA) programs
 * with the stand-in library tests/cli/fake_preload.c preloaded: options, exit codes,
 * signals, the environment it passes, the status channel and the library lookup. */
#include "common/sc_options.h"
#include "sc_test.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Absolute paths, set once in main. */
static char scord[PATH_MAX], fake_lib[PATH_MAX], tmp[PATH_MAX], self[PATH_MAX];

typedef struct Proc {
    pid_t pid;
    char out_path[PATH_MAX + 16], err_path[PATH_MAX + 16];
} Proc;

typedef struct Result {
    int code; /* scord's exit code; -S if scord itself died of signal S */
    char *out, *err;
} Result;

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define NO_ENV ((const char *const[]){NULL})

static bool env_named(const char *entry, const char *change)
{
    size_t n = strcspn(change, "=");
    return strncmp(entry, change, n) == 0 && entry[n] == '=';
}

/* Starts exe with args; env is the test's environment without any SCORD_ or
 * LD_PRELOAD setting, plus SCORD_LIBRARY=<stand-in>, then the changes: "NAME=v"
 * sets, "NAME" unsets. stdout and stderr go to files, stdin from stdin_path. */
static Proc start(const char *exe, const char *const *args, const char *const *changes,
                  const char *stdin_path)
{
    static int serial;
    Proc p = {0};
    snprintf(p.out_path, sizeof p.out_path, "%s/run%d.out", tmp, serial);
    snprintf(p.err_path, sizeof p.err_path, "%s/run%d.err", tmp, serial++);

    const char *argv[64];
    size_t argc = 0;
    argv[argc++] = exe;
    for (; args[argc - 1] && argc < 63; argc++)
        argv[argc] = args[argc - 1];
    argv[argc] = NULL;

    const char *envp[512];
    size_t envc = 0;
    static char lib_setting[PATH_MAX + 32];
    snprintf(lib_setting, sizeof lib_setting, "%s=%s", SC_ENV_LIBRARY, fake_lib);
    for (char **e = environ; *e && envc < 400; e++)
        if (strncmp(*e, "SCORD_", 6) != 0 && strncmp(*e, "LD_PRELOAD=", 11) != 0)
            envp[envc++] = *e;
    envp[envc++] = lib_setting;
    for (const char *const *c = changes; *c; c++) {
        size_t keep = 0;
        for (size_t i = 0; i < envc; i++)
            if (!env_named(envp[i], *c))
                envp[keep++] = envp[i];
        envc = keep;
        if (strchr(*c, '='))
            envp[envc++] = *c;
    }
    envp[envc] = NULL;

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, stdin_path ? stdin_path : "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, p.out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, p.err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    /* Whoever started the tests may have left signals ignored or blocked (a
     * background job ignores SIGINT): start scord with them at their defaults. */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    int rc = posix_spawn(&p.pid, exe, &fa, &attr, (char *const *)argv, (char *const *)envp);
    CHECK_INT(0, rc);
    if (rc)
        p.pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    return p;
}

static char *slurp(const char *path)
{
    ScBuf b = {0};
    sc_buf_puts(&b, "");
    FILE *f = fopen(path, "r");
    if (f) {
        char chunk[4096];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
            sc_buf_append(&b, chunk, n);
        fclose(f);
    }
    return sc_buf_take(&b);
}

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* Waits at most 20 s, so a hung launcher fails the test instead of hanging it. */
static Result finish(Proc p)
{
    Result r = {.code = -999};
    int status = 0;
    for (int waited = 0; p.pid > 0; waited += 5) {
        pid_t w = waitpid(p.pid, &status, WNOHANG);
        if (w == p.pid) {
            r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
            break;
        }
        if (waited > 20000) {
            printf("scord (pid %d) hung; killed\n", (int)p.pid);
            kill(p.pid, SIGKILL);
            waitpid(p.pid, &status, 0);
            break;
        }
        pause_ms(5);
    }
    r.out = slurp(p.out_path);
    r.err = slurp(p.err_path);
    unlink(p.out_path);
    unlink(p.err_path);
    return r;
}

static Result run_env(const char *const *args, const char *const *changes)
{
    return finish(start(scord, args, changes, NULL));
}

static Result run(const char *const *args)
{
    return run_env(args, NO_ENV);
}

static void done(Result *r)
{
    free(r->out);
    free(r->err);
}

/* Prints the outputs of a run whose exit code was not the one expected. */
#define CHECK_CODE(expected, r)                                                            \
    do {                                                                                   \
        CHECK_INT(expected, (r).code);                                                     \
        if ((r).code != (expected))                                                        \
            printf("  stdout: %s\n  stderr: %s\n", (r).out, (r).err);                      \
    } while (0)

TEST(help)
{
    static const char *const forms[] = {"--help", "-h"};
    for (size_t f = 0; f < SC_ARRAY_LEN(forms); f++) {
        Result r = run(ARGS(forms[f], "sh", "-c", "echo ran"));
        CHECK_CODE(0, r);
        CHECK(strncmp(r.out, "Usage: scord [options] [--] program [args...]\n", 46) == 0);
        CHECK_CONTAINS(r.out, "\n  --verbose  ");
        CHECK_CONTAINS(r.out, "\n  --log-file FILE  ");
        CHECK_CONTAINS(r.out, "\n  --error-exitcode N  ");
        CHECK_CONTAINS(r.out, "\n  --print-limit N  ");
        CHECK_CONTAINS(r.out, "(default: 100)");
        CHECK_CONTAINS(r.out, "SCORD_OPTIONS");
        CHECK_CONTAINS(r.out, "SCORD_LIBRARY");
        CHECK_CONTAINS(r.out, "Exit status:");
        for (size_t i = 0; i < sc_options_count(); i++) {
            char flag[128] = "\n  --";
            const char *name = sc_options_info(i)->name;
            for (size_t k = 0; name[k] && k + 6 < sizeof flag; k++)
                flag[k + 5] = name[k] == '_' ? '-' : name[k];
            CHECK_CONTAINS(r.out, flag);
        }
        for (char *line = r.out; *line;) {
            size_t len = strcspn(line, "\n");
            CHECK(len <= 79);
            line += len + (line[len] != '\0');
        }
        CHECK(!strstr(r.out, "ran"));
        CHECK_STR("", r.err);
        done(&r);
    }
}

TEST(version)
{
    Result r = run(ARGS("--version"));
    CHECK_CODE(0, r);
    CHECK_STR("scord " SCORD_VERSION "\n", r.out);
    CHECK_STR("", r.err);
    done(&r);
}

TEST(exit_code_passthrough)
{
    static const int codes[] = {0, 1, 3, 42, 255};
    for (size_t i = 0; i < SC_ARRAY_LEN(codes); i++) {
        char cmd[32];
        snprintf(cmd, sizeof cmd, "exit %d", codes[i]);
        Result r = run(ARGS("sh", "-c", cmd));
        CHECK_CODE(codes[i], r);
        CHECK_STR("", r.err);
        done(&r);
    }
    Result r = run(ARGS("true"));
    CHECK_CODE(0, r);
    done(&r);
}

TEST(stdio_passthrough)
{
    char in[PATH_MAX + 16];
    snprintf(in, sizeof in, "%s/stdin.txt", tmp);
    FILE *f = fopen(in, "w");
    fputs("hello from stdin\n", f);
    fclose(f);
    Result r = finish(start(scord, ARGS("sh", "-c", "cat; echo to-stderr >&2"), NO_ENV, in));
    CHECK_CODE(0, r);
    CHECK_STR("hello from stdin\n", r.out);
    CHECK_STR("to-stderr\n", r.err);
    done(&r);
    unlink(in);
}

TEST(signal_death)
{
    static const int sigs[] = {SIGKILL, SIGSEGV, SIGTERM, SIGABRT};
    for (size_t i = 0; i < SC_ARRAY_LEN(sigs); i++) {
        char cmd[64], note[96];
        snprintf(cmd, sizeof cmd, "kill -%d $$", sigs[i]);
        Result r = run(ARGS("sh", "-c", cmd));
        CHECK_CODE(128 + sigs[i], r);
        snprintf(note, sizeof note, "scord: sh was killed by signal %d (%s)", sigs[i],
                 strsignal(sigs[i]));
        CHECK_CONTAINS(r.err, note);
        done(&r);
    }
}

TEST(exec_failure)
{
    Result r = run(ARGS("/nonexistent/prog", "arg"));
    CHECK_CODE(127, r);
    CHECK_STR("scord: cannot run '/nonexistent/prog': No such file or directory\n", r.err);
    done(&r);

    r = run(ARGS("scord-test-no-such-program"));
    CHECK_CODE(127, r);
    CHECK_STR("scord: cannot run 'scord-test-no-such-program': No such file or directory "
              "(searched PATH)\n",
              r.err);
    done(&r);

    char file[PATH_MAX + 16];
    snprintf(file, sizeof file, "%s/not-executable", tmp);
    FILE *f = fopen(file, "w");
    fputs("#!/bin/sh\nexit 0\n", f);
    fclose(f);
    chmod(file, 0644);
    r = run(ARGS(file));
    CHECK_CODE(127, r);
    CHECK_CONTAINS(r.err, "not-executable': Permission denied\n");
    done(&r);
    unlink(file);
}

static const char print_options[] = "printf %s \"$SCORD_OPTIONS\"";

/* --suppressions: the launcher reads every file before the program runs; a file it
 * cannot read or a line that is no rule stops it (exit 1, file, line and column
 * named); the library gets every path made absolute. */
TEST(suppressions_files)
{
    char good[PATH_MAX + 32], bad[PATH_MAX + 32], rel[PATH_MAX + 64];
    snprintf(good, sizeof good, "%s/good.supp", tmp);
    snprintf(bad, sizeof bad, "%s/bad.supp", tmp);
    FILE *f = fopen(good, "w");
    fputs("# third-party code\nrace:third_party/\nkernel:^warmup\n", f);
    fclose(f);
    f = fopen(bad, "w");
    fputs("race:ok\nrce:typo\n", f);
    fclose(f);

    Result r = run(ARGS("--suppressions", bad, "sh", "-c", "echo ran"));
    CHECK_CODE(1, r);
    CHECK_CONTAINS(r.err, "bad.supp:2:1: unknown suppression type 'rce'");
    CHECK_STR("", r.out);
    done(&r);

    r = run(ARGS("--suppressions", "no-such-file.supp", "true"));
    CHECK_CODE(1, r);
    CHECK_CONTAINS(r.err, "no-such-file.supp: cannot open the suppressions file: No such file or directory");
    done(&r);

    /* Two files, one relative (the tests run from the repository root), one absolute. */
    char cwd[PATH_MAX];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    const char *base = strrchr(tmp, '/');
    snprintf(rel, sizeof rel, "%s/tests%s/good.supp", sc_test_build_dir(), base ? base : "");
    char both[2 * PATH_MAX + 128], want[3 * PATH_MAX + 256];
    snprintf(both, sizeof both, "%s,%s", rel, good);
    r = run(ARGS("--suppressions", both, "sh", "-c", print_options));
    CHECK_CODE(0, r);
    snprintf(want, sizeof want, ":suppressions=%s/%s,%s", cwd, rel, good);
    CHECK_CONTAINS(r.out, want);
    done(&r);
    unlink(good);
    unlink(bad);
}

TEST(usage_errors)
{
    const struct {
        const char *const *args;
        const char *err;
    } cases[] = {
        {ARGS("--bogus", "sh", "-c", "echo ran"),
         "scord: unknown option '--bogus'; 'scord --help' lists the options\n"},
        {ARGS("--bogus=1", "true"), "scord: unknown option '--bogus'; "},
        {ARGS("-x", "true"), "scord: unknown option '-x'; "},
        {ARGS("--log_file=x", "true"), "scord: unknown option '--log_file'; "},
        {ARGS("--verbose-", "true"), "scord: unknown option '--verbose-'; "},
        {ARGS("--print-limit"),
         "scord: option '--print-limit' needs a value (--print-limit=VALUE or "
         "--print-limit VALUE)\n"},
        {ARGS("--print-limit=-1", "true"),
         "scord: option '--print-limit': bad value '-1': expected a whole number from 0 "
         "to 2147483647\n"},
        {ARGS("--error-exitcode", "x", "true"), "scord: option '--error-exitcode': bad value 'x'"},
        {ARGS("--verbose=maybe", "true"), "scord: option '--verbose': bad value 'maybe'"},
        {ARGS("--error-exitcode", "256", "true"),
         "scord: option '--error-exitcode': bad value '256': expected a whole number from 0 to 255\n"},
        {ARGS("--error-level", "info", "true"),
         "scord: option '--error-level': bad value 'info': expected one of error, warning\n"},
        {ARGS("--shadow", "partial", "true"),
         "scord: option '--shadow': bad value 'partial': expected one of full, cache\n"},
        {ARGS("--cut=hook", "true"),
         "scord: option '--cut': bad value 'hook': expected one of none, hooks, access, grouping, shadow\n"},
        {ARGS("--report-level", "loud", "true"),
         "scord: option '--report-level': bad value 'loud': expected one of info, warning, error\n"},
        {ARGS("--kernel-name", "reduce", "true"),
         "scord: --kernel-name reduce: a filter is kns=TEXT (part of the name), kne=NAME (the whole name) "
         "or regex=RE\n"},
        {ARGS("--kernel-name-exclude", "regex=(", "true"),
         "scord: --kernel-name-exclude regex=(: the regular expression does not compile: "},
        {ARGS("--launch-count", "-2", "true"), "scord: option '--launch-count': bad value '-2'"},
        {ARGS("--log-file", "run-%d.log", "true"),
         "scord: --log-file 'run-%d.log': column 5: '%' must be followed by 'p'"},
        {ARGS("--json-file", "/scord-test-no-such-dir/r-%p.json", "true"),
         "scord: --json-file '/scord-test-no-such-dir/r-%p.json': cannot write in the directory "
         "/scord-test-no-such-dir: No such file or directory\n"},
        {ARGS("--sarif-file", "r-%x.sarif", "true"), "scord: --sarif-file 'r-%x.sarif': column 3: "},
        {ARGS("--verbose"), "scord: no program to run\nUsage: scord"},
        {ARGS("--"), "scord: no program to run\n"},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(cases); i++) {
        Result r = run(cases[i].args);
        CHECK_CODE(1, r);
        CHECK(strncmp(r.err, cases[i].err, strlen(cases[i].err)) == 0);
        if (strncmp(r.err, cases[i].err, strlen(cases[i].err)) != 0)
            printf("  case %zu stderr: %s\n", i, r.err);
        CHECK_STR("", r.out);
        done(&r);
    }
    Result r = run_env(ARGS("true"), ARGS("SCORD_OPTIONS=print_limit=1:bogus=2"));
    CHECK_CODE(1, r);
    CHECK_STR("scord: SCORD_OPTIONS: column 15: unknown option 'bogus'; valid options: "
              "verbose, log_file, error_exitcode, error_level, print_limit, detect, json_file, sarif_file, cache_dir, no_cache, shadow, cut, cache_mb, prune, quick, check_graphs, triton_ptx, suppressions, report_level, kernel_name, kernel_name_exclude, "
              "launch_skip, launch_count\n",
              r.err);
    done(&r);
    r = run_env(ARGS("--version"), ARGS("SCORD_OPTIONS=bogus=2"));
    CHECK_CODE(0, r);
    done(&r);
}

TEST(option_forms)
{
    Result r = run(ARGS("sh", "-c", print_options));
    CHECK_CODE(0, r);
    CHECK_STR("verbose=false:log_file=:error_exitcode=0:error_level=error:print_limit=100:detect=true:json_file=:sarif_file=:cache_dir=:no_cache=false:shadow=full:cut=none:cache_mb=0:prune=true:quick=true:check_graphs=true:triton_ptx=true:suppressions=:report_level=warning:kernel_name=:kernel_name_exclude=:launch_skip=0:launch_count=0", r.out);
    done(&r);

    r = run(ARGS("--verbose", "--log-file", "/tmp/a.log", "--error-exitcode", "5",
                 "--print-limit", "7", "sh", "-c", print_options));
    CHECK_CODE(0, r);
    CHECK_STR("verbose=true:log_file=/tmp/a.log:error_exitcode=5:error_level=error:print_limit=7:detect=true:json_file=:sarif_file=:cache_dir=:no_cache=false:shadow=full:cut=none:cache_mb=0:prune=true:quick=true:check_graphs=true:triton_ptx=true:suppressions=:report_level=warning:kernel_name=:kernel_name_exclude=:launch_skip=0:launch_count=0", r.out);
    done(&r);

    r = run(ARGS("--verbose=false", "--log-file=/tmp/b:c\\d.log", "--error-exitcode=6",
                 "--print-limit=0", "sh", "-c", print_options));
    CHECK_CODE(0, r);
    CHECK_STR("verbose=false:log_file=/tmp/b\\:c\\\\d.log:error_exitcode=6:error_level=error:print_limit=0:detect=true:json_file=:sarif_file=:cache_dir=:no_cache=false:shadow=full:cut=none:cache_mb=0:prune=true:quick=true:check_graphs=true:triton_ptx=true:suppressions=:report_level=warning:kernel_name=:kernel_name_exclude=:launch_skip=0:launch_count=0",
              r.out);
    done(&r);

    /* A flag takes a following true or false as its value, and nothing else. */
    r = run(ARGS("--detect", "false", "--verbose", "true", "--no-cache", "sh", "-c", print_options));
    CHECK_CODE(0, r);
    CHECK_STR("verbose=true:log_file=:error_exitcode=0:error_level=error:print_limit=100:detect=false:json_file=:sarif_file=:cache_dir=:no_cache=true:shadow=full:cut=none:cache_mb=0:prune=true:quick=true:check_graphs=true:triton_ptx=true:suppressions=:report_level=warning:kernel_name=:kernel_name_exclude=:launch_skip=0:launch_count=0", r.out);
    done(&r);

    /* A later flag wins; relative output files are made absolute. */
    r = run(ARGS("--print-limit=1", "--print-limit", "2", "--log-file", "rel-%p.log", "--json-file",
                 "r.json", "--sarif-file", "r-%p.sarif", "sh", "-c", print_options));
    char cwd[PATH_MAX], want[4 * PATH_MAX];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(want, sizeof want, "verbose=false:log_file=%s/rel-%%p.log:error_exitcode=0:"
             "error_level=error:print_limit=2:detect=true:json_file=%s/r.json:sarif_file=%s/r-%%p.sarif:"
             "cache_dir=:no_cache=false:shadow=full:cut=none:cache_mb=0:prune=true:quick=true:check_graphs=true:triton_ptx=true:suppressions=:report_level=warning:kernel_name=:kernel_name_exclude=:launch_skip=0:launch_count=0", cwd, cwd,
             cwd);
    CHECK_CODE(0, r);
    CHECK_STR(want, r.out);
    done(&r);
}

TEST(options_from_environment)
{
    /* SCORD_OPTIONS holds defaults; the command line overrides them. */
    Result r = run_env(ARGS("--print-limit", "9", "sh", "-c", print_options),
                       ARGS("SCORD_OPTIONS=print_limit=5:verbose=1:error_exitcode=3"));
    CHECK_CODE(0, r);
    CHECK_STR("verbose=true:log_file=:error_exitcode=3:error_level=error:print_limit=9:detect=true:json_file=:sarif_file=:cache_dir=:no_cache=false:shadow=full:cut=none:cache_mb=0:prune=true:quick=true:check_graphs=true:triton_ptx=true:suppressions=:report_level=warning:kernel_name=:kernel_name_exclude=:launch_skip=0:launch_count=0", r.out);
    done(&r);
    /* The stand-in library parsed what scord passed. */
    r = run(ARGS("--log-file=/x:y", "sh", "-c", "printf %s \"$SCORD_FAKE_LOADED\""));
    CHECK_CODE(0, r);
    CHECK_STR("ok", r.out);
    done(&r);
}

TEST(double_dash)
{
    Result r = run(ARGS("--", "sh", "-c", "exit 4"));
    CHECK_CODE(4, r);
    done(&r);
    /* After --, an option-like word is the program. */
    r = run(ARGS("--verbose", "--", "--help"));
    CHECK_CODE(127, r);
    CHECK_STR("scord: cannot run '--help': No such file or directory (searched PATH)\n", r.err);
    done(&r);
    /* The program's own arguments are never read as scord options. */
    r = run(ARGS("--print-limit", "3", "--", "sh", "-c", "printf '%s|' \"$@\" \"$SCORD_OPTIONS\"",
                 "x", "--help", "--", "--bogus"));
    CHECK_CODE(0, r);
    CHECK_STR("--help|--|--bogus|verbose=false:log_file=:error_exitcode=0:error_level=error:print_limit=3:detect=true:json_file=:sarif_file=:cache_dir=:no_cache=false:shadow=full:cut=none:cache_mb=0:prune=true:quick=true:check_graphs=true:triton_ptx=true:suppressions=:report_level=warning:kernel_name=:kernel_name_exclude=:launch_skip=0:launch_count=0|", r.out);
    done(&r);
    r = run(ARGS("sh", "-c", "printf '%s|' \"$@\"", "x", "--version"));
    CHECK_CODE(0, r);
    CHECK_STR("--version|", r.out);
    done(&r);
}

static const char print_preload[] =
    "printf '%s|%s' \"$LD_PRELOAD\" \"$SCORD_FAKE_LOADED\"";

TEST(ld_preload)
{
    Result r = run(ARGS("sh", "-c", print_preload));
    char want[2 * PATH_MAX];
    snprintf(want, sizeof want, "%s|ok", fake_lib);
    CHECK_CODE(0, r);
    CHECK_STR(want, r.out);
    done(&r);

    /* The sanitizer build of scord itself objects to a preload it did not ask for. */
    r = run_env(ARGS("sh", "-c", print_preload),
                ARGS("LD_PRELOAD=libm.so.6", "ASAN_OPTIONS=verify_asan_link_order=0"));
    snprintf(want, sizeof want, "%s:libm.so.6|ok", fake_lib);
    CHECK_CODE(0, r);
    CHECK_STR(want, r.out);
    done(&r);

    r = run_env(ARGS("sh", "-c", print_preload), ARGS("LD_PRELOAD="));
    snprintf(want, sizeof want, "%s|ok", fake_lib);
    CHECK_CODE(0, r);
    CHECK_STR(want, r.out);
    done(&r);
}

TEST(status_fd_is_an_inherited_pipe)
{
    Result r = run(ARGS("bash", "-c",
                        "fd=$SCORD_STATUS_FD; [ \"$fd\" -ge 3 ] && [ -p /proc/self/fd/$fd ] "
                        "&& [ -w /proc/self/fd/$fd ] && echo pipe"));
    CHECK_CODE(0, r);
    CHECK_STR("pipe\n", r.out);
    done(&r);
}

TEST(error_exitcode)
{
    const struct {
        const char *const *args;
        int code;
    } cases[] = {
        {ARGS("--error-exitcode", "9", "bash", "-c", "echo races=2 >&$SCORD_STATUS_FD"), 9},
        {ARGS("--error-exitcode=9", "bash", "-c", "echo races=2 >&$SCORD_STATUS_FD"), 9},
        {ARGS("bash", "-c", "echo races=2 >&$SCORD_STATUS_FD"), 0},
        {ARGS("--error-exitcode", "9", "bash", "-c", "echo races=0 >&$SCORD_STATUS_FD"), 0},
        {ARGS("--error-exitcode", "9", "bash", "-c", "true"), 0},
        {ARGS("--error-exitcode", "9", "bash", "-c", "echo races=2 >&$SCORD_STATUS_FD; exit 3"),
         3},
        {ARGS("--error-exitcode", "9", "bash", "-c",
              "echo races=2 >&$SCORD_STATUS_FD; kill -TERM $$"),
         128 + SIGTERM},
        /* Lines of several processes add up. */
        {ARGS("--error-exitcode", "9", "bash", "-c",
              "echo races=0 >&$SCORD_STATUS_FD; bash -c 'echo races=1 >&$SCORD_STATUS_FD'"),
         9},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(cases); i++) {
        Result r = run(cases[i].args);
        CHECK_CODE(cases[i].code, r);
        done(&r);
    }
    Result r = run_env(ARGS("bash", "-c", "echo races=1 >&$SCORD_STATUS_FD"),
                       ARGS("SCORD_OPTIONS=error_exitcode=8"));
    CHECK_CODE(8, r);
    done(&r);
}

/* The library side of the contract: sc_status_write in the stand-in's exit handler,
 * in every process of the program. */
TEST(error_exitcode_from_library)
{
    Result r = run_env(ARGS("--error-exitcode", "7", "env"), ARGS("SCORD_FAKE_RACES=2"));
    CHECK_CODE(7, r);
    done(&r);
    r = run_env(ARGS("--error-exitcode", "7", "env"), ARGS("SCORD_FAKE_RACES=0"));
    CHECK_CODE(0, r);
    done(&r);
    r = run_env(ARGS("--verbose", "bash", "-c", "env >/dev/null; env >/dev/null"),
                ARGS("SCORD_FAKE_RACES=2"));
    CHECK_CODE(0, r);
    CHECK_CONTAINS(r.err, "scord: bash exited with code 0; 3 processes reported 6 races at --error-level error\n");
    done(&r);
}

/* What the launcher says at the end of a run. The total of several processes' races
 * is printed without --verbose too; one process's own summary is the total, and a run
 * with no race says nothing unasked. A case whose `err` ends in no newline is a prefix
 * of stderr, the others all of it. */
TEST(verbose_status_notes)
{
    static const char two[] = "echo races=2 >&$SCORD_STATUS_FD; echo races=3 >&$SCORD_STATUS_FD";
    static const char five[] = "scord: bash exited with code 0; 2 processes reported 5 races at --error-level error\n";
    const struct {
        const char *const *args;
        const char *err;
    } cases[] = {
        {ARGS("--verbose", "bash", "-c", two), five},
        {ARGS("bash", "-c", two), five},
        {ARGS("bash", "-c", "echo races=2 >&$SCORD_STATUS_FD"), ""},
        {ARGS("bash", "-c", "echo races=0 >&$SCORD_STATUS_FD; echo races=0 >&$SCORD_STATUS_FD"), ""},
        {ARGS("sh", "-c", "exit 0"), ""},
        {ARGS("--verbose", "sh", "-c", "exit 0"), "scord: sh exited with code 0 and reported no race count"},
        {ARGS("--error-exitcode=4", "bash", "-c", "echo junk >&$SCORD_STATUS_FD"),
         "scord: ignoring a malformed status line from the program (status line 1: expected 'races=<N>' or "
         "'idle')\n"},
        /* A shell that never used CUDA is no process that reported. */
        {ARGS("bash", "-c", "echo idle >&$SCORD_STATUS_FD; echo races=2 >&$SCORD_STATUS_FD; echo races=3 "
                            ">&$SCORD_STATUS_FD"),
         five},
        {ARGS("bash", "-c", "echo idle >&$SCORD_STATUS_FD; echo races=2 >&$SCORD_STATUS_FD"), ""},
        {ARGS("--verbose", "bash", "-c", "echo idle >&$SCORD_STATUS_FD; echo idle >&$SCORD_STATUS_FD"),
         "scord: bash exited with code 0; none of its 2 processes used CUDA\n"},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(cases); i++) {
        Result r = run(cases[i].args);
        CHECK_CODE(0, r);
        size_t n = strlen(cases[i].err);
        if (n == 0 || cases[i].err[n - 1] == '\n')
            CHECK_STR(cases[i].err, r.err);
        else
            CHECK_CONTAINS(r.err, cases[i].err);
        done(&r);
    }
}

/* Waits until the file at path holds text (the program is ready for a signal). */
static bool wait_for(const char *path, const char *text)
{
    for (int waited = 0; waited < 20000; waited += 10) {
        char *s = slurp(path);
        bool found = strstr(s, text) != NULL;
        free(s);
        if (found)
            return true;
        pause_ms(10);
    }
    return false;
}

static const char trap_loop[] =
    "trap 'echo caught; exit 42' USR1; trap 'echo caught; exit 43' INT; "
    "trap 'echo caught; exit 44' QUIT; echo ready; while :; do sleep 0.02; done";

TEST(signal_forwarding)
{
    static const struct {
        int sig, code;
    } cases[] = {{SIGUSR1, 42}, {SIGINT, 43}, {SIGQUIT, 44}, {SIGTERM, 128 + SIGTERM},
                 {SIGHUP, 128 + SIGHUP}, {SIGUSR2, 128 + SIGUSR2}};
    for (size_t i = 0; i < SC_ARRAY_LEN(cases); i++) {
        Proc p = start(scord, ARGS("bash", "-c", trap_loop), NO_ENV, NULL);
        CHECK(wait_for(p.out_path, "ready\n"));
        kill(p.pid, cases[i].sig);
        Result r = finish(p);
        CHECK_CODE(cases[i].code, r);
        CHECK_STR(cases[i].code < 128 ? "ready\ncaught\n" : "ready\n", r.out);
        done(&r);
    }
}

/* `test_cli count-sigint`: the program for terminal_sigint_once. Prints ready,
 * waits for a SIGINT, then gives a second one time to arrive and prints the count. */
static volatile sig_atomic_t sigints;

static void on_sigint(int sig)
{
    (void)sig;
    sigints++;
}

static int count_sigint(void)
{
    struct sigaction sa = {.sa_handler = on_sigint};
    sigaction(SIGINT, &sa, NULL);
    printf("ready\n");
    fflush(stdout);
    for (int waited = 0; !sigints && waited < 10000; waited += 10)
        pause_ms(10);
    pause_ms(300);
    printf("sigints=%d\n", (int)sigints);
    return 0;
}

/* Ctrl-C in a terminal signals the whole foreground process group, the program
 * included; scord must not forward that SIGINT a second time. */
TEST(terminal_sigint_once)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 && (errno == ENOENT || errno == ENODEV)) {
        printf("ok terminal_sigint_once skipped: no pseudo-terminals here (%s)\n",
               strerror(errno));
        return;
    }
    CHECK(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0);
    char *slave = ptsname(master);
    CHECK(slave != NULL);
    if (master < 0 || !slave)
        return;
    char lib_setting[PATH_MAX + 32];
    snprintf(lib_setting, sizeof lib_setting, "%s=%s", SC_ENV_LIBRARY, fake_lib);
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        int t = open(slave, O_RDWR); /* becomes the controlling terminal */
        ioctl(t, TIOCSCTTY, 0);
        dup2(t, 0);
        dup2(t, 1);
        dup2(t, 2);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGINT, SIG_DFL);
        setenv(SC_ENV_LIBRARY, fake_lib, 1);
        /* The sanitizer build of the helper objects to the stand-in preloaded first. */
        setenv("ASAN_OPTIONS", "verify_asan_link_order=0", 1);
        execl(scord, scord, self, "count-sigint", (char *)NULL);
        _exit(126);
    }
    ScBuf out = {0};
    bool sent = false;
    for (int waited = 0; waited < 20000;) {
        struct pollfd pf = {.fd = master, .events = POLLIN};
        if (poll(&pf, 1, 10) <= 0) {
            waited += 10;
            continue;
        }
        char chunk[256];
        ssize_t n = read(master, chunk, sizeof chunk);
        if (n <= 0)
            break; /* EIO once every holder of the terminal is gone */
        sc_buf_append(&out, chunk, (size_t)n);
        if (!sent && strstr(out.data, "ready")) {
            CHECK_INT(1, write(master, "\x03", 1));
            sent = true;
        }
    }
    int status = 0;
    CHECK_INT(pid, waitpid(pid, &status, 0));
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK_CONTAINS(out.data, "sigints=1");
    sc_buf_free(&out);
    close(master);
}

TEST(log_file_gets_notes)
{
    char pattern[PATH_MAX + 32];
    snprintf(pattern, sizeof pattern, "%s/log-%%p.txt", tmp);
    Result r = run(ARGS("--log-file", pattern, "sh", "-c", "echo $$; kill -TERM $$"));
    CHECK_CODE(128 + SIGTERM, r);
    CHECK_STR("", r.err);
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/log-%ld.txt", tmp, strtol(r.out, NULL, 10));
    char *log = slurp(path);
    CHECK_STR("scord: sh was killed by signal 15 (Terminated)\n", log);
    free(log);
    unlink(path);
    done(&r);
}

static bool copy_file(const char *from, const char *to, mode_t mode)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    bool ok = in && out;
    if (ok) {
        char chunk[65536];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, in)) > 0)
            ok = ok && fwrite(chunk, 1, n, out) == n;
    }
    if (in)
        fclose(in);
    if (out)
        ok = fclose(out) == 0 && ok;
    return ok && chmod(to, mode) == 0;
}

/* scord finds ../lib/libscord.so from its real location, in any prefix. */
TEST(library_next_to_binary)
{
    char dir[PATH_MAX + 64], bin[PATH_MAX + 64], lib[PATH_MAX + 64], link[PATH_MAX + 64];
    snprintf(dir, sizeof dir, "%s/prefix", tmp);
    mkdir(dir, 0755);
    snprintf(bin, sizeof bin, "%s/prefix/bin", tmp);
    mkdir(bin, 0755);
    snprintf(lib, sizeof lib, "%s/prefix/lib", tmp);
    mkdir(lib, 0755);
    strcat(bin, "/scord");
    strcat(lib, "/libscord.so");
    CHECK(copy_file(scord, bin, 0755));
    CHECK(copy_file(fake_lib, lib, 0644));
    snprintf(link, sizeof link, "%s/scord-link", tmp);
    CHECK(symlink(bin, link) == 0);

    const char *const exes[] = {bin, link};
    for (size_t i = 0; i < SC_ARRAY_LEN(exes); i++) {
        Result r = finish(start(exes[i], ARGS("sh", "-c", print_preload), ARGS(SC_ENV_LIBRARY),
                                NULL));
        char want[2 * PATH_MAX];
        snprintf(want, sizeof want, "%s|ok", lib);
        CHECK_CODE(0, r);
        CHECK_STR(want, r.out);
        done(&r);
    }

    /* Without the library: a clear error, and the program does not run. */
    unlink(lib);
    Result r = finish(start(bin, ARGS("sh", "-c", "echo ran"), ARGS(SC_ENV_LIBRARY), NULL));
    CHECK_CODE(1, r);
    char want[2 * PATH_MAX];
    snprintf(want, sizeof want,
             "scord: libscord.so not found at %s/prefix/bin/../lib/libscord.so: No such file "
             "or directory; build it with `make`",
             tmp);
    CHECK(strncmp(r.err, want, strlen(want)) == 0);
    if (strncmp(r.err, want, strlen(want)) != 0)
        printf("  stderr: %s\n", r.err);
    CHECK_STR("", r.out);
    done(&r);
    unlink(link);
    unlink(bin);
    snprintf(dir, sizeof dir, "%s/prefix/bin", tmp);
    rmdir(dir);
    snprintf(dir, sizeof dir, "%s/prefix/lib", tmp);
    rmdir(dir);
    snprintf(dir, sizeof dir, "%s/prefix", tmp);
    rmdir(dir);
}

TEST(library_override_errors)
{
    Result r = run_env(ARGS("sh", "-c", "echo ran"), ARGS("SCORD_LIBRARY=/nonexistent/lib.so"));
    CHECK_CODE(1, r);
    CHECK_STR("scord: SCORD_LIBRARY=/nonexistent/lib.so: cannot use it: No such file or "
              "directory\n",
              r.err);
    CHECK_STR("", r.out);
    done(&r);

    char dir[PATH_MAX + 32], lib[PATH_MAX + 64], setting[PATH_MAX + 96];
    snprintf(dir, sizeof dir, "%s/a:b", tmp);
    mkdir(dir, 0755);
    snprintf(lib, sizeof lib, "%s/libscord.so", dir);
    CHECK(copy_file(fake_lib, lib, 0644));
    snprintf(setting, sizeof setting, "SCORD_LIBRARY=%s", lib);
    r = run_env(ARGS("true"), ARGS(setting));
    CHECK_CODE(1, r);
    CHECK_CONTAINS(r.err, "LD_PRELOAD cannot carry a path with ':' or ' '");
    done(&r);
    unlink(lib);
    rmdir(dir);

    r = run_env(ARGS("true"), ARGS("SCORD_LIBRARY=/"));
    CHECK_CODE(1, r);
    CHECK_STR("scord: / is not a regular file\n", r.err);
    done(&r);
}

/* scord must not link the CUDA libraries: no such name in its dynamic section. */
TEST(no_cuda_linkage)
{
    FILE *f = fopen(scord, "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    ScBuf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sc_buf_append(&b, chunk, n);
    fclose(f);
    static const char *const names[] = {"libcuda.so", "libcudart", "libnvrtc", "libnvJitLink"};
    bool libc_seen = memmem(b.data, b.len, "libc.so.6", 9) != NULL;
    CHECK(libc_seen); /* the scan sees DT_NEEDED names at all */
    for (size_t i = 0; i < SC_ARRAY_LEN(names); i++)
        CHECK(memmem(b.data, b.len, names[i], strlen(names[i])) == NULL);
    sc_buf_free(&b);
}

static bool absolute(const char *rel, char *out)
{
    if (realpath(rel, out))
        return true;
    printf("cannot find %s: %s (run through `make check`)\n", rel, strerror(errno));
    return false;
}

/* Finds the binaries under test (built by `make check`) and makes a scratch dir. */
TEST(setup)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/bin/scord", sc_test_build_dir());
    CHECK(absolute(path, scord));
    snprintf(path, sizeof path, "%s/tests/cli/libscord_fake.so", sc_test_build_dir());
    CHECK(absolute(path, fake_lib));
    snprintf(path, sizeof path, "%s/tests/test_cli.XXXXXX", sc_test_build_dir());
    CHECK(mkdtemp(path) && absolute(path, tmp));
    CHECK(absolute("/proc/self/exe", self));
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "count-sigint"))
        return count_sigint();
    RUN(setup);
    if (sc_test_failed)
        return TEST_REPORT();
    RUN(help);
    RUN(version);
    RUN(exit_code_passthrough);
    RUN(stdio_passthrough);
    RUN(signal_death);
    RUN(exec_failure);
    RUN(usage_errors);
    RUN(suppressions_files);
    RUN(option_forms);
    RUN(options_from_environment);
    RUN(double_dash);
    RUN(ld_preload);
    RUN(status_fd_is_an_inherited_pipe);
    RUN(error_exitcode);
    RUN(error_exitcode_from_library);
    RUN(verbose_status_notes);
    RUN(signal_forwarding);
    RUN(terminal_sigint_once);
    RUN(log_file_gets_notes);
    RUN(library_next_to_binary);
    RUN(library_override_errors);
    RUN(no_cuda_linkage);
    rmdir(tmp);
    return TEST_REPORT();
}
