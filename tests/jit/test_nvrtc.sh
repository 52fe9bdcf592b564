#!/usr/bin/env bash
# test_nvrtc.sh: a program that compiles a kernel with NVRTC to machine code (a cubin,
# as CuPy's RawKernel does) and loads it gets scord's PTX twin of the same program in its
# place (src/intercept/intercept_nvrtc.c), with the program's NVRTC results unchanged:
# the same cubin bytes, the same lowered names. There is no GPU here: the program loads
# the cubin through the toolkit's stub driver, which refuses it, and scord's summary line
# for the module says it had PTX to offer. A program that asks NVRTC for PTX gets no
# twin; with --detect false nothing is compiled twice.
# Run by tests/run_unit.sh from the repository root, SC_TEST_BUILD naming the build tree.
set -u
build=${SC_TEST_BUILD:-build}
work=$(pwd)/$build/tests/jit
. tests/sc_test.sh
rm -rf "$work"
mkdir -p "$work"
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ ! -f "$cuda/include/nvrtc.h" ] || ! command -v cc >/dev/null || ! stub_driver "$work"; then
    echo "skipped: needs cc, the toolkit's stub libcuda and NVRTC"
    report
    exit
fi
plain_scord "$build" "$work"

cat >"$work/jit.c" <<'CODE'
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char src[] =
    "template <int N> __global__ void scale(int *v)\n"
    "{\n"
    "    __shared__ int tile[128];\n"
    "    tile[threadIdx.x] = v[threadIdx.x] * N;\n"
    "    v[threadIdx.x] = tile[(threadIdx.x + 1) % 128];\n"
    "}\n";

/* argv[1]: the architecture option, e.g. -arch=sm_90 (cubin) or -arch=compute_90 (PTX). */
int main(int argc, char **argv)
{
    nvrtcProgram prog;
    const char *opts[] = {argc > 1 ? argv[1] : "-arch=sm_90", "-lineinfo"};
    if (nvrtcCreateProgram(&prog, src, "scale.cu", 0, NULL, NULL) != NVRTC_SUCCESS ||
        nvrtcAddNameExpression(prog, "scale<4>") != NVRTC_SUCCESS ||
        nvrtcCompileProgram(prog, 2, opts) != NVRTC_SUCCESS)
        return 1;
    const char *lowered = NULL;
    if (nvrtcGetLoweredName(prog, "scale<4>", &lowered) != NVRTC_SUCCESS)
        return 1;
    printf("lowered %s\n", lowered);
    size_t size = 0;
    char *code = NULL;
    int cubin = strncmp(opts[0], "-arch=sm_", 9) == 0;
    if (cubin ? nvrtcGetCUBINSize(prog, &size) : nvrtcGetPTXSize(prog, &size))
        return 1;
    if (!(code = malloc(size)) || (cubin ? nvrtcGetCUBIN(prog, code) : nvrtcGetPTX(prog, code)))
        return 1;
    unsigned long sum = 0;
    for (size_t i = 0; i < size; i++)
        sum = sum * 31 + (unsigned char)code[i];
    printf("%s of %zu bytes, sum %lx\n", cubin ? "cubin" : "ptx", size, sum);
    nvrtcDestroyProgram(&prog);
    CUmodule mod;
    printf("cuInit %d\n", (int)cuInit(0));
    printf("cuModuleLoadData %d\n", (int)cuModuleLoadData(&mod, code));
    free(code);
    return 0;
}
CODE
if ! cc -o "$work/jit" "$work/jit.c" -I"$cuda/include" -L"$cuda/lib64" -lnvrtc -L"$work/driver" \
    -l:libcuda.so.1 -Wl,-rpath,"$cuda/lib64" >"$work/cc.log" 2>&1; then
    check "the NVRTC program builds" false
    report
    exit
fi
export LD_LIBRARY_PATH="$work/driver${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
sm=sm_90
"$work/jit" -arch=$sm >"$work/native.out" 2>"$work/native.err"
check "the program runs natively" grep -q "^cubin of" "$work/native.out"
"$scord" "$work/jit" -arch=$sm >"$work/scord.out" 2>"$work/scord.err"
check "NVRTC gives the program the same cubin and lowered name under scord" \
    diff "$work/native.out" "$work/scord.out"
check "scord offers the PTX of the NVRTC program for its cubin" \
    grep -q "module 1 (cuModuleLoadData, cubin (ELF)[^)]*) runs unchecked: the driver rejected scord's PTX" \
    "$work/scord.err"
check "and says nothing of a failed twin" test "$(grep -c "compiling it again to PTX failed" "$work/scord.err")" -eq 0
"$scord" --verbose "$work/jit" -arch=compute_90 >"$work/ptx.out" 2>"$work/ptx.err"
check "a program that asks NVRTC for PTX gets it" grep -q "^ptx of" "$work/ptx.out"
check "and its module is scord's PTX as given" grep -q "module 1 (cuModuleLoadData, PTX" "$work/ptx.err"
"$scord" --detect false "$work/jit" -arch=$sm >"$work/off.out" 2>"$work/off.err"
check "with --detect false the cubin is the program's own" \
    test "$(grep -c "rejected scord's PTX" "$work/off.err")" -eq 0

# A program that opens NVRTC itself and finds its functions with dlsym (as CuPy and
# cuda-python do); with two NVRTC libraries open, each program handle must reach only its
# own library: scord wraps the first and leaves the second as it is.
cat >"$work/jitdl.c" <<'CODE'
#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>

typedef nvrtcResult (*Create)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                              const char *const *);
typedef nvrtcResult (*Compile)(nvrtcProgram, int, const char *const *);
typedef nvrtcResult (*Size)(nvrtcProgram, size_t *);
typedef nvrtcResult (*Code)(nvrtcProgram, char *);
typedef nvrtcResult (*Destroy)(nvrtcProgram *);

/* Each library compiles its own kernel, so that their cubins differ. */
static const char *const src[] = {
    "extern \"C\" __global__ void inc(int *v) { v[threadIdx.x] += 1; }\n",
    "extern \"C\" __global__ void inc(int *v) { v[threadIdx.x] += 2; }\n",
};

/* argv[1..]: NVRTC libraries, each compiling its kernel for sm_90; the cubins are loaded
 * in that order. */
int main(int argc, char **argv)
{
    char *cubin[2];
    int n = argc - 1 < 2 ? argc - 1 : 2;
    for (int i = 0; i < n; i++) {
        void *lib = dlopen(argv[i + 1], RTLD_NOW | RTLD_LOCAL);
        if (!lib)
            return 2;
        Create create = (Create)dlsym(lib, "nvrtcCreateProgram");
        Compile compile = (Compile)dlsym(lib, "nvrtcCompileProgram");
        Size size_of = (Size)dlsym(lib, "nvrtcGetCUBINSize");
        Code get = (Code)dlsym(lib, "nvrtcGetCUBIN");
        Destroy destroy = (Destroy)dlsym(lib, "nvrtcDestroyProgram");
        nvrtcProgram prog;
        const char *opts[] = {"-arch=sm_90", "-lineinfo"};
        size_t size = 0;
        if (!create || !compile || !size_of || !get || !destroy || create(&prog, src[i], "inc.cu", 0, NULL, NULL) ||
            compile(prog, 2, opts) || size_of(prog, &size) || !(cubin[i] = malloc(size)) || get(prog, cubin[i]))
            return 3;
        destroy(&prog);
        printf("library %d: cubin of %zu bytes\n", i + 1, size);
    }
    printf("cuInit %d\n", (int)cuInit(0));
    for (int i = 0; i < n; i++) {
        CUmodule mod;
        printf("cuModuleLoadData %d\n", (int)cuModuleLoadData(&mod, cubin[i]));
    }
    return 0;
}
CODE
if cc -o "$work/jitdl" "$work/jitdl.c" -I"$cuda/include" -L"$work/driver" -l:libcuda.so.1 -ldl >>"$work/cc.log" 2>&1; then
    one=$cuda/lib64/libnvrtc.so.13
    alt=$cuda/lib64/libnvrtc.alt.so.13
    "$scord" "$work/jitdl" "$one" >"$work/dl.out" 2>"$work/dl.err"
    check "a program that opens NVRTC itself runs under scord" grep -q "^library 1: cubin of" "$work/dl.out"
    check "and scord offers the PTX twin for its cubin" \
        grep -q "module 1 (cuModuleLoadData, cubin (ELF)[^)]*) runs unchecked: the driver rejected scord's PTX" \
        "$work/dl.err"
    if [ -f "$alt" ]; then
        "$work/jitdl" "$one" "$alt" >"$work/two.native" 2>&1
        "$scord" "$work/jitdl" "$one" "$alt" >"$work/two.out" 2>"$work/two.err"
        check "with two NVRTC libraries open the program's results are its own" diff "$work/two.native" "$work/two.out"
        check "the first library's cubin gets the twin" \
            grep -q "module 1 (cuModuleLoadData, cubin (ELF)[^)]*) runs unchecked: the driver rejected" "$work/two.err"
        check "the second library's is left as it is (no twin offered)" \
            test "$(grep -c "module 2 .*rejected scord's PTX" "$work/two.err")" -eq 0
    else
        echo "skip two libraries: no $alt"
    fi
else
    check "the program that opens NVRTC builds" false
fi
report
