/* test_fatbin.c: the fat binary reader on images nvcc builds at test time (tests/fatbin/fatbin.mk)
 * and on truncated, corrupted and hand-built ones. */
#include "common/sc_buf.h"
#include "fatbin/fatbin.h"
#include "sc_test.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <lz4.h>
#include <zstd.h>

#define WRAPPER_MAGIC 0x466243B1u
#define CONTAINER_MAGIC 0xBA55ED50u

/* ---- helpers ------------------------------------------------------------ */

static char *data_path(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/testdata/fatbin/%s", sc_test_build_dir(), name);
    return path;
}

/* A file of the test data, in a heap block of exactly its size so that
 * AddressSanitizer flags any read past its end. */
static uint8_t *load(const char *name, size_t *size)
{
    *size = 0;
    FILE *f = fopen(data_path(name), "rb");
    if (!f) {
        printf("cannot open %s (run through `make unit`/`make check`, which builds it)\n",
               data_path(name));
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = buf ? (size_t)n : 0;
    return buf;
}

static uint8_t *copy_of(const uint8_t *p, size_t n)
{
    uint8_t *c = malloc(n ? n : 1);
    memcpy(c, p, n);
    return c;
}

static void wr16(uint8_t *p, uint16_t v) { memcpy(p, &v, sizeof v); }
static void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, sizeof v); }
static void wr64(uint8_t *p, uint64_t v) { memcpy(p, &v, sizeof v); }

static const ScFatbinEntry *find_entry(const ScFatbin *fb, ScEntryKind kind, unsigned arch)
{
    for (size_t i = 0; i < fb->n_entries; i++)
        if (fb->entries[i].kind == kind && fb->entries[i].arch == arch)
            return &fb->entries[i];
    return NULL;
}

/* PTX as nvcc -ptx prints it and as the fat binary stores it differ in
 * comments (the fat binary blanks them, keeping line numbers) and in
 * indentation and blank runs; everything else must be equal. */
static char *normalize_ptx(const char *s, size_t len)
{
    ScBuf out = {0};
    size_t i = 0;
    while (i < len) {
        size_t start = out.len;
        bool in_string = false, pending_space = false;
        for (; i < len && s[i] != '\n'; i++) {
            char c = s[i];
            if (!in_string && c == '/' && i + 1 < len && s[i + 1] == '/') {
                while (i < len && s[i] != '\n')
                    i++;
                break;
            }
            if (c == '"')
                in_string = !in_string;
            if (!in_string && (c == ' ' || c == '\t' || c == '\r')) {
                pending_space = out.len > start;
                continue;
            }
            if (pending_space)
                sc_buf_append(&out, " ", 1);
            pending_space = false;
            sc_buf_append(&out, &c, 1);
        }
        sc_buf_append(&out, "\n", 1);
        i++;
    }
    while (out.len && out.data[out.len - 1] == '\n')
        out.data[--out.len] = '\0';
    if (!out.data)
        sc_buf_puts(&out, "");
    return sc_buf_take(&out);
}

/* The entry's text equals the named nvcc -ptx output, line for line. */
static bool ptx_matches_file(const uint8_t *ptx, size_t len, const char *file)
{
    size_t n;
    uint8_t *want = load(file, &n);
    if (!want)
        return false;
    char *a = normalize_ptx((const char *)ptx, len), *b = normalize_ptx((const char *)want, n);
    bool same = strcmp(a, b) == 0;
    if (!same) {
        size_t k = 0;
        while (a[k] && a[k] == b[k])
            k++;
        printf("PTX differs from %s at normalized byte %zu: \"%.40s\" vs \"%.40s\"\n", file, k,
               a + k, b + k);
    }
    free(a);
    free(b);
    free(want);
    return same;
}

/* The `.version` major and minor of a PTX file of the test data (what this toolkit's
 * nvcc writes), so that no check pins one toolkit's ISA version. False if it has none. */
static bool ptx_file_version(const char *file, unsigned *major, unsigned *minor)
{
    size_t size;
    uint8_t *text = load(file, &size);
    bool ok = false;
    for (size_t i = 0; text && i + 9 < size && !ok; i++)
        ok = (i == 0 || text[i - 1] == '\n') && memcmp(text + i, ".version ", 9) == 0 &&
             sscanf((const char *)text + i + 9, "%u.%u", major, minor) == 2;
    free(text);
    return ok;
}

static bool entry_ptx_matches(const ScFatbinEntry *e, const char *file)
{
    uint8_t *data;
    size_t len;
    ScErr err = {0};
    if (!e || !sc_fatbin_entry_data(e, &data, &len, &err)) {
        printf("no PTX data: %s\n", err.msg);
        return false;
    }
    bool ok = len > 0 && data[len] == '\0' && data[len - 1] != '\0' &&
              ptx_matches_file(data, len, file);
    free(data);
    return ok;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The `.entry` names of PTX text, sorted, joined by spaces. */
static char *ptx_entry_names(const char *ptx, size_t len)
{
    char *names[64];
    size_t n = 0;
    for (const char *p = ptx; p < ptx + len && n < SC_ARRAY_LEN(names); p++) {
        if (strncmp(p, ".entry ", 7) != 0)
            continue;
        const char *s = p + 7, *e = s;
        while (e < ptx + len && *e != '(' && *e != ' ' && *e != '\n')
            e++;
        names[n++] = strndup(s, (size_t)(e - s));
    }
    qsort(names, n, sizeof *names, cmp_str);
    ScBuf b = {0};
    for (size_t i = 0; i < n; i++) {
        sc_buf_printf(&b, "%s%s", i ? " " : "", names[i]);
        free(names[i]);
    }
    if (!b.data)
        sc_buf_puts(&b, "");
    return sc_buf_take(&b);
}

static char *joined_sorted(char **names, size_t n)
{
    char **copy = malloc((n ? n : 1) * sizeof *copy);
    memcpy(copy, names, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, cmp_str);
    ScBuf b = {0};
    for (size_t i = 0; i < n; i++)
        sc_buf_printf(&b, "%s%s", i ? " " : "", copy[i]);
    free(copy);
    if (!b.data)
        sc_buf_puts(&b, "");
    return sc_buf_take(&b);
}

/* The kernels of an ELF entry, sorted and joined. */
static char *elf_entry_kernels(const ScFatbinEntry *e)
{
    uint8_t *data;
    size_t len;
    ScErr err = {0};
    ScKernelNames k;
    if (!e || !sc_fatbin_entry_data(e, &data, &len, &err)) {
        printf("no ELF data: %s\n", err.msg);
        return strdup("(none)");
    }
    if (!sc_fatbin_elf_kernels(data, len, &k, &err)) {
        printf("elf_kernels: %s\n", err.msg);
        free(data);
        return strdup("(error)");
    }
    char *s = joined_sorted(k.names, k.n);
    sc_fatbin_kernels_free(&k);
    free(data);
    return s;
}

static char *entry_ptx_names(const ScFatbinEntry *e)
{
    uint8_t *data;
    size_t len;
    ScErr err = {0};
    if (!e || !sc_fatbin_entry_data(e, &data, &len, &err))
        return strdup("(none)");
    char *s = ptx_entry_names((const char *)data, len);
    free(data);
    return s;
}

/* kernels.cu's kernels by their mangled names, sorted. */
#define KERNELS_CU                                                                             \
    "_Z11calls_twicePi _Z16internal_linkagePi _Z3addPfPKfi _Z4fillIdEvPT_S0_ "                \
    "_Z4fillIiEvPT_S0_ c_linkage"

/* ---- hand-built images -------------------------------------------------- */

typedef struct Spec {
    uint16_t kind;
    uint32_t hsize;    /* 0: 64 */
    uint64_t psize;    /* 0: payload_len rounded up to 8 */
    uint32_t csize;
    uint16_t ver_major, ver_minor;
    uint32_t arch;
    uint64_t flags;
    uint64_t usize;
    const void *payload;
    size_t payload_len;
} Spec;

static uint8_t *build_container(const Spec *specs, size_t n, size_t *size)
{
    size_t total = 16;
    for (size_t i = 0; i < n; i++) {
        size_t hs = specs[i].hsize ? specs[i].hsize : 64;
        size_t ps = specs[i].psize ? specs[i].psize : (specs[i].payload_len + 7) / 8 * 8;
        total += hs + ps;
    }
    uint8_t *c = calloc(1, total);
    wr32(c, CONTAINER_MAGIC);
    wr16(c + 4, 1);
    wr16(c + 6, 16);
    wr64(c + 8, total - 16);
    size_t off = 16;
    for (size_t i = 0; i < n; i++) {
        const Spec *s = &specs[i];
        size_t hs = s->hsize ? s->hsize : 64;
        size_t ps = s->psize ? s->psize : (s->payload_len + 7) / 8 * 8;
        uint8_t *h = c + off;
        wr16(h, s->kind);
        wr16(h + 2, 0x0101);
        wr32(h + 4, (uint32_t)hs);
        wr64(h + 8, ps);
        wr32(h + 16, s->csize);
        wr16(h + 24, s->ver_minor);
        wr16(h + 26, s->ver_major);
        wr32(h + 28, s->arch);
        wr64(h + 40, s->flags);
        wr64(h + 56, s->usize);
        memcpy(h + hs, s->payload, s->payload_len);
        off += hs + ps;
    }
    *size = total;
    return c;
}

/* Parses a one-entry hand-built container and extracts that entry; returns
 * whether both worked, leaving the error in err. */
static bool extract_one(const Spec *spec, uint8_t **data, size_t *len, ScErr *err)
{
    size_t size;
    uint8_t *c = build_container(spec, 1, &size);
    ScFatbin fb;
    *data = NULL;
    *len = 0;
    bool ok = sc_fatbin_parse(c, size, &fb, err);
    if (ok) {
        ok = fb.n_entries == 1 && sc_fatbin_entry_data(&fb.entries[0], data, len, err);
        sc_fatbin_free(&fb);
    }
    free(c);
    return ok;
}

static const char sample_ptx[] =
    "//\n// hand-built\n//\n\n.version 8.0\n.target sm_80\n.address_size 64\n\n"
    ".visible .entry k(.param .u64 p)\n{\n\tret;\n}\n"
    "// padding so that compression has something to do: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
    "// aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n";

/* ---- sniff -------------------------------------------------------------- */

TEST(sniff_recognizes_each_kind)
{
    uint8_t wrapper[24] = {0}, container[16] = {0};
    wr32(wrapper, WRAPPER_MAGIC);
    wr32(container, CONTAINER_MAGIC);
    CHECK_INT(SC_IMAGE_WRAPPER, sc_fatbin_sniff(wrapper, sizeof wrapper));
    CHECK_INT(SC_IMAGE_FATBIN, sc_fatbin_sniff(container, sizeof container));
    CHECK_INT(SC_IMAGE_FATBIN, sc_fatbin_sniff(container, SIZE_MAX));
    CHECK_INT(SC_IMAGE_ELF, sc_fatbin_sniff("\x7f" "ELF\x02\x01\x01", 7));
    CHECK_INT(SC_IMAGE_ARCHIVE, sc_fatbin_sniff("!<arch>\nfoo.o/", 14));
    CHECK_INT(SC_IMAGE_UNKNOWN, sc_fatbin_sniff("!<arch>", 7)); /* magic cut short */
    CHECK_INT(SC_IMAGE_PTX, sc_fatbin_sniff(sample_ptx, sizeof sample_ptx));
    CHECK_INT(SC_IMAGE_PTX, sc_fatbin_sniff("\n\n.version 9.0", SIZE_MAX));
    CHECK_INT(SC_IMAGE_PTX, sc_fatbin_sniff("\t.ve", 4));
    CHECK_INT(SC_IMAGE_UNKNOWN, sc_fatbin_sniff("\x01\x02\x03\x04garbage", 11));
    CHECK_INT(SC_IMAGE_UNKNOWN, sc_fatbin_sniff("ab\0d", 4));
    CHECK_INT(SC_IMAGE_UNKNOWN, sc_fatbin_sniff("\xff\xfe\x00\x00", 4));
    /* fewer than 4 bytes: nothing can be told, even of a magic's prefix */
    CHECK_INT(SC_IMAGE_UNKNOWN, sc_fatbin_sniff(wrapper, 3));
    CHECK_INT(SC_IMAGE_UNKNOWN, sc_fatbin_sniff(".ve", 3));
    CHECK_INT(SC_IMAGE_UNKNOWN, sc_fatbin_sniff(container, 0));
    CHECK_INT(SC_IMAGE_UNKNOWN, sc_fatbin_sniff(NULL, 64));
    /* A short string of unknown size is not read past its NUL. */
    uint8_t *shorty = copy_of((const uint8_t *)"ab", 3), *arch = copy_of((const uint8_t *)"!<ar", 5);
    CHECK_INT(SC_IMAGE_UNKNOWN, sc_fatbin_sniff(shorty, SIZE_MAX));
    CHECK_INT(SC_IMAGE_UNKNOWN, sc_fatbin_sniff(arch, SIZE_MAX));
    free(shorty);
    free(arch);
    CHECK_STR("fat binary", sc_fatbin_kind_name(SC_IMAGE_FATBIN));
    CHECK_STR("PTX text", sc_fatbin_kind_name(SC_IMAGE_PTX));
    CHECK_STR("zstd", sc_fatbin_compression_name(SC_COMPRESS_ZSTD));
}

TEST(sniff_of_real_images)
{
    size_t n;
    uint8_t *fat = load("sm75.fatbin", &n), *cubin = load("sm80.cubin", &n);
    uint8_t *ptx = load("sm75.ptx", &n);
    CHECK(fat && cubin && ptx);
    if (fat && cubin && ptx) {
        CHECK_INT(SC_IMAGE_FATBIN, sc_fatbin_sniff(fat, SIZE_MAX));
        CHECK_INT(SC_IMAGE_ELF, sc_fatbin_sniff(cubin, SIZE_MAX));
        CHECK_INT(SC_IMAGE_PTX, sc_fatbin_sniff(ptx, n));
    }
    free(fat);
    free(cubin);
    free(ptx);
}

/* ---- real fat binaries -------------------------------------------------- */

/* nvcc's default compression of PTX is its own choice (zstd in CUDA 13, seen with flags
 * 0x8011 on the H200 build's toolkit; LZ4 in earlier ones): either is read. */
TEST(default_build_is_sm75_sass_and_compressed_ptx)
{
    size_t size;
    uint8_t *img = load("sm75.fatbin", &size);
    ScFatbin fb;
    ScErr err = {0};
    CHECK(img && sc_fatbin_parse(img, size, &fb, &err));
    if (!img || err.set)
        return;
    CHECK_INT(1, fb.n_containers);
    CHECK_INT(0, fb.wrapper_version);
    CHECK_INT(2, fb.n_entries);
    CHECK_INT(0, fb.n_skipped);
    const ScFatbinEntry *elf = find_entry(&fb, SC_ENTRY_ELF, 75);
    const ScFatbinEntry *ptx = find_entry(&fb, SC_ENTRY_PTX, 75);
    CHECK(elf && ptx);
    if (elf && ptx) {
        CHECK_INT(SC_COMPRESS_NONE, elf->compression);
        CHECK(ptx->compression == SC_COMPRESS_ZSTD || ptx->compression == SC_COMPRESS_LZ4);
        if (ptx->compression == SC_COMPRESS_ZSTD)
            CHECK_INT(0x8011, ptx->flags);
        CHECK_INT(80, ptx->payload - img - (long long)ptx->offset);
        unsigned major = 0, minor = 0;
        CHECK(ptx_file_version("sm75.ptx", &major, &minor));
        CHECK_INT(major, ptx->version_major); /* the ISA this toolkit writes */
        CHECK_INT(minor, ptx->version_minor);
        CHECK(!ptx->arch_specific && !ptx->family_specific);
        CHECK(ptx->source_name == NULL && ptx->options == NULL);
        CHECK(ptx->uncompressed_size > ptx->payload_size);
        CHECK(entry_ptx_matches(ptx, "sm75.ptx"));
    }
    sc_fatbin_free(&fb);
    CHECK(fb.entries == NULL && fb.n_entries == 0);
    free(img);
}

/* Every compression setting nvcc 13 offers gives the same PTX and ELF bytes. */
TEST(compressed_and_uncompressed_builds_agree)
{
    static const struct {
        const char *file;
        ScCompression ptx, elf;
    } builds[] = {
        {"sm75.fatbin", SC_COMPRESS_ZSTD, SC_COMPRESS_NONE},
        {"sm75_nocomp.fatbin", SC_COMPRESS_NONE, SC_COMPRESS_NONE},
        {"sm75_lz4.fatbin", SC_COMPRESS_LZ4, SC_COMPRESS_NONE},      /* --compress-mode=speed */
        {"sm75_all.fatbin", SC_COMPRESS_ZSTD, SC_COMPRESS_ZSTD},     /* -Xfatbin=-compress-all */
        {"sm75_all_lz4.fatbin", SC_COMPRESS_LZ4, SC_COMPRESS_LZ4},
    };
    uint8_t *ref_elf = NULL, *ref_ptx = NULL;
    size_t ref_elf_len = 0, ref_ptx_len = 0;
    for (size_t b = 0; b < SC_ARRAY_LEN(builds); b++) {
        size_t size;
        uint8_t *img = load(builds[b].file, &size);
        ScFatbin fb;
        ScErr err = {0};
        CHECK(img && sc_fatbin_parse(img, size, &fb, &err));
        if (!img || err.set) {
            printf("%s: %s\n", builds[b].file, err.msg);
            free(img);
            continue;
        }
        const ScFatbinEntry *elf = find_entry(&fb, SC_ENTRY_ELF, 75);
        const ScFatbinEntry *ptx = find_entry(&fb, SC_ENTRY_PTX, 75);
        CHECK(elf && ptx);
        if (elf && ptx) {
            CHECK_INT(builds[b].ptx, ptx->compression);
            CHECK_INT(builds[b].elf, elf->compression);
            uint8_t *ed, *pd;
            size_t el, pl;
            CHECK(sc_fatbin_entry_data(elf, &ed, &el, &err));
            CHECK(sc_fatbin_entry_data(ptx, &pd, &pl, &err));
            if (!err.set) {
                CHECK(ptx_matches_file(pd, pl, "sm75.ptx"));
                CHECK_INT(SC_IMAGE_ELF, sc_fatbin_sniff(ed, el));
                if (!ref_elf) {
                    ref_elf = ed, ref_elf_len = el, ref_ptx = pd, ref_ptx_len = pl;
                } else {
                    CHECK(el == ref_elf_len && memcmp(ed, ref_elf, el) == 0);
                    CHECK(pl == ref_ptx_len && memcmp(pd, ref_ptx, pl) == 0);
                    free(ed);
                    free(pd);
                }
            } else {
                printf("%s: %s\n", builds[b].file, err.msg);
            }
        }
        sc_fatbin_free(&fb);
        free(img);
    }
    free(ref_elf);
    free(ref_ptx);
}

TEST(ptx_only_build_for_two_archs)
{
    size_t size;
    uint8_t *img = load("ptx80_90.fatbin", &size);
    ScFatbin fb;
    ScErr err = {0};
    CHECK(img && sc_fatbin_parse(img, size, &fb, &err));
    if (!img || err.set)
        return;
    CHECK_INT(2, fb.n_entries);
    CHECK(find_entry(&fb, SC_ENTRY_ELF, 80) == NULL);
    CHECK(entry_ptx_matches(find_entry(&fb, SC_ENTRY_PTX, 80), "sm80.ptx"));
    CHECK(entry_ptx_matches(find_entry(&fb, SC_ENTRY_PTX, 90), "sm90.ptx"));
    CHECK(!sc_fatbin_has_elf_for(&fb, 80));
    sc_fatbin_free(&fb);
    free(img);
}

TEST(sass_only_build_has_no_ptx)
{
    size_t size;
    uint8_t *img = load("sm90.fatbin", &size);
    ScFatbin fb;
    ScErr err = {0};
    CHECK(img && sc_fatbin_parse(img, size, &fb, &err));
    if (!img || err.set)
        return;
    CHECK_INT(1, fb.n_entries);
    static const unsigned devices[] = {75, 80, 86, 90, 100, 120};
    for (size_t i = 0; i < SC_ARRAY_LEN(devices); i++)
        CHECK(sc_fatbin_pick_ptx(&fb, devices[i]) == NULL);
    CHECK(sc_fatbin_has_elf_for(&fb, 90));
    CHECK(!sc_fatbin_has_elf_for(&fb, 89));
    CHECK(!sc_fatbin_has_elf_for(&fb, 100)); /* SASS does not cross a major version */
    char *names = elf_entry_kernels(find_entry(&fb, SC_ENTRY_ELF, 90));
    CHECK_STR(KERNELS_CU, names);
    free(names);
    /* The ELF entry is the cubin nvcc -cubin writes, byte for byte. */
    size_t cubin_size, len;
    uint8_t *cubin = load("sm90.cubin", &cubin_size), *data;
    CHECK(cubin && sc_fatbin_entry_data(find_entry(&fb, SC_ENTRY_ELF, 90), &data, &len, &err));
    if (cubin && !err.set) {
        CHECK(len == cubin_size && memcmp(data, cubin, len) == 0);
        free(data);
    }
    free(cubin);
    sc_fatbin_free(&fb);
    free(img);
}

TEST(arch_specific_build)
{
    size_t size;
    uint8_t *img = load("sm90a.fatbin", &size);
    ScFatbin fb;
    ScErr err = {0};
    CHECK(img && sc_fatbin_parse(img, size, &fb, &err));
    if (!img || err.set)
        return;
    const ScFatbinEntry *ptx = find_entry(&fb, SC_ENTRY_PTX, 90);
    const ScFatbinEntry *elf = find_entry(&fb, SC_ENTRY_ELF, 90);
    CHECK(ptx && elf && ptx->arch_specific && elf->arch_specific);
    CHECK(ptx && !ptx->family_specific);
    CHECK(entry_ptx_matches(ptx, "sm90a.ptx"));
    CHECK(sc_fatbin_pick_ptx(&fb, 90) == ptx);
    CHECK(sc_fatbin_pick_ptx(&fb, 100) == NULL);
    CHECK(sc_fatbin_pick_ptx(&fb, 89) == NULL);
    CHECK(sc_fatbin_has_elf_for(&fb, 90));
    CHECK(!sc_fatbin_has_elf_for(&fb, 100));
    sc_fatbin_free(&fb);
    free(img);
}

TEST(family_specific_build)
{
    size_t size;
    FILE *built = fopen(data_path("sm100f.fatbin"), "rb");
    if (!built) {
        /* tests/fatbin/fatbin.mk builds it only with a toolkit that knows compute_100f. */
        printf("skip family_specific_build: this nvcc has no compute_100f (CUDA 12.9 and later)\n");
        return;
    }
    fclose(built);
    uint8_t *img = load("sm100f.fatbin", &size);
    ScFatbin fb;
    ScErr err = {0};
    CHECK(img && sc_fatbin_parse(img, size, &fb, &err));
    if (!img || err.set)
        return;
    const ScFatbinEntry *ptx = find_entry(&fb, SC_ENTRY_PTX, 100);
    CHECK(ptx && ptx->family_specific && !ptx->arch_specific);
    CHECK(sc_fatbin_pick_ptx(&fb, 100) == ptx);
    CHECK(sc_fatbin_pick_ptx(&fb, 103) == ptx);
    CHECK(sc_fatbin_pick_ptx(&fb, 90) == NULL);
    CHECK(sc_fatbin_pick_ptx(&fb, 120) == NULL);
    sc_fatbin_free(&fb);
    free(img);
}

TEST(pick_ptx_for_devices)
{
    size_t s1, s2;
    uint8_t *a = load("sm75.fatbin", &s1), *b = load("ptx80_90.fatbin", &s2);
    ScFatbin fa, fb;
    ScErr err = {0};
    CHECK(a && b && sc_fatbin_parse(a, s1, &fa, &err) && sc_fatbin_parse(b, s2, &fb, &err));
    if (!a || !b || err.set)
        return;
    static const struct {
        unsigned device, from_sm75, from_ptx80_90; /* 0: none */
    } cases[] = {
        {70, 0, 0}, {75, 75, 0}, {80, 75, 80}, {86, 75, 80}, {89, 75, 80},
        {90, 75, 90}, {100, 75, 90}, {120, 75, 90},
    };
    for (size_t i = 0; i < SC_ARRAY_LEN(cases); i++) {
        const ScFatbinEntry *p = sc_fatbin_pick_ptx(&fa, cases[i].device);
        const ScFatbinEntry *q = sc_fatbin_pick_ptx(&fb, cases[i].device);
        CHECK_INT(cases[i].from_sm75, p ? p->arch : 0);
        CHECK_INT(cases[i].from_ptx80_90, q ? q->arch : 0);
        CHECK(!p || p->kind == SC_ENTRY_PTX);
    }
    CHECK(sc_fatbin_has_elf_for(&fa, 75));
    CHECK(!sc_fatbin_has_elf_for(&fa, 80));
    sc_fatbin_free(&fa);
    sc_fatbin_free(&fb);
    free(a);
    free(b);
}

TEST(pick_prefers_newer_ptx_version_at_equal_arch)
{
    size_t size;
    uint8_t *img = load("versions.fatbin", &size);
    ScFatbin fb;
    ScErr err = {0};
    CHECK(img && sc_fatbin_parse(img, size, &fb, &err));
    if (!img || err.set)
        return;
    CHECK_INT(2, fb.n_entries);
    unsigned major = 0, minor = 0;
    CHECK(ptx_file_version("sm80.ptx", &major, &minor));
    if (fb.n_entries == 2) {
        CHECK_INT(7, fb.entries[0].version_major);
        CHECK_INT(8, fb.entries[0].version_minor);
        CHECK_INT(major, fb.entries[1].version_major); /* sm80.ptx as this nvcc wrote it */
        CHECK_INT(minor, fb.entries[1].version_minor);
        CHECK(sc_fatbin_pick_ptx(&fb, 80) == &fb.entries[1]);
    }
    sc_fatbin_free(&fb);
    free(img);
}

/* The selection rule on its own, over a table of entries no nvcc build holds
 * all at once. */
TEST(pick_rule_on_synthetic_entries)
{
    ScFatbinEntry e[] = {
        {.kind = SC_ENTRY_PTX, .arch = 80, .version_major = 9},
        {.kind = SC_ENTRY_PTX, .arch = 90, .version_major = 8, .version_minor = 5},
        {.kind = SC_ENTRY_PTX, .arch = 90, .version_major = 8, .version_minor = 7},
        {.kind = SC_ENTRY_PTX, .arch = 90, .version_major = 8, .arch_specific = true},
        {.kind = SC_ENTRY_PTX, .arch = 100, .version_major = 9, .family_specific = true},
        {.kind = SC_ENTRY_PTX, .arch = 100, .version_major = 9, .arch_specific = true},
        {.kind = SC_ENTRY_ELF, .arch = 120, .version_major = 1},
        {.kind = SC_ENTRY_PTX, .arch = 75, .version_major = 9, .container_index = 1},
    };
    ScFatbin fb = {.entries = e, .n_entries = SC_ARRAY_LEN(e), .n_containers = 2};
    CHECK(sc_fatbin_pick_ptx(&fb, 75) == &e[7]);
    CHECK(sc_fatbin_pick_ptx(&fb, 86) == &e[0]);
    CHECK(sc_fatbin_pick_ptx(&fb, 89) == &e[0]);
    CHECK(sc_fatbin_pick_ptx(&fb, 90) == &e[3]);  /* exact arch-specific first */
    CHECK(sc_fatbin_pick_ptx(&fb, 100) == &e[5]); /* 100a over 100f */
    CHECK(sc_fatbin_pick_ptx(&fb, 103) == &e[4]); /* 100f reaches 103; 100a does not */
    CHECK(sc_fatbin_pick_ptx(&fb, 110) == &e[2]); /* newest plain: 90, PTX 8.7 over 8.5 */
    CHECK(sc_fatbin_pick_ptx(&fb, 120) == &e[2]);
    CHECK(sc_fatbin_pick_ptx_in(&fb, 1, 90) == &e[7]);
    CHECK(sc_fatbin_pick_ptx_in(&fb, 0, 75) == NULL);
    CHECK(sc_fatbin_pick_ptx_in(&fb, 2, 90) == NULL);
    CHECK(sc_fatbin_has_elf_for(&fb, 121));
    CHECK(!sc_fatbin_has_elf_for(&fb, 110));
    CHECK(!sc_fatbin_entry_fits(&e[6], 130));
    ScFatbin empty = {0};
    CHECK(sc_fatbin_pick_ptx(&empty, 90) == NULL);
    CHECK(!sc_fatbin_has_elf_for(&empty, 90));
}

TEST(lineinfo_and_debug_builds_carry_name_and_options)
{
    size_t size;
    uint8_t *img = load("lineinfo.fatbin", &size);
    ScFatbin fb;
    ScErr err = {0};
    CHECK(img && sc_fatbin_parse(img, size, &fb, &err));
    if (img && !err.set) {
        const ScFatbinEntry *ptx = find_entry(&fb, SC_ENTRY_PTX, 75);
        const ScFatbinEntry *elf = find_entry(&fb, SC_ENTRY_ELF, 75);
        CHECK(ptx && elf && ptx->source_name && elf->source_name);
        if (ptx && ptx->source_name && ptx->options) {
            CHECK(ptx->offset > 0);
            CHECK_INT(strlen("tests/fatbin/kernels.cu"), ptx->source_name_len);
            CHECK(memcmp(ptx->source_name, "tests/fatbin/kernels.cu", ptx->source_name_len) == 0);
            CHECK(ptx->options_len == strlen("--generate-line-info") &&
                  memcmp(ptx->options, "--generate-line-info", ptx->options_len) == 0);
        }
        CHECK(entry_ptx_matches(ptx, "lineinfo.ptx"));
        sc_fatbin_free(&fb);
    }
    free(img);
    img = load("debug.fatbin", &size);
    CHECK(img && sc_fatbin_parse(img, size, &fb, &err));
    if (img && !err.set) {
        const ScFatbinEntry *ptx = find_entry(&fb, SC_ENTRY_PTX, 75);
        const char *want = "-g --dont-merge-basicblocks --return-at-end";
        CHECK(ptx && ptx->options && ptx->options_len == strlen(want) &&
              memcmp(ptx->options, want, strlen(want)) == 0);
        CHECK(ptx && (ptx->flags & 0x2)); /* debug flag */
        char *from_elf = elf_entry_kernels(find_entry(&fb, SC_ENTRY_ELF, 75));
        CHECK_STR(KERNELS_CU, from_elf);
        free(from_elf);
        sc_fatbin_free(&fb);
    }
    free(img);
}

TEST(rdc_container_holds_relocatable_ptx)
{
    size_t size;
    uint8_t *img = load("rdc.fatbin", &size);
    ScFatbin fb;
    ScErr err = {0};
    CHECK(img && sc_fatbin_parse(img, size, &fb, &err));
    if (!img || err.set)
        return;
    const ScFatbinEntry *ptx = find_entry(&fb, SC_ENTRY_PTX, 75);
    CHECK(ptx && ptx->options && ptx->options_len == strlen("--compile-only") &&
          memcmp(ptx->options, "--compile-only", ptx->options_len) == 0);
    CHECK(entry_ptx_matches(ptx, "rdc_a.ptx"));
    char *names = elf_entry_kernels(find_entry(&fb, SC_ENTRY_ELF, 75));
    CHECK_STR("_Z10rdc_uses_bPi", names);
    free(names);
    sc_fatbin_free(&fb);
    free(img);
}

/* ---- kernels of a cubin ------------------------------------------------- */

TEST(elf_kernels_match_ptx_entries)
{
    size_t n, fsize;
    uint8_t *cubin = load("sm80.cubin", &n), *img = load("sm75_all.fatbin", &fsize);
    ScKernelNames k;
    ScErr err = {0};
    CHECK(cubin && sc_fatbin_elf_kernels(cubin, n, &k, &err));
    if (cubin && !err.set) {
        char *got = joined_sorted(k.names, k.n);
        CHECK_STR(KERNELS_CU, got);
        free(got);
        sc_fatbin_kernels_free(&k);
        CHECK(k.names == NULL && k.n == 0);
        size_t size;
        CHECK(sc_fatbin_elf_size(cubin, SIZE_MAX, &size, &err));
        CHECK_INT(n, size);
        CHECK(sc_fatbin_elf_size(cubin, n, &size, &err));
        CHECK(!sc_fatbin_elf_size(cubin, n - 1, &size, &err));
        CHECK_CONTAINS(err.msg, "truncated");
    }
    ScFatbin fb;
    ScErr e2 = {0};
    CHECK(img && sc_fatbin_parse(img, fsize, &fb, &e2));
    if (img && !e2.set) {
        char *from_elf = elf_entry_kernels(find_entry(&fb, SC_ENTRY_ELF, 75));
        char *from_ptx = entry_ptx_names(find_entry(&fb, SC_ENTRY_PTX, 75));
        CHECK_STR(from_ptx, from_elf);
        free(from_elf);
        free(from_ptx);
        sc_fatbin_free(&fb);
    }
    free(cubin);
    free(img);
}

/* A host executable or library carries CUDA code when it has a fat binary section
 * (.nv_fatbin; __nv_relfatbin with -rdc); this test program has none, nor does a cubin,
 * and a cut-off image reads as none. */
TEST(host_elf_with_cuda_code)
{
    const char *with[] = {"libprobe_v1.so", "libprobe_rdc.so"};
    for (size_t i = 0; i < 2; i++) {
        size_t n;
        uint8_t *lib = load(with[i], &n);
        CHECK(lib != NULL);
        if (!lib)
            continue;
        CHECK(sc_fatbin_host_has_cuda(lib, n));
        CHECK(!sc_fatbin_host_has_cuda(lib, 200));
        free(lib);
    }
    size_t n;
    uint8_t *self = NULL;
    FILE *f = fopen("/proc/self/exe", "rb");
    CHECK(f != NULL);
    if (f) {
        ScBuf b = {0};
        char chunk[65536];
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
            sc_buf_append(&b, chunk, got);
        fclose(f);
        n = b.len;
        self = (uint8_t *)sc_buf_take(&b);
        CHECK(self != NULL && !sc_fatbin_host_has_cuda(self, n));
        free(self);
    }
    uint8_t *cubin = load("sm80.cubin", &n);
    CHECK(cubin != NULL);
    if (cubin)
        CHECK(!sc_fatbin_host_has_cuda(cubin, n));
    free(cubin);
}

TEST(elf_kernels_rejects_bad_elf)
{
    size_t n;
    uint8_t *cubin = load("sm80.cubin", &n);
    if (!cubin) {
        CHECK(cubin);
        return;
    }
    ScKernelNames k;
    ScErr err = {0};
    CHECK(!sc_fatbin_elf_kernels(cubin, 10, &k, &err));
    CHECK_CONTAINS(err.msg, "fewer than an ELF header");
    err = (ScErr){0};
    CHECK(!sc_fatbin_elf_kernels("\x7f" "ELX" "0123456789012345678901234567890123456789012345678901234567890", 64, &k,
                                 &err));
    CHECK_CONTAINS(err.msg, "no ELF magic");
    /* section headers cut off */
    Elf64_Ehdr eh;
    memcpy(&eh, cubin, sizeof eh);
    err = (ScErr){0};
    uint8_t *cut = copy_of(cubin, eh.e_shoff + 10);
    CHECK(!sc_fatbin_elf_kernels(cut, eh.e_shoff + 10, &k, &err));
    CHECK_CONTAINS(err.msg, "run past");
    free(cut);
    /* a symbol name offset outside the string table */
    uint8_t *bad = copy_of(cubin, n);
    for (size_t i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh;
        memcpy(&sh, bad + eh.e_shoff + i * sizeof sh, sizeof sh);
        if (sh.sh_type != SHT_SYMTAB)
            continue;
        for (size_t j = 0; j < sh.sh_size / sizeof(Elf64_Sym); j++) {
            Elf64_Sym sym;
            memcpy(&sym, bad + sh.sh_offset + j * sizeof sym, sizeof sym);
            if (ELF64_ST_TYPE(sym.st_info) == STT_FUNC && (sym.st_other & 0x10)) {
                sym.st_name = 0x7fffffff;
                memcpy(bad + sh.sh_offset + j * sizeof sym, &sym, sizeof sym);
            }
        }
    }
    err = (ScErr){0};
    CHECK(!sc_fatbin_elf_kernels(bad, n, &k, &err));
    CHECK_CONTAINS(err.msg, "outside its string table");
    CHECK(k.names == NULL && k.n == 0);
    free(bad);
    free(cubin);
}

/* ---- wrappers: what __cudaRegisterFatBinary receives -------------------- */

typedef struct Probe {
    void *handle;
    const void *const *wrappers;
    size_t n_wrappers;
    const char *const *kernels;
    size_t n_kernels;
    uintptr_t segment; /* .nvFatBinSegment in memory */
    size_t segment_size;
} Probe;

typedef struct SegmentSearch {
    const char *suffix;
    uintptr_t bias;
    char path[4096];
    bool found;
} SegmentSearch;

static int find_object(struct dl_phdr_info *info, size_t size, void *data)
{
    SegmentSearch *s = data;
    size_t n = strlen(info->dlpi_name), m = strlen(s->suffix);
    if (n >= m && strcmp(info->dlpi_name + n - m, s->suffix) == 0) {
        s->bias = info->dlpi_addr;
        snprintf(s->path, sizeof s->path, "%s", info->dlpi_name);
        s->found = true;
        return 1;
    }
    return 0;
}

/* Where the loaded library's .nvFatBinSegment lies, from its file's section
 * headers and its load bias. */
static bool find_segment(const char *lib, Probe *p)
{
    SegmentSearch s = {.suffix = lib};
    dl_iterate_phdr(find_object, &s);
    size_t n;
    FILE *f = s.found ? fopen(s.path, "rb") : NULL;
    if (!f)
        return false;
    fseek(f, 0, SEEK_END);
    n = (size_t)ftell(f);
    rewind(f);
    uint8_t *file = malloc(n);
    bool ok = fread(file, 1, n, f) == n;
    fclose(f);
    Elf64_Ehdr eh;
    memcpy(&eh, file, sizeof eh);
    ok = ok && eh.e_shoff + (size_t)eh.e_shnum * sizeof(Elf64_Shdr) <= n && eh.e_shstrndx < eh.e_shnum;
    Elf64_Shdr names;
    if (ok)
        memcpy(&names, file + eh.e_shoff + eh.e_shstrndx * sizeof names, sizeof names);
    for (size_t i = 0; ok && i < eh.e_shnum; i++) {
        Elf64_Shdr sh;
        memcpy(&sh, file + eh.e_shoff + i * sizeof sh, sizeof sh);
        if (names.sh_offset + sh.sh_name < n &&
            strcmp((char *)file + names.sh_offset + sh.sh_name, ".nvFatBinSegment") == 0) {
            p->segment = s.bias + sh.sh_addr;
            p->segment_size = sh.sh_size;
        }
    }
    free(file);
    return ok && p->segment;
}

static bool open_probe(const char *lib, Probe *p)
{
    *p = (Probe){0};
    p->handle = dlopen(data_path(lib), RTLD_NOW | RTLD_LOCAL);
    if (!p->handle) {
        printf("dlopen %s: %s\n", lib, dlerror());
        return false;
    }
    size_t (*wrappers)(const void *const **) = (size_t(*)(const void *const **))dlsym(
        p->handle, "scord_probe_wrappers");
    size_t (*kernels)(const char *const **) = (size_t(*)(const char *const **))dlsym(
        p->handle, "scord_probe_kernels");
    if (!wrappers || !kernels)
        return false;
    p->n_wrappers = wrappers(&p->wrappers);
    p->n_kernels = kernels(&p->kernels);
    return find_segment(lib, p);
}

static void close_probe(Probe *p)
{
    if (p->handle)
        dlclose(p->handle);
}

static char *probe_kernel_names(const Probe *p)
{
    return joined_sorted((char **)p->kernels, p->n_kernels);
}

TEST(registered_v1_wrapper)
{
    Probe p;
    bool opened = open_probe("libprobe_v1.so", &p);
    CHECK(opened);
    CHECK_INT(1, p.n_wrappers);
    if (!opened || p.n_wrappers != 1) {
        close_probe(&p);
        return;
    }
    const uint8_t *w = p.wrappers[0];
    /* The wrapper the constructor registered is the one in .nvFatBinSegment. */
    CHECK_INT(24, p.segment_size);
    CHECK((uintptr_t)w == p.segment);
    CHECK_INT(SC_IMAGE_WRAPPER, sc_fatbin_sniff(w, SIZE_MAX));
    size_t extent = sc_fatbin_loaded_extent(w, NULL);
    CHECK(extent >= 24 && extent != SIZE_MAX);
    uint8_t *heap = malloc(8);
    CHECK(sc_fatbin_loaded_extent(heap, NULL) == SIZE_MAX);
    free(heap);

    ScFatbin fb;
    ScErr err = {0};
    CHECK(sc_fatbin_parse_ex(w, SIZE_MAX, sc_fatbin_loaded_extent, NULL, &fb, &err));
    if (!err.set) {
        CHECK_INT(1, fb.wrapper_version);
        CHECK_INT(1, fb.n_containers);
        CHECK_INT(2, fb.n_entries);
        CHECK(entry_ptx_matches(sc_fatbin_pick_ptx(&fb, 90), "sm75.ptx"));
        char *from_elf = elf_entry_kernels(find_entry(&fb, SC_ENTRY_ELF, 75));
        char *registered = probe_kernel_names(&p);
        CHECK_STR(KERNELS_CU, registered);
        CHECK_STR(registered, from_elf);
        free(from_elf);
        free(registered);
        /* The container embedded by nvcc -c is the one nvcc -fatbin writes. */
        size_t size;
        uint8_t *file = load("sm75.fatbin", &size);
        const uint8_t *data;
        memcpy(&data, w + 8, sizeof data);
        CHECK(file && memcmp(file, data, size) == 0);
        free(file);
        sc_fatbin_free(&fb);
    } else {
        printf("%s\n", err.msg);
    }
    /* Without an extent function the headers alone bound it, same result. */
    err = (ScErr){0};
    CHECK(sc_fatbin_parse(w, 24, &fb, &err));
    CHECK_INT(2, fb.n_entries);
    sc_fatbin_free(&fb);
    close_probe(&p);
}

/* Reads the wrappers of a probe's .nvFatBinSegment: each translation unit's
 * own (v1) and the device link's (v2). */
static size_t segment_wrappers(const Probe *p, const uint8_t **out, size_t max)
{
    size_t n = 0;
    for (size_t off = 0; off + 24 <= p->segment_size && n < max; off += 24)
        out[n++] = (const uint8_t *)p->segment + off;
    return n;
}

static const void *rdptr(const uint8_t *p)
{
    const void *v;
    memcpy(&v, p, sizeof v);
    return v;
}

TEST(registered_rdc_wrapper)
{
    Probe p;
    bool opened = open_probe("libprobe_rdc.so", &p);
    CHECK(opened);
    CHECK_INT(1, p.n_wrappers);
    if (!opened || p.n_wrappers != 1) {
        close_probe(&p);
        return;
    }
    const uint8_t *w = p.wrappers[0];
    ScFatbin fb;
    ScErr err = {0};
    CHECK(sc_fatbin_parse_ex(w, SIZE_MAX, sc_fatbin_loaded_extent, NULL, &fb, &err));
    if (err.set) {
        printf("%s\n", err.msg);
        close_probe(&p);
        return;
    }
    /* v2: the device-linked image (SASS only), then each unit's pre-linked one. */
    CHECK_INT(2, fb.wrapper_version);
    CHECK_INT(3, fb.n_containers);
    const ScFatbinEntry *linked = NULL;
    for (size_t i = 0; i < fb.n_entries; i++) {
        const ScFatbinEntry *e = &fb.entries[i];
        if (e->container_index == 0) {
            CHECK_INT(SC_ENTRY_ELF, e->kind);
            linked = e;
        }
    }
    CHECK(linked != NULL);
    char *linked_names = elf_entry_kernels(linked);
    char *registered = probe_kernel_names(&p);
    CHECK_STR("_Z10rdc_uses_bPi _Z7rdc_ownPi", linked_names);
    CHECK_STR(linked_names, registered);
    free(linked_names);
    free(registered);
    CHECK(sc_fatbin_pick_ptx_in(&fb, 0, 75) == NULL);
    const ScFatbinEntry *a = sc_fatbin_pick_ptx_in(&fb, 1, 75);
    const ScFatbinEntry *b = sc_fatbin_pick_ptx_in(&fb, 2, 75);
    CHECK(a && b && a != b);
    if (a && b) {
        CHECK(a->options && strncmp(a->options, "--compile-only", a->options_len) == 0);
        char *na = entry_ptx_names(a), *nb = entry_ptx_names(b);
        /* link order is a then b; the PTX of a is what nvcc -ptx -rdc gives */
        CHECK_STR("_Z10rdc_uses_bPi", na);
        CHECK_STR("_Z7rdc_ownPi", nb);
        CHECK(entry_ptx_matches(a, "rdc_a.ptx"));
        free(na);
        free(nb);
    }
    /* The segment also holds each unit's own v1 wrapper (registered through
     * __cudaRegisterLinkedBinary, not __cudaRegisterFatBinary): their
     * containers are exactly the v2 wrapper's pre-linked list. */
    const uint8_t *ws[8];
    size_t n = segment_wrappers(&p, ws, SC_ARRAY_LEN(ws));
    CHECK_INT(3, n);
    const void *const *list = rdptr(w + 16);
    size_t v1 = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t magic, version;
        memcpy(&magic, ws[i], 4);
        memcpy(&version, ws[i] + 4, 4);
        CHECK_INT(WRAPPER_MAGIC, magic);
        if (version == 2) {
            CHECK(ws[i] == w);
            continue;
        }
        CHECK_INT(1, version);
        CHECK(rdptr(ws[i] + 8) == list[v1]);
        v1++;
    }
    CHECK_INT(2, v1);
    CHECK(list[2] == NULL);
    sc_fatbin_free(&fb);
    close_probe(&p);
}

TEST(registered_rdc_wrapper_of_ptx_only_build)
{
    Probe p;
    bool opened = open_probe("libprobe_rdc_ptx.so", &p);
    CHECK(opened && p.n_wrappers == 1);
    if (!opened || p.n_wrappers != 1) {
        close_probe(&p);
        return;
    }
    ScFatbin fb;
    ScErr err = {0};
    CHECK(sc_fatbin_parse_ex(p.wrappers[0], SIZE_MAX, sc_fatbin_loaded_extent, NULL, &fb, &err));
    if (err.set) {
        printf("%s\n", err.msg);
        close_probe(&p);
        return;
    }
    /* With only PTX there is no SASS to device-link: container 0 is empty.
     * nvcc also appends the device runtime library's pre-linked container. */
    CHECK_INT(2, fb.wrapper_version);
    CHECK(fb.n_containers >= 3);
    size_t in_first = 0;
    for (size_t i = 0; i < fb.n_entries; i++)
        in_first += fb.entries[i].container_index == 0;
    CHECK_INT(0, in_first);
    const ScFatbinEntry *a = sc_fatbin_pick_ptx_in(&fb, 1, 80);
    const ScFatbinEntry *b = sc_fatbin_pick_ptx_in(&fb, 2, 80);
    CHECK(a && b && a->arch == 80 && b->arch == 80);
    CHECK(sc_fatbin_pick_ptx_in(&fb, 1, 75) == NULL);
    /* Every entry of every container decompresses. */
    for (size_t i = 0; i < fb.n_entries; i++) {
        uint8_t *data;
        size_t len;
        ScErr e = {0};
        CHECK(sc_fatbin_entry_data(&fb.entries[i], &data, &len, &e));
        if (!e.set)
            free(data);
        else
            printf("entry %zu: %s\n", i, e.msg);
    }
    sc_fatbin_free(&fb);
    close_probe(&p);
}

/* Bounds for hand-made memory: each known block's size, SIZE_MAX otherwise. */
typedef struct Blocks {
    const void *base[4];
    size_t size[4];
} Blocks;

static size_t block_extent(const void *p, void *ctx)
{
    const Blocks *b = ctx;
    for (size_t i = 0; i < SC_ARRAY_LEN(b->base); i++) {
        const uint8_t *base = b->base[i];
        if (base && (const uint8_t *)p >= base && (const uint8_t *)p < base + b->size[i])
            return b->size[i] - (size_t)((const uint8_t *)p - base);
    }
    return SIZE_MAX;
}

static void make_wrapper(uint8_t w[24], uint32_t magic, uint32_t version, const void *data,
                         const void *list)
{
    wr32(w, magic);
    wr32(w + 4, version);
    memcpy(w + 8, &data, sizeof data);
    memcpy(w + 16, &list, sizeof list);
}

TEST(constructed_wrappers)
{
    size_t s1, s2;
    uint8_t *c1 = load("sm75.fatbin", &s1), *c2 = load("rdc.fatbin", &s2);
    if (!c1 || !c2) {
        CHECK(c1 && c2);
        free(c1);
        free(c2);
        return;
    }
    uint8_t w[24];
    ScFatbin fb;
    ScErr err = {0};
    make_wrapper(w, WRAPPER_MAGIC, 1, c1, NULL);
    CHECK(sc_fatbin_parse(w, sizeof w, &fb, &err));
    CHECK_INT(1, fb.wrapper_version);
    CHECK_INT(2, fb.n_entries);
    sc_fatbin_free(&fb);

    const void **list = malloc(3 * sizeof *list);
    list[0] = c2;
    list[1] = c1;
    list[2] = NULL;
    make_wrapper(w, WRAPPER_MAGIC, 2, c1, list);
    Blocks blocks = {{c1, c2, list}, {s1, s2, 3 * sizeof *list}};
    CHECK(sc_fatbin_parse_ex(w, sizeof w, block_extent, &blocks, &fb, &err));
    CHECK_INT(2, fb.wrapper_version);
    CHECK_INT(3, fb.n_containers);
    CHECK_INT(6, fb.n_entries);
    if (fb.n_entries == 6) {
        CHECK_INT(0, fb.entries[1].container_index);
        CHECK_INT(1, fb.entries[2].container_index);
        CHECK_INT(2, fb.entries[5].container_index);
    }
    sc_fatbin_free(&fb);

    /* v1 ignores its second pointer (an offline file name, NULL in practice). */
    make_wrapper(w, WRAPPER_MAGIC, 1, c1, list);
    CHECK(sc_fatbin_parse(w, sizeof w, &fb, &err));
    CHECK_INT(1, fb.n_containers);
    sc_fatbin_free(&fb);

    /* A list with no NULL inside readable memory. */
    list[2] = c1;
    make_wrapper(w, WRAPPER_MAGIC, 2, c1, list);
    CHECK(!sc_fatbin_parse_ex(w, sizeof w, block_extent, &blocks, &fb, &err));
    CHECK_CONTAINS(err.msg, "pre-linked container list runs past readable memory after 3");
    CHECK(fb.entries == NULL && fb.n_entries == 0);

    /* A container truncated under the wrapper, caught through the extent. */
    err = (ScErr){0};
    blocks.size[0] = s1 - 1;
    make_wrapper(w, WRAPPER_MAGIC, 1, c1, NULL);
    CHECK(!sc_fatbin_parse_ex(w, sizeof w, block_extent, &blocks, &fb, &err));
    CHECK_CONTAINS(err.msg, "truncated");

    err = (ScErr){0};
    make_wrapper(w, 0x466243B2, 1, c1, NULL);
    CHECK(!sc_fatbin_parse(w, sizeof w, &fb, &err));
    CHECK_CONTAINS(err.msg, "not a fat binary: its first bytes 0x466243b2 match neither a "
                            "container (0xba55ed50) nor a registration wrapper (0x466243b1)");

    err = (ScErr){0};
    make_wrapper(w, WRAPPER_MAGIC, 3, c1, NULL);
    CHECK(!sc_fatbin_parse(w, sizeof w, &fb, &err));
    CHECK_CONTAINS(err.msg, "fat binary wrapper: version 3, expected 1 (or 2 for -rdc code)");

    err = (ScErr){0};
    make_wrapper(w, WRAPPER_MAGIC, 1, NULL, NULL);
    CHECK(!sc_fatbin_parse(w, sizeof w, &fb, &err));
    CHECK_CONTAINS(err.msg, "container pointer is NULL");

    err = (ScErr){0};
    make_wrapper(w, WRAPPER_MAGIC, 1, c1, NULL);
    CHECK(!sc_fatbin_parse(w, 23, &fb, &err));
    CHECK_CONTAINS(err.msg, "fewer than its 24-byte header");

    /* The wrapper points at something that is not a container. */
    err = (ScErr){0};
    make_wrapper(w, WRAPPER_MAGIC, 1, sample_ptx, NULL);
    CHECK(!sc_fatbin_parse(w, sizeof w, &fb, &err));
    CHECK_CONTAINS(err.msg, "bad magic");
    free(list);
    free(c1);
    free(c2);
}

/* ---- truncation and corruption ----------------------------------------- */

TEST(truncated_at_every_offset)
{
    static const char *files[] = {"sm75.fatbin", "sm75_all_lz4.fatbin"};
    for (size_t f = 0; f < SC_ARRAY_LEN(files); f++) {
        size_t size;
        uint8_t *img = load(files[f], &size);
        if (!img) {
            CHECK(img);
            continue;
        }
        size_t failed = 0, clear = 0;
        for (size_t n = 0; n < size; n++) {
            uint8_t *cut = copy_of(img, n);
            ScFatbin fb;
            ScErr err = {0};
            if (!sc_fatbin_parse(cut, n, &fb, &err)) {
                failed++;
                clear += strstr(err.msg, "truncated") != NULL || strstr(err.msg, "corrupt") ||
                         strstr(err.msg, "shorter than 4 bytes");
            } else {
                sc_fatbin_free(&fb);
            }
            free(cut);
        }
        CHECK_INT(size, failed);
        CHECK_INT(size, clear);
        free(img);
    }
}

/* Every byte of small real images flipped in turn: whatever parses must
 * also decompress or fail cleanly, and every ELF must list or fail cleanly. */
TEST(every_byte_flipped)
{
    static const char *files[] = {"sm75_all.fatbin", "sm75_all_lz4.fatbin", "rdc.fatbin"};
    for (size_t f = 0; f < SC_ARRAY_LEN(files); f++) {
        size_t size;
        uint8_t *img = load(files[f], &size);
        if (!img) {
            CHECK(img);
            continue;
        }
        size_t parsed = 0, extracted = 0, rejected = 0;
        for (size_t i = 0; i < size; i++) {
            uint8_t *bad = copy_of(img, size);
            bad[i] ^= 0xff;
            ScFatbin fb;
            ScErr err = {0};
            if (sc_fatbin_parse(bad, size, &fb, &err)) {
                parsed++;
                for (size_t j = 0; j < fb.n_entries; j++) {
                    uint8_t *data;
                    size_t len;
                    ScErr e = {0};
                    if (!sc_fatbin_entry_data(&fb.entries[j], &data, &len, &e)) {
                        rejected++;
                        CHECK(e.set && e.msg[0]);
                        continue;
                    }
                    extracted++;
                    if (fb.entries[j].kind == SC_ENTRY_ELF) {
                        ScKernelNames k;
                        if (sc_fatbin_elf_kernels(data, len, &k, &e))
                            sc_fatbin_kernels_free(&k);
                    }
                    free(data);
                }
                sc_fatbin_free(&fb);
            } else {
                CHECK(err.msg[0]);
            }
            free(bad);
        }
        /* Flips inside compressed payloads parse but must not all decompress. */
        CHECK(parsed > 0 && extracted > 0 && rejected > 0);
        free(img);
    }
}

TEST(every_byte_flipped_in_uncompressed_elf)
{
    size_t size;
    uint8_t *img = load("sm80.cubin", &size);
    if (!img) {
        CHECK(img);
        return;
    }
    size_t listed = 0, failed = 0;
    for (size_t i = 0; i < size; i++) {
        uint8_t *bad = copy_of(img, size);
        bad[i] ^= 0xff;
        ScKernelNames k;
        ScErr err = {0};
        size_t esize;
        sc_fatbin_elf_size(bad, size, &esize, &err);
        err = (ScErr){0};
        if (sc_fatbin_elf_kernels(bad, size, &k, &err)) {
            listed++;
            sc_fatbin_kernels_free(&k);
        } else {
            failed++;
            CHECK(err.msg[0]);
        }
        free(bad);
    }
    CHECK(listed > 0 && failed > 0);
    free(img);
}

/* One field of sm75.fatbin's second (PTX) entry rewritten. */
static bool parse_with_field(size_t field, int width, uint64_t value, ScErr *err, bool extract)
{
    size_t size;
    uint8_t *img = load("sm75.fatbin", &size);
    if (!img)
        return sc_err_set(err, "no test data");
    uint32_t ehs;
    uint64_t psize;
    memcpy(&ehs, img + 16 + 4, 4);
    memcpy(&psize, img + 16 + 8, 8);
    uint8_t *ptx = img + 16 + ehs + psize;
    if (width == 2)
        wr16(ptx + field, (uint16_t)value);
    else if (width == 4)
        wr32(ptx + field, (uint32_t)value);
    else
        wr64(ptx + field, value);
    ScFatbin fb;
    bool ok = sc_fatbin_parse(img, size, &fb, err);
    if (ok && extract) {
        const ScFatbinEntry *e = find_entry(&fb, SC_ENTRY_PTX, 75);
        uint8_t *data = NULL;
        size_t len;
        ok = e && sc_fatbin_entry_data(e, &data, &len, err);
        free(data);
    }
    sc_fatbin_free(&fb);
    free(img);
    return ok;
}

TEST(corrupt_fields_give_clear_errors)
{
    ScErr err = {0};
    /* sizes past the end */
    CHECK(!parse_with_field(8, 8, 1u << 20, &err, false));
    CHECK_CONTAINS(err.msg, "fat binary container 0, entry at 0x28b8: payload of 1048576 bytes "
                            "runs past the container end");
    err = (ScErr){0};
    CHECK(!parse_with_field(8, 8, UINT64_MAX, &err, false));
    CHECK_CONTAINS(err.msg, "runs past the container end");
    /* entry header size below the minimum, and past the end */
    err = (ScErr){0};
    CHECK(!parse_with_field(4, 4, 63, &err, false));
    CHECK_CONTAINS(err.msg, "header size 63 is below the minimum 64");
    err = (ScErr){0};
    CHECK(!parse_with_field(4, 4, 0x100000, &err, false));
    CHECK_CONTAINS(err.msg, "header size 1048576 runs past the container end");
    /* compressed size larger than the payload */
    err = (ScErr){0};
    CHECK(!parse_with_field(16, 4, 100000, &err, false));
    CHECK_CONTAINS(err.msg, "compressed size 100000 does not fit its 760-byte payload");
    err = (ScErr){0};
    CHECK(!parse_with_field(40, 8, 0xa011, &err, false));
    CHECK_CONTAINS(err.msg, "claim both LZ4 and zstd");
    /* an unknown entry kind is skipped, not misread */
    err = (ScErr){0};
    CHECK(parse_with_field(0, 2, 8, &err, false));

    /* container header */
    size_t size;
    uint8_t *img = load("sm75.fatbin", &size);
    if (!img) {
        CHECK(img);
        return;
    }
    ScFatbin fb;
    uint8_t *bad = copy_of(img, size);
    bad[0] ^= 1;
    err = (ScErr){0};
    CHECK(!sc_fatbin_parse(bad, size, &fb, &err));
    CHECK_CONTAINS(err.msg, "not a fat binary: its first bytes 0xba55ed51 match neither");
    memcpy(bad, img, size);
    wr16(bad + 6, 8);
    err = (ScErr){0};
    CHECK(!sc_fatbin_parse(bad, size, &fb, &err));
    CHECK_CONTAINS(err.msg, "fat binary container 0: header size 8 is below the minimum 16");
    wr16(bad + 6, 0xffff);
    err = (ScErr){0};
    CHECK(!sc_fatbin_parse(bad, size, &fb, &err));
    CHECK_CONTAINS(err.msg, "header size 65535 runs past the end of the image");
    memcpy(bad, img, size);
    wr64(bad + 8, size);
    err = (ScErr){0};
    CHECK(!sc_fatbin_parse(bad, size, &fb, &err));
    CHECK_CONTAINS(err.msg, "declares 11264 bytes of entries but only 11248 bytes follow");
    memcpy(bad, img, size);
    wr16(bad + 4, 2);
    err = (ScErr){0};
    CHECK(!sc_fatbin_parse(bad, size, &fb, &err));
    CHECK_CONTAINS(err.msg, "version 2, expected 1");
    /* a container header whose entries do not fill it evenly */
    memcpy(bad, img, size);
    wr64(bad + 8, size - 16 - 8);
    err = (ScErr){0};
    CHECK(!sc_fatbin_parse(bad, size, &fb, &err));
    CHECK_CONTAINS(err.msg, "runs past the container end");
    free(bad);

    /* Two containers back to back parse as one image; garbage after the
     * last one is not a container and ends the walk. */
    uint8_t *two = malloc(2 * size + 5);
    memcpy(two, img, size);
    memcpy(two + size, img, size);
    memcpy(two + 2 * size, "junk!", 5);
    err = (ScErr){0};
    CHECK(sc_fatbin_parse(two, 2 * size + 5, &fb, &err));
    CHECK_INT(2, fb.n_containers);
    CHECK_INT(4, fb.n_entries);
    sc_fatbin_free(&fb);
    CHECK(sc_fatbin_parse(two, SIZE_MAX, &fb, &err)); /* unbounded: only the first */
    CHECK_INT(1, fb.n_containers);
    sc_fatbin_free(&fb);
    /* the second one cut short is an error, not a silent stop */
    err = (ScErr){0};
    CHECK(!sc_fatbin_parse(two, 2 * size - 1, &fb, &err));
    CHECK_CONTAINS(err.msg, "fat binary container 1");
    free(two);

    err = (ScErr){0};
    CHECK(!sc_fatbin_parse(sample_ptx, sizeof sample_ptx, &fb, &err));
    CHECK_CONTAINS(err.msg, "not a fat binary: the image is PTX text");
    err = (ScErr){0};
    CHECK(!sc_fatbin_parse(img, 3, &fb, &err));
    CHECK_CONTAINS(err.msg, "shorter than 4 bytes");
    free(img);
}

TEST(zstd_corruption_and_size_lies)
{
    ScErr err = {0};
    /* the frame magic broken */
    CHECK(!parse_with_field(80, 4, 0x12345678, &err, true));
    CHECK_CONTAINS(err.msg, "compute_75 PTX entry (container 0, offset 0x28b8): corrupt zstd "
                            "data: no valid zstd frame header");
    /* declared size smaller, larger, and absurd */
    err = (ScErr){0};
    CHECK(!parse_with_field(56, 8, 3015, &err, true));
    CHECK_CONTAINS(err.msg, "header declares 3015 bytes uncompressed, its zstd frame 3016");
    err = (ScErr){0};
    CHECK(!parse_with_field(56, 8, 4000, &err, true));
    CHECK_CONTAINS(err.msg, "its zstd frame 3016");
    err = (ScErr){0};
    CHECK(!parse_with_field(56, 8, (uint64_t)1 << 40, &err, true));
    CHECK_CONTAINS(err.msg, "more than scord's limit");
    err = (ScErr){0};
    CHECK(!parse_with_field(56, 8, 500u << 20, &err, true));
    CHECK_CONTAINS(err.msg, "more than zstd can expand to");
    /* the compressed stream cut short (compressed size lowered) */
    err = (ScErr){0};
    CHECK(!parse_with_field(16, 4, 700, &err, true));
    CHECK_CONTAINS(err.msg, "corrupt zstd data");

    /* Frames without a content size, made here: the header's size is held to,
     * and with no size anywhere the output grows within bounds. */
    char packed[1024];
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    ZSTD_outBuffer out = {packed, sizeof packed, 0};
    ZSTD_inBuffer in = {sample_ptx, sizeof sample_ptx, 0};
    size_t r = ZSTD_compressStream2(cctx, &out, &in, ZSTD_e_end);
    ZSTD_freeCCtx(cctx);
    CHECK(!ZSTD_isError(r) && r == 0);
    CHECK(ZSTD_getFrameContentSize(packed, out.pos) == ZSTD_CONTENTSIZE_UNKNOWN ||
          ZSTD_getFrameContentSize(packed, out.pos) == sizeof sample_ptx);
    Spec spec = {.kind = SC_ENTRY_PTX, .arch = 80, .ver_major = 8, .flags = 0x8011,
                 .csize = (uint32_t)out.pos, .payload = packed, .payload_len = out.pos};
    uint8_t *data;
    size_t len;
    err = (ScErr){0};
    CHECK(extract_one(&spec, &data, &len, &err));
    CHECK_INT(sizeof sample_ptx - 1, len);
    CHECK(data && strcmp((char *)data, sample_ptx) == 0);
    free(data);
    spec.usize = sizeof sample_ptx;
    CHECK(extract_one(&spec, &data, &len, &err));
    free(data);
    /* A second frame of garbage after the first. */
    char twice[2048];
    memcpy(twice, packed, out.pos);
    memcpy(twice + out.pos, "\x28\xb5\x2f\xfd\xff\xff\xff\xff", 8);
    spec.payload = twice;
    spec.payload_len = spec.csize = (uint32_t)out.pos + 8;
    spec.usize = 0;
    err = (ScErr){0};
    CHECK(!extract_one(&spec, &data, &len, &err));
    CHECK_CONTAINS(err.msg, "corrupt zstd data");
}

TEST(lz4_payloads_made_here)
{
    /* nvcc 13 writes LZ4 with --compress-mode=speed (tested above); these
     * are compressed here with LZ4_compress_default to vary the lies. */
    char packed[1024];
    int n = LZ4_compress_default(sample_ptx, packed, (int)sizeof sample_ptx, (int)sizeof packed);
    CHECK(n > 0 && (size_t)n < sizeof sample_ptx);
    Spec spec = {.kind = SC_ENTRY_PTX, .arch = 80, .ver_major = 8, .flags = 0x2011,
                 .csize = (uint32_t)n, .usize = sizeof sample_ptx, .payload = packed,
                 .payload_len = (size_t)n};
    uint8_t *data;
    size_t len;
    ScErr err = {0};
    CHECK(extract_one(&spec, &data, &len, &err));
    CHECK_INT(sizeof sample_ptx - 1, len); /* the NUL terminator is stripped */
    CHECK(data && strcmp((char *)data, sample_ptx) == 0);
    free(data);
    spec.usize = 0; /* unknown: measured */
    CHECK(extract_one(&spec, &data, &len, &err));
    CHECK_INT(sizeof sample_ptx - 1, len);
    free(data);

    spec.usize = sizeof sample_ptx - 1;
    CHECK(!extract_one(&spec, &data, &len, &err));
    CHECK_CONTAINS(err.msg, "compute_80 PTX entry (container 0, offset 0x10): LZ4 data expands "
                            "to more than the");
    err = (ScErr){0};
    spec.usize = sizeof sample_ptx + 100;
    CHECK(!extract_one(&spec, &data, &len, &err));
    CHECK_CONTAINS(err.msg, "but its header declares");
    err = (ScErr){0};
    spec.usize = (size_t)n * 255 + 1000;
    CHECK(!extract_one(&spec, &data, &len, &err));
    CHECK_CONTAINS(err.msg, "more than lz4 can expand to");
    err = (ScErr){0};
    spec.usize = (uint64_t)1 << 40;
    CHECK(!extract_one(&spec, &data, &len, &err));
    CHECK_CONTAINS(err.msg, "more than scord's limit");

    /* corrupt blocks: a match reaching before the output, a cut-off block */
    spec.usize = sizeof sample_ptx;
    const uint8_t backref[] = {0x10, 'a', 0x09, 0x00};
    spec.payload = backref;
    spec.payload_len = spec.csize = sizeof backref;
    err = (ScErr){0};
    CHECK(!extract_one(&spec, &data, &len, &err));
    CHECK_CONTAINS(err.msg, "corrupt LZ4 block: match offset 9 points before the start");
    spec.payload = packed;
    spec.payload_len = spec.csize = (uint32_t)n - 3;
    err = (ScErr){0};
    CHECK(!extract_one(&spec, &data, &len, &err));
    CHECK_CONTAINS(err.msg, "corrupt LZ4 block");
    const uint8_t lits[] = {0xf0};
    spec.payload = lits;
    spec.payload_len = spec.csize = sizeof lits;
    err = (ScErr){0};
    CHECK(!extract_one(&spec, &data, &len, &err));
    CHECK_CONTAINS(err.msg, "corrupt LZ4 block: a literal length runs past its end");

    /* An ELF entry keeps its trailing zero bytes. */
    const uint8_t elfish[] = {0x7f, 'E', 'L', 'F', 0, 0, 0, 0};
    Spec raw = {.kind = SC_ENTRY_ELF, .arch = 75, .flags = 0x11, .payload = elfish,
                .payload_len = sizeof elfish};
    err = (ScErr){0};
    CHECK(extract_one(&raw, &data, &len, &err));
    CHECK_INT(8, len);
    CHECK(data && data[8] == 0);
    free(data);
}

int main(void)
{
    RUN(sniff_recognizes_each_kind);
    RUN(sniff_of_real_images);
    RUN(default_build_is_sm75_sass_and_compressed_ptx);
    RUN(compressed_and_uncompressed_builds_agree);
    RUN(ptx_only_build_for_two_archs);
    RUN(sass_only_build_has_no_ptx);
    RUN(arch_specific_build);
    RUN(family_specific_build);
    RUN(pick_ptx_for_devices);
    RUN(pick_prefers_newer_ptx_version_at_equal_arch);
    RUN(pick_rule_on_synthetic_entries);
    RUN(lineinfo_and_debug_builds_carry_name_and_options);
    RUN(rdc_container_holds_relocatable_ptx);
    RUN(elf_kernels_match_ptx_entries);
    RUN(elf_kernels_rejects_bad_elf);
    RUN(host_elf_with_cuda_code);
    RUN(registered_v1_wrapper);
    RUN(registered_rdc_wrapper);
    RUN(registered_rdc_wrapper_of_ptx_only_build);
    RUN(constructed_wrappers);
    RUN(truncated_at_every_offset);
    RUN(every_byte_flipped);
    RUN(every_byte_flipped_in_uncompressed_elf);
    RUN(corrupt_fields_give_clear_errors);
    RUN(zstd_corruption_and_size_lies);
    RUN(lz4_payloads_made_here);
    return TEST_REPORT();
}
