/* fatbin.h: bytes of a CUDA code image -> the PTX and ELF entries it holds.
 * Pure functions over memory: no driver calls, no global state. Every read is
 * bounds-checked against the size the caller gives, so a truncated or corrupt
 * image yields an error, never an out-of-bounds read. The layout these
 * functions rely on, and how it was verified, is in docs/fatbin.md. */
#ifndef SC_FATBIN_H
#define SC_FATBIN_H

#include "common/sc_defs.h"
#include "common/sc_err.h"

/* The most bytes one entry may decompress to (or be copied as). Headers are
 * never trusted to size an allocation beyond it; the largest entry in CUDA
 * 13.0's own libraries is 128 MiB (an ELF entry of libnccl). */
#define SC_FATBIN_MAX_DATA ((size_t)1 << 30)

/* What a pointer handed to a driver load call points at, by its first bytes. */
typedef enum ScImageKind {
    SC_IMAGE_UNKNOWN,
    SC_IMAGE_WRAPPER, /* __fatBinC_Wrapper_t (0x466243B1), as given to __cudaRegisterFatBinary */
    SC_IMAGE_FATBIN,  /* fat binary container (0xBA55ED50) */
    SC_IMAGE_ELF,     /* cubin */
    SC_IMAGE_ARCHIVE, /* !<arch> library (cuLink inputs) */
    SC_IMAGE_PTX,     /* NUL-terminated PTX text */
} ScImageKind;

typedef enum ScEntryKind {
    SC_ENTRY_PTX = 1,
    SC_ENTRY_ELF = 2,
} ScEntryKind;

typedef enum ScCompression {
    SC_COMPRESS_NONE,
    SC_COMPRESS_LZ4,
    SC_COMPRESS_ZSTD,
} ScCompression;

typedef struct ScFatbinEntry {
    ScEntryKind kind;
    unsigned arch;            /* SM number: 75, 90 ... (sm_90a reports 90) */
    unsigned version_major;   /* PTX entries: the PTX ISA version; ELF: header's pair */
    unsigned version_minor;
    uint64_t flags;           /* raw header flags */
    ScCompression compression;
    const uint8_t *payload;   /* points into the image */
    size_t payload_size;      /* bytes at payload (compressed size when compressed) */
    size_t uncompressed_size; /* 0 when the header does not say */
    size_t container_index;   /* which container of the image (rdc images hold several) */
    size_t offset;            /* of the entry header from its container's start */
    bool arch_specific;       /* sm_90a/compute_90a: runs or JITs on exactly that arch only */
    bool family_specific;     /* sm_100f/compute_100f: on that arch and later ones of its major */
    /* Both point into the image, are not NUL-terminated, and are NULL when the
     * header carries none: the source file name (nvcc records it with -G and
     * -lineinfo), and for PTX the ptxas options the driver JITs it with
     * ("--compile-only" for -rdc code, "-g ..." for -G). */
    const char *source_name;
    size_t source_name_len;
    const char *options;
    size_t options_len;
} ScFatbinEntry;

typedef struct ScFatbin {
    ScFatbinEntry *entries;
    size_t n_entries;
    size_t n_containers;
    /* 0: the image was a bare container; 1 or 2: a wrapper of that version.
     * In a version 2 (-rdc) image, container 0 is the device-linked image
     * (SASS only; empty when the build kept only PTX) and containers 1.. are
     * the pre-linked relocatable images of each translation unit, whose PTX
     * the driver links together at load time. */
    unsigned wrapper_version;
    size_t n_skipped; /* entries of other kinds (8: LTO-IR of -dlto builds) */
} ScFatbin;

/* `avail` is how many bytes may be read at image; SIZE_MAX when the caller does
 * not know (a pointer from a driver call), in which case sizes come from headers. */
ScImageKind sc_fatbin_sniff(const void *image, size_t avail);
const char *sc_fatbin_kind_name(ScImageKind kind);
const char *sc_fatbin_compression_name(ScCompression c);

/* Parses a wrapper (v1: one container; v2/-rdc: also the NULL-terminated list of
 * pre-linked containers) or a bare container, with every container that follows
 * it contiguously inside `avail`. */
bool sc_fatbin_parse(const void *image, size_t avail, ScFatbin *out, ScErr *err);
void sc_fatbin_free(ScFatbin *fb);

/* How many bytes may be read at p; SIZE_MAX when unknown. */
typedef size_t (*ScFatbinExtentFn)(const void *p, void *ctx);

/* sc_fatbin_parse, with the memory a wrapper points at (its containers and its
 * pre-linked list) bounded by extent(p, ctx) instead of trusted to headers. */
bool sc_fatbin_parse_ex(const void *image, size_t avail, ScFatbinExtentFn extent, void *ctx,
                        ScFatbin *out, ScErr *err);

/* An ScFatbinExtentFn for pointers into the process's loaded objects: the bytes
 * from p to the end of the readable PT_LOAD segment holding it, SIZE_MAX when
 * no loaded object holds p (heap memory, say). Takes the loader's lock
 * (dl_iterate_phdr): never call it from inside dlsym. */
size_t sc_fatbin_loaded_extent(const void *p, void *ctx);

/* The entry's payload decompressed as needed, as a malloc'd buffer with a NUL
 * after it. For PTX, trailing NUL padding is not counted in *len; an ELF
 * image is returned whole (it may legitimately end in zero bytes). */
bool sc_fatbin_entry_data(const ScFatbinEntry *e, uint8_t **data, size_t *len, ScErr *err);

/* The PTX entry a device of compute capability device_sm (e.g. 90) should JIT:
 * the newest arch <= device_sm; among equals the most specific (sm_90a, then
 * sm_90f, then plain), then the newest PTX version; NULL if none.
 * Arch-specific (sm_90a) PTX is only picked for exactly that device, and
 * family-specific (sm_100f) PTX only for devices of the same major. */
const ScFatbinEntry *sc_fatbin_pick_ptx(const ScFatbin *fb, unsigned device_sm);

/* The same choice among the entries of one container (rdc images: each
 * pre-linked container carries its own translation unit's PTX). */
const ScFatbinEntry *sc_fatbin_pick_ptx_in(const ScFatbin *fb, size_t container_index,
                                           unsigned device_sm);

/* Whether a device of compute capability device_sm can JIT this PTX entry, or
 * run this ELF entry as it is (SASS runs on later minors of its major, except
 * arch-specific SASS, which runs on exactly its arch). */
bool sc_fatbin_entry_fits(const ScFatbinEntry *e, unsigned device_sm);

/* Whether any ELF entry can run on this device as it is (the image can run
 * natively without JIT), by sc_fatbin_entry_fits. */
bool sc_fatbin_has_elf_for(const ScFatbin *fb, unsigned device_sm);

/* The kernels (entry functions) an ELF image (cubin) defines: its STT_FUNC
 * symbols whose st_other carries the CUDA entry mark (0x10). */
typedef struct ScKernelNames {
    char **names; /* each malloc'd and NUL-terminated, in symbol-table order */
    size_t n;
} ScKernelNames;

bool sc_fatbin_elf_kernels(const void *elf, size_t len, ScKernelNames *out, ScErr *err);
void sc_fatbin_kernels_free(ScKernelNames *k);

/* The size of an ELF image from its headers (for a cubin passed by pointer,
 * avail SIZE_MAX): the end of the furthest header table, section or segment. */
bool sc_fatbin_elf_size(const void *elf, size_t avail, size_t *size, ScErr *err);

/* Does a host ELF image (an executable or a library) carry CUDA code: a fat binary
 * section (.nv_fatbin, or __nv_relfatbin of -rdc code) or a dependence on the shared
 * CUDA runtime (DT_NEEDED libcudart.so*)? False for anything it cannot read. */
bool sc_fatbin_host_has_cuda(const void *elf, size_t len);

#endif
