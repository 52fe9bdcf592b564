#!/usr/bin/env bash
# test_nvjitlink.sh: a program that links PTX or LTO-IR to machine code with nvJitLink while
# it runs and loads the cubin (as numba-cuda and cuda.core's Linker do, opening the library
# themselves) gets scord's twin in its place: the PTX it linked from, or the PTX nvJitLink
# makes of its LTO-IR (src/intercept/intercept_nvjitlink.c), with the program's nvJitLink
# results unchanged. There
# is no GPU here: the program loads the cubin through the toolkit's stub driver, which
# refuses it, and scord's summary line for the module says it had PTX to offer. A link of
# two PTX units gets no twin; with --detect false nothing is kept.
# Run by tests/run_unit.sh from the repository root, SC_TEST_BUILD naming the build tree.
set -u
build=${SC_TEST_BUILD:-build}
work=$(pwd)/$build/tests/nvjitlink
. tests/sc_test.sh
rm -rf "$work"
mkdir -p "$work"
cuda=${CUDA_HOME:-/usr/local/cuda}
lib=$(ls "$cuda"/lib64/libnvJitLink.so.* 2>/dev/null | head -n 1)
if [ ! -f "$cuda/include/nvJitLink.h" ] || [ -z "$lib" ] || ! command -v cc >/dev/null ||
    ! command -v nvcc >/dev/null || ! stub_driver "$work"; then
    echo "skipped: needs cc, nvcc, the toolkit's stub libcuda and nvJitLink"
    report
    exit
fi
plain_scord "$build" "$work"

cat >"$work/scale.cu" <<'CODE'
extern "C" __global__ void scale(int *v)
{
    __shared__ int tile[128];
    tile[threadIdx.x] = v[threadIdx.x] * 4;
    v[threadIdx.x] = tile[(threadIdx.x + 1) % 128];
}
CODE
cat >"$work/other.cu" <<'CODE'
extern "C" __global__ void other(int *v) { v[threadIdx.x] += 1; }
CODE
cat >"$work/link.c" <<'CODE'
#include <cuda.h>
#include <dlfcn.h>
#include <nvJitLink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef nvJitLinkResult (*Create)(nvJitLinkHandle *, uint32_t, const char **);
typedef nvJitLinkResult (*AddData)(nvJitLinkHandle, nvJitLinkInputType, const void *, size_t, const char *);
typedef nvJitLinkResult (*AddFile)(nvJitLinkHandle, nvJitLinkInputType, const char *);
typedef nvJitLinkResult (*Complete)(nvJitLinkHandle);
typedef nvJitLinkResult (*Size)(nvJitLinkHandle, size_t *);
typedef nvJitLinkResult (*Get)(nvJitLinkHandle, void *);
typedef nvJitLinkResult (*Destroy)(nvJitLinkHandle *);

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *text = f ? malloc(1 << 20) : NULL;
    *len = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
    if (f)
        fclose(f);
    return text;
}

/* argv: the nvJitLink library, then `data` or `file`, then one or more PTX files, or
 * LTO-IR files (*.ltoir), which the link takes with -lto. */
int main(int argc, char **argv)
{
    void *lib = argc > 3 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!lib)
        return 2;
    Create create = (Create)dlsym(lib, "nvJitLinkCreate");
    AddData add_data = (AddData)dlsym(lib, "nvJitLinkAddData");
    AddFile add_file = (AddFile)dlsym(lib, "nvJitLinkAddFile");
    Complete complete = (Complete)dlsym(lib, "nvJitLinkComplete");
    Size size_of = (Size)dlsym(lib, "nvJitLinkGetLinkedCubinSize");
    Get get = (Get)dlsym(lib, "nvJitLinkGetLinkedCubin");
    Destroy destroy = (Destroy)dlsym(lib, "nvJitLinkDestroy");
    nvJitLinkHandle h;
    int lto = strstr(argv[3], ".ltoir") != NULL;
    nvJitLinkInputType type = lto ? NVJITLINK_INPUT_LTOIR : NVJITLINK_INPUT_PTX;
    const char *opts[] = {"-arch=sm_90", "-lto"};
    if (!create || !add_data || !add_file || !complete || !size_of || !get || !destroy || create(&h, 1 + lto, opts))
        return 3;
    for (int i = 3; i < argc; i++) {
        size_t len = 0;
        char *code = strcmp(argv[2], "data") == 0 ? read_all(argv[i], &len) : NULL;
        if (code ? add_data(h, type, code, len, argv[i]) : add_file(h, type, argv[i]))
            return 4;
        free(code);
    }
    size_t size = 0;
    char *cubin = NULL;
    if (complete(h) || size_of(h, &size) || !(cubin = malloc(size)) || get(h, cubin))
        return 5;
    destroy(&h);
    unsigned long sum = 0;
    for (size_t i = 0; i < size; i++)
        sum = sum * 31 + (unsigned char)cubin[i];
    printf("cubin of %zu bytes, sum %lx\n", size, sum);
    CUmodule mod;
    printf("cuInit %d\n", (int)cuInit(0));
    printf("cuModuleLoadData %d\n", (int)cuModuleLoadData(&mod, cubin));
    free(cubin);
    return 0;
}
CODE
if ! nvcc -ptx -arch=compute_90 -lineinfo -o "$work/scale.ptx" "$work/scale.cu" >"$work/cc.log" 2>&1 ||
    ! nvcc -dlto -arch=lto_90 -ltoir -lineinfo -o "$work/scale.ltoir" "$work/scale.cu" >>"$work/cc.log" 2>&1 ||
    ! nvcc -ptx -arch=compute_90 -o "$work/other.ptx" "$work/other.cu" >>"$work/cc.log" 2>&1 ||
    ! cc -o "$work/link" "$work/link.c" -I"$cuda/include" -L"$work/driver" -l:libcuda.so.1 -ldl \
        >>"$work/cc.log" 2>&1; then
    check "the nvJitLink program builds" false
    report
    exit
fi
export LD_LIBRARY_PATH="$work/driver${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
offered="module 1 (cuModuleLoadData, cubin (ELF)[^)]*) runs unchecked: the driver rejected scord's PTX"
for input in ptx ltoir; do
    for how in data file; do
        run=$input.$how
        "$work/link" "$lib" $how "$work/scale.$input" >"$work/native.$run" 2>&1
        check "the program links its $input ($how) natively" grep -q "^cubin of" "$work/native.$run"
        "$scord" "$work/link" "$lib" $how "$work/scale.$input" >"$work/scord.$run" 2>"$work/scord.$run.err"
        check "nvJitLink gives the program the same cubin under scord ($input, $how)" \
            diff "$work/native.$run" "$work/scord.$run"
        check "scord offers a PTX twin of the cubin linked from $input ($how)" grep -q "$offered" "$work/scord.$run.err"
    done
done
"$scord" "$work/link" "$lib" data "$work/scale.ptx" "$work/other.ptx" >"$work/two.out" 2>"$work/two.err"
check "a link of two PTX units works under scord" grep -q "^cubin of" "$work/two.out"
check "and its cubin gets no twin" test "$(grep -c "rejected scord's PTX" "$work/two.err")" -eq 0
"$scord" --detect false "$work/link" "$lib" data "$work/scale.ptx" >"$work/off.out" 2>"$work/off.err"
check "with --detect false the cubin is the program's own" test "$(grep -c "rejected scord's PTX" "$work/off.err")" -eq 0
report
