/* intercept_nvjitlink.c: kernels a program links to machine code with nvJitLink while it
 * runs (numba-cuda and cuda.core's Linker, which open the library themselves and look
 * its entry points up by their plain names). scord keeps each link's options and inputs,
 * and gives the cubin the program gets a PTX twin: the PTX of its one PTX input, or for
 * a link of LTO-IR (numba-cuda's default where nvJitLink is present) the PTX that
 * nvJitLink makes of the same inputs with the same options and -ptx. When the program
 * loads the cubin, scord loads the twin instead (intercept_load.c), instrumented like
 * any other. A link with any other input (a cubin, a fat binary, a library, PTX beside
 * LTO-IR or a second PTX unit) makes code scord cannot see whole, and its cubin runs
 * unchecked, as before. */
#include <nvJitLink.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_sha256.h"
#include "intercept/intercept.h"

typedef nvJitLinkResult (*CreateFn)(nvJitLinkHandle *, uint32_t, const char **);
typedef nvJitLinkResult (*AddDataFn)(nvJitLinkHandle, nvJitLinkInputType, const void *, size_t, const char *);
typedef nvJitLinkResult (*AddFileFn)(nvJitLinkHandle, nvJitLinkInputType, const char *);
typedef nvJitLinkResult (*CompleteFn)(nvJitLinkHandle);
typedef nvJitLinkResult (*GetCodeFn)(nvJitLinkHandle, void *);
typedef nvJitLinkResult (*GetSizeFn)(nvJitLinkHandle, size_t *);
typedef nvJitLinkResult (*DestroyFn)(nvJitLinkHandle *);

enum { CREATE, ADD_DATA, ADD_FILE, GET_CUBIN, DESTROY, GET_CUBIN_SIZE, COMPLETE, GET_PTX_SIZE, GET_PTX, N_REAL };
static const char *const real_names[N_REAL] = {
    "nvJitLinkCreate",  "nvJitLinkAddData",          "nvJitLinkAddFile",
    "nvJitLinkGetLinkedCubin", "nvJitLinkDestroy", "nvJitLinkGetLinkedCubinSize",
    "nvJitLinkComplete", "nvJitLinkGetLinkedPtxSize", "nvJitLinkGetLinkedPtx",
};
static ScOpenedApi opened = {.names = real_names};
_Static_assert(N_REAL <= sizeof ((ScOpenedApi *)0)->fn / sizeof(void *), "ScOpenedApi.fn holds every entry point");

/* One input of a link, as scord can replay it: PTX or LTO-IR bytes. */
typedef struct Input {
    bool ltoir;
    uint8_t *data;
    size_t len;
} Input;

/* A link the program made: its options and inputs, while scord can replay them all. */
typedef struct Link {
    nvJitLinkHandle handle;
    uint32_t n_opts;
    char **opts;
    uint32_t n_inputs;
    Input *inputs;
    bool other;   /* an input scord cannot replay, or one it could not keep */
    bool twinned; /* its cubin has its twin already (the program may take it twice) */
    struct Link *next;
} Link;

static pthread_mutex_t link_lock = PTHREAD_MUTEX_INITIALIZER;
static Link *links;

static void free_link(Link *l)
{
    for (uint32_t i = 0; i < l->n_opts; i++)
        free(l->opts[i]);
    free(l->opts);
    for (uint32_t i = 0; i < l->n_inputs; i++)
        free(l->inputs[i].data);
    free(l->inputs);
    free(l);
}

/* Under link_lock. */
static Link *find_link(nvJitLinkHandle handle)
{
    for (Link *l = links; l; l = l->next)
        if (l->handle == handle)
            return l;
    return NULL;
}

/* Notes an input the link took: PTX (its text, NUL-terminated) or LTO-IR bytes, or
 * data NULL for any other kind. */
static void note_input(nvJitLinkHandle handle, nvJitLinkInputType type, const void *data, size_t len)
{
    bool ptx = type == NVJITLINK_INPUT_PTX, ltoir = type == NVJITLINK_INPUT_LTOIR;
    if (data && ptx)
        len = strnlen(data, len);
    pthread_mutex_lock(&link_lock);
    Link *l = find_link(handle);
    Input *grown = l && !l->other && data && len && (ptx || ltoir)
                       ? realloc(l->inputs, (l->n_inputs + 1) * sizeof *grown)
                       : NULL;
    uint8_t *copy = grown ? malloc(len + 1) : NULL;
    if (grown)
        l->inputs = grown;
    if (copy) {
        memcpy(copy, data, len);
        copy[len] = 0;
        l->inputs[l->n_inputs++] = (Input){ltoir, copy, len};
    } else if (l) {
        l->other = true;
    }
    pthread_mutex_unlock(&link_lock);
}

/* The PTX nvJitLink makes of a link of LTO-IR with its options and -lto -ptx (NULL where
 * it fails: the cubin then runs unchecked). Called outside link_lock (twin_of). */
static char *linked_ptx(const Link *l)
{
    const char **opts = calloc(l->n_opts + 2, sizeof *opts);
    if (!opts)
        return NULL;
    uint32_t n = 0;
    bool lto = false;
    for (uint32_t i = 0; i < l->n_opts; i++) {
        lto = lto || strcmp(l->opts[i], "-lto") == 0;
        if (strcmp(l->opts[i], "-ptx") != 0)
            opts[n++] = l->opts[i];
    }
    if (!lto)
        opts[n++] = "-lto";
    opts[n++] = "-ptx";
    nvJitLinkHandle twin;
    char *ptx = NULL;
    size_t size = 0;
    bool ok = ((CreateFn)sc_opened_real(&opened, CREATE))(&twin, n, opts) == NVJITLINK_SUCCESS;
    free(opts);
    if (!ok)
        return NULL;
    for (uint32_t i = 0; ok && i < l->n_inputs; i++)
        ok = ((AddDataFn)sc_opened_real(&opened, ADD_DATA))(twin, NVJITLINK_INPUT_LTOIR, l->inputs[i].data,
                                                           l->inputs[i].len, "scord twin") == NVJITLINK_SUCCESS;
    ok = ok && ((CompleteFn)sc_opened_real(&opened, COMPLETE))(twin) == NVJITLINK_SUCCESS &&
         ((GetSizeFn)sc_opened_real(&opened, GET_PTX_SIZE))(twin, &size) == NVJITLINK_SUCCESS && size > 1 &&
         (ptx = malloc(size)) &&
         ((GetCodeFn)sc_opened_real(&opened, GET_PTX))(twin, ptx) == NVJITLINK_SUCCESS;
    ((DestroyFn)sc_opened_real(&opened, DESTROY))(&twin);
    if (!ok) {
        free(ptx);
        return NULL;
    }
    ptx[size - 1] = '\0';
    return ptx;
}

/* The twin of a link whose cubin the program got: its one PTX input, or the linked PTX
 * of LTO-IR inputs (malloc'd; NULL: none, or made already). nvJitLink's calls on one
 * handle are not thread-safe, so the program's thread uses the handle for nothing else
 * meanwhile: the copy of its record stays valid outside the lock. */
static char *twin_of(nvJitLinkHandle handle)
{
    pthread_mutex_lock(&link_lock);
    Link *l = find_link(handle);
    if (l && l->twinned)
        l = NULL;
    else if (l)
        l->twinned = true;
    bool all_ltoir = l && !l->other && l->n_inputs > 0;
    for (uint32_t i = 0; all_ltoir && i < l->n_inputs; i++)
        all_ltoir = l->inputs[i].ltoir;
    char *ptx = l && !l->other && l->n_inputs == 1 && !l->inputs[0].ltoir ? strdup((char *)l->inputs[0].data)
                                                                            : NULL;
    Link copy = all_ltoir ? *l : (Link){0};
    pthread_mutex_unlock(&link_lock);
    return all_ltoir ? linked_ptx(&copy) : ptx;
}

static nvJitLinkResult opened_create(nvJitLinkHandle *handle, uint32_t n, const char **options)
{
    CreateFn create = (CreateFn)sc_opened_real(&opened, CREATE);
    if (!create)
        return NVJITLINK_ERROR_INTERNAL;
    nvJitLinkResult r = create(handle, n, options);
    if (r != NVJITLINK_SUCCESS || !handle || !sc_ctx.detect)
        return r;
    Link *l = calloc(1, sizeof *l);
    if (!l)
        return r;
    l->handle = *handle;
    l->opts = n ? calloc(n, sizeof *l->opts) : NULL;
    for (uint32_t i = 0; l->opts && options && i < n && (l->opts[i] = strdup(options[i] ? options[i] : "")); i++)
        l->n_opts++;
    l->other = l->n_opts != n;
    pthread_mutex_lock(&link_lock);
    l->next = links;
    links = l;
    pthread_mutex_unlock(&link_lock);
    return r;
}

static nvJitLinkResult opened_add_data(nvJitLinkHandle handle, nvJitLinkInputType type, const void *data,
                                       size_t size, const char *name)
{
    AddDataFn add = (AddDataFn)sc_opened_real(&opened, ADD_DATA);
    if (!add)
        return NVJITLINK_ERROR_INTERNAL;
    nvJitLinkResult r = add(handle, type, data, size, name);
    if (r == NVJITLINK_SUCCESS)
        note_input(handle, type, data, size);
    return r;
}

static nvJitLinkResult opened_add_file(nvJitLinkHandle handle, nvJitLinkInputType type, const char *path)
{
    AddFileFn add = (AddFileFn)sc_opened_real(&opened, ADD_FILE);
    if (!add)
        return NVJITLINK_ERROR_INTERNAL;
    nvJitLinkResult r = add(handle, type, path);
    if (r != NVJITLINK_SUCCESS)
        return r;
    size_t len = 0;
    void *bytes = type == NVJITLINK_INPUT_PTX || type == NVJITLINK_INPUT_LTOIR ? sc_read_code_file(path, &len) : NULL;
    note_input(handle, type, len ? bytes : NULL, len);
    free(bytes);
    return r;
}

static nvJitLinkResult opened_get_cubin(nvJitLinkHandle handle, void *cubin)
{
    GetCodeFn get = (GetCodeFn)sc_opened_real(&opened, GET_CUBIN);
    GetSizeFn get_size = (GetSizeFn)sc_opened_real(&opened, GET_CUBIN_SIZE);
    if (!get)
        return NVJITLINK_ERROR_INTERNAL;
    nvJitLinkResult r = get(handle, cubin);
    size_t size = 0;
    if (r != NVJITLINK_SUCCESS || !cubin || !get_size || get_size(handle, &size) != NVJITLINK_SUCCESS || !size)
        return r;
    char *ptx = twin_of(handle);
    if (ptx) {
        uint8_t hash[SC_SHA256_LEN];
        sc_sha256(cubin, size, hash);
        sc_twin_add(hash, ptx, "the PTX nvJitLink linked it from");
        free(ptx);
    }
    return r;
}

static nvJitLinkResult opened_destroy(nvJitLinkHandle *handle)
{
    DestroyFn destroy = (DestroyFn)sc_opened_real(&opened, DESTROY);
    if (!destroy)
        return NVJITLINK_ERROR_INTERNAL;
    nvJitLinkHandle h = handle ? *handle : NULL;
    nvJitLinkResult r = destroy(handle);
    pthread_mutex_lock(&link_lock);
    for (Link **at = &links; *at; at = &(*at)->next) {
        if ((*at)->handle == h) {
            Link *l = *at;
            *at = l->next;
            free_link(l);
            break;
        }
    }
    pthread_mutex_unlock(&link_lock);
    return r;
}

void *sc_nvjitlink_wrapper(const char *name, void *found)
{
    static void *const wrappers[] = {
        (void *)opened_create, (void *)opened_add_data, (void *)opened_add_file,
        (void *)opened_get_cubin, (void *)opened_destroy,
    };
    for (int i = 0; i < (int)SC_ARRAY_LEN(wrappers); i++)
        if (strcmp(name, real_names[i]) == 0)
            return sc_opened_takes(&opened, i, found) ? wrappers[i] : NULL;
    return NULL;
}
