/* intercept_ctx.c: the interposer's one context: options, the log, and the run
 * summary written when the program exits. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/sc_options.h"
#include "fatbin/fatbin.h"
#include "report/report.h"
#include "intercept/intercept.h"
#include "intercept/intercept_compile.h"

ScCtx sc_ctx = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .launch_lock = PTHREAD_MUTEX_INITIALIZER,
    .init_result = (CUresult)-1,
    .status_fd = -1,
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
/* The process whose state sc_ctx is: set at init and in a fork child (_exit). */
static pid_t owner_pid;

static void open_log(const ScOptions *o)
{
    sc_ctx.log = stderr;
    if (!o->log_file[0])
        return;
    ScBuf path = {0};
    ScErr err = {0};
    if (!sc_options_log_path(o->log_file, (long)getpid(), &path, &err)) {
        fprintf(stderr, "scord: log_file: %s; logging to stderr\n", err.msg);
    } else if (!path.oom) {
        FILE *f = fopen(path.data, "a");
        if (f) {
            setvbuf(f, NULL, _IOLBF, 0);
            sc_ctx.log = f;
        } else {
            fprintf(stderr, "scord: cannot open log file %s; logging to stderr\n", path.data);
        }
    }
    sc_buf_free(&path);
}

static void write_summary(void);

/* Where the JSON and SARIF documents go at exit ("" for none): their patterns, and
 * the paths expanded for the process paths_pid. A child that fork() made without an
 * exec keeps the library's state: it expands the patterns again for its own %p. */
static char json_pattern[SC_OPTION_STRING_MAX], sarif_pattern[SC_OPTION_STRING_MAX];
static char json_path[SC_OPTION_STRING_MAX], sarif_path[SC_OPTION_STRING_MAX];
static long paths_pid;

/* The report's view of the allocation table; called while the context lock is held. */
static bool find_alloc(void *ctx, uint64_t addr, ScReportAlloc *out)
{
    const ScAlloc *a = sc_alloc_find(&sc_ctx.allocs, addr);
    if (!a)
        return false;
    *out = (ScReportAlloc){a->serial, sc_alloc_kind_name(a->kind), a->base, a->size};
    return true;
}

static void copy_path(char *dst, const char *pattern, const char *option)
{
    dst[0] = '\0';
    if (!pattern[0])
        return;
    ScBuf path = {0};
    ScErr err = {0};
    if (!sc_options_log_path(pattern, (long)getpid(), &path, &err))
        sc_log("scord: %s: %s; not written\n", option, err.msg);
    else if (!path.oom)
        snprintf(dst, SC_OPTION_STRING_MAX, "%s", path.data);
    sc_buf_free(&path);
}

static void make_report(const ScOptions *o)
{
    ScReportConfig cfg;
    sc_report_config_init(&cfg, (long)getpid());
    cfg.print_limit = (unsigned)o->print_limit;
    sc_report_severity_parse(o->report_level, &cfg.min_severity); /* one of its words: sc_options_set */
    cfg.find_alloc = find_alloc;
    sc_ctx.report = sc_report_new(&cfg);
    if (!sc_ctx.report) {
        sc_log("scord: out of memory; races will not be checked\n");
        sc_ctx.detect = false;
    }
    snprintf(json_pattern, sizeof json_pattern, "%s", o->json_file);
    snprintf(sarif_pattern, sizeof sarif_pattern, "%s", o->sarif_file);
    paths_pid = (long)getpid();
    copy_path(json_path, json_pattern, "json_file");
    copy_path(sarif_path, sarif_pattern, "sarif_file");
    /* The launcher read these files already; SCORD_OPTIONS set by hand may name others. */
    const char *list = o->suppressions;
    char path[SC_OPTION_STRING_MAX];
    while (sc_ctx.report && sc_options_list_next(&list, path, sizeof path)) {
        ScErr err = {0};
        if (!sc_report_load_suppressions(sc_ctx.report, path, &err))
            sc_log("scord: %s; its rules are not used\n", err.msg);
    }
}

static void catch_stop_signals(void);

/* Did this process itself use CUDA: initialize the driver or load a module? */
static bool used_cuda(void)
{
    return sc_ctx.init_result != (CUresult)-1 || sc_ctx.n_modules;
}

/* In the child of a fork() without exec (an exec starts the library afresh). Only
 * the forking thread lives on in the child: a lock another thread of the parent held
 * at the fork would stay taken, and the child's exit handler would wait for it for
 * ever, so the child starts with both locks free. */
static void forked(void)
{
    pthread_mutex_init(&sc_ctx.lock, NULL);
    pthread_mutex_init(&sc_ctx.launch_lock, NULL);
    owner_pid = getpid();
    sc_ctx.fork_inherited = sc_ctx.fork_inherited || used_cuda();
    if (sc_ctx.report)
        sc_report_set_pid(sc_ctx.report, (long)getpid());
}

static void init(void)
{
    ScOptions o;
    sc_options_init(&o);
    ScErr err = {0};
    const char *env = getenv(SC_ENV_OPTIONS);
    bool ok = !env || sc_options_parse_env(env, &o, &err);
    open_log(&o);
    if (!ok)
        sc_log("scord: %s: %s; the options after the error are ignored\n", SC_ENV_OPTIONS,
               err.msg);
    sc_ctx.verbose = o.verbose;
    sc_ctx.error_exitcode = o.error_exitcode;
    sc_ctx.exit_on_warnings = strcmp(o.error_level, "warning") == 0;
    sc_ctx.detect = o.detect;
    sc_ctx.prune = o.prune;
    sc_ctx.quick = o.quick;
    sc_ctx.check_graphs = o.check_graphs;
    sc_ctx.triton_ptx = o.triton_ptx;
    ScErr select_err = {0};
    if (!sc_launch_select_init(&sc_ctx.select, o.kernel_name, o.kernel_name_exclude, o.launch_skip,
                               o.launch_count, &select_err))
        sc_log("scord: %s; every launch is checked\n", select_err.msg);
    sc_rt_configure(&o);
    sc_compile_configure(&o);
    make_report(&o);
    sc_ctx.status_fd = sc_options_status_fd();
    const char *fault = getenv("SCORD_FAULT");
    if (fault && fault[0]) {
        if (strcmp(fault, "reject_ptx") == 0)
            sc_ctx.fault_reject_ptx = true;
        else if (strcmp(fault, "shadow_oom") == 0)
            sc_ctx.fault_shadow_oom = true;
        else
            sc_log("scord: SCORD_FAULT=%s is not a fault scord knows (reject_ptx, "
                   "shadow_oom); ignored\n",
                   fault);
    }
    owner_pid = getpid();
    atexit(write_summary);
    catch_stop_signals();
    pthread_atfork(NULL, NULL, forked);
}

void sc_ctx_init(void)
{
    pthread_once(&init_once, init);
}

/* Reading the options as the library loads means --verbose covers the first
 * dlsym, and the summary handler is registered before the program's own. */
__attribute__((constructor)) static void on_load(void)
{
    sc_ctx_init();
}

static void vlog(const char *fmt, va_list ap)
{
    FILE *f = sc_ctx.log ? sc_ctx.log : stderr;
    vfprintf(f, fmt, ap);
}

void sc_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

void sc_vlog(const char *fmt, ...)
{
    if (!sc_ctx.verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

const char *sc_cu_error(CUresult r)
{
    const char *name = NULL;
    if (sc_ctx.drv.get_error_name && sc_ctx.drv.get_error_name(r, &name) == CUDA_SUCCESS && name)
        return name;
    /* The toolkit's stub libcuda names no error, this one least of all. */
    if (r == CUDA_ERROR_STUB_LIBRARY)
        return "CUDA_ERROR_STUB_LIBRARY: the program loaded the CUDA toolkit's stub libcuda "
               "(lib64/stubs), not the driver's";
    return "unknown CUDA error";
}

/* Does the program's own executable hold CUDA code (sc_fatbin_host_has_cuda)? Only
 * the executable: libraries that carry CUDA code (a Python extension) do not make a
 * process that never used them a CUDA program. */
static bool exe_has_cuda_code(void)
{
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    struct stat st;
    bool found = false;
    if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
        void *img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (img != MAP_FAILED) {
            found = sc_fatbin_host_has_cuda(img, (size_t)st.st_size);
            munmap(img, (size_t)st.st_size);
        }
    }
    if (fd >= 0)
        close(fd);
    return found;
}

/* Writes the document, or, for a process that did not use CUDA (a shell, a compiler),
 * only where no process has written it yet: such a process has nothing to report,
 * and must not overwrite the report of the process that did when they share the file
 * (no %p). A fork child of a process that used CUDA writes none: its races are the
 * parent's, which writes them. */
static void write_document(const char *path, void (*emit)(const ScReport *, ScBuf *))
{
    if (!path[0] || sc_ctx.fork_inherited)
        return;
    ScBuf doc = {0};
    emit(sc_ctx.report, &doc);
    bool own = used_cuda();
    FILE *f = doc.oom ? NULL : fopen(path, own ? "w" : "wx");
    if (!f && !doc.oom && !own && errno == EEXIST) {
        sc_buf_free(&doc);
        return;
    }
    bool ok = f && fwrite(doc.data, 1, doc.len, f) == doc.len;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        sc_log("scord: cannot write %s\n", path);
    sc_buf_free(&doc);
}

/* The run summary and the JSON/SARIF files, at exit or _exit, or when a signal stops
 * the program. A signal may have stopped the thread that holds the lock, so the
 * handler (and _exit, which signal handlers call) waits for it a second at most (and
 * writes nothing if it stays taken). */
static void finish(bool stopped)
{
    /* Once: a program may call _exit from an exit handler, after scord's ran. */
    static int finished;
    if (__atomic_exchange_n(&finished, 1, __ATOMIC_ACQ_REL))
        return;
    if (!stopped) {
        pthread_mutex_lock(&sc_ctx.lock);
    } else {
        int tries = 0;
        while (pthread_mutex_trylock(&sc_ctx.lock) != 0) {
            if (++tries == 100) {
                sc_log("scord: the program ended while scord was busy: no summary, JSON or "
                       "SARIF written\n");
                return;
            }
            struct timespec ten_ms = {0, 10 * 1000 * 1000};
            nanosleep(&ten_ms, NULL);
        }
    }
    size_t ours = 0, instrumented = 0, unchecked = 0, fell_back = 0;
    for (size_t i = 0; i < sc_ctx.n_modules; i++) {
        const ScModuleRec *m = sc_ctx.modules[i];
        if (m->loaded_ours) {
            ours++;
            instrumented += m->instrumented;
        } else if (m->plan.verdict == SC_PLAN_PTX || m->plan.verdict == SC_PLAN_LINK)
            fell_back++;
        else
            unchecked++;
    }
    unsigned long launches = __atomic_load_n(&sc_ctx.launches, __ATOMIC_RELAXED);
    unsigned long graphs = __atomic_load_n(&sc_ctx.graph_launches, __ATOMIC_RELAXED);
    unsigned long graphs_checked = __atomic_load_n(&sc_ctx.graph_launches_checked, __ATOMIC_RELAXED);
    if (sc_ctx.fork_inherited) {
        sc_vlog("scord: process %ld is a fork of a process that used CUDA: its modules, "
                "launches and races are its parent's, and reported there\n",
                (long)getpid());
    } else if (sc_ctx.init_result == (CUresult)-1 && sc_ctx.n_modules == 0 && exe_has_cuda_code()) {
        /* Its CUDA runtime never reached the driver: dlopen("libcuda.so.1") failed
         * inside it, which scord does not see. */
        sc_log("scord: %s holds CUDA code but never reached the CUDA driver (is the NVIDIA "
               "driver installed, libcuda.so.1 on the library path?); nothing was checked\n",
               program_invocation_short_name);
    } else if (sc_ctx.init_result == (CUresult)-1 && sc_ctx.n_modules == 0) {
        /* Every process under the launcher has scord preloaded, shells and tools
         * included: only --verbose mentions those that never used CUDA. */
        sc_vlog("scord: process %ld never initialized the CUDA driver (no GPU or no driver "
                "on this machine?); nothing was checked\n",
                (long)getpid());
    } else if (sc_ctx.init_result != CUDA_SUCCESS && sc_ctx.init_result != (CUresult)-1) {
        sc_log("scord: the CUDA driver failed to initialize (%s): no CUDA device was found or "
               "it is unusable; nothing was checked\n",
               sc_cu_error(sc_ctx.init_result));
    } else {
        char left[96] = "";
        if (sc_launch_select_narrows(&sc_ctx.select))
            snprintf(left, sizeof left, ", %llu left out by --kernel-name/--launch-skip/--launch-count",
                     (unsigned long long)sc_ctx.select.left_out);
        sc_log("scord: %zu module%s: %zu loaded from scord's PTX (%zu instrumented), %zu "
               "unchecked (no PTX), %zu fell back to the original code; %lu kernel launch%s "
               "(%lu checked%s), %lu graph launch%s (%lu issued node by node, their kernels "
               "counted above)\n",
               sc_ctx.n_modules, sc_ctx.n_modules == 1 ? "" : "s", ours, instrumented,
               unchecked, fell_back, launches, launches == 1 ? "" : "es",
               sc_ctx.checked_launches, left, graphs, graphs == 1 ? "" : "es", graphs_checked);
        for (size_t i = 0; i < sc_ctx.n_modules; i++) {
            const ScModuleRec *m = sc_ctx.modules[i];
            if (m->loaded_ours && sc_ctx.detect && !m->instrumented && m->instr_error[0])
                sc_log("scord:   module %u (%s) loaded uninstrumented: %s\n", m->id, m->origin,
                       m->instr_error);
            if (m->loaded_ours)
                continue;
            char hint[256] = "";
            if (m->plan.verdict == SC_PLAN_UNCHECKED)
                sc_plan_rebuild_hint(&m->plan, hint, sizeof hint);
            sc_log("scord:   module %u (%s, %s) unchecked: %s%s%s\n", m->id, m->origin,
                   m->plan.what[0] ? m->plan.what : sc_fatbin_kind_name(m->plan.kind),
                   m->fallback[0] ? m->fallback : m->plan.reason, hint[0] ? "; " : "", hint);
            for (size_t k = 0; k < m->plan.kernels.n; k++)
                sc_log("scord:     unchecked kernel %s\n", m->plan.kernels.names[k]);
        }
        if (sc_ctx.unchecked_accesses || sc_ctx.unchecked_blocks)
            sc_log("scord: %llu accesses outside tracked memory and %llu blocks without "
                   "device-runtime state were not checked\n",
                   (unsigned long long)sc_ctx.unchecked_accesses,
                   (unsigned long long)sc_ctx.unchecked_blocks);
        if (sc_ctx.unsplit_accesses)
            sc_log("scord: %llu accesses were not checked: their words needed a history per "
                   "byte and no split group was left (the device could not give one per word, "
                   "or the words were in cached chunks: the pool had %u)\n",
                   (unsigned long long)sc_ctx.unsplit_accesses, sc_rt_split_cap());
        if (sc_ctx.capture_allocs)
            sc_log("scord: %llu stream-ordered allocations made while their stream was captured into "
                   "a graph were not tracked (a graph with memory allocation nodes runs unchecked)\n",
                   (unsigned long long)sc_ctx.capture_allocs);
        if (sc_ctx.async_unfollowed)
            sc_log("scord: %llu cp.async copies were checked as issued but not as completed: "
                   "their threads had %u copies pending already\n",
                   (unsigned long long)sc_ctx.async_unfollowed, SC_DEV_ASYNC_COPIES);
#ifdef SC_DEVRT_PROFILE
        sc_rt_print_profile();
#endif
    }
    unsigned long races = 0;
    if (sc_ctx.report) {
        ScBuf out = {0};
        if (sc_ctx.detect && sc_ctx.checked_launches && !sc_ctx.fork_inherited)
            sc_report_emit_summary(sc_ctx.report, &out);
        if (out.len)
            sc_log("%s", out.data);
        if ((long)getpid() != paths_pid) {
            copy_path(json_path, json_pattern, "json_file");
            copy_path(sarif_path, sarif_pattern, "sarif_file");
        }
        write_document(json_path, sc_report_emit_json);
        write_document(sarif_path, sc_report_emit_sarif);
        ScReportCounts counts;
        sc_report_counts(sc_ctx.report, &counts);
        /* What --error-exitcode counts (docs/options.md, "The status channel"); a fork
         * child's are its parent's, which counts them. */
        if (!sc_ctx.fork_inherited)
            races = (unsigned long)(counts.by_severity[SC_SEVERITY_ERROR] +
                                    (sc_ctx.exit_on_warnings ? counts.by_severity[SC_SEVERITY_WARNING] : 0));
        sc_buf_free(&out);
    }
    pthread_mutex_unlock(&sc_ctx.lock);
    sc_status_write(sc_ctx.status_fd, used_cuda(), races);
    if (sc_ctx.log && sc_ctx.log != stderr)
        fflush(sc_ctx.log);
}

static void write_summary(void)
{
    finish(false);
}

/* Signals that end a program by default: a fault, an abort, a kill by a timeout or a
 * terminal. */
static const int stop_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
                                   SIGTERM, SIGINT, SIGHUP, SIGQUIT};

/* A program stopped by one of them still gets its summary and its JSON/SARIF with
 * the races found so far: once, then the signal is raised again with its default
 * action, so the program ends as it would have. Writing is not async-signal-safe (a
 * fault inside malloc can leave its lock taken): an alarm ends the process if it
 * takes more than STOP_WRITE_SECONDS, so that a crashing program never hangs. */
#define STOP_WRITE_SECONDS 10
static void on_stop_signal(int sig)
{
    static volatile sig_atomic_t written;
    if (!written) {
        written = 1;
        int saved = errno;
        signal(SIGALRM, SIG_DFL);
        alarm(STOP_WRITE_SECONDS);
        if (sc_ctx.checked_launches)
            sc_log("scord: the program was stopped by signal %d (%s); what scord found until "
                   "then follows\n",
                   sig, strsignal(sig));
        finish(true);
        errno = saved;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* _exit and _Exit end a process without its exit handlers (a shell's `exit`, a program
 * that wants no cleanup): scord writes first what it writes at exit. Not in a child of
 * vfork(), which shares its parent's memory until it execs or exits (and has no fork
 * handler to make the state its own): only the process whose state it is writes. They
 * are async-signal-safe, and signal handlers call them: the writing is bounded as a
 * stop signal's is. */
static _Noreturn void exit_now(int status)
{
    for (;;)
        syscall(SYS_exit_group, status);
}

static void finish_before_exit(void)
{
    if (!owner_pid || getpid() != owner_pid)
        return;
    signal(SIGALRM, SIG_DFL);
    alarm(STOP_WRITE_SECONDS);
    finish(true);
}

SC_EXPORT _Noreturn void _exit(int status)
{
    finish_before_exit();
    exit_now(status);
}

SC_EXPORT _Noreturn void _Exit(int status)
{
    finish_before_exit();
    exit_now(status);
}

/* Only where the program's action is still the default: a handler it set, or an
 * ignored signal, stays as it is, and one it sets later replaces this one. */
static void catch_stop_signals(void)
{
    for (size_t i = 0; i < SC_ARRAY_LEN(stop_signals); i++) {
        struct sigaction old;
        if (sigaction(stop_signals[i], NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
            old.sa_handler != SIG_DFL)
            continue;
        struct sigaction sa = {0};
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(stop_signals[i], &sa, NULL);
    }
}
