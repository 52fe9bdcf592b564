/* pt_common.h: what every pass-through program shares: buffer checksums, result lines,
 * fatal errors and the files the build puts beside the program. C and CUDA C++. */
#ifndef PT_COMMON_H
#define PT_COMMON_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__GNUC__)
#define PT_NORETURN __attribute__((noreturn))
#define PT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PT_NORETURN
#define PT_PRINTF(f, a)
#endif

/* Every failure ends the program with status 1 and one line on stderr, so the runner's
 * exit-code comparison sees it and stdout holds only results. */
PT_NORETURN PT_PRINTF(1, 2) static inline void pt_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static inline uint64_t pt_fnv1a(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* One result line per buffer: the checksum covers every byte, the samples make a
 * mismatch between two runs readable. Never an address, a time or a device name. */
static inline void pt_print_u32(const char *label, const unsigned *v, size_t n)
{
    printf("%s: n=%zu fnv1a=%016llx first=%u last=%u\n", label, n,
           (unsigned long long)pt_fnv1a(v, n * sizeof *v), v[0], v[n - 1]);
}

/* Compares a device result with the host reference; a mismatch is a failure of the
 * program itself, whichever way it runs. */
static inline void pt_expect_u32(const char *label, const unsigned *got, const unsigned *want,
                                 size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            pt_die("%s: element %zu is %u, expected %u", label, i, got[i], want[i]);
}

/* Data files (PTX, cubin, fatbin) are built into the program's own directory and found
 * through /proc/self/exe, so the program runs the same from any working directory. */
static inline void pt_sibling_path(char *buf, size_t cap, const char *name)
{
    ssize_t len = readlink("/proc/self/exe", buf, cap - 1);
    if (len < 0)
        pt_die("readlink /proc/self/exe: %s", strerror(errno));
    buf[len] = '\0';
    char *slash = strrchr(buf, '/');
    size_t dir_len = slash ? (size_t)(slash - buf) + 1 : 0;
    if (dir_len + strlen(name) + 1 > cap)
        pt_die("path of %s beside the program is too long", name);
    strcpy(buf + dir_len, name);
}

/* The whole file plus a NUL byte, so PTX text read this way is a C string. */
static inline void *pt_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        pt_die("cannot open %s: %s (it is built by `make gpu-progs`)", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0)
        pt_die("cannot seek in %s: %s", path, strerror(errno));
    long len = ftell(f);
    if (len < 0 || fseek(f, 0, SEEK_SET) != 0)
        pt_die("cannot size %s: %s", path, strerror(errno));
    unsigned char *data = (unsigned char *)malloc((size_t)len + 1);
    if (!data)
        pt_die("out of host memory reading %s", path);
    if (fread(data, 1, (size_t)len, f) != (size_t)len)
        pt_die("short read from %s", path);
    fclose(f);
    data[len] = '\0';
    *size = (size_t)len;
    return data;
}

static inline void *pt_xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        pt_die("out of host memory (%zu bytes)", n);
    return p;
}

#endif
