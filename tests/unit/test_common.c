/* test_common.c: error values, buffers and the arena. */
#include "common/sc_arena.h"
#include "common/sc_buf.h"
#include "common/sc_err.h"
#include "sc_test.h"

TEST(err_first_cause_wins)
{
    ScErr err = {0};
    CHECK(!sc_err_set(&err, "inner %d", 1));
    sc_err_set(&err, "outer");
    sc_err_wrap(&err, "module %s: ", "m");
    CHECK_STR("module m: inner 1", err.msg);
    CHECK(!sc_err_set(NULL, "ignored"));
}

TEST(buf_grows_and_terminates)
{
    ScBuf b = {0};
    for (int i = 0; i < 1000; i++)
        sc_buf_printf(&b, "%d,", i % 10);
    CHECK_INT(2000, b.len);
    CHECK_INT('\0', b.data[b.len]);
    sc_buf_puts(&b, "end");
    char *s = sc_buf_take(&b);
    CHECK_STR("end", s + 2000);
    CHECK(b.data == NULL);
    free(s);
}

TEST(arena_zeroed_aligned_and_large)
{
    ScArena a = {0};
    for (int i = 0; i < 5000; i++) {
        unsigned char *p = sc_arena_alloc(&a, (size_t)(i % 37) + 1);
        CHECK(((uintptr_t)p & 15) == 0);
        CHECK(p[0] == 0);
        p[0] = 0xff;
    }
    char *big = sc_arena_alloc(&a, 1 << 20);
    CHECK(big && big[(1 << 20) - 1] == 0);
    CHECK_STR("abc", sc_arena_strndup(&a, "abcdef", 3));
    sc_arena_free(&a);
}

int main(void)
{
    RUN(err_first_cause_wins);
    RUN(buf_grows_and_terminates);
    RUN(arena_zeroed_aligned_and_large);
    return TEST_REPORT();
}
