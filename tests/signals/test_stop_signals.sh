#!/usr/bin/env bash
# test_stop_signals.sh: a program that a signal stops (a fault, a kill) still leaves
# scord's JSON report, and ends as it would have (the same signal, so the launcher's
# exit code is 128 + S); a program that handles the signal itself keeps doing so.
# libscord.so is preloaded into the test programs, which are not built with the
# sanitizers, so this test builds scord without them (BUILD/plain) first.
# Run by tests/run_unit.sh from the repository root, SC_TEST_BUILD naming the build tree.
set -u
build=${SC_TEST_BUILD:-build}
work=$build/tests/stop-signals
. tests/sc_test.sh
rm -rf "$work"
mkdir -p "$work"
plain_scord "$build" "$work"
cat >"$work/stop.c" <<'CODE'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void handled(int sig)
{
    (void)sig;
    _exit(7);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "segv") == 0) {
        volatile int *nowhere = NULL;
        return *nowhere;
    }
    if (argc > 1 && strcmp(argv[1], "abort") == 0)
        abort();
    if (argc > 1 && strcmp(argv[1], "own") == 0)
        signal(SIGTERM, handled);
    puts("waiting");
    fflush(stdout);
    raise(SIGTERM);
    return 0;
}
CODE
cc -O0 -o "$work/stop" "$work/stop.c"

valid_json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["tool"] == "scord" and d["races"] == [] else 1)' "$1"; }

for what in segv:139 abort:134 term:143; do
    name=${what%%:*}
    want=${what##*:}
    json=$work/$name.json
    "$scord" --json-file "$json" "$work/stop" "$name" >/dev/null 2>"$work/$name.err"
    rc=$?
    check "$name: the launcher exits $want" test "$rc" -eq "$want"
    check "$name: the JSON report was written" valid_json "$json"
done
"$scord" --json-file "$work/own.json" "$work/stop" own >/dev/null 2>"$work/own.err"
rc=$?
check "a program's own handler still runs (exit 7)" test "$rc" -eq 7
rm -rf "$work"
report
