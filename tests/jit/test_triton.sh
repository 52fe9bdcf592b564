#!/usr/bin/env bash
# test_triton.sh: a cubin whose bytes are those of a cubin in Triton's cache, where
# Triton keeps the PTX it made it from beside it (<name>.cubin, <name>.ptx), is checked
# through that PTX unless --triton-ptx false (src/intercept/intercept_triton.c). The cache is made here as Triton
# makes it: PTX, then ptxas. There is no GPU: the program loads the cubin through the
# toolkit's stub driver, which refuses it, and scord's line for the module says it had
# PTX to offer. A cubin whose PTX is not in the cache, or a cache folder others may
# write, gets none.
# Run by tests/run_unit.sh from the repository root, SC_TEST_BUILD naming the build tree.
set -u
build=${SC_TEST_BUILD:-build}
work=$(pwd)/$build/tests/triton
. tests/sc_test.sh
rm -rf "$work"
mkdir -p "$work"
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$(command -v nvcc || echo "$cuda/bin/nvcc")
if [ ! -x "$nvcc" ] || ! command -v cc >/dev/null || ! stub_driver "$work"; then
    echo "skipped: needs cc, nvcc and the toolkit's stub libcuda"
    report
    exit
fi
plain_scord "$build" "$work"
mkdir -p "$work/cache/f00d" "$work/cache/beef"

cat >"$work/add.cu" <<'CODE'
extern "C" __global__ void add_one(int *v) { v[threadIdx.x] += 1; }
CODE
cat >"$work/other.cu" <<'CODE'
extern "C" __global__ void add_two(int *v) { v[threadIdx.x] += 2; }
CODE
cat >"$work/load.c" <<'CODE'
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

/* argv[1..]: cubin files, loaded in that order. */
int main(int argc, char **argv)
{
    printf("cuInit %d\n", (int)cuInit(0));
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        char *data = malloc(1 << 20);
        size_t n = f && data ? fread(data, 1, 1 << 20, f) : 0;
        if (f)
            fclose(f);
        CUmodule mod;
        printf("%zu bytes: cuModuleLoadData %d\n", n, n ? (int)cuModuleLoadData(&mod, data) : -1);
        free(data);
    }
    return 0;
}
CODE
if ! { "$nvcc" -ptx -arch=compute_90 -lineinfo -o "$work/cache/f00d/add_one.ptx" "$work/add.cu" &&
    "$cuda/bin/ptxas" -arch=sm_90 -o "$work/cache/f00d/add_one.cubin" "$work/cache/f00d/add_one.ptx" &&
    "$nvcc" -cubin -arch=sm_90 -o "$work/cache/beef/add_two.cubin" "$work/other.cu" &&
    cc -o "$work/load" "$work/load.c" -I"$cuda/include" -L"$work/driver" -l:libcuda.so.1; } >"$work/cc.log" 2>&1; then
    check "the cache and the program build" false
    report
    exit
fi
chmod 755 "$work/cache" "$work/cache"/*
export LD_LIBRARY_PATH="$work/driver${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cp "$work/cache/f00d/add_one.cubin" "$work/add_one.cubin"
TRITON_CACHE_DIR="$work/cache" "$scord" --triton-ptx false "$work/load" "$work/add_one.cubin" >"$work/off" 2>"$work/off.err"
check "with --triton-ptx false the cubin is the program's own" test "$(grep -c "rejected scord's PTX" "$work/off.err")" -eq 0
TRITON_CACHE_DIR="$work/cache" "$scord" "$work/load" "$work/add_one.cubin" \
    "$work/cache/beef/add_two.cubin" >"$work/out" 2>"$work/err"
check "the program loads both cubins" test "$(grep -c "cuModuleLoadData" "$work/out")" -eq 2
check "the cached cubin gets the PTX Triton made it from" \
    grep -q "module 1 (cuModuleLoadData, cubin (ELF)[^)]*) runs unchecked: the driver rejected scord's PTX" "$work/err"
check "a cubin whose PTX the cache lacks gets none" \
    test "$(grep -c "module 2 .*rejected scord's PTX" "$work/err")" -eq 0
chmod 777 "$work/cache/f00d"
TRITON_CACHE_DIR="$work/cache" "$scord" "$work/load" "$work/add_one.cubin" >"$work/out2" 2>"$work/err2"
check "a cache folder others may write is not used" \
    test "$(grep -c "rejected scord's PTX" "$work/err2")" -eq 0
report
