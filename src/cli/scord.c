/* scord.c: the `scord` launcher: reads options, runs the program with libscord.so
 * preloaded, forwards signals and turns the program's end into scord's exit code. */
#include "common/sc_options.h"
#include "common/sc_select.h"
#include "report/report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Exit codes of scord itself; otherwise it exits with the program's code. */
enum {
    EXIT_SCORD_FAILED = 1,  /* bad option, no library, a system call failed */
    EXIT_NOT_STARTED = 127, /* exec failed, as in a shell */
    EXIT_SIGNALLED = 128,   /* + the signal that killed the program */
};

#define HELP_COLUMN 24
#define HELP_WIDTH 79
#define NBSP "\1" /* in help text: a space that does not break the line */
/* The status pipe's write end is moved to this fd or above, clear of the low
 * numbers programs and shell scripts (`exec 3>...`) pick themselves. */
#define STATUS_FD_MIN 100

static const int forwarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

typedef enum Action { ACTION_RUN, ACTION_HELP, ACTION_VERSION } Action;

/* What the program is run with. */
typedef struct Launch {
    ScOptions opts;
    char **argv; /* program and its arguments, NULL-terminated */
    char library[PATH_MAX];
} Launch;

static const char usage_line[] = "Usage: scord [options] [--] program [args...]\n";

/* --help shows a STRING option's value as the first capitalized word of its help
 * (options.def's convention), an INT's as N. */
static void metavar(const ScOptionInfo *opt, ScBuf *out)
{
    switch (opt->type) {
    case SC_OPTION_TYPE_BOOL:
        return;
    case SC_OPTION_TYPE_INT:
        sc_buf_puts(out, " N");
        return;
    case SC_OPTION_TYPE_STRING:
        for (const char *p = opt->help; *p; p++) {
            size_t n = 0;
            while (p[n] >= 'A' && p[n] <= 'Z')
                n++;
            bool word_start = p == opt->help || p[-1] == ' ';
            bool word_end = p[n] == '\0' || p[n] == ' ' || p[n] == ';' || p[n] == ',';
            if (n >= 2 && word_start && word_end) {
                sc_buf_printf(out, " %.*s", (int)n, p);
                return;
            }
        }
        sc_buf_puts(out, " VALUE");
        return;
    }
}

/* Appends text word-wrapped to HELP_WIDTH with every line starting at column
 * indent; col is where the current line already ends. */
static void wrap(ScBuf *out, size_t col, size_t indent, const char *text)
{
    if (col >= indent) {
        sc_buf_puts(out, "\n");
        col = 0;
    }
    const char *p = text;
    while (*p) {
        size_t room = HELP_WIDTH - indent, n = strlen(p);
        if (n > room) {
            n = room;
            while (n > 0 && p[n] != ' ')
                n--;
            if (n == 0)
                n = strcspn(p, " ");
        }
        sc_buf_printf(out, "%*s", (int)(indent - col), "");
        for (size_t k = 0; k < n; k++)
            sc_buf_append(out, p[k] == NBSP[0] ? " " : &p[k], 1);
        sc_buf_puts(out, "\n");
        col = 0;
        p += n;
        while (*p == ' ')
            p++;
    }
}

static void help_item(ScBuf *out, const char *left, const char *text)
{
    sc_buf_printf(out, "  %s", left);
    wrap(out, 2 + strlen(left), HELP_COLUMN, text);
}

static void print_help(void)
{
    ScBuf h = {0}, left = {0}, text = {0};
    ScOptions defaults;
    sc_options_init(&defaults);
    sc_buf_puts(&h, usage_line);
    sc_buf_puts(&h, "\nRuns program with scord's data-race detector (libscord.so) preloaded and\n"
                    "exits with the program's exit code.\n\nOptions:\n");
    help_item(&h, "-h, --help", "print this help and exit");
    help_item(&h, "--version", "print scord's version and exit");
    for (size_t i = 0; i < sc_options_count(); i++) {
        const ScOptionInfo *opt = sc_options_info(i);
        left.len = 0;
        text.len = 0;
        sc_buf_puts(&left, "--");
        for (const char *p = opt->name; *p; p++)
            sc_buf_append(&left, *p == '_' ? "-" : p, 1);
        metavar(opt, &left);
        sc_buf_puts(&text, opt->help);
        if (opt->type != SC_OPTION_TYPE_BOOL) {
            size_t at = text.len;
            sc_buf_puts(&text, " (default:" NBSP);
            size_t value_at = text.len;
            sc_options_format_value(&defaults, opt, &text);
            if (text.len == value_at) { /* an empty default means "not set": say nothing */
                text.len = at;
                text.data[at] = '\0';
            } else {
                sc_buf_puts(&text, ")");
            }
        }
        help_item(&h, left.data, text.data);
    }
    help_item(&h, "--", "end of scord's options: the program follows");
    sc_buf_puts(&h, "\nAn option takes its value as --name=VALUE or --name VALUE; a flag\n"
                    "(--verbose) also takes --verbose=true|false or --verbose true|false.\n\nEnvironment:\n");
    help_item(&h, SC_ENV_OPTIONS,
              "options as name=value:name=value, names spelled with '_' "
              "(print_limit=10:verbose=true); '\\:' and '\\\\' escape ':' and '\\'; the "
              "command line overrides them");
    help_item(&h, SC_ENV_LIBRARY,
              "the library to preload instead of ../lib/libscord.so next to the scord binary");
    sc_buf_puts(&h, "\nExit status:\n");
    wrap(&h, 0, 2,
         "the program's; the --error-exitcode value if the program exited 0 but races "
         "were found; 128+S if the program was killed by signal S; 127 if it could not be "
         "started; 1 if scord itself failed (bad option, library not found).");
    fputs(h.data, stdout);
    sc_buf_free(&h);
    sc_buf_free(&left);
    sc_buf_free(&text);
}

static bool parse_args(int argc, char **argv, ScOptions *o, Action *action, int *prog,
                       ScErr *err)
{
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (a[0] != '-' || !a[1])
            break;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            *action = ACTION_HELP;
            return true;
        }
        if (!strcmp(a, "--version")) {
            *action = ACTION_VERSION;
            return true;
        }
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        char name[64] = "";
        bool hyphens_only = a[1] == '-' && len - 2 < sizeof name && !memchr(a, '_', len);
        for (size_t k = 2; hyphens_only && k < len; k++)
            name[k - 2] = a[k] == '-' ? '_' : a[k];
        const ScOptionInfo *opt = hyphens_only ? sc_options_find(name) : NULL;
        if (!opt)
            return sc_err_set(err, "unknown option '%.*s'; 'scord --help' lists the options",
                              (int)len, a);
        const char *value;
        if (eq)
            value = eq + 1;
        else if (opt->type == SC_OPTION_TYPE_BOOL)
            /* --detect false, as the README writes it; a program named true or
             * false runs after --. */
            value = i + 1 < argc && (!strcmp(argv[i + 1], "true") || !strcmp(argv[i + 1], "false"))
                        ? argv[++i]
                        : "true";
        else if (i + 1 < argc)
            value = argv[++i];
        else
            return sc_err_set(err, "option '%s' needs a value (%s=VALUE or %s VALUE)", a, a, a);
        if (!sc_options_set(o, opt, value, err)) {
            sc_err_wrap(err, "option '%.*s': ", (int)len, a);
            return false;
        }
    }
    if (i >= argc)
        return sc_err_set(err, "no program to run\n%s'scord --help' says more", usage_line);
    *prog = i;
    return true;
}

/* path made absolute in out (cap bytes), so that a program that changes directory
 * still finds it; `what` names the option for errors. */
static bool absolute_path(const char *what, const char *path, char *out, size_t cap, ScErr *err)
{
    char cwd[PATH_MAX];
    if (path[0] != '/' && !getcwd(cwd, sizeof cwd))
        return sc_err_set(err, "%s '%s': cannot read the current directory: %s", what, path,
                          strerror(errno));
    int n = path[0] == '/' ? snprintf(out, cap, "%s", path) : snprintf(out, cap, "%s/%s", cwd, path);
    if (n < 0 || (size_t)n >= cap)
        return sc_err_set(err, "%s '%s': path too long once made absolute", what, path);
    return true;
}

/* Reads every suppressions file (comma-separated) as the library will, so that a file
 * that cannot be read or holds a line that is no rule stops scord before the program
 * runs, and makes each path absolute. */
static bool check_suppressions(ScOptions *o, ScErr *err)
{
    char list[SC_OPTION_STRING_MAX] = "";
    size_t used = 0;
    ScReportConfig cfg;
    sc_report_config_init(&cfg, (long)getpid());
    ScReport *r = sc_report_new(&cfg);
    if (!r)
        return sc_err_set(err, "out of memory");
    bool ok = true;
    const char *items = o->suppressions;
    char path[SC_OPTION_STRING_MAX], abs[SC_OPTION_STRING_MAX];
    while (ok && sc_options_list_next(&items, path, sizeof path)) {
        ok = absolute_path("--suppressions", path, abs, sizeof abs, err) &&
             sc_report_load_suppressions(r, abs, err);
        if (ok && used + (used > 0) + strlen(abs) >= sizeof list)
            ok = sc_err_set(err, "--suppressions: the list is too long once made absolute");
        if (ok)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? "," : "", abs);
    }
    sc_report_free(r);
    if (ok)
        memcpy(o->suppressions, list, used + 1);
    return ok;
}

/* An output file pattern (%p for the process id): checked, made absolute (the program
 * may change directory before it writes), and its directory found writable now rather
 * than when the file is written, at the program's exit. */
static bool check_output_path(const char *what, char *pattern, ScErr *err)
{
    if (!pattern[0])
        return true;
    ScBuf probe = {0};
    bool ok = sc_options_log_path(pattern, 1, &probe, err);
    sc_buf_free(&probe);
    if (!ok) {
        sc_err_wrap(err, "%s '%s': ", what, pattern);
        return false;
    }
    char abs[SC_OPTION_STRING_MAX];
    if (!absolute_path(what, pattern, abs, sizeof abs, err))
        return false;
    char dir[SC_OPTION_STRING_MAX];
    snprintf(dir, sizeof dir, "%s", abs);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else
        *slash = '\0';
    if (access(dir, W_OK | X_OK) != 0)
        return sc_err_set(err, "%s '%s': cannot write in the directory %s: %s", what, pattern, dir,
                          strerror(errno));
    memcpy(pattern, abs, strlen(abs) + 1);
    return true;
}

/* Checks what parsing an option cannot (sc_options_set checks each value): the kernel
 * filters, the suppressions files, and the output files. */
static bool check_options(ScOptions *o, ScErr *err)
{
    ScLaunchSelect select;
    if (!sc_launch_select_init(&select, o->kernel_name, o->kernel_name_exclude, o->launch_skip,
                               o->launch_count, err))
        return false;
    sc_launch_select_free(&select);
    return check_suppressions(o, err) && check_output_path("--log-file", o->log_file, err) &&
           check_output_path("--json-file", o->json_file, err) &&
           check_output_path("--sarif-file", o->sarif_file, err);
}

/* A report file with one name for every process (no %p) is written by the processes that
 * used CUDA and, where none of them did, created by the first other one: a file left
 * by an earlier run would otherwise stand for this one. Only a regular file goes. */
static void remove_earlier_report(const char *path)
{
    struct stat st;
    if (path[0] && !strchr(path, '%') && lstat(path, &st) == 0 && S_ISREG(st.st_mode))
        unlink(path);
}

/* libscord.so lives in ../lib next to the directory of the scord binary, in the build
 * tree (build/bin, build/lib) and in an installed prefix alike; SCORD_LIBRARY
 * overrides it (tests, development). */
static bool find_library(char *out, ScErr *err)
{
    char candidate[PATH_MAX + 32];
    const char *from = getenv(SC_ENV_LIBRARY);
    if (from && *from) {
        snprintf(candidate, sizeof candidate, "%s", from);
    } else {
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n < 0)
            return sc_err_set(err, "cannot locate the scord binary (/proc/self/exe): %s",
                              strerror(errno));
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        *slash = '\0';
        snprintf(candidate, sizeof candidate, "%s/../lib/libscord.so", exe);
        from = NULL;
    }
    struct stat st;
    if (!realpath(candidate, out) || stat(out, &st) != 0 || access(out, R_OK) != 0) {
        int e = errno;
        if (from)
            return sc_err_set(err, "%s=%s: cannot use it: %s", SC_ENV_LIBRARY, from,
                              strerror(e));
        return sc_err_set(err,
                          "libscord.so not found at %s: %s; build it with `make`, keep "
                          "bin/ and lib/ side by side when installing, or set %s to its path",
                          candidate, strerror(e), SC_ENV_LIBRARY);
    }
    if (!S_ISREG(st.st_mode))
        return sc_err_set(err, "%s is not a regular file", out);
    if (strpbrk(out, ": "))
        return sc_err_set(err,
                          "cannot preload %s: LD_PRELOAD cannot carry a path with ':' or "
                          "' '; install scord under a path without them",
                          out);
    return true;
}

/* Sets name to value's text and frees value. */
static bool set_env(const char *name, ScBuf *value, ScErr *err)
{
    bool ok = true;
    if (value->oom)
        ok = sc_err_set(err, "out of memory setting %s", name);
    else if (setenv(name, value->data ? value->data : "", 1) != 0)
        ok = sc_err_set(err, "cannot set %s: %s", name, strerror(errno));
    sc_buf_free(value);
    return ok;
}

static bool prepare_env(const Launch *l, int status_fd, ScErr *err)
{
    ScBuf preload = {0}, options = {0}, fd = {0};
    const char *old = getenv("LD_PRELOAD");
    sc_buf_puts(&preload, l->library);
    if (old && *old)
        sc_buf_printf(&preload, ":%s", old);
    sc_options_format_env(&l->opts, &options);
    sc_buf_printf(&fd, "%d", status_fd);
    bool ok = set_env("LD_PRELOAD", &preload, err);
    ok = set_env(SC_ENV_OPTIONS, &options, err) && ok;
    return set_env(SC_ENV_STATUS_FD, &fd, err) && ok;
}

/* The status pipe: the read end stays here; the write end, non-blocking so a
 * program never stalls on it, is inherited by the program only. */
static bool open_status_pipe(int *rd, int *wr, ScErr *err)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0)
        return sc_err_set(err, "cannot create the status pipe: %s", strerror(errno));
    int high = fcntl(p[1], F_DUPFD_CLOEXEC, STATUS_FD_MIN);
    if (high >= 0) {
        close(p[1]);
        p[1] = high;
    }
    *rd = p[0];
    *wr = p[1];
    return true;
}

/* Writes a message of scord's that comes after the program started: into the log
 * file the program's own libscord.so used (same pid expansion), else to stderr. */
static void note(const ScOptions *o, pid_t pid, const char *fmt, ...) SC_PRINTF(3, 4);
static void note(const ScOptions *o, pid_t pid, const char *fmt, ...)
{
    ScBuf msg = {0}, path = {0};
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = malloc((size_t)n + 1);
    if (!text)
        return;
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sc_buf_printf(&msg, "scord: %s\n", text);
    free(text);
    int fd = -1;
    if (o->log_file[0] && sc_options_log_path(o->log_file, (long)pid, &path, NULL) && !path.oom)
        fd = open(path.data, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (!msg.oom && write(fd >= 0 ? fd : STDERR_FILENO, msg.data, msg.len) < 0) {
        /* nowhere left to report that a message was lost */
    }
    if (fd >= 0)
        close(fd);
    sc_buf_free(&msg);
    sc_buf_free(&path);
}

static void drain(int *fd, ScBuf *into)
{
    char chunk[4096];
    for (;;) {
        ssize_t n = read(*fd, chunk, sizeof chunk);
        if (n > 0) {
            sc_buf_append(into, chunk, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) { /* every writer is gone */
            close(*fd);
            *fd = -1;
        }
        return;
    }
}

/* Starts the program. False with *exec_errno set if it never ran. */
static bool spawn(const Launch *l, const sigset_t *child_mask, int status_fd, pid_t *pid,
                  int *exec_errno, ScErr *err)
{
    int ep[2];
    if (pipe2(ep, O_CLOEXEC) != 0)
        return sc_err_set(err, "cannot create a pipe: %s", strerror(errno));
    *pid = fork();
    if (*pid < 0) {
        int e = errno;
        close(ep[0]);
        close(ep[1]);
        return sc_err_set(err, "cannot fork: %s", strerror(e));
    }
    if (*pid == 0) {
        sigprocmask(SIG_SETMASK, child_mask, NULL);
        int e = 0;
        if (fcntl(status_fd, F_SETFD, 0) != 0)
            e = errno;
        else
            execvp(l->argv[0], l->argv);
        if (!e)
            e = errno;
        if (write(ep[1], &e, sizeof e) < 0) {
            /* the parent then sees EOF and waits for our exit code */
        }
        _exit(EXIT_NOT_STARTED);
    }
    close(ep[1]);
    ssize_t n;
    do
        n = read(ep[0], exec_errno, sizeof *exec_errno);
    while (n < 0 && errno == EINTR);
    close(ep[0]);
    return n != (ssize_t)sizeof *exec_errno;
}

/* Waits for the program while forwarding signals and collecting status lines. */
static bool supervise(pid_t pid, int sig_fd, int *status_rd, ScBuf *status, int *wstatus,
                      ScErr *err)
{
    struct pollfd pf[2] = {{.fd = sig_fd, .events = POLLIN},
                           {.fd = *status_rd, .events = POLLIN}};
    for (;;) {
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return sc_err_set(err, "poll: %s", strerror(errno));
        }
        if (pf[1].revents) {
            drain(status_rd, status);
            pf[1].fd = *status_rd;
        }
        if (!(pf[0].revents & POLLIN))
            continue;
        struct signalfd_siginfo si;
        if (read(sig_fd, &si, sizeof si) != (ssize_t)sizeof si)
            continue;
        if (si.ssi_signo == SIGCHLD) {
            pid_t r = waitpid(pid, wstatus, WNOHANG);
            if (r == pid)
                return true;
            if (r < 0 && errno != EINTR)
                return sc_err_set(err, "waitpid: %s", strerror(errno));
            continue;
        }
        /* A terminal sends SIGINT/SIGQUIT/SIGHUP (SI_KERNEL) to the whole foreground
         * process group, the program included: passing it on would deliver it twice. */
        if (si.ssi_code != SI_KERNEL)
            kill(pid, (int)si.ssi_signo);
    }
}

static int finish(const Launch *l, pid_t pid, int wstatus, const ScBuf *status)
{
    const ScOptions *o = &l->opts;
    unsigned long races = 0;
    size_t reports = 0, idle = 0;
    ScErr err = {0};
    if (!sc_status_parse(status->data, status->len, &races, &reports, &idle, &err))
        note(o, pid, "ignoring a malformed status line from the program (%s)", err.msg);
    if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        note(o, pid, "%s was killed by signal %d (%s)%s", l->argv[0], sig, strsignal(sig),
             WCOREDUMP(wstatus) ? ", core dumped" : "");
        return EXIT_SIGNALLED + sig;
    }
    int code = WEXITSTATUS(wstatus);
    /* Each process prints its own summary; the total of the races of several is printed
     * once, here (processes that found none add no line unasked). Processes that never
     * used CUDA (a shell, a compiler) are not among those counted. */
    if (o->verbose || (reports > 1 && races > 0)) {
        if (reports)
            note(o, pid, "%s exited with code %d; %zu process%s reported %lu race%s at --error-level %s",
                 l->argv[0], code, reports, reports == 1 ? "" : "es", races,
                 races == 1 ? "" : "s", o->error_level);
        else if (idle)
            note(o, pid, "%s exited with code %d; none of its %zu process%s used CUDA", l->argv[0], code, idle,
                 idle == 1 ? "" : "es");
        else
            note(o, pid,
                 "%s exited with code %d and reported no race count: libscord.so was not "
                 "loaded (a static or setuid program) or its process ended without exit or "
                 "_exit",
                 l->argv[0], code);
    }
    if (code == 0 && races > 0 && o->error_exitcode != 0)
        return o->error_exitcode;
    return code;
}

static int launch(Launch *l)
{
    ScErr err = {0};
    int status_rd = -1, status_wr = -1;
    if (!find_library(l->library, &err) || !open_status_pipe(&status_rd, &status_wr, &err))
        goto failed;
    if (!prepare_env(l, status_wr, &err))
        goto failed;

    /* Signals are taken through a signalfd: no handlers, no global state. SIGCHLD
     * must not be ignored (an inherited SIG_IGN would reap the program for us). */
    signal(SIGCHLD, SIG_DFL);
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    for (size_t i = 0; i < SC_ARRAY_LEN(forwarded_signals); i++)
        sigaddset(&set, forwarded_signals[i]);
    sigprocmask(SIG_BLOCK, &set, &old);
    int sig_fd = signalfd(-1, &set, SFD_CLOEXEC);
    if (sig_fd < 0) {
        sc_err_set(&err, "signalfd: %s", strerror(errno));
        goto failed;
    }

    pid_t pid = -1;
    int exec_errno = 0;
    bool started = spawn(l, &old, status_wr, &pid, &exec_errno, &err);
    close(status_wr);
    if (!started && err.set)
        goto failed;
    if (!started) {
        waitpid(pid, NULL, 0);
        fprintf(stderr, "scord: cannot run '%s': %s%s\n", l->argv[0], strerror(exec_errno),
                exec_errno == ENOENT && !strchr(l->argv[0], '/') ? " (searched PATH)" : "");
        return EXIT_NOT_STARTED;
    }

    ScBuf status = {0};
    int wstatus = 0;
    if (!supervise(pid, sig_fd, &status_rd, &status, &wstatus, &err)) {
        sc_buf_free(&status);
        goto failed;
    }
    if (status_rd >= 0)
        drain(&status_rd, &status);
    if (status_rd >= 0)
        close(status_rd);
    close(sig_fd);
    int code = finish(l, pid, wstatus, &status);
    sc_buf_free(&status);
    return code;

failed:
    fprintf(stderr, "scord: %s\n", err.msg);
    return EXIT_SCORD_FAILED;
}

int main(int argc, char **argv)
{
    Launch l = {0};
    sc_options_init(&l.opts);
    /* Options in the environment first, so the command line overrides them; their
     * errors wait until we know --help or --version was not asked for. */
    ScErr env_err = {0}, err = {0};
    const char *env = getenv(SC_ENV_OPTIONS);
    if (env && !sc_options_parse_env(env, &l.opts, &env_err))
        sc_err_wrap(&env_err, "%s: ", SC_ENV_OPTIONS);

    Action action = ACTION_RUN;
    int prog = 0;
    if (!parse_args(argc, argv, &l.opts, &action, &prog, &err)) {
        fprintf(stderr, "scord: %s\n", err.msg);
        return EXIT_SCORD_FAILED;
    }
    switch (action) {
    case ACTION_HELP:
        print_help();
        return 0;
    case ACTION_VERSION:
        printf("scord %s\n", SCORD_VERSION);
        return 0;
    case ACTION_RUN:
        break;
    }
    if (env_err.set || !check_options(&l.opts, &err)) {
        fprintf(stderr, "scord: %s\n", env_err.set ? env_err.msg : err.msg);
        return EXIT_SCORD_FAILED;
    }
    remove_earlier_report(l.opts.json_file);
    remove_earlier_report(l.opts.sarif_file);
    l.argv = argv + prog;
    return launch(&l);
}
