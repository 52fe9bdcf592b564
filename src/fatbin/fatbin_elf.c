/* fatbin_elf.c: the size of a cubin and the kernels it defines, read from its ELF headers. */
#include "fatbin/fatbin.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/* st_other bit that marks a CUDA entry function (a kernel) in a cubin's
 * symbol table; device functions lack it. */
#define STO_CUDA_ENTRY 0x10

typedef struct Elf {
    const uint8_t *p;
    size_t avail;
    Elf64_Ehdr eh;
    size_t shnum;
    ScErr *err;
} Elf;

/* A table of n records of `size` bytes at `off` lies within avail. */
static bool table_fits(const Elf *elf, uint64_t off, uint64_t n, uint64_t size)
{
    return off <= elf->avail && (size == 0 || n <= (elf->avail - off) / size);
}

static bool read_header(Elf *elf)
{
    if (elf->avail < sizeof elf->eh)
        return sc_err_set(elf->err, "cubin: only %zu bytes, fewer than an ELF header (%zu)",
                          elf->avail, sizeof elf->eh);
    memcpy(&elf->eh, elf->p, sizeof elf->eh);
    const Elf64_Ehdr *eh = &elf->eh;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
        return sc_err_set(elf->err, "cubin: no ELF magic; not a cubin");
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB)
        return sc_err_set(elf->err,
                          "cubin: ELF class %u, data encoding %u; CUDA cubins are 64-bit "
                          "little-endian (2, 1)",
                          eh->e_ident[EI_CLASS], eh->e_ident[EI_DATA]);
    if (eh->e_shoff && eh->e_shentsize != sizeof(Elf64_Shdr))
        return sc_err_set(elf->err, "cubin: section header size %u, expected %zu; corrupt ELF",
                          eh->e_shentsize, sizeof(Elf64_Shdr));
    if (eh->e_phoff && eh->e_phnum && eh->e_phentsize != sizeof(Elf64_Phdr))
        return sc_err_set(elf->err, "cubin: program header size %u, expected %zu; corrupt ELF",
                          eh->e_phentsize, sizeof(Elf64_Phdr));
    elf->shnum = eh->e_shoff ? eh->e_shnum : 0;
    if (eh->e_shoff && elf->shnum == 0) {
        /* Extended numbering: the count is in section 0's sh_size. */
        Elf64_Shdr first;
        if (!table_fits(elf, eh->e_shoff, 1, sizeof first))
            return sc_err_set(elf->err,
                              "cubin: section headers at 0x%llx run past its %zu bytes; the "
                              "image is truncated",
                              (unsigned long long)eh->e_shoff, elf->avail);
        memcpy(&first, elf->p + eh->e_shoff, sizeof first);
        elf->shnum = (size_t)first.sh_size;
    }
    if (!table_fits(elf, eh->e_shoff, elf->shnum, sizeof(Elf64_Shdr)))
        return sc_err_set(elf->err,
                          "cubin: %zu section headers at 0x%llx run past its %zu bytes; the "
                          "image is truncated",
                          elf->shnum, (unsigned long long)eh->e_shoff, elf->avail);
    return true;
}

static Elf64_Shdr section(const Elf *elf, size_t i)
{
    Elf64_Shdr sh;
    memcpy(&sh, elf->p + elf->eh.e_shoff + i * sizeof sh, sizeof sh);
    return sh;
}

bool sc_fatbin_elf_size(const void *image, size_t avail, size_t *size, ScErr *err)
{
    Elf elf = {.p = image, .avail = avail, .err = err};
    *size = 0;
    if (!read_header(&elf))
        return false;
    const Elf64_Ehdr *eh = &elf.eh;
    uint64_t end = sizeof *eh;
    if (eh->e_phoff && eh->e_phnum) {
        if (!table_fits(&elf, eh->e_phoff, eh->e_phnum, sizeof(Elf64_Phdr)))
            return sc_err_set(err,
                              "cubin: %u program headers at 0x%llx run past its %zu bytes; the "
                              "image is truncated",
                              eh->e_phnum, (unsigned long long)eh->e_phoff, avail);
        uint64_t ph_end = eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr);
        if (ph_end > end)
            end = ph_end;
        for (size_t i = 0; i < eh->e_phnum; i++) {
            Elf64_Phdr ph;
            memcpy(&ph, elf.p + eh->e_phoff + i * sizeof ph, sizeof ph);
            if (ph.p_filesz > UINT64_MAX - ph.p_offset)
                return sc_err_set(err, "cubin: program header %zu overflows; corrupt ELF", i);
            if (ph.p_offset + ph.p_filesz > end)
                end = ph.p_offset + ph.p_filesz;
        }
    }
    if (elf.shnum) {
        uint64_t sh_end = eh->e_shoff + (uint64_t)elf.shnum * sizeof(Elf64_Shdr);
        if (sh_end > end)
            end = sh_end;
        for (size_t i = 0; i < elf.shnum; i++) {
            Elf64_Shdr sh = section(&elf, i);
            if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL)
                continue;
            if (sh.sh_size > UINT64_MAX - sh.sh_offset)
                return sc_err_set(err, "cubin: section %zu overflows; corrupt ELF", i);
            if (sh.sh_offset + sh.sh_size > end)
                end = sh.sh_offset + sh.sh_size;
        }
    }
    if (end > avail)
        return sc_err_set(err,
                          "cubin: its headers place data up to byte %llu, past the %zu bytes "
                          "available; the image is truncated",
                          (unsigned long long)end, avail);
    if (end > SC_FATBIN_MAX_DATA)
        return sc_err_set(err, "cubin: %llu bytes by its headers, more than scord's limit of %zu",
                          (unsigned long long)end, SC_FATBIN_MAX_DATA);
    *size = (size_t)end;
    return true;
}

static bool push_name(ScKernelNames *k, size_t *cap, const char *name, size_t len, ScErr *err)
{
    if (k->n == *cap) {
        size_t grown_cap = *cap ? *cap * 2 : 8;
        char **grown = realloc(k->names, grown_cap * sizeof *grown);
        if (!grown)
            return sc_err_set(err, "cubin: out of memory listing %zu kernels", k->n + 1);
        k->names = grown;
        *cap = grown_cap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return sc_err_set(err, "cubin: out of memory for a kernel name of %zu bytes", len);
    memcpy(copy, name, len);
    copy[len] = '\0';
    k->names[k->n++] = copy;
    return true;
}

/* The kernels of one SHT_SYMTAB section. */
static bool symtab_kernels(const Elf *elf, size_t index, const Elf64_Shdr *symtab,
                           ScKernelNames *out, size_t *cap)
{
    ScErr *err = elf->err;
    if (symtab->sh_entsize != sizeof(Elf64_Sym))
        return sc_err_set(err, "cubin: symbol table %zu has entries of %llu bytes, expected %zu",
                          index, (unsigned long long)symtab->sh_entsize, sizeof(Elf64_Sym));
    if (!table_fits(elf, symtab->sh_offset, symtab->sh_size / sizeof(Elf64_Sym),
                    sizeof(Elf64_Sym)))
        return sc_err_set(err, "cubin: symbol table %zu runs past its %zu bytes; the image is "
                               "truncated",
                          index, elf->avail);
    if (symtab->sh_link == 0 || symtab->sh_link >= elf->shnum)
        return sc_err_set(err, "cubin: symbol table %zu links to string table %u, which does "
                               "not exist",
                          index, symtab->sh_link);
    Elf64_Shdr strtab = section(elf, symtab->sh_link);
    if (strtab.sh_type != SHT_STRTAB || !table_fits(elf, strtab.sh_offset, strtab.sh_size, 1))
        return sc_err_set(err, "cubin: string table %u of symbol table %zu is not a string "
                               "table inside the image",
                          symtab->sh_link, index);
    const char *strs = (const char *)elf->p + strtab.sh_offset;
    size_t nsyms = (size_t)(symtab->sh_size / sizeof(Elf64_Sym));
    for (size_t i = 0; i < nsyms; i++) {
        Elf64_Sym sym;
        memcpy(&sym, elf->p + symtab->sh_offset + i * sizeof sym, sizeof sym);
        if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || !(sym.st_other & STO_CUDA_ENTRY))
            continue;
        const char *name = sym.st_name < strtab.sh_size ? strs + sym.st_name : NULL;
        size_t len = name ? strnlen(name, (size_t)(strtab.sh_size - sym.st_name)) : 0;
        if (!name || sym.st_name + len >= strtab.sh_size)
            return sc_err_set(err, "cubin: the name of kernel symbol %zu lies outside its string "
                                   "table; corrupt ELF",
                              i);
        if (!push_name(out, cap, name, len, err))
            return false;
    }
    return true;
}

bool sc_fatbin_elf_kernels(const void *image, size_t len, ScKernelNames *out, ScErr *err)
{
    Elf elf = {.p = image, .avail = len, .err = err};
    size_t cap = 0;
    *out = (ScKernelNames){0};
    if (!read_header(&elf))
        return false;
    for (size_t i = 0; i < elf.shnum; i++) {
        Elf64_Shdr sh = section(&elf, i);
        if (sh.sh_type == SHT_SYMTAB && !symtab_kernels(&elf, i, &sh, out, &cap)) {
            sc_fatbin_kernels_free(out);
            return false;
        }
    }
    return true;
}

void sc_fatbin_kernels_free(ScKernelNames *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->names[i]);
    free(k->names);
    *k = (ScKernelNames){0};
}

/* The NUL-terminated string at offset off of string-table section strtab, or NULL
 * when it does not lie whole inside the table and the image. */
static const char *table_string(const Elf *elf, const Elf64_Shdr *strtab, uint64_t off)
{
    if (!table_fits(elf, strtab->sh_offset, strtab->sh_size, 1) || off >= strtab->sh_size)
        return NULL;
    const char *s = (const char *)elf->p + strtab->sh_offset + off;
    return strnlen(s, (size_t)(strtab->sh_size - off)) < strtab->sh_size - off ? s : NULL;
}

/* A DT_NEEDED entry of dynamic section dyn names the shared CUDA runtime. */
static bool needs_cudart(const Elf *elf, const Elf64_Shdr *dyn)
{
    if (dyn->sh_link >= elf->shnum || !table_fits(elf, dyn->sh_offset, dyn->sh_size / sizeof(Elf64_Dyn),
                                                   sizeof(Elf64_Dyn)))
        return false;
    Elf64_Shdr strtab = section(elf, dyn->sh_link);
    for (size_t k = 0; k < dyn->sh_size / sizeof(Elf64_Dyn); k++) {
        Elf64_Dyn d;
        memcpy(&d, elf->p + dyn->sh_offset + k * sizeof d, sizeof d);
        if (d.d_tag == DT_NULL)
            break;
        const char *lib = d.d_tag == DT_NEEDED ? table_string(elf, &strtab, d.d_un.d_val) : NULL;
        if (lib && strncmp(lib, "libcudart.so", 12) == 0)
            return true;
    }
    return false;
}

bool sc_fatbin_host_has_cuda(const void *image, size_t len)
{
    ScErr err = {0};
    Elf elf = {.p = image, .avail = len, .err = &err};
    if (!read_header(&elf) || elf.eh.e_shstrndx >= elf.shnum)
        return false;
    Elf64_Shdr names = section(&elf, elf.eh.e_shstrndx);
    for (size_t i = 0; i < elf.shnum; i++) {
        Elf64_Shdr sh = section(&elf, i);
        const char *name = table_string(&elf, &names, sh.sh_name);
        if (name && (strcmp(name, ".nv_fatbin") == 0 || strcmp(name, "__nv_relfatbin") == 0))
            return true;
        if (sh.sh_type == SHT_DYNAMIC && needs_cudart(&elf, &sh))
            return true;
    }
    return false;
}
