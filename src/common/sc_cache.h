/* sc_cache.h: a content-addressed disk cache of compiled code. One file per key,
 * written atomically, checked whole on every read, trimmed to a size. Plain files
 * and bytes only: what goes into a key and what the payload means is the caller's
 * business (src/intercept/intercept_compile.c keys cubins by everything that
 * determines them). */
#ifndef SC_CACHE_H
#define SC_CACHE_H

#include "common/sc_buf.h"
#include "common/sc_err.h"
#include "common/sc_sha256.h"

#include <time.h>

typedef struct ScCacheKey {
    uint8_t bytes[SC_SHA256_LEN];
} ScCacheKey;

/* A key is the SHA-256 of named fields. Each field is hashed with its name and
 * both lengths, so no two different lists of fields hash the same bytes. */
typedef struct ScCacheKeyBuilder {
    ScSha256 sha;
} ScCacheKeyBuilder;

void sc_cache_key_begin(ScCacheKeyBuilder *b);
void sc_cache_key_add(ScCacheKeyBuilder *b, const char *name, const void *data, size_t len);
void sc_cache_key_add_str(ScCacheKeyBuilder *b, const char *name, const char *s);
void sc_cache_key_add_int(ScCacheKeyBuilder *b, const char *name, int64_t value);
void sc_cache_key_end(ScCacheKeyBuilder *b, ScCacheKey *key);

/* An entry file is a header and the payload. The header, all integers
 * little-endian:
 *     0  8  magic "scordcc\n"
 *     8  4  format version (SC_CACHE_FORMAT)
 *    12  4  zero
 *    16 32  the key
 *    48  8  payload length
 *    56 32  SHA-256 of the payload
 * so that a foreign file, an entry of another format, a truncated or torn write
 * and flipped bits are all told apart from a good entry. */
#define SC_CACHE_FORMAT 1
#define SC_CACHE_HEADER_SIZE 88
/* Larger payloads are neither stored nor read. */
#define SC_CACHE_MAX_PAYLOAD ((size_t)1 << 30)

/* The header of an entry holding payload[0, len) under key. */
void sc_cache_entry_header(const ScCacheKey *key, const void *payload, size_t len,
                           uint8_t header[SC_CACHE_HEADER_SIZE]);
/* Whether file[0, file_len) is a whole, intact entry for key; its payload is then
 * file + SC_CACHE_HEADER_SIZE, *payload_len bytes. False says why in err. */
bool sc_cache_entry_check(const void *file, size_t file_len, const ScCacheKey *key,
                          size_t *payload_len, ScErr *err);

/* The path of key's entry in dir: dir/<64 hex digits>.entry. */
void sc_cache_entry_path(const char *dir, const ScCacheKey *key, ScBuf *out);

typedef enum ScCacheLookup {
    SC_CACHE_HIT,      /* *payload (malloc'd) and *len hold the entry's payload */
    SC_CACHE_MISS,     /* no entry for the key */
    SC_CACHE_UNUSABLE, /* an entry exists but cannot be used; err says why */
} ScCacheLookup;

/* Reads key's entry from dir. A hit also marks the entry used now (its mtime),
 * which is the age that sc_cache_trim evicts by. An entry another user owns, or
 * others may write, or a symbolic link, is unusable: another user could have put
 * code there for scord to hand to the driver. */
ScCacheLookup sc_cache_lookup(const char *dir, const ScCacheKey *key, void **payload, size_t *len,
                              ScErr *err);

/* Writes payload[0, len) as key's entry in dir, creating dir (and its parents,
 * mode 0700) if needed. The entry is written to a temporary file in dir and renamed
 * into place, so readers, other writers of the same key and a crash in between
 * only ever see no entry, the old one or the new one whole; a torn file left by a
 * crash of the machine fails the header's checks. On failure nothing is left
 * behind and err says why. */
bool sc_cache_store(const char *dir, const ScCacheKey *key, const void *payload, size_t len,
                    ScErr *err);

/* Temporary files older than this are debris of a writer that died. */
#define SC_CACHE_STALE_TEMP_SECONDS 3600

typedef struct ScCacheTrimStats {
    size_t entries;         /* entries found */
    size_t evicted;         /* entries removed to get under the limit */
    size_t stale_temps;     /* temporary files removed */
    uint64_t bytes_before;  /* size of the entries found */
    uint64_t bytes_after;   /* size of the entries kept */
} ScCacheTrimStats;

/* Keeps the entries in dir at most max_bytes in all by removing the least
 * recently used first, and removes temporary files older than
 * SC_CACHE_STALE_TEMP_SECONDS at time now. Files that are neither are never
 * touched, so dir may be shared with other files. False if dir cannot be read. */
bool sc_cache_trim(const char *dir, uint64_t max_bytes, time_t now, ScCacheTrimStats *stats,
                   ScErr *err);

/* The directory the cache lives in when none is configured, from the values of
 * XDG_CACHE_HOME and HOME (either may be NULL): $XDG_CACHE_HOME/scord when that
 * is an absolute path (the XDG base directory rule), else $HOME/.cache/scord.
 * False, with out empty, when neither gives one. */
bool sc_cache_default_dir(const char *xdg_cache_home, const char *home, ScBuf *out);

/* Whether dir may hold the cache: absent (sc_cache_store creates it private), or a
 * directory the user owns that no other user may write. False says why in err. */
bool sc_cache_dir_safe(const char *dir, ScErr *err);

#endif
