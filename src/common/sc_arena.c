/* sc_arena.c: bump allocator. */
#include "common/sc_arena.h"

#include <stdlib.h>
#include <string.h>

struct ScArenaBlock {
    ScArenaBlock *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void *sc_arena_alloc(ScArena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    ScArenaBlock *b = a->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > 65536 ? size : 65536;
        b = malloc(sizeof *b + cap);
        if (!b) {
            a->oom = true;
            return NULL;
        }
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *sc_arena_strndup(ScArena *a, const char *s, size_t len)
{
    char *p = sc_arena_alloc(a, len + 1);
    if (p)
        memcpy(p, s, len);
    return p;
}

void sc_arena_free(ScArena *a)
{
    for (ScArenaBlock *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    *a = (ScArena){0};
}
