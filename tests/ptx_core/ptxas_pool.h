/* ptxas_pool.h: ptxas runs in the background, two at a time, so that a test parses and
 * instruments the next module while the last ones assemble. A run that fails prints
 * its log and fails the current test (sc_test.h's CHECK). One pool per test program. */
#ifndef SC_PTXAS_POOL_H
#define SC_PTXAS_POOL_H

#include "ptx/ptx.h"
#include "ptx_core/ptx_test_util.h"
#include "sc_test.h"

#define PTXAS_POOL_JOBS 2

typedef struct PtxasJob {
    pid_t pid;
    char path[1024], log[1100], arch[32];
} PtxasJob;

static PtxasJob ptxas_jobs[PTXAS_POOL_JOBS];
static int ptxas_n_jobs, ptxas_runs, ptxas_failures;

static inline void ptxas_reap_one(void)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, 0)) < 0)
        if (errno != EINTR)
            return;
    for (int i = 0; i < ptxas_n_jobs; i++) {
        PtxasJob *j = &ptxas_jobs[i];
        if (j->pid != pid)
            continue;
        int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        ptxas_runs++;
        if (rc != 0) {
            ptxas_failures++;
            printf("FAIL ptxas -arch=%s %s exited %d:\n", j->arch, j->path, rc);
            ptxt_print_log(j->log);
            CHECK_INT(0, rc);
        }
        *j = ptxas_jobs[--ptxas_n_jobs];
        return;
    }
}

static inline void ptxas_wait_all(void)
{
    while (ptxas_n_jobs)
        ptxas_reap_one();
}

/* Starts `ptxas [-c] -arch=ARCH PATH -o /dev/null`, its output in PATH.ARCH.log;
 * compile_only for -rdc code that uses what other modules define. */
static inline void ptxas_start(const char *path, const char *arch, bool compile_only)
{
    while (ptxas_n_jobs == PTXAS_POOL_JOBS)
        ptxas_reap_one();
    PtxasJob *j = &ptxas_jobs[ptxas_n_jobs];
    snprintf(j->path, sizeof j->path, "%s", path);
    snprintf(j->log, sizeof j->log, "%s.%s.log", path, arch);
    snprintf(j->arch, sizeof j->arch, "%s", arch);
    char archarg[64];
    snprintf(archarg, sizeof archarg, "-arch=%s", arch);
    char *argv[8];
    int n = 0;
    argv[n++] = (char *)ptxt_ptxas();
    if (compile_only)
        argv[n++] = "-c";
    argv[n++] = archarg;
    argv[n++] = j->path;
    argv[n++] = "-o";
    argv[n++] = "/dev/null";
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, j->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    int rc = posix_spawnp(&j->pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        printf("cannot run %s: %s\n", argv[0], strerror(rc));
        CHECK(rc == 0);
        return;
    }
    ptxas_n_jobs++;
}

/* Modules that call or read what another module defines (nvcc -rdc) assemble with
 * ptxas -c only. A .shared extern is dynamic shared memory, which is not such a use. */
static inline bool ptxas_has_extern_refs(const ScPtxModule *m)
{
    for (const ScPtxItem *it = m->first; it; it = it->next) {
        if (it->kind == SC_PTX_ITEM_FUNC && it->u.func->linkage == SC_PTX_LINK_EXTERN &&
            strcmp(it->u.func->name, "vprintf") != 0)
            return true;
        if (it->kind == SC_PTX_ITEM_VAR && it->u.var.linkage == SC_PTX_LINK_EXTERN &&
            strcmp(it->u.var.space, "shared") != 0)
            return true;
    }
    return false;
}

#endif
