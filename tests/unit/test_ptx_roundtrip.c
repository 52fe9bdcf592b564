/* test_ptx_roundtrip.c: every PTX file nvcc built for the tests goes parse -> print -> parse to an identical
 * module, printing is idempotent, and every printed module assembles with ptxas for its own target. */
#include "ptx/ptx.h"
#include "ptx_core/ptx_test_util.h"
#include "ptx_core/ptxas_pool.h"
#include "sc_test.h"

#include <dirent.h>

#define MAX_FILES 4096

static char *files[MAX_FILES];
static int n_files;

/* The .ptx files under dir, at most 4 folders down. */
static void collect(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) && n_files < MAX_FILES) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        size_t n = strlen(e->d_name);
        if (S_ISDIR(st.st_mode) && depth < 4)
            collect(path, depth + 1);
        else if (S_ISREG(st.st_mode) && n > 4 && strcmp(e->d_name + n - 4, ".ptx") == 0)
            files[n_files++] = strdup(path);
    }
    closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ptxas wants -arch=sm_XX; a compute_XX target assembles as sm_XX. */
static void arch_of(const ScPtxModule *m, char *arch, size_t size)
{
    for (uint32_t i = 0; i < m->n_targets; i++) {
        const char *t = m->targets[i];
        if (strncmp(t, "sm_", 3) == 0) {
            snprintf(arch, size, "%s", t);
            return;
        }
        if (strncmp(t, "compute_", 8) == 0) {
            snprintf(arch, size, "sm_%s", t + 8);
            return;
        }
    }
    snprintf(arch, size, "sm_75");
}

static size_t total_bytes;

static void round_trip(const char *path, const char *out_dir)
{
    size_t len;
    char *text = ptxt_read_file(path, &len);
    if (!text) {
        printf("cannot read %s\n", path);
        CHECK(text != NULL);
        return;
    }
    total_bytes += len;
    ScErr err = {0};
    ScPtxModule *m = sc_ptx_parse(text, len, path, &err);
    if (!m) {
        printf("parse failed: %s\n", err.msg);
        CHECK(m != NULL);
        free(text);
        return;
    }
    ScBuf printed = {0};
    CHECK(sc_ptx_print(m, &printed));
    char out[900];
    const char *base = strrchr(path, '/');
    const char *parent = base;
    while (parent > path && parent[-1] != '/')
        parent--;
    /* corpus files of different folders may share a name: keep the folder in it */
    snprintf(out, sizeof out, "%s/%.*s_%s", out_dir, (int)(base - parent), parent, base + 1);
    CHECK_INT(0, ptxt_write_file(out, printed.data, printed.len));

    ScPtxModule *again = sc_ptx_parse(printed.data, printed.len, out, &err);
    if (!again) {
        printf("reparse of the printed %s failed: %s\n", path, err.msg);
        CHECK(again != NULL);
    } else {
        ScBuf why = {0};
        if (!sc_ptx_module_equal(m, again, &why)) {
            printf("%s: printed module differs: %s\n", path, why.data);
            CHECK(0);
        }
        ScBuf twice = {0};
        CHECK(sc_ptx_print(again, &twice));
        if (twice.len != printed.len || memcmp(twice.data, printed.data, printed.len) != 0) {
            printf("%s: printing is not idempotent\n", path);
            CHECK(0);
        }
        sc_buf_free(&twice);
        sc_buf_free(&why);
        char arch[32];
        arch_of(again, arch, sizeof arch);
        ptxas_start(out, arch, ptxas_has_extern_refs(again));
        sc_ptx_module_free(again);
    }
    sc_ptx_module_free(m);
    sc_buf_free(&printed);
    free(text);
}

TEST(corpus_round_trips_and_assembles)
{
    const char *build = sc_test_build_dir();
    char dir[600], out_dir[600];
    snprintf(dir, sizeof dir, "%s/testdata/ptx", build);
    collect(dir, 0);
    int own = n_files;
    snprintf(dir, sizeof dir, "%s/ptx-corpus", build);
    collect(dir, 0);
    printf("%d PTX files (%d from testdata/ptx, %d from ptx-corpus)\n", n_files, own, n_files - own);
    CHECK(own >= 18); /* tests/ptx_core/ptx_core.mk builds 18 */
    qsort(files, (size_t)n_files, sizeof files[0], cmp_str);
    snprintf(out_dir, sizeof out_dir, "%s/testdata/ptx-rt", build);
    ptxt_mkdirs(out_dir);
    for (int i = 0; i < n_files; i++) {
        int before = sc_test_checks_failed;
        round_trip(files[i], out_dir);
        printf("%s %s\n", sc_test_checks_failed == before ? "ok" : "FAILED", files[i]);
        free(files[i]);
    }
    ptxas_wait_all();
    printf("%zu bytes parsed; ptxas ran %d times, %d failed\n", total_bytes, ptxas_runs, ptxas_failures);
    CHECK_INT(n_files, ptxas_runs);
}

int main(void)
{
    RUN(corpus_round_trips_and_assembles);
    return TEST_REPORT();
}
