/* intercept_twin.c: what the compilers a program drives while it runs (NVRTC,
 * intercept_nvrtc.c; nvJitLink, intercept_nvjitlink.c) share: the PTX twins of the cubins
 * they made, by a hash of the cubin's bytes, which the loader looks up when the program
 * loads one (intercept_load.c); and the entry points of a compiler library the program
 * opened itself, reached through scord's dlsym. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_sha256.h"
#include "intercept/intercept.h"

typedef struct Twin {
    uint8_t hash[SC_SHA256_LEN];
    char *ptx;
    const char *from;
    struct Twin *next;
} Twin;

static pthread_mutex_t twin_lock = PTHREAD_MUTEX_INITIALIZER;
static Twin *twins;

void sc_twin_add(const uint8_t hash[SC_SHA256_LEN], const char *ptx, const char *from)
{
    Twin *t = calloc(1, sizeof *t);
    if (!t || !(t->ptx = strdup(ptx))) {
        free(t);
        return;
    }
    memcpy(t->hash, hash, SC_SHA256_LEN);
    t->from = from;
    pthread_mutex_lock(&twin_lock);
    t->next = twins;
    twins = t;
    pthread_mutex_unlock(&twin_lock);
}

char *sc_twin_for(const uint8_t hash[SC_SHA256_LEN], const char **from)
{
    char *ptx = NULL;
    pthread_mutex_lock(&twin_lock);
    for (Twin *t = twins; t && !ptx; t = t->next)
        if (memcmp(t->hash, hash, SC_SHA256_LEN) == 0 && (ptx = strdup(t->ptx)))
            *from = t->from;
    pthread_mutex_unlock(&twin_lock);
    return ptx;
}

void *sc_opened_real(ScOpenedApi *api, int which)
{
    void *p = __atomic_load_n(&api->fn[which], __ATOMIC_ACQUIRE);
    void *lib = __atomic_load_n(&api->lib, __ATOMIC_ACQUIRE);
    if (!p && lib) {
        p = sc_real_dlsym(lib, api->names[which]);
        __atomic_store_n(&api->fn[which], p, __ATOMIC_RELEASE);
    }
    return p;
}

/* The library that holds `fn`, opened again without loading anything (NULL: none). */
static void *library_of(void *fn)
{
    Dl_info info;
    return dladdr(fn, &info) && info.dli_fname ? dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD) : NULL;
}

bool sc_opened_takes(ScOpenedApi *api, int which, void *found)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    void *lib = library_of(found);
    pthread_mutex_lock(&lock);
    if (!api->lib && lib && !api->mixed) {
        __atomic_store_n(&api->lib, lib, __ATOMIC_RELEASE);
        lib = NULL;
    } else if (lib != api->lib) {
        api->mixed = true;
    }
    bool wrap = !api->mixed && found == sc_opened_real(api, which);
    pthread_mutex_unlock(&lock);
    if (lib)
        dlclose(lib); /* a second reference to a library already known, or another's */
    return wrap;
}
