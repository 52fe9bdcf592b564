/* sc_buf.h: a growable byte/string buffer (always NUL-terminated). */
#ifndef SC_BUF_H
#define SC_BUF_H

#include "common/sc_defs.h"

typedef struct ScBuf {
    char *data;
    size_t len;
    size_t cap;
    bool oom; /* an allocation failed: contents are truncated, callers check once at the end */
} ScBuf;

void sc_buf_free(ScBuf *b);
void sc_buf_append(ScBuf *b, const void *data, size_t len);
void sc_buf_puts(ScBuf *b, const char *s);
void sc_buf_printf(ScBuf *b, const char *fmt, ...) SC_PRINTF(2, 3);
/* Hands the contents to the caller (free() them) and resets the buffer. */
char *sc_buf_take(ScBuf *b);

#endif
