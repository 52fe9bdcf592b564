/* test_race_suite.c: runs the race-suite runner's self-test (its tag parser, its
 * comparisons with scord and racecheck reports, and the tags of every tests/races
 * program) under `make check`; the runner prints the `N passed, N failed` line. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    /* make check runs the unit tests from the repository root. */
    const char *script = "scripts/race_suite.py";
    if (access(script, R_OK) != 0) {
        printf("test_race_suite: cannot read %s (%s); run from the repository root\n", script,
               strerror(errno));
        printf("0 passed, 1 failed\n");
        return 1;
    }
    fflush(stdout);
    execlp("python3", "python3", script, "--self-test", (char *)NULL);
    printf("test_race_suite: cannot run python3: %s\n", strerror(errno));
    printf("0 passed, 1 failed\n");
    return 1;
}
