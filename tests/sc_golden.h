/* sc_golden.h: golden files for the unit tests. sc_golden_compare(EXPECTED, data)
 * compares a test's output with EXPECTED (a path under tests/golden, ending in
 * .expected); on a difference it leaves the output and the diff next to where
 * EXPECTED would be in the build tree (.out, .diff), prints the diff and fails the
 * test. SC_UPDATE_GOLDEN=1 rewrites EXPECTED instead (review it in git diff). */
#ifndef SC_GOLDEN_H
#define SC_GOLDEN_H

#include "ptx_core/ptx_test_util.h"
#include "sc_test.h"

/* path with its ".expected" ending replaced by `ext`, under the build tree. */
static inline void sc_golden_beside(const char *expected_path, const char *ext, char *out, size_t size)
{
    size_t n = strlen(expected_path), suffix = strlen(".expected");
    if (n >= suffix && strcmp(expected_path + n - suffix, ".expected") == 0)
        n -= suffix;
    snprintf(out, size, "%s/%.*s%s", sc_test_build_dir(), (int)n, expected_path, ext);
}

static inline void sc_golden_compare(const char *expected_path, const char *data, size_t len)
{
    char out_path[1024], diff_path[1024], cmd[4096];
    data = data ? data : "";
    if (getenv("SC_UPDATE_GOLDEN")) {
        CHECK(ptxt_write_file(expected_path, data, len) == 0);
        printf("updated %s\n", expected_path);
        return;
    }
    sc_golden_beside(expected_path, ".out", out_path, sizeof out_path);
    sc_golden_beside(expected_path, ".diff", diff_path, sizeof diff_path);
    size_t elen = 0;
    char *expected = ptxt_read_file(expected_path, &elen);
    if (expected && elen == len && memcmp(expected, data, len) == 0) {
        printf("ok golden %s\n", expected_path);
        free(expected);
        remove(out_path); /* left by an earlier failing run */
        remove(diff_path);
        return;
    }
    free(expected);
    sc_test_checks_failed++;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", out_path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        ptxt_mkdirs(dir);
    }
    if (ptxt_write_file(out_path, data, len) != 0) {
        printf("FAIL golden %s differs; cannot write %s\n", expected_path, out_path);
        return;
    }
    printf("FAIL golden %s differs (output: %s)\n", expected_path, out_path);
    snprintf(cmd, sizeof cmd, "diff -u '%s' '%s' > '%s'; head -n 80 '%s'", expected_path, out_path, diff_path,
             diff_path);
    fflush(stdout);
    if (system(cmd) == -1)
        printf("cannot run diff\n");
}

#endif
