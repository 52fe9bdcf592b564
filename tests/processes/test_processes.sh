#!/usr/bin/env bash
# test_processes.sh: the reports of a program of several processes (docs/options.md,
# "Several processes"): a report left by an earlier run is replaced; a process that used
# no CUDA (a shell, a tool) never overwrites the report another process wrote; with %p
# every process that has something to report writes its own file, naming itself; a fork
# child of a process that used CUDA reports nothing, its races being its parent's (its
# parent uses CUDA through the toolkit's stub driver, whose cuInit fails: enough to have
# used it); a process that ends with _exit still writes its report, a vfork child
# nothing; a CUDA program on a machine with no driver says that nothing was checked, a
# program with no CUDA code says nothing.
# libscord.so is preloaded into programs not built with the sanitizers, so this test
# builds scord without them (BUILD/plain) first.
# Run by tests/run_unit.sh from the repository root, SC_TEST_BUILD naming the build tree.
set -u
build=${SC_TEST_BUILD:-build}
work=$(pwd)/$build/tests/processes
. tests/sc_test.sh
rm -rf "$work"
mkdir -p "$work"
plain_scord "$build" "$work"
empty_report() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["tool"] == "scord" and d["races"] == [] else 1)' "$1"; }

echo "an earlier run" >"$work/earlier.json"
"$scord" --json-file "$work/earlier.json" true
check "a report left by an earlier run is replaced" empty_report "$work/earlier.json"

# Programs of our own: a shell's `exit` may end it with _exit (dash does), which runs no
# exit handler. `writes FILE` stands for a process that wrote the report before this
# one exits; `spawns` runs /bin/true twice; `plainfork` forks a child that exits.
cat >"$work/writes.c" <<'CODE'
#include <stdio.h>

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "w") : NULL;
    return !f || fputs("written-by-another\n", f) < 0 || fclose(f) != 0;
}
CODE
cat >"$work/spawns.c" <<'CODE'
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

int main(void)
{
    for (int i = 0; i < 2; i++) {
        char *argv[] = {"/bin/true", 0};
        pid_t pid;
        int status;
        if (posix_spawn(&pid, argv[0], 0, 0, argv, environ) != 0 || waitpid(pid, &status, 0) != pid)
            return 1;
    }
    return 0;
}
CODE
cat >"$work/plainfork.c" <<'CODE'
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    pid_t child = fork();
    if (child == 0)
        return 0;
    int status;
    return waitpid(child, &status, 0) != child;
}
CODE
# Every report names the process it speaks for: the number %p put in its file's name.
own_pid() {
    local f
    for f in "$@"; do
        python3 -c 'import json, re, sys; p = int(re.search(r"-(\d+)\.json$", sys.argv[1]).group(1)); sys.exit(0 if json.load(open(sys.argv[1]))["pid"] == p else 1)' "$f" || return 1
    done
}
if cc -o "$work/writes" "$work/writes.c" >"$work/cc.log" 2>&1 &&
    cc -o "$work/spawns" "$work/spawns.c" >>"$work/cc.log" 2>&1 &&
    cc -o "$work/plainfork" "$work/plainfork.c" >>"$work/cc.log" 2>&1; then
    "$scord" --json-file "$work/plain-%p.json" "$work/plainfork"
    files=$(ls "$work"/plain-*.json 2>/dev/null | wc -l)
    check "a fork child of a process that used no CUDA writes its own report ($files files)" test "$files" -eq 2
    check "which names the child, not its parent" own_pid "$work"/plain-*.json
    "$scord" --json-file "$work/kept.json" "$work/writes" "$work/kept.json"
    check "a process that used no CUDA leaves another's report as it is" grep -qx written-by-another "$work/kept.json"
    "$scord" --json-file "$work/each-%p.json" "$work/spawns"
    files=$(ls "$work"/each-*.json 2>/dev/null | wc -l)
    check "with %p each process writes its own report ($files files)" test "$files" -eq 3
else
    tail -n 5 "$work/cc.log"
    check "the helper programs build" false
fi

"$scord" --json-file "$work/none.json" sh -c '/bin/true; /bin/true'
check "processes that used no CUDA still leave one report" empty_report "$work/none.json"

if command -v cc >/dev/null && stub_driver "$work"; then
    cat >"$work/forks.c" <<'CODE'
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int cuInit(unsigned flags);

int main(void)
{
    printf("cuInit: %d\n", cuInit(0));
    fflush(stdout);
    pid_t child = fork();
    if (child == 0)
        return 0; /* exits as a program does: its exit handlers run */
    int status = 0;
    waitpid(child, &status, 0);
    return 0;
}
CODE
    # _exit runs no exit handler; scord writes what it writes at exit all the same. A
    # vfork child shares its parent's memory: its _exit writes nothing, its parent all.
    cat >"$work/quits.c" <<'CODE'
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int cuInit(unsigned flags);

int main(int argc, char **argv)
{
    printf("cuInit: %d\n", cuInit(0));
    fflush(stdout);
    if (argc > 1 && strcmp(argv[1], "vfork") == 0) {
        pid_t child = vfork();
        if (child == 0)
            _exit(0);
    }
    _exit(3);
}
CODE
    if cc -o "$work/quits" "$work/quits.c" -L"$work/driver" -l:libcuda.so.1 >"$work/cc.log" 2>&1; then
        LD_LIBRARY_PATH="$work/driver" "$scord" --verbose --json-file "$work/quit-%p.json" "$work/quits" \
            >"$work/quits.out" 2>"$work/quits.err"
        rc=$?
        check "a program that ends with _exit keeps its exit code ($rc)" test "$rc" -eq 3
        files=$(ls "$work"/quit-*.json 2>/dev/null | wc -l)
        check "and writes its report ($files files)" test "$files" -eq 1
        check "and its status" grep -q "1 process reported 0 races" "$work/quits.err"
        LD_LIBRARY_PATH="$work/driver" "$scord" --verbose --json-file "$work/vfork-%p.json" "$work/quits" vfork \
            >"$work/vfork.out" 2>"$work/vfork.err"
        rc=$?
        files=$(ls "$work"/vfork-*.json 2>/dev/null | wc -l)
        check "a vfork child's _exit writes nothing; its parent writes its own ($files files, exit $rc)" \
            test "$files" -eq 1 -a "$rc" -eq 3
        check "and reports once" grep -q "1 process reported 0 races" "$work/vfork.err"
        check "the report is the parent's" own_pid "$work"/vfork-*.json
    else
        tail -n 5 "$work/cc.log"
        check "the _exit test builds" false
    fi
    if cc -o "$work/forks" "$work/forks.c" -L"$work/driver" -l:libcuda.so.1 >"$work/cc.log" 2>&1; then
        LD_LIBRARY_PATH="$work/driver" "$scord" --verbose --json-file "$work/fork-%p.json" "$work/forks" \
            >"$work/forks.out" 2>"$work/forks.err"
        files=$(ls "$work"/fork-*.json 2>/dev/null | wc -l)
        check "a fork child of a process that used CUDA writes no report ($files files)" test "$files" -eq 1
        said=$(grep -c "the CUDA driver failed to initialize" "$work/forks.err")
        check "and prints no summary of its parent's ($said summaries)" test "$said" -eq 1
        check "it says why with --verbose" grep -q "is a fork of a process that used CUDA" "$work/forks.err"
        check "the stub driver is named" grep -q "CUDA_ERROR_STUB_LIBRARY: the program loaded the CUDA toolkit's stub" "$work/forks.err"
        check "both processes report to the launcher" grep -q "2 processes reported 0 races" "$work/forks.err"
    else
        echo "FAIL building the fork test against the stub driver; log follows"
        tail -n 5 "$work/cc.log"
        check "the fork test builds" false
    fi
else
    echo "skip the fork test: no stub driver in the toolkit (lib64/stubs/libcuda.so) or no cc"
fi

# A CUDA program on a machine with no driver: its runtime's dlopen of libcuda.so.1
# fails where scord cannot see it, so scord finds the CUDA code in the executable.
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
command -v nvcc >/dev/null && nvcc=$(command -v nvcc)
if [ -e /dev/nvidiactl ] || ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
    echo "skip the no-driver test: this machine has a CUDA driver"
elif [ ! -x "$nvcc" ]; then
    echo "skip the no-driver test: no nvcc"
else
    cat >"$work/app.cu" <<'CODE'
#include <cstdio>

__global__ void touch(int *p) { *p = 1; }

int main()
{
    int *p = nullptr;
    cudaError_t e = cudaMalloc(&p, sizeof *p);
    printf("cudaMalloc: %s\n", cudaGetErrorName(e));
    return 0;
}
CODE
    for rt in static shared; do
        if "$nvcc" -cudart "$rt" -o "$work/app-$rt" "$work/app.cu" >"$work/nvcc.log" 2>&1; then
            "$scord" "$work/app-$rt" >"$work/app-$rt.out" 2>"$work/app-$rt.err"
            check "a CUDA program ($rt runtime) with no driver says nothing was checked" \
                grep -q "app-$rt holds CUDA code but never reached the CUDA driver" "$work/app-$rt.err"
        else
            tail -n 5 "$work/nvcc.log"
            check "the CUDA program ($rt runtime) builds" false
        fi
    done
    "$scord" "$work/spawns" >/dev/null 2>"$work/plain.err"
    check "programs with no CUDA code say nothing" test ! -s "$work/plain.err"
fi
report
