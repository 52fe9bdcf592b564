#!/usr/bin/env bash
# Runs the unit-test programs of one build tree and adds up their closing
# `N passed, N failed` lines. A program that crashes or prints no such line
# counts as one failed test, so a crash can never pass as a clean run.
# Usage: tests/run_unit.sh BUILD_DIR TEST_NAME...
set -u
build=$1
shift
export SC_TEST_BUILD=$build
total_pass=0
total_fail=0
for t in "$@"; do
    log=$build/tests/$t.log
    if "$build/tests/$t" >"$log" 2>&1; then rc=0; else rc=$?; fi
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "$t: exited $rc without a result line; log follows"
        tail -n 40 "$log"
        total_fail=$((total_fail + 1))
        continue
    fi
    p=${line%% passed*}
    f=${line#*, }; f=${f%% failed}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    if [ "$f" -ne 0 ]; then
        echo "$t: $line (exit $rc); log follows"
        grep -v '^ok ' "$log" | tail -n 60
    else
        echo "$t: $line"
    fi
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
