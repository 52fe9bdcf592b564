/* intercept_ctx.c: the interposer's one context: options, the log, and the run
 * summary written when the program exits. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sc_options.h"
#include "intercept/intercept.h"

ScCtx sc_ctx = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .init_result = (CUresult)-1,
    .status_fd = -1,
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

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
    sc_ctx.status_fd = sc_options_status_fd();
    const char *fault = getenv("SCORD_FAULT");
    if (fault && fault[0]) {
        if (strcmp(fault, "reject_ptx") == 0)
            sc_ctx.fault_reject_ptx = true;
        else
            sc_log("scord: SCORD_FAULT=%s is not a fault scord knows (reject_ptx); ignored\n",
                   fault);
    }
    atexit(write_summary);
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
    return "unknown CUDA error";
}

static void write_summary(void)
{
    pthread_mutex_lock(&sc_ctx.lock);
    size_t ours = 0, unchecked = 0, fell_back = 0;
    for (size_t i = 0; i < sc_ctx.n_modules; i++) {
        const ScModuleRec *m = sc_ctx.modules[i];
        if (m->loaded_ours)
            ours++;
        else if (m->plan.verdict == SC_PLAN_PTX)
            fell_back++;
        else
            unchecked++;
    }
    unsigned long launches = __atomic_load_n(&sc_ctx.launches, __ATOMIC_RELAXED);
    unsigned long graphs = __atomic_load_n(&sc_ctx.graph_launches, __ATOMIC_RELAXED);
    if (sc_ctx.init_result == (CUresult)-1 && sc_ctx.n_modules == 0) {
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
        sc_log("scord: %zu module%s: %zu loaded from scord's PTX, %zu unchecked (no PTX), %zu "
               "fell back to the original code; %lu kernel launch%s, %lu graph launch%s\n",
               sc_ctx.n_modules, sc_ctx.n_modules == 1 ? "" : "s", ours, unchecked, fell_back,
               launches, launches == 1 ? "" : "es", graphs, graphs == 1 ? "" : "es");
        for (size_t i = 0; i < sc_ctx.n_modules; i++) {
            const ScModuleRec *m = sc_ctx.modules[i];
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
        sc_log("scord: race detection is not part of this build yet: modules were passed "
               "through scord's loader uninstrumented\n");
    }
    unsigned long races = sc_ctx.races;
    pthread_mutex_unlock(&sc_ctx.lock);
    sc_status_write(sc_ctx.status_fd, races);
    if (sc_ctx.log && sc_ctx.log != stderr)
        fflush(sc_ctx.log);
}
