/* sc_cache.c: the disk cache's keys, entry files, atomic stores and trimming. */
#include "common/sc_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const uint8_t entry_magic[8] = {'s', 'c', 'o', 'r', 'd', 'c', 'c', '\n'};
static const char entry_suffix[] = ".entry";
static const char temp_prefix[] = ".tmp-";

/* Offsets of the header's fields (sc_cache.h draws the layout). */
enum {
    AT_MAGIC = 0,
    AT_FORMAT = 8,
    AT_ZERO = 12,
    AT_KEY = 16,
    AT_LENGTH = 48,
    AT_DIGEST = 56,
};
SC_STATIC_ASSERT(AT_DIGEST + SC_SHA256_LEN == SC_CACHE_HEADER_SIZE, "header layout");

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

void sc_cache_key_begin(ScCacheKeyBuilder *b)
{
    sc_sha256_init(&b->sha);
}

void sc_cache_key_add(ScCacheKeyBuilder *b, const char *name, const void *data, size_t len)
{
    uint8_t n[8];
    size_t name_len = strlen(name);
    put_le(n, name_len, 8);
    sc_sha256_update(&b->sha, n, 8);
    sc_sha256_update(&b->sha, name, name_len);
    put_le(n, len, 8);
    sc_sha256_update(&b->sha, n, 8);
    sc_sha256_update(&b->sha, data, len);
}

void sc_cache_key_add_str(ScCacheKeyBuilder *b, const char *name, const char *s)
{
    sc_cache_key_add(b, name, s, strlen(s));
}

void sc_cache_key_add_int(ScCacheKeyBuilder *b, const char *name, int64_t value)
{
    uint8_t v[8];
    put_le(v, (uint64_t)value, 8);
    sc_cache_key_add(b, name, v, 8);
}

void sc_cache_key_end(ScCacheKeyBuilder *b, ScCacheKey *key)
{
    sc_sha256_final(&b->sha, key->bytes);
}

void sc_cache_entry_header(const ScCacheKey *key, const void *payload, size_t len,
                           uint8_t header[SC_CACHE_HEADER_SIZE])
{
    memcpy(header + AT_MAGIC, entry_magic, sizeof entry_magic);
    put_le(header + AT_FORMAT, SC_CACHE_FORMAT, 4);
    put_le(header + AT_ZERO, 0, 4);
    memcpy(header + AT_KEY, key->bytes, SC_SHA256_LEN);
    put_le(header + AT_LENGTH, len, 8);
    sc_sha256(payload, len, header + AT_DIGEST);
}

bool sc_cache_entry_check(const void *file, size_t file_len, const ScCacheKey *key,
                          size_t *payload_len, ScErr *err)
{
    const uint8_t *h = file;
    if (file_len < sizeof entry_magic || memcmp(h + AT_MAGIC, entry_magic, sizeof entry_magic))
        return sc_err_set(err, "not a scord cache entry");
    if (file_len < SC_CACHE_HEADER_SIZE)
        return sc_err_set(err, "truncated header (%zu of %d bytes)", file_len,
                          SC_CACHE_HEADER_SIZE);
    uint64_t format = get_le(h + AT_FORMAT, 4);
    if (format != SC_CACHE_FORMAT || get_le(h + AT_ZERO, 4) != 0)
        return sc_err_set(err, "entry format %llu, not %d", (unsigned long long)format,
                          SC_CACHE_FORMAT);
    if (memcmp(h + AT_KEY, key->bytes, SC_SHA256_LEN))
        return sc_err_set(err, "the entry is filed under another key");
    uint64_t len = get_le(h + AT_LENGTH, 8);
    if (len != file_len - SC_CACHE_HEADER_SIZE)
        return sc_err_set(err, "%s payload (%zu bytes, the header says %llu)",
                          len > file_len - SC_CACHE_HEADER_SIZE ? "truncated" : "oversized",
                          file_len - SC_CACHE_HEADER_SIZE, (unsigned long long)len);
    uint8_t digest[SC_SHA256_LEN];
    sc_sha256(h + SC_CACHE_HEADER_SIZE, (size_t)len, digest);
    if (memcmp(digest, h + AT_DIGEST, SC_SHA256_LEN))
        return sc_err_set(err, "the payload does not match its digest (corrupted)");
    *payload_len = (size_t)len;
    return true;
}

void sc_cache_entry_path(const char *dir, const ScCacheKey *key, ScBuf *out)
{
    char hex[2 * SC_SHA256_LEN + 1];
    sc_sha256_hex(key->bytes, hex);
    sc_buf_printf(out, "%s/%s%s", dir, hex, entry_suffix);
}

/* Reads up to len bytes; returns how many (fewer at end of file), or -1. */
static ssize_t read_all(int fd, void *buf, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = read(fd, (char *)buf + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        done += (size_t)n;
    }
    return (ssize_t)done;
}

static bool write_all(int fd, const void *buf, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, (const char *)buf + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += (size_t)n;
    }
    return true;
}

ScCacheLookup sc_cache_lookup(const char *dir, const ScCacheKey *key, void **payload, size_t *len,
                              ScErr *err)
{
    ScBuf path = {0};
    sc_cache_entry_path(dir, key, &path);
    if (path.oom) {
        sc_buf_free(&path);
        sc_err_set(err, "out of memory");
        return SC_CACHE_UNUSABLE;
    }
    int fd = open(path.data, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        bool absent = errno == ENOENT || errno == ENOTDIR;
        if (!absent)
            sc_err_set(err, "cannot open %s: %s", path.data, strerror(errno));
        sc_buf_free(&path);
        return absent ? SC_CACHE_MISS : SC_CACHE_UNUSABLE;
    }
    ScCacheLookup result = SC_CACHE_UNUSABLE;
    struct stat st;
    uint8_t *file = NULL;
    if (fstat(fd, &st) != 0) {
        sc_err_set(err, "cannot stat %s: %s", path.data, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        sc_err_set(err, "%s is not a regular file", path.data);
    } else if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
        sc_err_set(err, "%s is %s: not used", path.data,
                   st.st_uid != geteuid() ? "owned by another user" : "writable by other users");
    } else if ((uint64_t)st.st_size > SC_CACHE_HEADER_SIZE + (uint64_t)SC_CACHE_MAX_PAYLOAD) {
        sc_err_set(err, "%s: too large for an entry (%lld bytes)", path.data,
                   (long long)st.st_size);
    } else if (!(file = malloc((size_t)st.st_size + 1))) {
        sc_err_set(err, "out of memory reading %s", path.data);
    } else {
        ssize_t n = read_all(fd, file, (size_t)st.st_size);
        size_t plen = 0;
        if (n < 0) {
            sc_err_set(err, "cannot read %s: %s", path.data, strerror(errno));
        } else if (sc_cache_entry_check(file, (size_t)n, key, &plen, err)) {
            memmove(file, file + SC_CACHE_HEADER_SIZE, plen);
            /* Best effort: an entry whose time cannot be set is merely evicted sooner. */
            (void)futimens(fd, NULL);
            *payload = file;
            *len = plen;
            file = NULL;
            result = SC_CACHE_HIT;
        } else {
            sc_err_wrap(err, "%s: ", path.data);
        }
    }
    free(file);
    close(fd);
    sc_buf_free(&path);
    return result;
}

/* mkdir -p, with new directories private to the user. */
static bool make_dirs(const char *dir, ScErr *err)
{
    size_t len = strlen(dir);
    char *p = malloc(len + 1);
    if (!p)
        return sc_err_set(err, "out of memory");
    memcpy(p, dir, len + 1);
    bool ok = true;
    for (size_t i = 1; i <= len && ok; i++) {
        if (p[i] != '/' && p[i] != '\0')
            continue;
        char c = p[i];
        p[i] = '\0';
        /* mkdir of an existing directory can fail with an error other than EEXIST
         * (a read-only file system): what counts is that it is there. */
        if (mkdir(p, 0700) != 0 && errno != EEXIST) {
            int e = errno;
            struct stat st;
            if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
                ok = sc_err_set(err, "cannot create %s: %s", p, strerror(e));
        }
        p[i] = c;
    }
    struct stat st;
    if (ok && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        ok = sc_err_set(err, "%s is not a directory", dir);
    free(p);
    return ok;
}

bool sc_cache_store(const char *dir, const ScCacheKey *key, const void *payload, size_t len,
                    ScErr *err)
{
    if (len > SC_CACHE_MAX_PAYLOAD)
        return sc_err_set(err, "%zu bytes is too large for an entry", len);
    if (!make_dirs(dir, err))
        return false;
    ScBuf path = {0}, temp = {0};
    char hex[2 * SC_SHA256_LEN + 1];
    sc_sha256_hex(key->bytes, hex);
    sc_cache_entry_path(dir, key, &path);
    sc_buf_printf(&temp, "%s/%s%.16s-XXXXXX", dir, temp_prefix, hex);
    bool ok = false;
    int fd = path.oom || temp.oom ? -1 : mkostemp(temp.data, O_CLOEXEC);
    if (fd < 0) {
        sc_err_set(err, "cannot create a file in %s: %s", dir,
                   path.oom || temp.oom ? "out of memory" : strerror(errno));
    } else {
        uint8_t header[SC_CACHE_HEADER_SIZE];
        sc_cache_entry_header(key, payload, len, header);
        ok = write_all(fd, header, sizeof header) && write_all(fd, payload, len);
        if (!ok)
            sc_err_set(err, "cannot write %s: %s", temp.data, strerror(errno));
        /* Some file systems (NFS, quotas) only report a failed write at close. */
        if (close(fd) != 0 && ok)
            ok = sc_err_set(err, "cannot write %s: %s", temp.data, strerror(errno));
        if (ok && rename(temp.data, path.data) != 0)
            ok = sc_err_set(err, "cannot rename %s to %s: %s", temp.data, path.data,
                            strerror(errno));
        if (!ok)
            unlink(temp.data);
    }
    sc_buf_free(&path);
    sc_buf_free(&temp);
    return ok;
}

/* <64 lower-case hex digits>.entry, the only names sc_cache_trim evicts. */
static bool is_entry_name(const char *name)
{
    for (int i = 0; i < 2 * SC_SHA256_LEN; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return false;
    return strcmp(name + 2 * SC_SHA256_LEN, entry_suffix) == 0;
}

typedef struct TrimEntry {
    struct timespec used;
    uint64_t size;
    char name[2 * SC_SHA256_LEN + sizeof entry_suffix];
} TrimEntry;

static int least_recently_used_first(const void *a, const void *b)
{
    const TrimEntry *x = a, *y = b;
    if (x->used.tv_sec != y->used.tv_sec)
        return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
    if (x->used.tv_nsec != y->used.tv_nsec)
        return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

bool sc_cache_trim(const char *dir, uint64_t max_bytes, time_t now, ScCacheTrimStats *stats,
                   ScErr *err)
{
    *stats = (ScCacheTrimStats){0};
    DIR *d = opendir(dir);
    if (!d)
        return sc_err_set(err, "cannot read %s: %s", dir, strerror(errno));
    int dfd = dirfd(d);
    TrimEntry *entries = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    struct dirent *de;
    while (ok && (de = readdir(d))) {
        bool entry = is_entry_name(de->d_name);
        bool temp = strncmp(de->d_name, temp_prefix, sizeof temp_prefix - 1) == 0;
        struct stat st;
        if ((!entry && !temp) || fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        if (temp) {
            if (now - st.st_mtime > SC_CACHE_STALE_TEMP_SECONDS &&
                unlinkat(dfd, de->d_name, 0) == 0)
                stats->stale_temps++;
            continue;
        }
        if (n == cap) {
            size_t grown = cap ? 2 * cap : 64;
            TrimEntry *v = realloc(entries, grown * sizeof *v);
            if (!v) {
                ok = sc_err_set(err, "out of memory listing %s", dir);
                break;
            }
            entries = v;
            cap = grown;
        }
        entries[n].used = st.st_mtim;
        entries[n].size = (uint64_t)st.st_size;
        memcpy(entries[n].name, de->d_name, sizeof entries[n].name); /* is_entry_name: exact length */
        stats->bytes_before += entries[n].size;
        n++;
    }
    stats->entries = n;
    stats->bytes_after = stats->bytes_before;
    if (ok) {
        qsort(entries, n, sizeof *entries, least_recently_used_first);
        for (size_t i = 0; i < n && stats->bytes_after > max_bytes; i++) {
            /* Another process trimming at the same time may have removed it first. */
            if (unlinkat(dfd, entries[i].name, 0) == 0 || errno == ENOENT) {
                stats->bytes_after -= entries[i].size;
                stats->evicted++;
            }
        }
    }
    free(entries);
    closedir(d);
    return ok;
}

static bool absolute(const char *path)
{
    return path && path[0] == '/';
}

bool sc_cache_default_dir(const char *xdg_cache_home, const char *home, ScBuf *out)
{
    out->len = 0;
    if (out->data)
        out->data[0] = '\0';
    if (absolute(xdg_cache_home))
        sc_buf_printf(out, "%s/scord", xdg_cache_home);
    else if (absolute(home))
        sc_buf_printf(out, "%s/.cache/scord", home);
    return out->len > 0 && !out->oom;
}

bool sc_cache_dir_safe(const char *dir, ScErr *err)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return errno == ENOENT || sc_err_set(err, "cannot stat %s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return sc_err_set(err, "%s is not a directory", dir);
    if (st.st_uid != geteuid())
        return sc_err_set(err, "%s is owned by another user", dir);
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return sc_err_set(err, "%s is writable by other users", dir);
    return true;
}
