/* intercept_triton.c: the PTX of kernels Triton compiled. Triton's cache keeps, in one
 * folder per compiled kernel, every stage of the compile: the PTX it generated beside
 * the cubin ptxas made of it (<name>.ptx, <name>.cubin). A cubin a program loads whose
 * bytes are a cached cubin's is that PTX's machine code, so scord can check the PTX in
 * its place. The index maps the SHA-256 of each cached cubin to its PTX file; folders
 * are indexed once, and a lookup that misses indexes the folders added since (Triton
 * compiles a kernel, writes its folder, then loads the cubin). Only folders and files
 * owned by the user and writable by no one else count: a cubin planted by another user
 * must not bring its own PTX in. Pure file work, no driver: unit-tested on the CPU. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sc_buf.h"
#include "common/sc_sha256.h"
#include "intercept/intercept_triton.h"

typedef struct TritonEntry {
    uint8_t hash[SC_SHA256_LEN];
    char *ptx_path;
} TritonEntry;

struct ScTritonIndex {
    TritonEntry *entries;
    size_t n, cap;
    char **folders; /* those indexed, in no order */
    size_t n_folders, cap_folders;
};

static bool grow(void **v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? 2 * *cap : 16;
    void *p = realloc(*v, c * size);
    if (!p)
        return false;
    *v = p;
    *cap = c;
    return true;
}

/* A file or folder scord may trust: the user's own, writable by no one else. */
static bool trusted(const char *path, bool folder)
{
    struct stat st;
    return lstat(path, &st) == 0 && (folder ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)) &&
           st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *data = NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)size + 1)) &&
        fread(data, 1, (size_t)size, f) == (size_t)size) {
        data[size] = '\0';
        *len = (size_t)size;
    } else {
        free(data);
        data = NULL;
    }
    fclose(f);
    return data;
}

static bool indexed(const ScTritonIndex *x, const char *folder)
{
    for (size_t i = 0; i < x->n_folders; i++)
        if (strcmp(x->folders[i], folder) == 0)
            return true;
    return false;
}

/* Every <name>.cubin of one cache folder that has a <name>.ptx beside it; the number. */
static size_t index_folder(ScTritonIndex *x, const char *dir)
{
    size_t before = x->n;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    ScBuf cubin = {0}, ptx = {0};
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len <= 6 || strcmp(e->d_name + len - 6, ".cubin") != 0)
            continue;
        cubin.len = ptx.len = 0;
        sc_buf_printf(&cubin, "%s/%s", dir, e->d_name);
        sc_buf_printf(&ptx, "%s/%.*s.ptx", dir, (int)(len - 6), e->d_name);
        size_t size = 0;
        char *bytes = NULL;
        if (cubin.oom || ptx.oom || !trusted(cubin.data, false) || !trusted(ptx.data, false) ||
            !grow((void **)&x->entries, &x->cap, x->n, sizeof *x->entries) ||
            !(bytes = read_file(cubin.data, &size)))
            continue;
        TritonEntry *t = &x->entries[x->n];
        sc_sha256(bytes, size, t->hash);
        free(bytes);
        if ((t->ptx_path = strdup(ptx.data)))
            x->n++;
    }
    sc_buf_free(&cubin);
    sc_buf_free(&ptx);
    closedir(d);
    return x->n - before;
}

/* Indexes the cache's folders not indexed yet. A folder with no pair is looked at again
 * at the next miss: another process may still be writing it. */
static void index_new_folders(ScTritonIndex *x, const char *cache)
{
    if (!trusted(cache, true))
        return;
    DIR *d = opendir(cache);
    if (!d)
        return;
    ScBuf path = {0};
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || indexed(x, e->d_name))
            continue;
        path.len = 0;
        sc_buf_printf(&path, "%s/%s", cache, e->d_name);
        if (path.oom || !trusted(path.data, true) ||
            !grow((void **)&x->folders, &x->cap_folders, x->n_folders, sizeof *x->folders))
            continue;
        char *name = index_folder(x, path.data) ? strdup(e->d_name) : NULL;
        if (name)
            x->folders[x->n_folders++] = name;
    }
    sc_buf_free(&path);
    closedir(d);
}

static const TritonEntry *find(const ScTritonIndex *x, const uint8_t hash[SC_SHA256_LEN])
{
    for (size_t i = 0; i < x->n; i++)
        if (memcmp(x->entries[i].hash, hash, SC_SHA256_LEN) == 0)
            return &x->entries[i];
    return NULL;
}

char *sc_triton_ptx_for(ScTritonIndex **index, const char *cache, const uint8_t hash[SC_SHA256_LEN])
{
    if (!*index && !(*index = calloc(1, sizeof **index)))
        return NULL;
    ScTritonIndex *x = *index;
    const TritonEntry *t = find(x, hash);
    if (!t) {
        index_new_folders(x, cache);
        t = find(x, hash);
    }
    size_t len = 0;
    return t && trusted(t->ptx_path, false) ? read_file(t->ptx_path, &len) : NULL;
}

void sc_triton_index_free(ScTritonIndex *x)
{
    if (!x)
        return;
    for (size_t i = 0; i < x->n; i++)
        free(x->entries[i].ptx_path);
    for (size_t i = 0; i < x->n_folders; i++)
        free(x->folders[i]);
    free(x->entries);
    free(x->folders);
    free(x);
}

bool sc_triton_cache_dir(const char *triton_cache_dir, const char *home, ScBuf *out)
{
    out->len = 0;
    if (triton_cache_dir && *triton_cache_dir)
        sc_buf_puts(out, triton_cache_dir);
    else if (home && *home)
        sc_buf_printf(out, "%s/.triton/cache", home);
    else
        return false;
    return !out->oom;
}
