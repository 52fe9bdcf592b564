/* intercept_compile.c: turning scord's code into the cubin the driver loads: from
 * the disk cache of compiled modules when it holds the cubin, else by a link
 * session, in the planned device's primary context when the thread has none. */
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/sc_cache.h"
#include "common/sc_options.h"
#include "devrt/devrt.h"
#include "intercept/intercept_compile.h"

/* The entries are trimmed to this size after each store. */
#define CACHE_MAX_BYTES ((uint64_t)1 << 30)
/* Devices whose primary context scord can keep; a higher ordinal gets its
 * context retained only for the compile. */
#define MAX_KEPT_DEVICES 64

/* The options of every link session scord runs, and with instrumented code its cap on
 * registers (link_options). The cache key hashes them, so entries compiled with other
 * options can never be hit. Level 4 is the JIT's default, written out to be part of
 * the key. */
static const struct {
    CUjit_option option;
    uintptr_t value;
} jit_settings[] = {
    {CU_JIT_OPTIMIZATION_LEVEL, 4},
};

typedef struct CompileDriver {
    CUresult (*driver_get_version)(int *);
    CUresult (*ctx_get_current)(CUcontext *);
    CUresult (*ctx_push)(CUcontext);
    CUresult (*ctx_pop)(CUcontext *);
    CUresult (*primary_retain)(CUcontext *, CUdevice);
    CUresult (*primary_release)(CUdevice);
} CompileDriver;

/* This file's state. dir and off_reason are set as the library loads, the
 * driver's description once before the first compile; the rest under lock. */
static struct {
    char dir[SC_OPTION_STRING_MAX]; /* "" when the cache is off */
    const char *off_reason;
    pthread_once_t once;
    CompileDriver drv;
    int driver_version;
    char driver_build[PATH_MAX + 64]; /* libcuda's file: path, size, mtime */
    pthread_mutex_t lock;
    bool store_failed;                /* stores are off for the rest of the run */
    bool kept[MAX_KEPT_DEVICES];      /* primary contexts retained until exit */
} compile = {
    .once = PTHREAD_ONCE_INIT,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

void sc_compile_configure(const ScOptions *o)
{
    if (o->no_cache) {
        compile.off_reason = "--no-cache";
    } else if (o->cache_dir[0]) {
        memcpy(compile.dir, o->cache_dir, sizeof compile.dir);
    } else {
        ScBuf dir = {0};
        if (sc_cache_default_dir(getenv("XDG_CACHE_HOME"), getenv("HOME"), &dir))
            snprintf(compile.dir, sizeof compile.dir, "%s", dir.data);
        else
            compile.off_reason = "no cache_dir, and neither XDG_CACHE_HOME nor HOME is set";
        sc_buf_free(&dir);
    }
}

/* The identity of the libcuda file the driver runs from, so that a driver update
 * that keeps the CUDA version (the same cuDriverGetVersion) still changes keys. */
static void describe_driver_build(void *driver_symbol)
{
    Dl_info info;
    char path[PATH_MAX];
    struct stat st;
    if (driver_symbol && dladdr(driver_symbol, &info) && info.dli_fname &&
        realpath(info.dli_fname, path) && stat(path, &st) == 0)
        snprintf(compile.driver_build, sizeof compile.driver_build, "%s %lld %lld.%09ld", path,
                 (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

static void describe_driver(void)
{
    /* Checked once, before the first lookup: entries are checked one by one too. */
    ScErr unsafe = {0};
    if (compile.dir[0] && !sc_cache_dir_safe(compile.dir, &unsafe)) {
        sc_log("scord: the cache of compiled modules is off: %s (another user could put code "
               "there for scord to load)\n",
               unsafe.msg);
        compile.dir[0] = '\0';
        compile.off_reason = "its directory is not private to the user";
    }
    CompileDriver *d = &compile.drv;
    *(void **)&d->driver_get_version = sc_driver_sym("cuDriverGetVersion");
    *(void **)&d->ctx_get_current = sc_driver_sym("cuCtxGetCurrent");
    *(void **)&d->ctx_push = sc_driver_sym("cuCtxPushCurrent_v2");
    *(void **)&d->ctx_pop = sc_driver_sym("cuCtxPopCurrent_v2");
    *(void **)&d->primary_retain = sc_driver_sym("cuDevicePrimaryCtxRetain");
    *(void **)&d->primary_release = sc_driver_sym("cuDevicePrimaryCtxRelease_v2");
    if (!d->driver_get_version || d->driver_get_version(&compile.driver_version) != CUDA_SUCCESS)
        compile.driver_version = -1;
    describe_driver_build(*(void **)&d->driver_get_version);
    if (compile.dir[0])
        sc_vlog("scord: compiled modules are cached in %s\n", compile.dir);
    else
        sc_vlog("scord: the cache of compiled modules is off (%s)\n", compile.off_reason);
}

bool sc_planned_device(CUdevice *dev)
{
    ScDriver *d = &sc_ctx.drv;
    if (d->ctx_get_device && d->ctx_get_device(dev) == CUDA_SUCCESS)
        return true;
    return d->device_get && d->device_get(dev, 0) == CUDA_SUCCESS;
}

CUresult sc_link_add_input(ScReal_cuLinkAddData add, CUlinkState state, const ScLinkInput *in,
                           const char *name, unsigned int n_opts, CUjit_option *opts,
                           void **vals)
{
    return add(state, in->is_ptx ? CU_JIT_INPUT_PTX : CU_JIT_INPUT_CUBIN, in->data,
               in->len + in->is_ptx, name, n_opts, opts, vals);
}

static int device_attribute(CUdevice dev, CUdevice_attribute attr)
{
    ScDriver *d = &sc_ctx.drv;
    int value;
    if (!d->device_get_attribute || d->device_get_attribute(&value, attr, dev) != CUDA_SUCCESS)
        return -1;
    return value;
}

/* Everything that determines the cubin: the inputs, the device's architecture,
 * the driver (whose JIT compiles), scord and the options scord compiles with. */
static void make_key(CUdevice dev, const ScLinkInput *in, size_t n, unsigned max_registers, ScCacheKey *key)
{
    ScCacheKeyBuilder b;
    sc_cache_key_begin(&b);
    sc_cache_key_add_str(&b, "scord", SCORD_VERSION);
    sc_cache_key_add_int(&b, "driver_version", compile.driver_version);
    sc_cache_key_add_str(&b, "driver_build", compile.driver_build);
    sc_cache_key_add_int(&b, "cc_major",
                         device_attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
    sc_cache_key_add_int(&b, "cc_minor",
                         device_attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
    for (size_t i = 0; i < SC_ARRAY_LEN(jit_settings); i++) {
        sc_cache_key_add_int(&b, "jit_option", jit_settings[i].option);
        sc_cache_key_add_int(&b, "jit_value", (int64_t)jit_settings[i].value);
    }
    sc_cache_key_add_int(&b, "max_registers", max_registers);
    for (size_t i = 0; i < n; i++) {
        sc_cache_key_add_int(&b, "input_type", in[i].is_ptx ? CU_JIT_INPUT_PTX : CU_JIT_INPUT_CUBIN);
        sc_cache_key_add(&b, "input", in[i].data, in[i].len);
    }
    sc_cache_key_end(&b, key);
}

/* A context for a compile on a thread that has none. */
typedef struct CompileContext {
    bool pushed;  /* scord pushed dev's primary context */
    bool keep;    /* and keeps the reference it retained */
    CUdevice dev;
} CompileContext;

/* Makes dev's primary context current when the thread has no context, so that
 * the compile (and with it a rejection of scord's code) happens now, not when
 * the driver loads lazily. The first reference scord retains on a device is
 * kept until exit, so that the runtime, which retains the same context next,
 * finds it alive instead of creating it a second time. */
static void enter_context(CUdevice dev, CompileContext *cc)
{
    CompileDriver *d = &compile.drv;
    *cc = (CompileContext){.dev = dev};
    CUcontext current = NULL, primary;
    if (!d->ctx_get_current || !d->ctx_push || !d->ctx_pop || !d->primary_retain ||
        !d->primary_release || d->ctx_get_current(&current) != CUDA_SUCCESS || current)
        return;
    CUresult r = d->primary_retain(&primary, dev);
    if (r != CUDA_SUCCESS) {
        sc_vlog("scord: cannot retain device %d's primary context (%s); compiling without a "
                "context\n",
                (int)dev, sc_cu_error(r));
        return;
    }
    if (d->ctx_push(primary) != CUDA_SUCCESS) {
        d->primary_release(dev);
        return;
    }
    cc->pushed = true;
    pthread_mutex_lock(&compile.lock);
    if (dev >= 0 && dev < MAX_KEPT_DEVICES && !compile.kept[dev])
        cc->keep = compile.kept[dev] = true;
    pthread_mutex_unlock(&compile.lock);
    if (cc->keep)
        sc_vlog("scord: no current context: compiling in device %d's primary context, "
                "retained until exit\n",
                (int)dev);
}

static void leave_context(const CompileContext *cc)
{
    if (!cc->pushed)
        return;
    CUcontext popped;
    compile.drv.ctx_pop(&popped);
    if (!cc->keep)
        compile.drv.primary_release(cc->dev);
}

/* The JIT's error log of a link (not a setting: not in the cache key). */
#define JIT_LOG_BYTES 4096

static CUresult link_inputs(const ScLinkInput *in, size_t n, unsigned max_registers, void **cubin_out,
                            size_t *size_out, char log[JIT_LOG_BYTES])
{
    ScDriver *d = &sc_ctx.drv;
    if (!d->link_create || !d->link_add_data || !d->link_complete || !d->link_destroy)
        return CUDA_ERROR_NOT_SUPPORTED;
    CUjit_option opts[SC_ARRAY_LEN(jit_settings) + 3];
    void *vals[SC_ARRAY_LEN(jit_settings) + 3];
    unsigned n_opts = 0;
    for (size_t i = 0; i < SC_ARRAY_LEN(jit_settings); i++, n_opts++) {
        opts[n_opts] = jit_settings[i].option;
        vals[n_opts] = (void *)jit_settings[i].value;
    }
    log[0] = '\0';
    opts[n_opts] = CU_JIT_ERROR_LOG_BUFFER;
    vals[n_opts++] = log;
    opts[n_opts] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
    vals[n_opts++] = (void *)(uintptr_t)JIT_LOG_BYTES;
    if (max_registers) {
        opts[n_opts] = CU_JIT_MAX_REGISTERS;
        vals[n_opts++] = (void *)(uintptr_t)max_registers;
    }
    CUlinkState state;
    CUresult r = d->link_create(n_opts, opts, vals, &state);
    if (r != CUDA_SUCCESS)
        return r;
    for (size_t i = 0; i < n && r == CUDA_SUCCESS; i++)
        r = sc_link_add_input(d->link_add_data, state, &in[i], "scord", 0, NULL, NULL);
    void *cubin = NULL;
    size_t size = 0;
    if (r == CUDA_SUCCESS)
        r = d->link_complete(state, &cubin, &size);
    if (r == CUDA_SUCCESS) {
        /* The link session owns its cubin; the module needs it for longer. */
        *cubin_out = malloc(size);
        if (*cubin_out) {
            memcpy(*cubin_out, cubin, size);
            *size_out = size;
        } else {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    d->link_destroy(state);
    return r;
}

static void store(const char *origin, const ScCacheKey *key, const void *cubin, size_t size)
{
    pthread_mutex_lock(&compile.lock);
    bool off = compile.store_failed;
    pthread_mutex_unlock(&compile.lock);
    if (off)
        return;
    ScErr err = {0};
    if (!sc_cache_store(compile.dir, key, cubin, size, &err)) {
        pthread_mutex_lock(&compile.lock);
        bool first = !compile.store_failed;
        compile.store_failed = true;
        pthread_mutex_unlock(&compile.lock);
        if (first)
            sc_vlog("scord: %s: cannot store the compiled module in the cache (%s); no more "
                    "stores this run\n",
                    origin, err.msg);
        return;
    }
    ScCacheTrimStats trim;
    if (sc_cache_trim(compile.dir, CACHE_MAX_BYTES, time(NULL), &trim, &err) && trim.evicted)
        sc_vlog("scord: the cache held %llu bytes: removed the %zu least recently used "
                "entries\n",
                (unsigned long long)trim.bytes_before, trim.evicted);
}

CUresult sc_compile(const char *origin, const ScLinkInput *in, size_t n, unsigned max_registers, void **cubin)
{
    pthread_once(&compile.once, describe_driver);
    CUdevice dev = 0;
    bool have_device = sc_planned_device(&dev);
    bool cached = compile.dir[0] && have_device;
    ScCacheKey key;
    char hex[2 * SC_SHA256_LEN + 1] = "";
    if (cached) {
        make_key(dev, in, n, max_registers, &key);
        sc_sha256_hex(key.bytes, hex);
        ScErr err = {0};
        void *payload = NULL;
        size_t len = 0;
        switch (sc_cache_lookup(compile.dir, &key, &payload, &len, &err)) {
        case SC_CACHE_HIT:
            sc_vlog("scord: %s: cache hit, entry %.16s\n", origin, hex);
            *cubin = payload;
            return CUDA_SUCCESS;
        case SC_CACHE_MISS:
            sc_vlog("scord: %s: cache miss, entry %.16s: compiling\n", origin, hex);
            break;
        case SC_CACHE_UNUSABLE:
            sc_vlog("scord: %s: cache entry unusable (%s): compiling\n", origin, err.msg);
            break;
        }
    }
    CompileContext cc = {0};
    if (have_device)
        enter_context(dev, &cc);
    size_t size = 0;
    char log[JIT_LOG_BYTES];
    CUresult r = link_inputs(in, n, max_registers, cubin, &size, log);
    leave_context(&cc);
    if (r != CUDA_SUCCESS && log[0]) {
        log[JIT_LOG_BYTES - 1] = '\0';
        sc_vlog("scord: %s: the driver's compiler said:\n%s%s", origin, log,
                log[strlen(log) - 1] == '\n' ? "" : "\n");
    }
    if (r == CUDA_SUCCESS && cached)
        store(origin, &key, *cubin, size);
    return r;
}
