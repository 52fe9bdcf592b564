/* fatbin.h: bytes of a CUDA code image -> the PTX and ELF entries it holds.
 * Pure functions over memory: no driver calls, no global state. Every read is
 * bounds-checked against the size the caller gives, so a truncated or corrupt
 * image yields an error, never an out-of-bounds read. */
#ifndef SC_FATBIN_H
#define SC_FATBIN_H

#include "common/sc_defs.h"
#include "common/sc_err.h"

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
} ScFatbinEntry;

typedef struct ScFatbin {
    ScFatbinEntry *entries;
    size_t n_entries;
    size_t n_containers;
} ScFatbin;

/* `avail` is how many bytes may be read at image; SIZE_MAX when the caller does
 * not know (a pointer from a driver call), in which case sizes come from headers. */
ScImageKind sc_fatbin_sniff(const void *image, size_t avail);
const char *sc_fatbin_kind_name(ScImageKind kind);

/* Parses a wrapper (v1: one container; v2/-rdc: also the NULL-terminated list of
 * pre-linked containers) or a bare container, with every container that follows
 * it contiguously inside `avail`. */
bool sc_fatbin_parse(const void *image, size_t avail, ScFatbin *out, ScErr *err);
void sc_fatbin_free(ScFatbin *fb);

/* The entry's payload decompressed as needed, as a malloc'd buffer with a NUL
 * after it; trailing NUL padding is not counted in *len. */
bool sc_fatbin_entry_data(const ScFatbinEntry *e, uint8_t **data, size_t *len, ScErr *err);

/* The PTX entry a device of compute capability device_sm (e.g. 90) should JIT:
 * the newest arch <= device_sm; among equals the newest PTX version; NULL if none.
 * Arch-specific (sm_90a) PTX is only picked for exactly that device. */
const ScFatbinEntry *sc_fatbin_pick_ptx(const ScFatbin *fb, unsigned device_sm);

/* Whether any ELF entry targets exactly this device (the image can run natively). */
bool sc_fatbin_has_elf_for(const ScFatbin *fb, unsigned device_sm);

#endif
