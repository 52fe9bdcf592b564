/* pt_drv.c: checked driver calls, set-up and the shared workload of the driver-API programs. */
#include "pt_drv.h"

#include "pt_math.h"

enum { N = 1u << 20, BLOCK = 256, SUM_BLOCKS = 64, BINS = 256 };

void pt_drv_check(CUresult r, const char *what, const char *file, int line)
{
    if (r == CUDA_SUCCESS)
        return;
    const char *name = NULL, *text = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
        name = "unknown error";
    if (cuGetErrorString(r, &text) != CUDA_SUCCESS || !text)
        text = "the driver gives no description";
    pt_die("%s:%d: %s failed: %s = %d (%s)", file, line, what, name, (int)r, text);
}

CUdevice pt_drv_init(void)
{
    CUresult r = cuInit(0);
    int count = 0;
    if (r == CUDA_SUCCESS)
        r = cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS) {
        const char *text = NULL;
        if (cuGetErrorString(r, &text) != CUDA_SUCCESS || !text)
            text = "the driver gives no description";
        pt_die("no CUDA device found (cuInit/cuDeviceGetCount: error %d: %s)", (int)r, text);
    }
    if (count == 0)
        pt_die("no CUDA device found (cuDeviceGetCount: 0 devices)");
    CUdevice dev;
    CUcontext ctx;
    PT_DRV(cuDeviceGet(&dev, 0));
    PT_DRV(cuDevicePrimaryCtxRetain(&ctx, dev));
    PT_DRV(cuCtxSetCurrent(ctx));
    return dev;
}

void pt_drv_kernels_from_module(CUmodule mod, PtDrvKernels *k)
{
    PT_DRV(cuModuleGetFunction(&k->fill, mod, "pt_fill"));
    PT_DRV(cuModuleGetFunction(&k->scale_add, mod, "pt_scale_add"));
    PT_DRV(cuModuleGetFunction(&k->block_sum, mod, "pt_block_sum"));
    PT_DRV(cuModuleGetFunction(&k->histogram, mod, "pt_histogram"));
}

static void launch(CUfunction f, unsigned grid, void **params)
{
    PT_DRV(cuLaunchKernel(f, grid, 1, 1, BLOCK, 1, 1, 0, NULL, params, NULL));
}

static void fetch(unsigned *host, CUdeviceptr dev, size_t n)
{
    PT_DRV(cuMemcpyDtoH(host, dev, n * sizeof *host));
}

void pt_drv_workload(const PtDrvKernels *k, unsigned seed, const char *label)
{
    CUdeviceptr x, y, sums, hist;
    PT_DRV(cuMemAlloc(&x, N * sizeof(unsigned)));
    PT_DRV(cuMemAlloc(&y, N * sizeof(unsigned)));
    PT_DRV(cuMemAlloc(&sums, SUM_BLOCKS * sizeof(unsigned)));
    PT_DRV(cuMemAlloc(&hist, BINS * sizeof(unsigned)));
    PT_DRV(cuMemsetD32(hist, 0, BINS));

    unsigned n = N, a = 3, seed_x = seed, seed_y = seed + 1;
    void *fill_x[] = {&x, &n, &seed_x};
    void *fill_y[] = {&y, &n, &seed_y};
    void *scale_add[] = {&y, &x, &n, &a};
    void *block_sum[] = {&y, &n, &sums};
    void *histogram[] = {&y, &n, &hist};
    launch(k->fill, 128, fill_x);
    launch(k->fill, 128, fill_y);
    launch(k->scale_add, 128, scale_add);
    launch(k->block_sum, SUM_BLOCKS, block_sum);
    launch(k->histogram, 128, histogram);
    PT_DRV(cuCtxSynchronize());

    unsigned *got = pt_xmalloc(N * sizeof *got), *want = pt_xmalloc(N * sizeof *want);
    unsigned got_sums[SUM_BLOCKS], got_hist[BINS], want_hist[BINS] = {0};
    fetch(got, y, N);
    fetch(got_sums, sums, SUM_BLOCKS);
    fetch(got_hist, hist, BINS);

    unsigned total = 0, want_total = 0;
    for (unsigned i = 0; i < N; i++) {
        want[i] = a * pt_mix32(i ^ seed_x) + pt_mix32(i ^ seed_y);
        want_total += want[i];
        want_hist[want[i] & (BINS - 1)]++;
    }
    for (unsigned b = 0; b < SUM_BLOCKS; b++)
        total += got_sums[b];
    char what[128];
    snprintf(what, sizeof what, "%s y", label);
    pt_expect_u32(what, got, want, N);
    pt_print_u32(what, got, N);
    snprintf(what, sizeof what, "%s block sums", label);
    if (total != want_total)
        pt_die("%s: total %u, expected %u", what, total, want_total);
    pt_print_u32(what, got_sums, SUM_BLOCKS);
    snprintf(what, sizeof what, "%s histogram", label);
    pt_expect_u32(what, got_hist, want_hist, BINS);
    pt_print_u32(what, got_hist, BINS);

    free(got);
    free(want);
    PT_DRV(cuMemFree(x));
    PT_DRV(cuMemFree(y));
    PT_DRV(cuMemFree(sums));
    PT_DRV(cuMemFree(hist));
}
