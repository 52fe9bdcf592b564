/* sc_sha256.h: SHA-256 (FIPS 180-4), for content-addressed keys such as the disk
 * cache of compiled modules. No CUDA headers, no library. */
#ifndef SC_SHA256_H
#define SC_SHA256_H

#include "common/sc_defs.h"

#define SC_SHA256_LEN 32

typedef struct ScSha256 {
    uint32_t state[8];
    uint64_t total;     /* bytes hashed so far */
    uint8_t block[64];  /* a partial block waiting for more input */
    size_t used;        /* bytes of block in use */
} ScSha256;

void sc_sha256_init(ScSha256 *s);
void sc_sha256_update(ScSha256 *s, const void *data, size_t len);
/* Writes the digest; s must be initialized again before it hashes anything else. */
void sc_sha256_final(ScSha256 *s, uint8_t digest[SC_SHA256_LEN]);
/* The digest of one buffer. */
void sc_sha256(const void *data, size_t len, uint8_t digest[SC_SHA256_LEN]);
/* Lower-case hex of a digest: 64 characters and a NUL. */
void sc_sha256_hex(const uint8_t digest[SC_SHA256_LEN], char hex[2 * SC_SHA256_LEN + 1]);

#endif
