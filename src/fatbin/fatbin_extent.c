/* fatbin_extent.c: how far a pointer into a loaded object may be read, from its program headers. */
#include "fatbin/fatbin.h"

#include <link.h>

typedef struct Lookup {
    uintptr_t p;
    size_t extent;
} Lookup;

static int visit(struct dl_phdr_info *info, size_t size, void *data)
{
    Lookup *l = data;
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_R))
            continue;
        uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_memsz;
        if (l->p >= start && l->p < end) {
            l->extent = end - l->p;
            return 1;
        }
    }
    return 0;
}

size_t sc_fatbin_loaded_extent(const void *p, void *ctx)
{
    Lookup l = {.p = (uintptr_t)p, .extent = SIZE_MAX};
    dl_iterate_phdr(visit, &l);
    return l.extent;
}
