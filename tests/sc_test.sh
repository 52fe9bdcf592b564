# tests/sc_test.sh: the shell tests' counterpart of sc_test.h, sourced from the
# repository root: `check NAME COMMAND...` counts COMMAND's success as a pass, and
# `report` prints the `N passed, N failed` line and returns whether nothing failed.
# `plain_scord BUILD WORK` builds scord without the sanitizers into BUILD/plain (its
# libscord.so is preloaded into test programs built without them) and sets $scord, or
# prints why not and exits failed. `stub_driver WORK` links the toolkit's stub libcuda
# into WORK/driver for programs that must load a driver that has no GPU.
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
plain_scord() { # BUILD WORK
    if ! make --no-print-directory -s BUILD="$1/plain" all >"$2/build.log" 2>&1; then
        echo "FAIL building scord without sanitizers; log follows"
        tail -n 20 "$2/build.log"
        echo "0 passed, 1 failed"
        exit 1
    fi
    scord=$1/plain/bin/scord
}
stub_driver() { # WORK: links the CUDA toolkit's stub libcuda as WORK/driver/libcuda.so.1 (a
    # program linked with -L"$WORK/driver" -l:libcuda.so.1 and run with it on
    # LD_LIBRARY_PATH uses the stub: cuInit fails, every call reports no driver); false
    # when the toolkit has no stub
    local stub=${CUDA_HOME:-/usr/local/cuda}/lib64/stubs/libcuda.so
    [ -f "$stub" ] && mkdir -p "$1/driver" && ln -sf "$stub" "$1/driver/libcuda.so.1"
}
