/* ptx_bench.c: throughput of the PTX front end (parse, print, parse+print) over a set of PTX files, in MB/s. */
#include "ptx/ptx.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

typedef struct Input {
    char *path, *text;
    size_t len;
} Input;

static Input *inputs;
static size_t n_inputs, cap_inputs, total_bytes;

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

static void add_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size <= 0) {
        fclose(f);
        return;
    }
    char *text = malloc((size_t)st.st_size);
    size_t len = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    if (!len) {
        free(text);
        return;
    }
    if (n_inputs == cap_inputs) {
        cap_inputs = cap_inputs ? cap_inputs * 2 : 64;
        inputs = realloc(inputs, cap_inputs * sizeof *inputs);
        if (!inputs)
            exit(1);
    }
    inputs[n_inputs++] = (Input){strdup(path), text, len};
    total_bytes += len;
}

static void add_path(const char *path, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    if (S_ISREG(st.st_mode)) {
        add_file(path);
        return;
    }
    DIR *d = S_ISDIR(st.st_mode) && depth < 5 ? opendir(path) : NULL;
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        char sub[2048];
        if (e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (stat(sub, &st) == 0 && (S_ISDIR(st.st_mode) || (n > 4 && strcmp(e->d_name + n - 4, ".ptx") == 0)))
            add_path(sub, depth + 1);
    }
    closedir(d);
}

/* Runs fn over all inputs until at least min_seconds have passed; returns MB/s of input text. */
static double measure(const char *name, void (*fn)(void), double min_seconds)
{
    fn(); /* warm caches and the allocator */
    int rounds = 0;
    double start = now(), cpu_start = clock_s(CLOCK_PROCESS_CPUTIME_ID), elapsed;
    do {
        fn();
        rounds++;
        elapsed = now() - start;
    } while (elapsed < min_seconds || rounds < 3);
    double cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    double mbs = (double)total_bytes * rounds / elapsed / 1e6;
    /* CPU time too: on a shared machine the wall clock also counts other processes */
    printf("%-12s %8.1f MB/s wall  %8.1f MB/s cpu  (%d rounds, %.2f s)\n", name, mbs,
           (double)total_bytes * rounds / cpu / 1e6, rounds, elapsed);
    return mbs;
}

static ScPtxModule **parsed;
static ScBuf out;

static void parse_only(void)
{
    for (size_t i = 0; i < n_inputs; i++) {
        ScErr err = {0};
        ScPtxModule *m = sc_ptx_parse(inputs[i].text, inputs[i].len, inputs[i].path, &err);
        if (!m) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
        sc_ptx_module_free(m);
    }
}

static void print_only(void)
{
    for (size_t i = 0; i < n_inputs; i++) {
        out.len = 0;
        sc_ptx_print(parsed[i], &out);
    }
}

static void parse_and_print(void)
{
    for (size_t i = 0; i < n_inputs; i++) {
        ScErr err = {0};
        ScPtxModule *m = sc_ptx_parse(inputs[i].text, inputs[i].len, inputs[i].path, &err);
        if (!m) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
        out.len = 0;
        sc_ptx_print(m, &out);
        sc_ptx_module_free(m);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR_OR_FILE.ptx...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++)
        add_path(argv[i], 0);
    if (!n_inputs) {
        fprintf(stderr, "ptx_bench: no .ptx files found\n");
        return 1;
    }
    parsed = calloc(n_inputs, sizeof *parsed);
    size_t stmts = 0;
    for (size_t i = 0; i < n_inputs; i++) {
        ScErr err = {0};
        parsed[i] = sc_ptx_parse(inputs[i].text, inputs[i].len, inputs[i].path, &err);
        if (!parsed[i]) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        for (const ScPtxItem *it = parsed[i]->first; it; it = it->next)
            if (it->kind == SC_PTX_ITEM_FUNC)
                for (const ScPtxStmt *s = it->u.func->first; s; s = s->next)
                    stmts++;
    }
    printf("ptx_bench: %zu files, %.2f MB, %zu body statements\n", n_inputs, (double)total_bytes / 1e6, stmts);
    measure("parse", parse_only, 1.0);
    measure("print", print_only, 1.0);
    measure("parse+print", parse_and_print, 1.0);
    for (size_t i = 0; i < n_inputs; i++) {
        sc_ptx_module_free(parsed[i]);
        free(inputs[i].text);
        free(inputs[i].path);
    }
    free(parsed);
    free(inputs);
    sc_buf_free(&out);
    return 0;
}
