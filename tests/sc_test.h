/* sc_test.h: the unit-test harness. A test file defines TEST(name) functions and
 * lists them in main() with RUN(name); a failed CHECK prints file:line and the
 * values, marks the test failed and lets it continue. The program ends with the
 * line `N passed, N failed` that tests/run_unit.sh adds up. */
#ifndef SC_TEST_H
#define SC_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sc_test_checks_failed;
static int sc_test_passed, sc_test_failed;

#define TEST(name) static void name(void)

#define RUN(name)                                                              \
    do {                                                                       \
        int before_ = sc_test_checks_failed;                                   \
        name();                                                                \
        if (sc_test_checks_failed == before_) {                                \
            sc_test_passed++;                                                  \
        } else {                                                               \
            sc_test_failed++;                                                  \
            printf("FAIL %s\n", #name);                                        \
        }                                                                      \
    } while (0)

#define TEST_REPORT()                                                          \
    (printf("%d passed, %d failed\n", sc_test_passed, sc_test_failed),         \
     sc_test_failed ? 1 : 0)

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            printf("%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);    \
            sc_test_checks_failed++;                                           \
        }                                                                      \
    } while (0)

#define CHECK_INT(expected, actual)                                            \
    do {                                                                       \
        long long e_ = (long long)(expected), a_ = (long long)(actual);        \
        if (e_ != a_) {                                                        \
            printf("%s:%d: %s => %lld, expected %lld\n", __FILE__, __LINE__,   \
                   #actual, a_, e_);                                           \
            sc_test_checks_failed++;                                           \
        }                                                                      \
    } while (0)

#define CHECK_STR(expected, actual)                                            \
    do {                                                                       \
        const char *e_ = (expected), *a_ = (actual);                           \
        if (!a_ || strcmp(e_, a_) != 0) {                                      \
            printf("%s:%d: %s => \"%s\", expected \"%s\"\n", __FILE__,         \
                   __LINE__, #actual, a_ ? a_ : "(null)", e_);                 \
            sc_test_checks_failed++;                                           \
        }                                                                      \
    } while (0)

/* Substring check, for error messages. */
#define CHECK_CONTAINS(haystack, needle)                                       \
    do {                                                                       \
        const char *h_ = (haystack), *n_ = (needle);                           \
        if (!h_ || !strstr(h_, n_)) {                                          \
            printf("%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__,        \
                   __LINE__, h_ ? h_ : "(null)", n_);                          \
            sc_test_checks_failed++;                                           \
        }                                                                      \
    } while (0)

/* The build tree of the binary under test (set by tests/run_unit.sh), where
 * test data built at test time lives. */
static inline const char *sc_test_build_dir(void)
{
    const char *b = getenv("SC_TEST_BUILD");
    return b ? b : "build";
}

#endif
