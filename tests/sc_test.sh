# tests/sc_test.sh: the shell tests' counterpart of sc_test.h, sourced from the
# repository root: `check NAME COMMAND...` counts COMMAND's success as a pass, and
# `report` prints the `N passed, N failed` line and returns whether nothing failed.
pass=0
fail=0
check() { # NAME COMMAND...
    local name=$1
    shift
    if "$@"; then
        echo "ok $name"
        pass=$((pass + 1))
    else
        echo "FAIL $name"
        fail=$((fail + 1))
    fi
}
report() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
