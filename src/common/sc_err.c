/* sc_err.c: formatting of error values. */
#include "common/sc_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool sc_err_set(ScErr *err, const char *fmt, ...)
{
    if (!err || err->set)
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->set = true;
    return false;
}

void sc_err_wrap(ScErr *err, const char *fmt, ...)
{
    if (!err || !err->set)
        return;
    char prefix[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    size_t plen = strlen(prefix), mlen = strlen(err->msg);
    if (plen >= sizeof err->msg)
        plen = sizeof err->msg - 1;
    if (plen + mlen >= sizeof err->msg)
        mlen = sizeof err->msg - 1 - plen;
    memmove(err->msg + plen, err->msg, mlen);
    memcpy(err->msg, prefix, plen);
    err->msg[plen + mlen] = '\0';
}
