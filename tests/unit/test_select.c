/* test_select.c: the kernel filters and the launch range (--kernel-name,
 * --kernel-name-exclude, --launch-skip, --launch-count). */
#include "common/sc_select.h"
#include "sc_test.h"

static const ScKernelNameForms reduce = {"_Z12reduce_blockPKjPyj",
                                     "reduce_block(unsigned int const*, unsigned long long*, unsigned int)",
                                     "reduce_block"};
static const ScKernelNameForms sort = {"_ZN3cub6detail4sortILi2EEEvPi", "void cub::detail::sort<2>(int*)",
                                   "cub::detail::sort<2>"};
static const ScKernelNameForms plain_c = {"axpy", "axpy", "axpy"};

static bool filter_matches(const char *spec, const ScKernelNameForms *k)
{
    ScKernelFilter f;
    ScErr err = {0};
    bool ok = sc_kernel_filter_parse(&f, spec, "--kernel-name", &err);
    CHECK(ok);
    if (!ok) {
        printf("  %s: %s\n", spec, err.msg);
        return false;
    }
    bool m = sc_kernel_filter_matches(&f, k);
    sc_kernel_filter_free(&f);
    return m;
}

TEST(filters_match_any_form_of_the_name)
{
    CHECK(filter_matches("", &reduce));
    CHECK(filter_matches("kns=reduce", &reduce));
    CHECK(filter_matches("kns=12reduce_block", &reduce)); /* the mangled name */
    CHECK(!filter_matches("kns=reduce", &sort));
    CHECK(filter_matches("kne=reduce_block", &reduce));     /* the short name */
    CHECK(filter_matches("kne=_Z12reduce_blockPKjPyj", &reduce));
    CHECK(!filter_matches("kne=reduce", &reduce));
    CHECK(filter_matches("kne=cub::detail::sort<2>", &sort));
    CHECK(filter_matches("kne=axpy", &plain_c));
    CHECK(filter_matches("regex=^cub::", &sort));
    CHECK(!filter_matches("regex=^cub::", &reduce));
    CHECK(filter_matches("regex=sort<[0-9]+>", &sort));
    CHECK(filter_matches("regex=(reduce|axpy)$", &plain_c));
}

static void rejects(const char *spec, const char *why)
{
    ScKernelFilter f;
    ScErr err = {0};
    CHECK(!sc_kernel_filter_parse(&f, spec, "--kernel-name", &err));
    CHECK(strstr(err.msg, why) != NULL);
    if (!strstr(err.msg, why))
        printf("  %s: %s\n", spec, err.msg);
    CHECK(f.kind == SC_KERNEL_FILTER_NONE && f.text == NULL);
}

TEST(filters_refuse_what_they_cannot_read)
{
    rejects("reduce", "a filter is kns=TEXT");
    rejects("kns=", "nothing after kns=");
    rejects("regex=", "nothing after regex=");
    rejects("regex=(unclosed", "does not compile");
    rejects("kn=reduce", "a filter is kns=TEXT");
}

/* The kernels of n launches, in order: r for reduce, s for sort; the answer as a
 * string of 1 (checked) and 0 (left out). */
static void run(ScLaunchSelect *s, const char *launches, char *out)
{
    for (size_t i = 0; launches[i]; i++)
        out[i] = sc_launch_select(s, launches[i] == 'r' ? &reduce : &sort) ? '1' : '0';
    out[strlen(launches)] = '\0';
}

static void selects(const char *include, const char *exclude, int skip, int count, const char *launches,
                    const char *want)
{
    ScLaunchSelect s;
    ScErr err = {0};
    CHECK(sc_launch_select_init(&s, include, exclude, skip, count, &err));
    char got[64];
    run(&s, launches, got);
    CHECK_STR(want, got);
    uint64_t left = 0;
    for (size_t i = 0; want[i]; i++)
        left += want[i] == '0';
    CHECK_INT(left, s.left_out);
    sc_launch_select_free(&s);
}

TEST(launch_range_counts_the_selected_kernels)
{
    selects("", "", 0, 0, "rsrs", "1111");
    selects("kns=reduce", "", 0, 0, "rsrs", "1010");
    selects("", "kns=reduce", 0, 0, "rsrs", "0101");
    selects("", "", 2, 0, "rsrsr", "00111");
    selects("", "", 1, 2, "rsrsr", "01100");
    /* skip and count count the launches of the kernels the filters let through */
    selects("kns=sort", "", 1, 1, "srssrs", "001000");
    selects("regex=.", "kne=reduce_block", 0, 1, "rsrs", "0100");
}

TEST(launch_range_refuses_negative_numbers)
{
    ScLaunchSelect s;
    ScErr err = {0};
    CHECK(!sc_launch_select_init(&s, "", "", -1, 0, &err));
    CHECK(strstr(err.msg, "--launch-skip -1") != NULL);
    err = (ScErr){0};
    CHECK(!sc_launch_select_init(&s, "", "", 0, -3, &err));
    CHECK(strstr(err.msg, "--launch-count -3") != NULL);
    err = (ScErr){0};
    CHECK(!sc_launch_select_init(&s, "kns=a", "regex=[", 0, 0, &err));
    CHECK(strstr(err.msg, "--kernel-name-exclude") != NULL);
    CHECK(sc_launch_select_init(&s, "", "", 0, 0, &err));
    CHECK(!sc_launch_select_narrows(&s));
    sc_launch_select_free(&s);
    CHECK(sc_launch_select_init(&s, "", "", 0, 5, &err));
    CHECK(sc_launch_select_narrows(&s));
    sc_launch_select_free(&s);
}

int main(void)
{
    RUN(filters_match_any_form_of_the_name);
    RUN(filters_refuse_what_they_cannot_read);
    RUN(launch_range_counts_the_selected_kernels);
    RUN(launch_range_refuses_negative_numbers);
    return TEST_REPORT();
}
