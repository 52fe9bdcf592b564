/* intercept_nvrtc.c: kernels that NVRTC compiles to machine code while the program runs
 * (CuPy's RawKernel, cuda.core, a C program asking for -arch=sm_90). Their cubin has no
 * PTX, so scord compiles a twin of each such program to PTX with the same source,
 * headers, name expressions and options (the virtual architecture in place of the real
 * one), and remembers the PTX under a hash of the cubin the program gets. When the
 * program loads that cubin, scord loads the twin's PTX instead (intercept_load.c),
 * instrumented like any other: the same kernels, under the same names, from the same
 * source lines. NVRTC is reached by its exported names (programs linked with -lnvrtc)
 * and through scord's dlsym (programs that open it themselves: CuPy, cuda-python). */
#include <dlfcn.h>
#include <nvrtc.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_sha256.h"
#include "intercept/intercept.h"

typedef nvrtcResult (*CreateFn)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                                const char *const *);
typedef nvrtcResult (*AddNameFn)(nvrtcProgram, const char *const);
typedef nvrtcResult (*CompileFn)(nvrtcProgram, int, const char *const *);
typedef nvrtcResult (*GetCodeFn)(nvrtcProgram, char *);
typedef nvrtcResult (*GetSizeFn)(nvrtcProgram, size_t *);
typedef nvrtcResult (*DestroyFn)(nvrtcProgram *);

/* NVRTC's own entry points, in two tables. `linked`: the next object after libscord.so
 * that exports them (a program linked with -lnvrtc), for calls of the names libscord.so
 * exports. `opened`: the library a program opened itself (CuPy, cuda-python), for calls
 * of the wrappers that scord's dlsym hands out (intercept_twin.c). */
enum { CREATE, ADD_NAME, COMPILE, GET_CUBIN, DESTROY, GET_CUBIN_SIZE, GET_PTX_SIZE, GET_PTX, N_REAL };
static const char *const real_names[N_REAL] = {
    "nvrtcCreateProgram", "nvrtcAddNameExpression", "nvrtcCompileProgram", "nvrtcGetCUBIN",
    "nvrtcDestroyProgram", "nvrtcGetCUBINSize", "nvrtcGetPTXSize", "nvrtcGetPTX",
};

typedef ScOpenedApi NvrtcApi;
_Static_assert(N_REAL <= sizeof ((ScOpenedApi *)0)->fn / sizeof(void *), "ScOpenedApi.fn holds every entry point");
static NvrtcApi linked = {.names = real_names, .lib = RTLD_NEXT}, opened = {.names = real_names};

static void *real(NvrtcApi *api, int which)
{
    return sc_opened_real(api, which);
}

/* What a twin needs of a program: what it was created from and the name expressions
 * added to it; its PTX once it compiled to machine code. */
typedef struct NvrtcProgram {
    nvrtcProgram prog;
    char *src, *name;
    int n_headers;
    char **headers, **include_names;
    int n_exprs;
    char **exprs;
    char *ptx;
    struct NvrtcProgram *next;
} NvrtcProgram;

static pthread_mutex_t nvrtc_lock = PTHREAD_MUTEX_INITIALIZER;
static NvrtcProgram *programs;

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static char **dup_strings(int n, const char *const *v)
{
    if (n <= 0 || !v)
        return NULL;
    char **out = calloc((size_t)n, sizeof *out);
    for (int i = 0; out && i < n; i++)
        out[i] = dup_or_null(v[i]);
    return out;
}

static void free_strings(int n, char **v)
{
    for (int i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

static void free_program(NvrtcProgram *p)
{
    free(p->src);
    free(p->name);
    free_strings(p->n_headers, p->headers);
    free_strings(p->n_headers, p->include_names);
    free_strings(p->n_exprs, p->exprs);
    free(p->ptx);
    free(p);
}

/* Under nvrtc_lock. */
static NvrtcProgram *find_program(nvrtcProgram prog)
{
    for (NvrtcProgram *p = programs; p; p = p->next)
        if (p->prog == prog)
            return p;
    return NULL;
}

/* The PTX of a program compiled again with `opts`, or NULL (the twin failed: the
 * cubin then runs unchecked, as before). */
static char *twin_ptx(NvrtcApi *api, const NvrtcProgram *p, int n, const char *const *opts)
{
    nvrtcProgram twin;
    if (((CreateFn)real(api, CREATE))(&twin, p->src, p->name, p->n_headers, (const char *const *)p->headers,
                                 (const char *const *)p->include_names) != NVRTC_SUCCESS)
        return NULL;
    bool ok = true;
    for (int i = 0; ok && i < p->n_exprs; i++)
        ok = ((AddNameFn)real(api, ADD_NAME))(twin, p->exprs[i]) == NVRTC_SUCCESS;
    size_t size = 0;
    char *ptx = NULL;
    ok = ok && ((CompileFn)real(api, COMPILE))(twin, n, opts) == NVRTC_SUCCESS &&
         ((GetSizeFn)real(api, GET_PTX_SIZE))(twin, &size) == NVRTC_SUCCESS && size > 0 && (ptx = malloc(size)) &&
         ((GetCodeFn)real(api, GET_PTX))(twin, ptx) == NVRTC_SUCCESS;
    ((DestroyFn)real(api, DESTROY))(&twin);
    if (!ok) {
        free(ptx);
        return NULL;
    }
    ptx[size - 1] = '\0';
    return ptx;
}

static nvrtcResult create_with(NvrtcApi *api, nvrtcProgram *prog, const char *src, const char *name, int n_headers,
                               const char *const *headers, const char *const *include_names)
{
    CreateFn create = (CreateFn)real(api, CREATE);
    if (!create)
        return NVRTC_ERROR_INTERNAL_ERROR;
    nvrtcResult r = create(prog, src, name, n_headers, headers, include_names);
    if (r != NVRTC_SUCCESS || !sc_ctx.detect || !src)
        return r;
    NvrtcProgram *p = calloc(1, sizeof *p);
    if (!p)
        return r;
    p->prog = *prog;
    p->src = strdup(src);
    p->name = dup_or_null(name);
    p->n_headers = n_headers > 0 ? n_headers : 0;
    p->headers = dup_strings(n_headers, headers);
    p->include_names = dup_strings(n_headers, include_names);
    if (!p->src || (p->n_headers && (!p->headers || !p->include_names))) {
        free_program(p);
        return r;
    }
    pthread_mutex_lock(&nvrtc_lock);
    p->next = programs;
    programs = p;
    pthread_mutex_unlock(&nvrtc_lock);
    return r;
}

static nvrtcResult add_name_with(NvrtcApi *api, nvrtcProgram prog, const char *const expr)
{
    AddNameFn add = (AddNameFn)real(api, ADD_NAME);
    if (!add)
        return NVRTC_ERROR_INTERNAL_ERROR;
    nvrtcResult r = add(prog, expr);
    if (r != NVRTC_SUCCESS || !expr)
        return r;
    pthread_mutex_lock(&nvrtc_lock);
    NvrtcProgram *p = find_program(prog);
    char **grown = p ? realloc(p->exprs, ((size_t)p->n_exprs + 1) * sizeof *grown) : NULL;
    if (grown) {
        p->exprs = grown;
        if ((grown[p->n_exprs] = strdup(expr)))
            p->n_exprs++;
    }
    pthread_mutex_unlock(&nvrtc_lock);
    return r;
}

static nvrtcResult compile_with(NvrtcApi *api, nvrtcProgram prog, int n, const char *const *opts)
{
    CompileFn compile = (CompileFn)real(api, COMPILE);
    if (!compile)
        return NVRTC_ERROR_INTERNAL_ERROR;
    nvrtcResult r = compile(prog, n, opts);
    if (r != NVRTC_SUCCESS || n < 0 || (n && !opts))
        return r;
    const char **twin_opts = calloc((size_t)n + 1, sizeof *twin_opts);
    char arch[64];
    pthread_mutex_lock(&nvrtc_lock);
    NvrtcProgram *p = find_program(prog);
    /* The twin compiles outside the lock, from the program's record (which only
     * nvrtcDestroyProgram, never called during a compile of the program, frees): it
     * takes as long as the program's own compile. */
    NvrtcProgram copy = p ? *p : (NvrtcProgram){0};
    pthread_mutex_unlock(&nvrtc_lock);
    bool wanted = p && twin_opts && sc_plan_nvrtc_twin_options(opts, n, twin_opts, arch, sizeof arch);
    char *ptx = wanted ? twin_ptx(api, &copy, n, twin_opts) : NULL;
    free(twin_opts);
    if (!wanted)
        return r;
    if (!ptx)
        sc_log("scord: NVRTC program %s: compiling it again to PTX failed, so its machine code "
               "runs unchecked\n",
               copy.name ? copy.name : "(unnamed)");
    pthread_mutex_lock(&nvrtc_lock);
    if ((p = find_program(prog))) {
        free(p->ptx);
        p->ptx = ptx;
        ptx = NULL;
    }
    pthread_mutex_unlock(&nvrtc_lock);
    free(ptx);
    return r;
}

static nvrtcResult get_cubin_with(NvrtcApi *api, nvrtcProgram prog, char *cubin)
{
    GetCodeFn get = (GetCodeFn)real(api, GET_CUBIN);
    GetSizeFn get_size = (GetSizeFn)real(api, GET_CUBIN_SIZE);
    if (!get)
        return NVRTC_ERROR_INTERNAL_ERROR;
    nvrtcResult r = get(prog, cubin);
    size_t size = 0;
    if (r != NVRTC_SUCCESS || !cubin || !get_size || get_size(prog, &size) != NVRTC_SUCCESS || !size)
        return r;
    uint8_t hash[SC_SHA256_LEN];
    sc_sha256(cubin, size, hash);
    pthread_mutex_lock(&nvrtc_lock);
    NvrtcProgram *p = find_program(prog);
    if (p && p->ptx)
        sc_twin_add(hash, p->ptx, "the PTX of the NVRTC program that made it");
    pthread_mutex_unlock(&nvrtc_lock);
    return r;
}

static nvrtcResult destroy_with(NvrtcApi *api, nvrtcProgram *prog)
{
    DestroyFn destroy = (DestroyFn)real(api, DESTROY);
    if (!destroy)
        return NVRTC_ERROR_INTERNAL_ERROR;
    nvrtcProgram handle = prog ? *prog : NULL;
    nvrtcResult r = destroy(prog);
    pthread_mutex_lock(&nvrtc_lock);
    for (NvrtcProgram **at = &programs; *at; at = &(*at)->next) {
        if ((*at)->prog == handle) {
            NvrtcProgram *p = *at;
            *at = p->next;
            free_program(p);
            break;
        }
    }
    pthread_mutex_unlock(&nvrtc_lock);
    return r;
}

/* The entry points: the names libscord.so exports, which reach the linked library, and
 * the wrappers scord's dlsym hands out for the library a program opened. */
SC_EXPORT nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name, int n_headers,
                                         const char *const *headers, const char *const *include_names)
{
    return create_with(&linked, prog, src, name, n_headers, headers, include_names);
}

SC_EXPORT nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char *const expr)
{
    return add_name_with(&linked, prog, expr);
}

SC_EXPORT nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int n, const char *const *opts)
{
    return compile_with(&linked, prog, n, opts);
}

SC_EXPORT nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin)
{
    return get_cubin_with(&linked, prog, cubin);
}

SC_EXPORT nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog)
{
    return destroy_with(&linked, prog);
}

static nvrtcResult opened_create(nvrtcProgram *prog, const char *src, const char *name, int n_headers,
                                 const char *const *headers, const char *const *include_names)
{
    return create_with(&opened, prog, src, name, n_headers, headers, include_names);
}

static nvrtcResult opened_add_name(nvrtcProgram prog, const char *const expr)
{
    return add_name_with(&opened, prog, expr);
}

static nvrtcResult opened_compile(nvrtcProgram prog, int n, const char *const *opts)
{
    return compile_with(&opened, prog, n, opts);
}

static nvrtcResult opened_get_cubin(nvrtcProgram prog, char *cubin)
{
    return get_cubin_with(&opened, prog, cubin);
}

static nvrtcResult opened_destroy(nvrtcProgram *prog)
{
    return destroy_with(&opened, prog);
}

void *sc_nvrtc_wrapper(const char *name, void *found)
{
    static void *const wrappers[] = {
        (void *)opened_create, (void *)opened_add_name, (void *)opened_compile,
        (void *)opened_get_cubin, (void *)opened_destroy,
    };
    static const void *const exported[] = {
        (void *)nvrtcCreateProgram, (void *)nvrtcAddNameExpression, (void *)nvrtcCompileProgram,
        (void *)nvrtcGetCUBIN, (void *)nvrtcDestroyProgram,
    };
    int which = -1;
    for (int i = 0; i < (int)SC_ARRAY_LEN(wrappers); i++)
        if (strcmp(name, real_names[i]) == 0)
            which = i;
    /* A lookup in the global scope finds libscord.so's own name first. */
    if (which < 0 || found == exported[which])
        return NULL;
    return sc_opened_takes(&opened, which, found) ? wrappers[which] : NULL;
}
