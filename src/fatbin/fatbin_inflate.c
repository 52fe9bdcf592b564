/* fatbin_inflate.c: an entry's payload as plain bytes, decompressed within checked bounds. */
#include "fatbin/fatbin.h"

#include <limits.h>
#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* How far each format can expand its input at most, so that a header's size
 * can be refused before anything is allocated. An LZ4 match-length byte of
 * 255 adds 255 output bytes; a zstd RLE block turns 4 bytes into at most
 * 128 KiB (one block), and no block does better. */
#define LZ4_MAX_RATIO 255u
#define ZSTD_MAX_RATIO 32768u
#define ZSTD_BLOCK_MAX ((size_t)128 << 10)

typedef struct Ctx {
    const ScFatbinEntry *e;
    char what[96]; /* "compute_75 PTX entry (container 0, offset 0x1238)" */
    ScErr *err;
} Ctx;

static void describe(Ctx *cx)
{
    const ScFatbinEntry *e = cx->e;
    const char *suffix = e->arch_specific ? "a" : e->family_specific ? "f" : "";
    if (e->kind == SC_ENTRY_PTX)
        snprintf(cx->what, sizeof cx->what, "compute_%u%s PTX entry (container %zu, offset 0x%zx)",
                 e->arch, suffix, e->container_index, e->offset);
    else
        snprintf(cx->what, sizeof cx->what, "sm_%u%s ELF entry (container %zu, offset 0x%zx)",
                 e->arch, suffix, e->container_index, e->offset);
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* The output size the header declares, checked against what the format and
 * SC_FATBIN_MAX_DATA allow; 0 when the header does not say. */
static bool declared_size(Ctx *cx, size_t max_out, size_t *want)
{
    const ScFatbinEntry *e = cx->e;
    *want = e->uncompressed_size;
    if (*want > SC_FATBIN_MAX_DATA)
        return sc_err_set(cx->err,
                          "%s: header declares %zu bytes uncompressed, more than scord's limit "
                          "of %zu; the header is corrupt",
                          cx->what, *want, SC_FATBIN_MAX_DATA);
    if (*want > max_out)
        return sc_err_set(cx->err,
                          "%s: header declares %zu bytes uncompressed from %zu compressed bytes, "
                          "more than %s can expand to (%zu); the header is corrupt",
                          cx->what, *want, e->payload_size,
                          sc_fatbin_compression_name(e->compression), max_out);
    return true;
}

/* Walks an LZ4 block's sequences without writing anything, giving the exact
 * output length, so that a lying header is told apart from a corrupt block and
 * nothing is allocated before the block is known to fit. */
static bool lz4_measure(Ctx *cx, const uint8_t *ip, size_t n, size_t limit, size_t *out_len)
{
    const uint8_t *end = ip + n;
    size_t out = 0;
    for (;;) {
        if (ip == end)
            return sc_err_set(cx->err, "%s: corrupt LZ4 block: it ends inside a sequence",
                              cx->what);
        unsigned token = *ip++;
        size_t lit = token >> 4;
        if (lit == 15) {
            unsigned b;
            do {
                if (ip == end)
                    return sc_err_set(cx->err,
                                      "%s: corrupt LZ4 block: a literal length runs past its end",
                                      cx->what);
                b = *ip++;
                lit += b;
            } while (b == 255);
        }
        if (lit > (size_t)(end - ip))
            return sc_err_set(cx->err,
                              "%s: corrupt LZ4 block: %zu literal bytes run past its end",
                              cx->what, lit);
        ip += lit;
        out += lit;
        if (ip == end)
            break; /* the last sequence is literals only */
        if (end - ip < 2)
            return sc_err_set(cx->err, "%s: corrupt LZ4 block: a match offset is cut off",
                              cx->what);
        size_t offset = (size_t)ip[0] | (size_t)ip[1] << 8;
        ip += 2;
        if (offset == 0 || offset > out)
            return sc_err_set(cx->err,
                              "%s: corrupt LZ4 block: match offset %zu points before the start "
                              "of the output (%zu bytes so far)",
                              cx->what, offset, out);
        size_t match = token & 15;
        if (match == 15) {
            unsigned b;
            do {
                if (ip == end)
                    return sc_err_set(cx->err,
                                      "%s: corrupt LZ4 block: a match length runs past its end",
                                      cx->what);
                b = *ip++;
                match += b;
            } while (b == 255);
        }
        out += match + 4;
        if (out > limit)
            break;
    }
    *out_len = out;
    return true;
}

static bool inflate_lz4(Ctx *cx, uint8_t **buf, size_t *len)
{
    const ScFatbinEntry *e = cx->e;
    if (e->payload_size > INT_MAX)
        return sc_err_set(cx->err, "%s: %zu bytes of LZ4 data, more than an LZ4 block holds",
                          cx->what, e->payload_size);
    size_t max_out = min_size(e->payload_size * LZ4_MAX_RATIO + 64, SC_FATBIN_MAX_DATA);
    size_t want, have = 0;
    if (!declared_size(cx, max_out, &want) ||
        !lz4_measure(cx, e->payload, e->payload_size, want ? want : max_out, &have))
        return false;
    if (want && have > want)
        return sc_err_set(cx->err,
                          "%s: LZ4 data expands to more than the %zu bytes its header declares; "
                          "the header is corrupt",
                          cx->what, want);
    if (have > max_out)
        return sc_err_set(cx->err, "%s: LZ4 data expands to more than scord's limit of %zu bytes",
                          cx->what, max_out);
    if (want && have < want)
        return sc_err_set(cx->err,
                          "%s: LZ4 data expands to %zu bytes but its header declares %zu; the "
                          "header is corrupt",
                          cx->what, have, want);
    *buf = malloc(have + 1);
    if (!*buf)
        return sc_err_set(cx->err, "%s: out of memory for %zu bytes", cx->what, have + 1);
    int got = LZ4_decompress_safe((const char *)e->payload, (char *)*buf, (int)e->payload_size,
                                  (int)have);
    if (got < 0 || (size_t)got != have) {
        free(*buf);
        *buf = NULL;
        return sc_err_set(cx->err, "%s: corrupt LZ4 block (liblz4 rejects it)", cx->what);
    }
    *len = have;
    return true;
}

static bool inflate_zstd(Ctx *cx, uint8_t **buf, size_t *len)
{
    const ScFatbinEntry *e = cx->e;
    size_t max_out = e->payload_size > SC_FATBIN_MAX_DATA / ZSTD_MAX_RATIO
                         ? SC_FATBIN_MAX_DATA
                         : min_size(e->payload_size * ZSTD_MAX_RATIO + ZSTD_BLOCK_MAX,
                                    SC_FATBIN_MAX_DATA);
    size_t want;
    if (!declared_size(cx, max_out, &want))
        return false;
    unsigned long long frame = ZSTD_getFrameContentSize(e->payload, e->payload_size);
    if (frame == ZSTD_CONTENTSIZE_ERROR)
        return sc_err_set(cx->err,
                          "%s: corrupt zstd data: no valid zstd frame header (starts %02x %02x "
                          "%02x %02x)",
                          cx->what, e->payload[0], e->payload_size > 1 ? e->payload[1] : 0,
                          e->payload_size > 2 ? e->payload[2] : 0,
                          e->payload_size > 3 ? e->payload[3] : 0);
    if (frame != ZSTD_CONTENTSIZE_UNKNOWN) {
        if (want && frame != want)
            return sc_err_set(cx->err,
                              "%s: header declares %zu bytes uncompressed, its zstd frame %llu; "
                              "the image is corrupt",
                              cx->what, want, frame);
        if (frame > max_out)
            return sc_err_set(cx->err,
                              "%s: zstd frame declares %llu bytes, more than %zu compressed "
                              "bytes can expand to (%zu); the image is corrupt",
                              cx->what, frame, e->payload_size, max_out);
    }
    /* With no size from either, grow the output up to max_out. A frame's
     * declared size only covers the first frame, so it is a starting
     * capacity; the header's size is a promise and is held to. */
    bool fixed = want != 0;
    size_t cap = want ? want : frame != ZSTD_CONTENTSIZE_UNKNOWN ? (size_t)frame : 0;
    if (!cap)
        cap = min_size(e->payload_size * 4 + 64, max_out);
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    uint8_t *out = malloc(cap + 1);
    if (!dctx || !out) {
        ZSTD_freeDCtx(dctx);
        free(out);
        return sc_err_set(cx->err, "%s: out of memory for %zu bytes", cx->what, cap + 1);
    }
    ZSTD_inBuffer in = {e->payload, e->payload_size, 0};
    ZSTD_outBuffer ob = {out, cap, 0};
    bool ok = true;
    for (;;) {
        size_t in_before = in.pos, out_before = ob.pos;
        size_t r = ZSTD_decompressStream(dctx, &ob, &in);
        if (ZSTD_isError(r)) {
            ok = sc_err_set(cx->err, "%s: corrupt zstd data: %s", cx->what, ZSTD_getErrorName(r));
            break;
        }
        if (r == 0 && in.pos == in.size)
            break; /* every frame complete, all input used */
        if (in.pos != in_before || ob.pos != out_before)
            continue;
        if (ob.pos < ob.size) {
            ok = sc_err_set(cx->err,
                            "%s: corrupt zstd data: the frame is cut off after %zu of %zu bytes",
                            cx->what, in.pos, in.size);
            break;
        }
        if (fixed || ob.size >= max_out) {
            ok = sc_err_set(cx->err,
                            "%s: zstd data expands to more than the %zu bytes %s; the %s is "
                            "corrupt",
                            cx->what, ob.size,
                            fixed ? "its header declares" : "scord allows for it",
                            fixed ? "header" : "image");
            break;
        }
        size_t grown_cap = min_size(ob.size * 2, max_out);
        uint8_t *grown = realloc(out, grown_cap + 1);
        if (!grown) {
            ok = sc_err_set(cx->err, "%s: out of memory for %zu bytes", cx->what, grown_cap + 1);
            break;
        }
        out = grown;
        ob.dst = out;
        ob.size = grown_cap;
    }
    ZSTD_freeDCtx(dctx);
    if (ok && fixed && ob.pos != want)
        ok = sc_err_set(cx->err,
                        "%s: zstd data expands to %zu bytes but its header declares %zu; the "
                        "header is corrupt",
                        cx->what, ob.pos, want);
    if (!ok) {
        free(out);
        return false;
    }
    *buf = out;
    *len = ob.pos;
    return true;
}

bool sc_fatbin_entry_data(const ScFatbinEntry *e, uint8_t **data, size_t *len, ScErr *err)
{
    Ctx cx = {.e = e, .err = err};
    describe(&cx);
    uint8_t *buf = NULL;
    size_t n = 0;
    *data = NULL;
    *len = 0;
    switch (e->compression) {
    case SC_COMPRESS_NONE:
        if (e->payload_size > SC_FATBIN_MAX_DATA)
            return sc_err_set(err, "%s: %zu bytes, more than scord's limit of %zu", cx.what,
                              e->payload_size, SC_FATBIN_MAX_DATA);
        n = e->payload_size;
        buf = malloc(n + 1);
        if (!buf)
            return sc_err_set(err, "%s: out of memory for %zu bytes", cx.what, n + 1);
        memcpy(buf, e->payload, n);
        break;
    case SC_COMPRESS_LZ4:
        if (!inflate_lz4(&cx, &buf, &n))
            return false;
        break;
    case SC_COMPRESS_ZSTD:
        if (!inflate_zstd(&cx, &buf, &n))
            return false;
        break;
    }
    if (e->kind == SC_ENTRY_PTX)
        while (n && buf[n - 1] == '\0')
            n--;
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return true;
}
