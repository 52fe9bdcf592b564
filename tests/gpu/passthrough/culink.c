/* culink.c: two -rdc PTX inputs (link_b calls an .extern function of link_a) JIT-linked
 * with cuLinkCreate / cuLinkAddData or cuLinkAddFile / cuLinkComplete, and the linked
 * cubin loaded with cuModuleLoadData. */
#include "pt_drv.h"
#include "pt_math.h"

#include "link_a_ptx.h"
#include "link_b_ptx.h"

enum { N = 1u << 18 };

typedef enum { BY_DATA, BY_FILE } LinkInputs;

static char error_log[16384];

static void link_check(CUresult r, const char *what, int line)
{
    if (r != CUDA_SUCCESS)
        fprintf(stderr, "JIT linker error log:\n%s\n", error_log);
    pt_drv_check(r, what, __FILE__, line);
}
#define PT_LINK(call) link_check((call), #call, __LINE__)

static CUmodule link_module(LinkInputs inputs)
{
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {error_log, (void *)(uintptr_t)sizeof error_log};
    CUlinkState link;
    PT_DRV(cuLinkCreate(2, opts, values, &link));
    if (inputs == BY_DATA) {
        PT_LINK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)link_a_ptx, sizeof link_a_ptx,
                              "link_a.ptx", 0, NULL, NULL));
        PT_LINK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)link_b_ptx, sizeof link_b_ptx,
                              "link_b.ptx", 0, NULL, NULL));
    } else {
        char path[4096];
        pt_sibling_path(path, sizeof path, "link_a.ptx");
        PT_LINK(cuLinkAddFile(link, CU_JIT_INPUT_PTX, path, 0, NULL, NULL));
        pt_sibling_path(path, sizeof path, "link_b.ptx");
        PT_LINK(cuLinkAddFile(link, CU_JIT_INPUT_PTX, path, 0, NULL, NULL));
    }
    void *cubin;
    size_t cubin_size;
    PT_LINK(cuLinkComplete(link, &cubin, &cubin_size));
    /* The cubin belongs to the link state: load it before destroying the state. */
    CUmodule mod;
    PT_DRV(cuModuleLoadData(&mod, cubin));
    PT_DRV(cuLinkDestroy(link));
    return mod;
}

static void run(CUmodule mod, unsigned key, const char *label)
{
    CUfunction f;
    PT_DRV(cuModuleGetFunction(&f, mod, "pt_link_kernel"));
    CUdeviceptr out;
    PT_DRV(cuMemAlloc(&out, N * sizeof(unsigned)));
    unsigned n = N;
    void *params[] = {&out, &n, &key};
    PT_DRV(cuLaunchKernel(f, 64, 1, 1, 256, 1, 1, 0, NULL, params, NULL));
    PT_DRV(cuCtxSynchronize());
    unsigned *got = pt_xmalloc(N * sizeof *got), *want = pt_xmalloc(N * sizeof *want);
    PT_DRV(cuMemcpyDtoH(got, out, N * sizeof *got));
    for (unsigned i = 0; i < N; i++)
        want[i] = (pt_mix32(i) ^ key) + i;
    pt_expect_u32(label, got, want, N);
    pt_print_u32(label, got, N);
    free(got);
    free(want);
    PT_DRV(cuMemFree(out));
}

int main(void)
{
    pt_drv_init();
    CUmodule by_data = link_module(BY_DATA);
    run(by_data, 0x5eed0001u, "cuLinkAddData");
    CUmodule by_file = link_module(BY_FILE);
    run(by_file, 0x5eed0002u, "cuLinkAddFile");
    PT_DRV(cuModuleUnload(by_data));
    PT_DRV(cuModuleUnload(by_file));
    printf("culink: ok\n");
    return 0;
}
