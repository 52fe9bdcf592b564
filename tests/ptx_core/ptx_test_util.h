/* ptx_test_util.h: file helpers and a ptxas runner shared by the PTX front-end tests. */
#ifndef PTX_TEST_UTIL_H
#define PTX_TEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static inline char *ptxt_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *data = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            char *d = realloc(data, cap + 1);
            if (!d)
                break;
            data = d;
        }
        size_t got = fread(data + n, 1, cap - n, f);
        if (!got)
            break;
        n += got;
    }
    fclose(f);
    if (data)
        data[n] = '\0';
    *len = n;
    return data;
}

static inline int ptxt_write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, len, f);
    return fclose(f) == 0 && w == len ? 0 : -1;
}

static inline void ptxt_mkdirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0777);
            *p = '/';
        }
    mkdir(buf, 0777);
}

/* A toolkit program: $CUDA_HOME/bin/NAME, else /usr/local/cuda/bin/NAME, else NAME on
 * PATH. `path` holds the answer. */
static inline const char *ptxt_toolkit(const char *name, char *path, size_t size)
{
    const char *home = getenv("CUDA_HOME");
    snprintf(path, size, "%s/bin/%s", home && *home ? home : "/usr/local/cuda", name);
    return access(path, X_OK) == 0 ? path : name;
}

/* ptxas: $PTXAS, else the toolkit's. */
static inline const char *ptxt_ptxas(void)
{
    static char path[1024];
    const char *env = getenv("PTXAS");
    return env && *env ? env : ptxt_toolkit("ptxas", path, sizeof path);
}

static inline const char *ptxt_nvlink(void)
{
    static char path[1024];
    return ptxt_toolkit("nvlink", path, sizeof path);
}

/* Runs argv with its output in log_path. Returns the exit status (-1: not run). */
static inline int ptxt_run(char *const argv[], const char *log_path)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Assembles ptx_path for arch; ptxas output goes to log_path. Returns the exit status (-1: not run). */
static inline int ptxt_run_ptxas(const char *ptx_path, const char *arch, const char *log_path)
{
    char archarg[64];
    snprintf(archarg, sizeof archarg, "-arch=%s", arch);
    char *argv[] = {(char *)ptxt_ptxas(), archarg, (char *)ptx_path, "-o", "/dev/null", NULL};
    return ptxt_run(argv, log_path);
}

static inline void ptxt_print_log(const char *log_path)
{
    size_t n;
    char *log = ptxt_read_file(log_path, &n);
    if (log) {
        printf("%.*s\n", n > 2000 ? 2000 : (int)n, log);
        free(log);
    }
}

#endif
