/* sc_arena.h: bump allocator for data that lives and dies together (a parsed module). */
#ifndef SC_ARENA_H
#define SC_ARENA_H

#include "common/sc_defs.h"

typedef struct ScArenaBlock ScArenaBlock;
typedef struct ScArena {
    ScArenaBlock *head;
    bool oom;
} ScArena;

/* Zeroed, 16-byte aligned memory; NULL (and arena->oom set) when out of memory. */
void *sc_arena_alloc(ScArena *a, size_t size);
char *sc_arena_strndup(ScArena *a, const char *s, size_t len);
void sc_arena_free(ScArena *a);

#endif
