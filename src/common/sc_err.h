/* sc_err.h: errors as values. A failing function fills an ScErr and returns false;
 * only the CLI and the top of each intercepted call decide what to do with it. */
#ifndef SC_ERR_H
#define SC_ERR_H

#include "common/sc_defs.h"

typedef struct ScErr {
    bool set;
    char msg[512];
} ScErr;

/* Sets err (if not NULL and not already set: the first, innermost cause wins)
 * and returns false so callers can write `return sc_err_set(err, ...)`. */
bool sc_err_set(ScErr *err, const char *fmt, ...) SC_PRINTF(2, 3);
/* Prepends context to an error that is already set ("module foo: " + msg). */
void sc_err_wrap(ScErr *err, const char *fmt, ...) SC_PRINTF(2, 3);

#endif
