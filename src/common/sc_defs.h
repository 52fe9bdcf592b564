/* sc_defs.h: fixed-width types and the few macros every module shares. No CUDA headers. */
#ifndef SC_DEFS_H
#define SC_DEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SC_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define SC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define SC_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
/* Symbols that libscord.so exports: everything else is hidden (-fvisibility=hidden). */
#define SC_EXPORT __attribute__((visibility("default")))

#endif
