/* fatbin_parse.c: walks the wrapper, containers and entry headers of a CUDA fat binary. */
#include "fatbin/fatbin.h"

#include <stdlib.h>
#include <string.h>

SC_STATIC_ASSERT(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                 "fat binary headers are little-endian and are read as host integers");
SC_STATIC_ASSERT(sizeof(void *) == 8, "the wrapper layout read here is the 64-bit one");

#define WRAPPER_MAGIC 0x466243B1u
#define WRAPPER_SIZE 24u
#define CONTAINER_MAGIC 0xBA55ED50u
#define CONTAINER_VERSION 1u
#define CONTAINER_HEADER_MIN 16u
#define ENTRY_HEADER_MIN 64u
/* A v2 wrapper lists one pre-linked container per translation unit; a list
 * longer than this is a missing NULL terminator, not a program. */
#define MAX_PRELINKED 65536u

#define FLAG_COMPRESS_LZ4 UINT64_C(0x2000)
#define FLAG_COMPRESS_ZSTD UINT64_C(0x8000)
#define FLAG_ARCH_SPECIFIC UINT64_C(0x100000)
#define FLAG_FAMILY_SPECIFIC UINT64_C(0x200000)

static uint16_t rd16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static const void *rdptr(const uint8_t *p)
{
    const void *v;
    memcpy(&v, p, sizeof v);
    return v;
}

ScImageKind sc_fatbin_sniff(const void *image, size_t avail)
{
    static const char archive_magic[8] = "!<arch>\n";
    const uint8_t *p = image;
    if (!p || avail < 4)
        return SC_IMAGE_UNKNOWN;
    /* Byte by byte, so that a short NUL-terminated string passed with an
     * unknown size is not read past its end: no magic contains a zero byte. */
    for (int i = 0; i < 4; i++)
        if (p[i] == 0)
            return SC_IMAGE_UNKNOWN;
    uint32_t magic = rd32(p);
    if (magic == WRAPPER_MAGIC)
        return SC_IMAGE_WRAPPER;
    if (magic == CONTAINER_MAGIC)
        return SC_IMAGE_FATBIN;
    if (memcmp(p, "\x7f" "ELF", 4) == 0)
        return SC_IMAGE_ELF;
    if (memcmp(p, archive_magic, 4) == 0) {
        for (size_t i = 4; i < sizeof archive_magic; i++)
            if (i >= avail || p[i] != (uint8_t)archive_magic[i])
                return SC_IMAGE_UNKNOWN;
        return SC_IMAGE_ARCHIVE;
    }
    /* PTX is text: nvcc's starts with a comment or a directive, a user's
     * string may start with blank lines. Binary formats have control bytes
     * within their first four. */
    for (int i = 0; i < 4; i++)
        if (!(p[i] == '\t' || p[i] == '\n' || p[i] == '\r' || (p[i] >= 0x20 && p[i] < 0x7f)))
            return SC_IMAGE_UNKNOWN;
    return SC_IMAGE_PTX;
}

const char *sc_fatbin_kind_name(ScImageKind kind)
{
    switch (kind) {
    case SC_IMAGE_UNKNOWN:
        return "unknown image";
    case SC_IMAGE_WRAPPER:
        return "fat binary wrapper";
    case SC_IMAGE_FATBIN:
        return "fat binary";
    case SC_IMAGE_ELF:
        return "cubin (ELF)";
    case SC_IMAGE_ARCHIVE:
        return "library archive";
    case SC_IMAGE_PTX:
        return "PTX text";
    }
    return "unknown image";
}

const char *sc_fatbin_compression_name(ScCompression c)
{
    switch (c) {
    case SC_COMPRESS_NONE:
        return "uncompressed";
    case SC_COMPRESS_LZ4:
        return "lz4";
    case SC_COMPRESS_ZSTD:
        return "zstd";
    }
    return "?";
}

typedef struct Parser {
    ScFatbin *fb;
    size_t cap;
    ScErr *err;
} Parser;

static bool push_entry(Parser *ps, const ScFatbinEntry *e)
{
    ScFatbin *fb = ps->fb;
    if (fb->n_entries == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 8;
        ScFatbinEntry *grown = realloc(fb->entries, cap * sizeof *grown);
        if (!grown)
            return sc_err_set(ps->err, "fat binary: out of memory listing %zu entries",
                              fb->n_entries + 1);
        fb->entries = grown;
        ps->cap = cap;
    }
    fb->entries[fb->n_entries++] = *e;
    return true;
}

/* A string of `len` bytes at `off` inside an entry header of `hsize` bytes,
 * with the NUL and blank padding nvcc puts around it trimmed; NULL when the
 * range does not lie inside the header (these strings are informational, so
 * a bad range drops the string instead of the image). */
static const char *header_string(const uint8_t *h, uint32_t hsize, uint32_t off, uint32_t len,
                                 size_t *out_len)
{
    *out_len = 0;
    if (len == 0 || off < ENTRY_HEADER_MIN || off > hsize || len > hsize - off)
        return NULL;
    const char *s = (const char *)h + off;
    while (len && (s[len - 1] == '\0' || s[len - 1] == ' '))
        len--;
    while (len && s[0] == ' ') {
        s++;
        len--;
    }
    if (!len)
        return NULL;
    *out_len = len;
    return s;
}

static bool parse_entry(Parser *ps, const uint8_t *h, uint32_t hsize, uint64_t psize,
                        size_t container, size_t offset)
{
    uint16_t kind = rd16(h);
    if (kind != SC_ENTRY_PTX && kind != SC_ENTRY_ELF) {
        ps->fb->n_skipped++;
        return true;
    }
    ScFatbinEntry e = {
        .kind = (ScEntryKind)kind,
        .arch = rd32(h + 28),
        .version_major = rd16(h + 26),
        .version_minor = rd16(h + 24),
        .flags = rd64(h + 40),
        .payload = h + hsize,
        .payload_size = (size_t)psize,
        .uncompressed_size = (size_t)rd64(h + 56),
        .container_index = container,
        .offset = offset,
    };
    e.arch_specific = (e.flags & FLAG_ARCH_SPECIFIC) != 0;
    e.family_specific = (e.flags & FLAG_FAMILY_SPECIFIC) != 0;
    const char *what = kind == SC_ENTRY_PTX ? "PTX" : "ELF";
    bool lz4 = (e.flags & FLAG_COMPRESS_LZ4) != 0, zstd = (e.flags & FLAG_COMPRESS_ZSTD) != 0;
    if (lz4 && zstd)
        return sc_err_set(ps->err,
                          "fat binary container %zu, %s entry at 0x%zx: flags 0x%llx claim both "
                          "LZ4 and zstd compression; the image is corrupt",
                          container, what, offset, (unsigned long long)e.flags);
    if (lz4 || zstd) {
        uint32_t csize = rd32(h + 16);
        e.compression = lz4 ? SC_COMPRESS_LZ4 : SC_COMPRESS_ZSTD;
        if (csize == 0 || csize > psize)
            return sc_err_set(ps->err,
                              "fat binary container %zu, %s entry at 0x%zx: compressed size %u "
                              "does not fit its %llu-byte payload; the image is corrupt",
                              container, what, offset, csize, (unsigned long long)psize);
        e.payload_size = csize;
    }
    e.source_name = header_string(h, hsize, rd32(h + 32), rd32(h + 36), &e.source_name_len);
    /* The u32 at 20 locates an (offset, length) pair inside the header: ptxas
     * options (text) for PTX; for sm_100+ ELF a binary record we do not use. */
    uint32_t opt_at = rd32(h + 20);
    if (kind == SC_ENTRY_PTX && opt_at >= ENTRY_HEADER_MIN && opt_at <= hsize - 8)
        e.options = header_string(h, hsize, rd32(h + opt_at), rd32(h + opt_at + 4),
                                  &e.options_len);
    return push_entry(ps, &e);
}

/* One container at c, of which `avail` bytes may be read; *size gets the
 * bytes it spans. */
static bool parse_container(Parser *ps, const uint8_t *c, size_t avail, size_t *size)
{
    size_t index = ps->fb->n_containers;
    if (avail < CONTAINER_HEADER_MIN)
        return sc_err_set(ps->err,
                          "fat binary container %zu: only %zu bytes, fewer than its %u-byte "
                          "header; the image is truncated",
                          index, avail, CONTAINER_HEADER_MIN);
    uint32_t magic = rd32(c);
    if (magic != CONTAINER_MAGIC)
        return sc_err_set(ps->err,
                          "fat binary container %zu: bad magic 0x%08x (expected 0x%08x); not a "
                          "CUDA fat binary, or a corrupt one",
                          index, magic, CONTAINER_MAGIC);
    uint16_t version = rd16(c + 4), hsize = rd16(c + 6);
    uint64_t fat_size = rd64(c + 8);
    if (version != CONTAINER_VERSION)
        return sc_err_set(ps->err,
                          "fat binary container %zu: version %u, expected %u; this CUDA version "
                          "writes a layout scord does not know",
                          index, version, CONTAINER_VERSION);
    if (hsize < CONTAINER_HEADER_MIN)
        return sc_err_set(ps->err,
                          "fat binary container %zu: header size %u is below the minimum %u; "
                          "the image is corrupt",
                          index, hsize, CONTAINER_HEADER_MIN);
    if (hsize > avail)
        return sc_err_set(ps->err,
                          "fat binary container %zu: header size %u runs past the end of the "
                          "image (%zu bytes); the image is truncated or corrupt",
                          index, hsize, avail);
    if (fat_size > avail - hsize)
        return sc_err_set(ps->err,
                          "fat binary container %zu: declares %llu bytes of entries but only "
                          "%zu bytes follow its header; the image is truncated",
                          index, (unsigned long long)fat_size, avail - hsize);
    size_t end = hsize + (size_t)fat_size;
    ps->fb->n_containers++;
    for (size_t off = hsize; off < end;) {
        size_t left = end - off;
        const uint8_t *h = c + off;
        if (left < ENTRY_HEADER_MIN)
            return sc_err_set(ps->err,
                              "fat binary container %zu, entry at 0x%zx: %zu bytes left in the "
                              "container, fewer than an entry header (%u); the image is corrupt",
                              index, off, left, ENTRY_HEADER_MIN);
        uint32_t ehsize = rd32(h + 4);
        uint64_t psize = rd64(h + 8);
        if (ehsize < ENTRY_HEADER_MIN)
            return sc_err_set(ps->err,
                              "fat binary container %zu, entry at 0x%zx: header size %u is below "
                              "the minimum %u; the image is corrupt",
                              index, off, ehsize, ENTRY_HEADER_MIN);
        if (ehsize > left)
            return sc_err_set(ps->err,
                              "fat binary container %zu, entry at 0x%zx: header size %u runs past "
                              "the container end (%zu bytes left); the image is corrupt",
                              index, off, ehsize, left);
        if (psize > left - ehsize)
            return sc_err_set(ps->err,
                              "fat binary container %zu, entry at 0x%zx: payload of %llu bytes "
                              "runs past the container end (%zu bytes left after its header); "
                              "the image is truncated or corrupt",
                              index, off, (unsigned long long)psize, left - ehsize);
        if (!parse_entry(ps, h, ehsize, psize, index, off))
            return false;
        off += ehsize + (size_t)psize;
    }
    *size = end;
    return true;
}

static size_t extent_of(ScFatbinExtentFn extent, void *ctx, const void *p)
{
    return extent ? extent(p, ctx) : SIZE_MAX;
}

static bool parse_wrapper(Parser *ps, const uint8_t *w, size_t avail, ScFatbinExtentFn extent,
                          void *ctx)
{
    if (avail < WRAPPER_SIZE)
        return sc_err_set(ps->err,
                          "fat binary wrapper: only %zu bytes, fewer than its %u-byte header; "
                          "the image is truncated",
                          avail, WRAPPER_SIZE);
    uint32_t version = rd32(w + 4);
    if (version != 1 && version != 2)
        return sc_err_set(ps->err,
                          "fat binary wrapper: version %u, expected 1 (or 2 for -rdc code); "
                          "this CUDA version writes a layout scord does not know",
                          version);
    ps->fb->wrapper_version = version;
    const uint8_t *data = rdptr(w + 8);
    if (!data)
        return sc_err_set(ps->err, "fat binary wrapper: its container pointer is NULL");
    size_t size;
    if (!parse_container(ps, data, extent_of(extent, ctx, data), &size))
        return false;
    const uint8_t *list = version == 2 ? rdptr(w + 16) : NULL;
    if (!list)
        return true;
    size_t list_avail = extent_of(extent, ctx, list);
    for (size_t i = 0;; i++) {
        if (i == MAX_PRELINKED)
            return sc_err_set(ps->err,
                              "fat binary wrapper: no NULL ends the first %u pointers of its "
                              "pre-linked container list; the wrapper is corrupt",
                              MAX_PRELINKED);
        if (list_avail / sizeof(void *) <= i)
            return sc_err_set(ps->err,
                              "fat binary wrapper: its pre-linked container list runs past "
                              "readable memory after %zu pointers without a NULL",
                              i);
        const uint8_t *c = rdptr(list + i * sizeof(void *));
        if (!c)
            return true;
        if (!parse_container(ps, c, extent_of(extent, ctx, c), &size))
            return false;
    }
}

bool sc_fatbin_parse_ex(const void *image, size_t avail, ScFatbinExtentFn extent, void *ctx,
                        ScFatbin *out, ScErr *err)
{
    *out = (ScFatbin){0};
    Parser ps = {.fb = out, .err = err};
    const uint8_t *p = image;
    ScImageKind kind = sc_fatbin_sniff(image, avail);
    bool ok = false;
    switch (kind) {
    case SC_IMAGE_WRAPPER:
        ok = parse_wrapper(&ps, p, avail, extent, ctx);
        break;
    case SC_IMAGE_FATBIN: {
        /* Several containers back to back are what a .nv_fatbin section holds;
         * when the caller cannot bound the image, only the first is ours. */
        size_t off = 0, size = 0;
        ok = parse_container(&ps, p, avail, &size);
        while (ok && avail != SIZE_MAX) {
            off += size;
            if (avail - off < 4 || rd32(p + off) != CONTAINER_MAGIC)
                break;
            ok = parse_container(&ps, p + off, avail - off, &size);
        }
        break;
    }
    case SC_IMAGE_ELF:
    case SC_IMAGE_ARCHIVE:
    case SC_IMAGE_PTX:
        sc_err_set(err, "not a fat binary: the image is %s", sc_fatbin_kind_name(kind));
        break;
    case SC_IMAGE_UNKNOWN:
        if (!p || avail < 4)
            sc_err_set(err, "not a fat binary: the image is shorter than 4 bytes");
        else
            sc_err_set(err,
                       "not a fat binary: its first bytes 0x%08x match neither a container "
                       "(0x%08x) nor a registration wrapper (0x%08x)",
                       rd32(p), CONTAINER_MAGIC, WRAPPER_MAGIC);
        break;
    }
    if (!ok)
        sc_fatbin_free(out);
    return ok;
}

bool sc_fatbin_parse(const void *image, size_t avail, ScFatbin *out, ScErr *err)
{
    return sc_fatbin_parse_ex(image, avail, NULL, NULL, out, err);
}

void sc_fatbin_free(ScFatbin *fb)
{
    free(fb->entries);
    *fb = (ScFatbin){0};
}

bool sc_fatbin_entry_fits(const ScFatbinEntry *e, unsigned device_sm)
{
    if (e->arch_specific)
        return e->arch == device_sm;
    bool same_major = e->arch / 10 == device_sm / 10;
    if (e->kind == SC_ENTRY_ELF || e->family_specific)
        return same_major && e->arch <= device_sm;
    return e->arch <= device_sm;
}

static int specificity(const ScFatbinEntry *e)
{
    return e->arch_specific ? 2 : e->family_specific ? 1 : 0;
}

static bool newer(const ScFatbinEntry *a, const ScFatbinEntry *b)
{
    if (a->arch != b->arch)
        return a->arch > b->arch;
    if (specificity(a) != specificity(b))
        return specificity(a) > specificity(b);
    if (a->version_major != b->version_major)
        return a->version_major > b->version_major;
    return a->version_minor > b->version_minor;
}

static const ScFatbinEntry *pick(const ScFatbin *fb, bool any_container, size_t container,
                                 unsigned device_sm)
{
    const ScFatbinEntry *best = NULL;
    for (size_t i = 0; i < fb->n_entries; i++) {
        const ScFatbinEntry *e = &fb->entries[i];
        if (e->kind != SC_ENTRY_PTX || (!any_container && e->container_index != container) ||
            !sc_fatbin_entry_fits(e, device_sm))
            continue;
        if (!best || newer(e, best))
            best = e;
    }
    return best;
}

const ScFatbinEntry *sc_fatbin_pick_ptx(const ScFatbin *fb, unsigned device_sm)
{
    return pick(fb, true, 0, device_sm);
}

const ScFatbinEntry *sc_fatbin_pick_ptx_in(const ScFatbin *fb, size_t container_index,
                                           unsigned device_sm)
{
    return pick(fb, false, container_index, device_sm);
}

bool sc_fatbin_has_elf_for(const ScFatbin *fb, unsigned device_sm)
{
    for (size_t i = 0; i < fb->n_entries; i++)
        if (fb->entries[i].kind == SC_ENTRY_ELF && sc_fatbin_entry_fits(&fb->entries[i], device_sm))
            return true;
    return false;
}
