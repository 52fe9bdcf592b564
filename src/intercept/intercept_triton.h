/* intercept_triton.h: the PTX of a cubin Triton compiled, from Triton's cache. */
#ifndef SC_INTERCEPT_TRITON_H
#define SC_INTERCEPT_TRITON_H

#include "common/sc_buf.h"
#include "common/sc_defs.h"
#include "common/sc_sha256.h"

typedef struct ScTritonIndex ScTritonIndex;

/* The PTX (malloc'd, NUL-terminated) of the cubin whose SHA-256 is `hash`, from the
 * Triton cache folder `cache`; NULL when the cache holds no such cubin with its PTX.
 * *index starts NULL and keeps what was indexed between calls. */
char *sc_triton_ptx_for(ScTritonIndex **index, const char *cache, const uint8_t hash[SC_SHA256_LEN]);
void sc_triton_index_free(ScTritonIndex *index);
/* Triton's cache folder: TRITON_CACHE_DIR, else ~/.triton/cache. False: neither. */
bool sc_triton_cache_dir(const char *triton_cache_dir, const char *home, ScBuf *out);

#endif
