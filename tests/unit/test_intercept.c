/* test_intercept.c: the interposer's pure parts: the allocation table and the
 * load plan (what scord loads in place of a program's code image). */
#include "intercept/intercept_alloc.h"
#include "intercept/intercept_plan.h"
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

int main(void)
{
    RUN(alloc_find_inside_and_at_edges);
    RUN(alloc_remove_reuse_and_peak);
    RUN(plan_ptx_text_is_copied);
    RUN(plan_cubin_is_unchecked_with_hint);
    RUN(plan_unreadable_inputs);
    return TEST_REPORT();
}
