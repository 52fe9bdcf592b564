/* sc_buf.c: growable buffer. */
#include "common/sc_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool reserve(ScBuf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void sc_buf_free(ScBuf *b)
{
    free(b->data);
    *b = (ScBuf){0};
}

void sc_buf_append(ScBuf *b, const void *data, size_t len)
{
    if (!reserve(b, len))
        return;
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void sc_buf_puts(ScBuf *b, const char *s)
{
    sc_buf_append(b, s, strlen(s));
}

void sc_buf_printf(ScBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *sc_buf_take(ScBuf *b)
{
    char *p = b->data;
    if (!p)
        p = calloc(1, 1);
    *b = (ScBuf){0};
    return p;
}
