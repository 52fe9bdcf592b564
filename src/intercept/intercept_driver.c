/* intercept_driver.c: getting between the program and libcuda: the dlsym
 * interposer, cuGetProcAddress, and one exported wrapper per wrapped symbol.
 *
 * The CUDA runtime (static or shared) dlopens libcuda.so.1, asks dlsym for
 * cuGetProcAddress_v2 and then fetches every other entry point through it, so
 * answering those two lookups with our own functions puts scord in front of
 * every driver call. Programs that link libcuda themselves reach the same
 * wrappers through the symbols this library exports under the driver's names. */
#include <dlfcn.h>
#include <string.h>

#include "intercept/intercept.h"

typedef void *(*ScDlsym)(void *, const char *);

static ScDlsym real_dlsym_fn;
static pthread_once_t dlsym_once = PTHREAD_ONCE_INIT;

static void find_real_dlsym(void)
{
    /* glibc >= 2.34 exports dlsym@@GLIBC_2.34; older ones only the x86-64 base version. */
    real_dlsym_fn = (ScDlsym)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!real_dlsym_fn)
        real_dlsym_fn = (ScDlsym)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
}

static ScDlsym real_dlsym(void)
{
    pthread_once(&dlsym_once, find_real_dlsym);
    return real_dlsym_fn;
}

/* ---- the wrapped symbols ------------------------------------------------ */

enum {
#define SC_HOOK(symbol, base, handler, params, args) HOOK_##symbol,
#define SC_HOOK_VOID(symbol, base, handler) HOOK_##symbol,
#include "intercept/intercept_hooks.def"
#undef SC_HOOK
#undef SC_HOOK_VOID
    N_HOOKS
};

typedef struct ScHook {
    const char *symbol;
    const char *base;
    void *wrapper;
    void *real;
} ScHook;

/* Handlers, defined in intercept_{driver,load,launch,streams}.c. */
#define SC_HOOK(symbol, base, handler, params, args)                                          \
    CUresult on_##handler(ScReal_##handler real, SC_UNPAREN params);
#define SC_HOOK_VOID(symbol, base, handler) CUresult on_##handler(ScReal_##handler real);
#include "intercept/intercept_hooks.def"
#undef SC_HOOK
#undef SC_HOOK_VOID

static ScHook hooks[N_HOOKS];

/* Each wrapper is exported under the driver's own name (the asm label keeps
 * cuda.h's renaming macros out of the way) and forwards to its handler with the
 * real entry point of exactly that symbol, so _ptsz stays _ptsz. */
#define SC_HOOK(symbol, base, handler, params, args)                                          \
    SC_EXPORT CUresult wrap_##symbol params __asm__(#symbol);                                 \
    SC_EXPORT CUresult wrap_##symbol params                                                   \
    {                                                                                         \
        sc_ctx_init();                                                                        \
        sc_driver_load();                                                                     \
        ScReal_##handler real = (ScReal_##handler)hooks[HOOK_##symbol].real;                  \
        if (!real)                                                                            \
            return CUDA_ERROR_NOT_SUPPORTED;                                                  \
        return on_##handler(real, SC_UNPAREN args);                                           \
    }
#define SC_HOOK_VOID(symbol, base, handler)                                                   \
    SC_EXPORT CUresult wrap_##symbol(void) __asm__(#symbol);                                  \
    SC_EXPORT CUresult wrap_##symbol(void)                                                    \
    {                                                                                         \
        sc_ctx_init();                                                                        \
        sc_driver_load();                                                                     \
        ScReal_##handler real = (ScReal_##handler)hooks[HOOK_##symbol].real;                  \
        if (!real)                                                                            \
            return CUDA_ERROR_NOT_SUPPORTED;                                                  \
        return on_##handler(real);                                                            \
    }
#include "intercept/intercept_hooks.def"
#undef SC_HOOK
#undef SC_HOOK_VOID

static ScHook hooks[N_HOOKS] = {
#define SC_HOOK(symbol, base, handler, params, args) {#symbol, #base, (void *)wrap_##symbol, NULL},
#define SC_HOOK_VOID(symbol, base, handler) {#symbol, #base, (void *)wrap_##symbol, NULL},
#include "intercept/intercept_hooks.def"
#undef SC_HOOK
#undef SC_HOOK_VOID
};

static void *libcuda;
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;

static void load_driver(void)
{
    ScDlsym sym = real_dlsym();
    libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!libcuda || !sym)
        return;
    for (size_t i = 0; i < N_HOOKS; i++)
        hooks[i].real = sym(libcuda, hooks[i].symbol);
    ScDriver *d = &sc_ctx.drv;
    d->module_load_data = (ScReal_cuModuleLoadData)hooks[HOOK_cuModuleLoadData].real;
    d->module_load_data_ex = (ScReal_cuModuleLoadDataEx)hooks[HOOK_cuModuleLoadDataEx].real;
    d->link_add_data = (ScReal_cuLinkAddData)hooks[HOOK_cuLinkAddData_v2].real;
    d->link_complete = (ScReal_cuLinkComplete)hooks[HOOK_cuLinkComplete].real;
    d->link_destroy = (ScReal_cuLinkDestroy)hooks[HOOK_cuLinkDestroy].real;
    *(void **)&d->link_create = sym(libcuda, "cuLinkCreate_v2");
    *(void **)&d->ctx_get_device = sym(libcuda, "cuCtxGetDevice");
    *(void **)&d->device_get = sym(libcuda, "cuDeviceGet");
    *(void **)&d->device_get_attribute = sym(libcuda, "cuDeviceGetAttribute");
    *(void **)&d->get_error_name = sym(libcuda, "cuGetErrorName");
    *(void **)&d->get_error_string = sym(libcuda, "cuGetErrorString");
    *(void **)&d->module_get_global = sym(libcuda, "cuModuleGetGlobal_v2");
    *(void **)&d->library_get_global = sym(libcuda, "cuLibraryGetGlobal");
    d->loaded = d->module_load_data != NULL;
}

bool sc_driver_load(void)
{
    pthread_once(&driver_once, load_driver);
    return sc_ctx.drv.loaded;
}

void *sc_driver_real(const char *symbol)
{
    sc_driver_load();
    for (size_t i = 0; i < N_HOOKS; i++)
        if (strcmp(hooks[i].symbol, symbol) == 0)
            return hooks[i].real;
    return NULL;
}

void *sc_driver_sym(const char *symbol)
{
    if (!sc_driver_load())
        return NULL;
    return real_dlsym()(libcuda, symbol);
}

static const ScHook *hook_by_symbol(const char *name)
{
    if (name[0] != 'c' || name[1] != 'u')
        return NULL;
    for (size_t i = 0; i < N_HOOKS; i++)
        if (strcmp(hooks[i].symbol, name) == 0)
            return &hooks[i];
    return NULL;
}

/* What a cuGetProcAddress answer becomes: our wrapper of the same real entry
 * point, or the answer unchanged for everything scord does not wrap. The real
 * pointer, not the name, decides, because the driver picks the ABI version and
 * the stream flavour from (version, flags). */
static void *wrap_proc(const char *base, void *real, int version, cuuint64_t flags)
{
    if (!real)
        return real;
    bool known_base = false;
    for (size_t i = 0; i < N_HOOKS; i++) {
        /* Asked by either name: cuGraphInstantiate is answered with
         * cuGraphInstantiateWithFlags, which a program may also ask for by its own. */
        if (strcmp(hooks[i].base, base) != 0 && strcmp(hooks[i].symbol, base) != 0)
            continue;
        known_base = true;
        if (hooks[i].real == real)
            return hooks[i].wrapper;
    }
    if (known_base)
        sc_vlog("scord: cuGetProcAddress(\"%s\", %d, %llu) gave an entry point scord does not "
                "know; calls through it are not intercepted\n",
                base, version, (unsigned long long)flags);
    return real;
}

CUresult on_cuGetProcAddress_v2(ScReal_cuGetProcAddress_v2 real, const char *symbol, void **pfn,
                                int version, cuuint64_t flags,
                                CUdriverProcAddressQueryResult *status)
{
    CUresult r = real(symbol, pfn, version, flags, status);
    if (r == CUDA_SUCCESS && pfn && symbol)
        *pfn = wrap_proc(symbol, *pfn, version, flags);
    return r;
}

CUresult on_cuGetProcAddress_v1(ScReal_cuGetProcAddress_v1 real, const char *symbol, void **pfn,
                                int version, cuuint64_t flags)
{
    CUresult r = real(symbol, pfn, version, flags);
    if (r == CUDA_SUCCESS && pfn && symbol)
        *pfn = wrap_proc(symbol, *pfn, version, flags);
    return r;
}

CUresult on_cuGetExportTable(ScReal_cuGetExportTable real, const void **table, const CUuuid *id)
{
    CUresult r = real(table, id);
    if (id) {
        const unsigned char *b = (const unsigned char *)id->bytes;
        sc_vlog("scord: cuGetExportTable(%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                "%02x%02x%02x%02x%02x%02x) = %d\n",
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
                b[13], b[14], b[15], (int)r);
    }
    return r;
}

CUresult on_cuInit(ScReal_cuInit real, unsigned int flags)
{
    CUresult r = real(flags);
    pthread_mutex_lock(&sc_ctx.lock);
    if (sc_ctx.init_result != CUDA_SUCCESS)
        sc_ctx.init_result = r;
    pthread_mutex_unlock(&sc_ctx.lock);
    return r;
}

void *sc_real_dlsym(void *handle, const char *name)
{
    return real_dlsym()(handle, name);
}

/* The interposer itself. Only lookups of symbols scord wraps are answered with
 * a wrapper, and only when the real lookup finds the symbol, so a handle that
 * lacks it still gets NULL. Everything else ends in a tail call, which keeps
 * the caller's return address for RTLD_NEXT lookups. */
SC_EXPORT void *dlsym(void *handle, const char *name)
{
    ScDlsym real = real_dlsym();
    const ScHook *h = hook_by_symbol(name);
    /* NVRTC and nvJitLink, for programs that open them themselves (intercept_nvrtc.c,
     * intercept_nvjitlink.c). Not for RTLD_NEXT, whose answer depends on the caller: it
     * stays a tail call below. */
    bool nvrtc = strncmp(name, "nvrtc", 5) == 0, nvjitlink = strncmp(name, "nvJitLink", 9) == 0;
    if (!h && handle != RTLD_NEXT && (nvrtc || nvjitlink)) {
        void *found = real(handle, name);
        void *wrapper = !found ? NULL : nvrtc ? sc_nvrtc_wrapper(name, found) : sc_nvjitlink_wrapper(name, found);
        return wrapper ? wrapper : found;
    }
    if (!h)
        return real(handle, name);
    void *p = real(handle, name);
    if (!p)
        return NULL;
    sc_driver_load();
    return h->real ? h->wrapper : p;
}
