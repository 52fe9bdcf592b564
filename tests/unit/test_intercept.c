/* test_intercept.c: the interposer's pure parts: the allocation table, the load plan
 * (what scord loads in place of a program's code image), the Triton cache index and the
 * tensor maps (what a tensor copy touches). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "intercept/intercept_alloc.h"
#include "intercept/intercept_plan.h"
#include "intercept/intercept_tensor.h"
#include "intercept/intercept_triton.h"
#include "sc_test.h"

TEST(alloc_find_inside_and_at_edges)
{
    ScAllocTable t = {0};
    CHECK(sc_alloc_add(&t, 0x2000, 0x100, SC_ALLOC_DEVICE));
    CHECK(sc_alloc_add(&t, 0x1000, 0x10, SC_ALLOC_MANAGED));
    CHECK(sc_alloc_add(&t, 0x3000, 1, SC_ALLOC_ASYNC));
    CHECK(sc_alloc_find(&t, 0xfff) == NULL);
    CHECK_INT(0x1000, sc_alloc_find(&t, 0x1000)->base);
    CHECK_INT(0x1000, sc_alloc_find(&t, 0x100f)->base);
    CHECK(sc_alloc_find(&t, 0x1010) == NULL);
    CHECK_INT(0x2000, sc_alloc_find(&t, 0x20ff)->base);
    CHECK(sc_alloc_find(&t, 0x2100) == NULL);
    CHECK_INT(SC_ALLOC_ASYNC, sc_alloc_find(&t, 0x3000)->kind);
    CHECK(sc_alloc_find(&t, 0x3001) == NULL);
    CHECK_INT(2, sc_alloc_find(&t, 0x1000)->serial);
    CHECK_INT(0x111, t.live_bytes);
    sc_alloc_free_table(&t);
}

TEST(alloc_remove_reuse_and_peak)
{
    ScAllocTable t = {0};
    for (uint64_t i = 0; i < 1000; i++)
        CHECK(sc_alloc_add(&t, 0x100000 + i * 0x1000, 0x800, SC_ALLOC_DEVICE));
    CHECK_INT(1000 * 0x800, t.peak_bytes);
    for (uint64_t i = 0; i < 1000; i += 2)
        CHECK(sc_alloc_remove(&t, 0x100000 + i * 0x1000));
    CHECK(!sc_alloc_remove(&t, 0x100000));      /* already freed */
    CHECK(!sc_alloc_remove(&t, 0x101000 + 8));  /* not a base */
    CHECK_INT(500, t.n);
    CHECK(sc_alloc_find(&t, 0x100000 + 4) == NULL);
    CHECK(sc_alloc_find(&t, 0x101000 + 4) != NULL);
    /* the driver hands the same address out again: the new allocation wins */
    CHECK(sc_alloc_add(&t, 0x101000, 0x10, SC_ALLOC_PITCHED));
    CHECK_INT(500, t.n);
    CHECK(sc_alloc_find(&t, 0x101000 + 0x20) == NULL);
    CHECK_INT(SC_ALLOC_PITCHED, sc_alloc_find(&t, 0x101000)->kind);
    CHECK_INT(499 * 0x800 + 0x10, t.live_bytes);
    CHECK_INT(1000 * 0x800, t.peak_bytes);
    CHECK_STR("cudaMallocPitch", sc_alloc_kind_name(SC_ALLOC_PITCHED));
    sc_alloc_free_table(&t);
}

/* Which roots of a launch are unwritten (instr_roots.c): a kernel reading through
 * parameters 0 and 1, and through the pointer at offset 8 of struct parameter 2, and
 * writing through parameter 3. */
/* A context destroyed takes its allocations with it, unseen: memory the driver gives
 * again replaces every entry it overlaps. */
TEST(alloc_over_stale_entries_replaces_them)
{
    ScAllocTable t = {0};
    CHECK(sc_alloc_add(&t, 0x1000, 0x100, SC_ALLOC_DEVICE));
    CHECK(sc_alloc_add(&t, 0x1100, 0x100, SC_ALLOC_DEVICE));
    CHECK(sc_alloc_add(&t, 0x1200, 0x100, SC_ALLOC_DEVICE));
    CHECK(sc_alloc_add(&t, 0x2000, 0x100, SC_ALLOC_DEVICE));
    CHECK(sc_alloc_add(&t, 0x1080, 0x200, SC_ALLOC_MANAGED)); /* over the first three */
    CHECK_INT(2, t.n);
    CHECK_INT(0x1080, sc_alloc_find(&t, 0x1000 + 0x80)->base);
    CHECK(sc_alloc_find(&t, 0x1000) == NULL);
    CHECK(sc_alloc_find(&t, 0x12ff) == NULL);
    CHECK_INT(SC_ALLOC_MANAGED, sc_alloc_find(&t, 0x127f)->kind);
    CHECK_INT(0x2000, sc_alloc_find(&t, 0x2000)->base);
    CHECK_INT(0x300, t.live_bytes);
    CHECK(sc_alloc_add(&t, 0x1000, 0x80, SC_ALLOC_DEVICE)); /* just before: no overlap */
    CHECK_INT(3, t.n);
    CHECK(sc_alloc_add(&t, 0x2000, 0, SC_ALLOC_DEVICE)); /* empty, at a base: replaces it */
    CHECK_INT(3, t.n);
    CHECK_INT(0x280, t.live_bytes);
    sc_alloc_free_table(&t);
}

TEST(alloc_unwritten_roots_of_a_launch)
{
    ScAllocTable t = {0};
    CHECK(sc_alloc_add(&t, 0x10000, 0x1000, SC_ALLOC_DEVICE));
    CHECK(sc_alloc_add(&t, 0x20000, 0x1000, SC_ALLOC_DEVICE));
    CHECK(sc_alloc_add(&t, 0x30000, 0x1000, SC_ALLOC_MODULE_VAR));
    ScInstrRoots roots = {{{0, 0}, {1, 0}, {2, 8}, {3, 0}}, 4, 0x8};
    uint64_t a = 0x10000, b = 0x20040, out = 0x30000;
    struct {
        uint64_t n, table;
    } s = {7, 0x20000};
    void *params[] = {&a, &b, &s, &out};
    /* Three allocations apart from the written one: all read roots are unwritten. */
    CHECK(sc_alloc_unwritten_roots(&t, &roots, params) == 0x7);
    /* The written pointer inside b's allocation: b and the table are written. */
    out = 0x20800;
    CHECK(sc_alloc_unwritten_roots(&t, &roots, params) == 0x1);
    /* The same array read and written: nothing is. */
    out = a;
    CHECK(sc_alloc_unwritten_roots(&t, &roots, params) == 0x6);
    /* A read root in no tracked allocation is never left out; a written one that
     * points nowhere tracked reaches none of them. */
    a = 0x90000;
    out = 0x91000;
    CHECK(sc_alloc_unwritten_roots(&t, &roots, params) == 0x6);
    /* A freed allocation is no longer one. */
    a = 0x10000;
    CHECK(sc_alloc_remove(&t, 0x10000));
    CHECK(sc_alloc_unwritten_roots(&t, &roots, params) == 0x6);
    roots.n = 0;
    roots.written = 0;
    CHECK(sc_alloc_unwritten_roots(&t, &roots, params) == 0);
    sc_alloc_free_table(&t);
}

TEST(plan_ptx_text_is_copied)
{
    const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n";
    ScLoadPlan p;
    sc_plan_image(ptx, SIZE_MAX, 90, &p);
    CHECK_INT(SC_PLAN_PTX, p.verdict);
    CHECK(p.ptx != ptx);
    CHECK_STR(ptx, p.ptx);
    CHECK_INT(strlen(ptx), p.ptx_len);
    sc_plan_free(&p);
}

TEST(plan_cubin_is_unchecked_with_hint)
{
    static const unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    ScLoadPlan p;
    sc_plan_image(elf, sizeof elf, 90, &p);
    CHECK_INT(SC_PLAN_UNCHECKED, p.verdict);
    CHECK(p.ptx == NULL);
    CHECK_CONTAINS(p.reason, "no PTX");
    char hint[256];
    sc_plan_rebuild_hint(&p, hint, sizeof hint);
    CHECK_CONTAINS(hint, "-gencode arch=compute_90,code=compute_90");
    sc_plan_free(&p);
}

TEST(plan_unreadable_inputs)
{
    ScLoadPlan p;
    sc_plan_image(NULL, SIZE_MAX, 90, &p);
    CHECK_INT(SC_PLAN_UNREADABLE, p.verdict);
    static const unsigned char junk[] = {0x01, 0x02, 0x03, 0x04, 0x05};
    sc_plan_image(junk, sizeof junk, 90, &p);
    CHECK_INT(SC_PLAN_UNREADABLE, p.verdict);
    CHECK_CONTAINS(p.reason, "unrecognized");
    /* a container header whose sizes run past the end of what is readable */
    static const unsigned char bad[16] = {0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0, 0xff, 0xff};
    sc_plan_image(bad, sizeof bad, 90, &p);
    CHECK_INT(SC_PLAN_UNREADABLE, p.verdict);
    CHECK_CONTAINS(p.reason, "fat binary");
    sc_plan_free(&p);
}

TEST(plan_nvrtc_twin_options)
{
    const char *out[4];
    char buf[64];
    const char *cubin[] = {"-lineinfo", "--gpu-architecture=sm_90a", "-DN=4"};
    CHECK(sc_plan_nvrtc_twin_options(cubin, 3, out, buf, sizeof buf));
    CHECK_STR("-lineinfo", out[0]);
    CHECK_STR("--gpu-architecture=compute_90a", out[1]);
    CHECK_STR("-DN=4", out[2]);
    const char *split[] = {"-arch", "sm_100f"};
    CHECK(sc_plan_nvrtc_twin_options(split, 2, out, buf, sizeof buf));
    CHECK_STR("-arch", out[0]);
    CHECK_STR("compute_100f", out[1]);
    const char *short_form[] = {"-arch=sm_75"};
    CHECK(sc_plan_nvrtc_twin_options(short_form, 1, out, buf, sizeof buf));
    CHECK_STR("-arch=compute_75", out[0]);
    /* PTX already, no architecture (NVRTC's default is virtual), LTO IR, no room. */
    const char *ptx[] = {"-arch=compute_90"};
    CHECK(!sc_plan_nvrtc_twin_options(ptx, 1, out, buf, sizeof buf));
    const char *none[] = {"-lineinfo"};
    CHECK(!sc_plan_nvrtc_twin_options(none, 1, out, buf, sizeof buf));
    CHECK(!sc_plan_nvrtc_twin_options(NULL, 0, out, buf, sizeof buf));
    const char *lto[] = {"-arch=sm_90", "-dlto"};
    CHECK(!sc_plan_nvrtc_twin_options(lto, 2, out, buf, sizeof buf));
    CHECK(!sc_plan_nvrtc_twin_options(short_form, 1, out, buf, 8));
}

TEST(plan_ptx_defines_the_kernels)
{
    char a[] = "_Z5scaleILi4EEvPi", b[] = "rotate";
    char *names[] = {a, b};
    ScKernelNames k = {names, 2};
    const char *missing = NULL;
    CHECK(sc_plan_ptx_defines(".visible .entry _Z5scaleILi4EEvPi(\n.param .u64 p)\n"
                              ".visible .entry rotate(\n)\n",
                              &k, &missing));
    /* A name that only begins another's is not it. */
    CHECK(!sc_plan_ptx_defines(".visible .entry _Z5scaleILi4EEvPi(\n)\n.entry rotated(\n)\n", &k, &missing));
    CHECK_STR("rotate", missing);
    ScKernelNames none = {NULL, 0};
    CHECK(sc_plan_ptx_defines("", &none, &missing));
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    CHECK(chmod(path, mode) == 0);
}

TEST(triton_cache_gives_the_ptx_of_a_cached_cubin)
{
    char root[] = "/tmp/scord-triton-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/AAA", root);
    CHECK(mkdir(path, 0755) == 0);
    snprintf(path, sizeof path, "%s/AAA/add.cubin", root);
    write_file(path, "cubin-bytes-1", 0644);
    snprintf(path, sizeof path, "%s/AAA/add.ptx", root);
    write_file(path, ".entry add()", 0644);
    /* A cubin without its PTX, and a folder others may write. */
    snprintf(path, sizeof path, "%s/BBB", root);
    CHECK(mkdir(path, 0755) == 0);
    snprintf(path, sizeof path, "%s/BBB/lone.cubin", root);
    write_file(path, "cubin-bytes-2", 0644);
    snprintf(path, sizeof path, "%s/CCC", root);
    CHECK(mkdir(path, 0755) == 0);
    CHECK(chmod(path, 0777) == 0);
    snprintf(path, sizeof path, "%s/CCC/planted.cubin", root);
    write_file(path, "cubin-bytes-3", 0644);
    snprintf(path, sizeof path, "%s/CCC/planted.ptx", root);
    write_file(path, ".entry planted()", 0644);

    uint8_t h1[SC_SHA256_LEN], h2[SC_SHA256_LEN], h3[SC_SHA256_LEN], h4[SC_SHA256_LEN];
    sc_sha256("cubin-bytes-1", 13, h1);
    sc_sha256("cubin-bytes-2", 13, h2);
    sc_sha256("cubin-bytes-3", 13, h3);
    sc_sha256("cubin-bytes-4", 13, h4);
    ScTritonIndex *index = NULL;
    char *ptx = sc_triton_ptx_for(&index, root, h1);
    CHECK(ptx != NULL && strcmp(ptx, ".entry add()") == 0);
    free(ptx);
    CHECK(sc_triton_ptx_for(&index, root, h2) == NULL);
    CHECK(sc_triton_ptx_for(&index, root, h3) == NULL);
    /* A folder written after the first look is found at the next miss. */
    snprintf(path, sizeof path, "%s/DDD", root);
    CHECK(mkdir(path, 0755) == 0);
    snprintf(path, sizeof path, "%s/DDD/late.cubin", root);
    write_file(path, "cubin-bytes-4", 0644);
    snprintf(path, sizeof path, "%s/DDD/late.ptx", root);
    write_file(path, ".entry late()", 0644);
    ptx = sc_triton_ptx_for(&index, root, h4);
    CHECK(ptx != NULL && strcmp(ptx, ".entry late()") == 0);
    free(ptx);
    sc_triton_index_free(index);
    ScBuf dir = {0};
    CHECK(sc_triton_cache_dir("/x/cache", "/home/u", &dir) && strcmp(dir.data, "/x/cache") == 0);
    CHECK(sc_triton_cache_dir("", "/home/u", &dir) && strcmp(dir.data, "/home/u/.triton/cache") == 0);
    CHECK(!sc_triton_cache_dir(NULL, NULL, &dir));
    sc_buf_free(&dir);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}

TEST(cubin_hash_only_of_an_elf)
{
    static const unsigned char junk[16] = {1, 2, 3};
    uint8_t h[SC_SHA256_LEN];
    CHECK(!sc_plan_cubin_hash(junk, sizeof junk, h));
    CHECK(!sc_plan_cubin_hash(NULL, SIZE_MAX, h));
    CHECK(!sc_plan_cubin_hash(".version 9.0\n", SIZE_MAX, h));
}

/* A 128 x 32 int matrix (row-major, 512-byte rows) in boxes of 32 x 32. */
static ScDevTensorMap int_tiles(uint8_t tag, int data_type, int interleave, uint32_t element_stride)
{
    uint8_t bytes[128];
    memset(bytes, tag, sizeof bytes);
    uint64_t dim[2] = {128, 32}, strides[1] = {512};
    uint32_t box[2] = {32, 32}, element_strides[2] = {1, element_stride};
    ScDevTensorMap m;
    CHECK(sc_tensor_map_describe(&m, bytes, data_type, 2, 0x10000, dim, strides, box, element_strides, interleave));
    return m;
}

TEST(tensor_map_box_rows_inside_the_tensor)
{
    ScDevTensorMap m = int_tiles(7, 3 /* INT32 */, 0, 1);
    CHECK_INT(1, m.checked);
    CHECK_INT(4, m.elem);
    CHECK_INT(4096, sc_dev_tensor_box_bytes(&m));
    CHECK_INT(32, sc_dev_tensor_rows(&m));
    CHECK(m.map[0] == 0x0707070707070707ull && m.map[15] == m.map[0]);
    uint64_t addr;
    uint32_t bytes;
    const int32_t at[5] = {32, 0, 0, 0, 0};
    CHECK(sc_dev_tensor_row(&m, at, 0, &addr, &bytes));
    CHECK_INT(0x10000 + 128, addr);
    CHECK_INT(128, bytes);
    CHECK(sc_dev_tensor_row(&m, at, 5, &addr, &bytes));
    CHECK_INT(0x10000 + 5 * 512 + 128, addr);
    /* A box hanging over the tensor's edges: the part inside only. */
    const int32_t edge[5] = {-8, 30, 0, 0, 0};
    CHECK(sc_dev_tensor_row(&m, edge, 1, &addr, &bytes));
    CHECK_INT(0x10000 + 31 * 512, addr);
    CHECK_INT(96, bytes);
    CHECK(!sc_dev_tensor_row(&m, edge, 2, &addr, &bytes));
    const int32_t beyond[5] = {128, 0, 0, 0, 0};
    CHECK(!sc_dev_tensor_row(&m, beyond, 0, &addr, &bytes));
    /* Forms scord does not follow, and arguments that make no tensor. */
    CHECK_INT(0, int_tiles(7, 3, 1, 1).checked);
    CHECK_INT(0, int_tiles(7, 3, 0, 2).checked);
    CHECK_INT(0, int_tiles(7, 13 /* 16U4_ALIGN8B */, 0, 1).checked);
    uint8_t bytes128[128] = {0};
    uint64_t dim[1] = {4};
    uint32_t box[1] = {4};
    ScDevTensorMap bad;
    CHECK(!sc_tensor_map_describe(&bad, bytes128, 3, 0, 0, dim, NULL, box, NULL, 0));
    CHECK(!sc_tensor_map_describe(&bad, bytes128, 3, 6, 0, dim, NULL, box, NULL, 0));
    CHECK(sc_tensor_map_describe(&bad, bytes128, 3, 1, 0, dim, NULL, box, NULL, 0));
}

TEST(tensor_maps_keep_the_newest)
{
    ScTensorMaps *t = calloc(1, sizeof *t);
    CHECK(t != NULL);
    ScDevTensorMap a = int_tiles(1, 3, 0, 1), b = int_tiles(2, 3, 0, 1);
    sc_tensor_maps_add(t, &a);
    sc_tensor_maps_add(t, &b);
    a.base = 0x20000; /* the same bytes encoded again: one record, the newest, last */
    sc_tensor_maps_add(t, &a);
    CHECK_INT(2, t->n);
    CHECK_INT(0x20000, t->v[1].base);
    CHECK_INT(3, t->version); /* each add a change the contexts have not had */
    CHECK(sc_tensor_maps_find(t, a.map) == &t->v[1]);
    CHECK(sc_tensor_maps_find(t, b.map) == &t->v[0]);
    ScDevTensorMap c = int_tiles(9, 3, 0, 1);
    CHECK(sc_tensor_maps_find(t, c.map) == NULL);
    for (uint32_t i = 0; i < SC_DEV_TENSOR_MAPS + 5; i++) {
        ScDevTensorMap m = int_tiles(3, 3, 0, 1);
        m.map[0] = 1000 + i;
        sc_tensor_maps_add(t, &m);
    }
    CHECK_INT(SC_DEV_TENSOR_MAPS, t->n);
    CHECK_INT(1000 + SC_DEV_TENSOR_MAPS + 4, t->v[SC_DEV_TENSOR_MAPS - 1].map[0]);
    CHECK_INT(1005, t->v[0].map[0]);
    free(t);
}

int main(void)
{
    RUN(alloc_find_inside_and_at_edges);
    RUN(alloc_remove_reuse_and_peak);
    RUN(alloc_over_stale_entries_replaces_them);
    RUN(alloc_unwritten_roots_of_a_launch);
    RUN(plan_ptx_text_is_copied);
    RUN(plan_cubin_is_unchecked_with_hint);
    RUN(plan_unreadable_inputs);
    RUN(plan_nvrtc_twin_options);
    RUN(plan_ptx_defines_the_kernels);
    RUN(triton_cache_gives_the_ptx_of_a_cached_cubin);
    RUN(cubin_hash_only_of_an_elf);
    RUN(tensor_map_box_rows_inside_the_tensor);
    RUN(tensor_maps_keep_the_newest);
    return TEST_REPORT();
}
