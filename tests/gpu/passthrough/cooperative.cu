// cooperative.cu: a cooperative launch (cudaLaunchCooperativeKernel) whose blocks read
// each other's results across grid.sync().
#include <cooperative_groups.h>

#include "pt_rt.h"

namespace cg = cooperative_groups;

enum { N = 1u << 16, BLOCK = 256 };

__global__ void phases(unsigned *a, unsigned *b, unsigned n)
{
    cg::grid_group grid = cg::this_grid();
    for (unsigned i = grid.thread_rank(); i < n; i += grid.size())
        a[i] = pt_mix32(i);
    grid.sync();
    for (unsigned i = grid.thread_rank(); i < n; i += grid.size())
        b[i] = a[(i + 4099u) % n] ^ a[i];
    grid.sync();
    for (unsigned i = grid.thread_rank(); i < n; i += grid.size())
        a[i] = b[n - 1 - i] + 1u;
}

int main()
{
    pt_rt_require_device();
    int dev = 0, coop = 0, sms = 0, per_sm = 0;
    PT_RT(cudaGetDevice(&dev));
    PT_RT(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    if (!coop)
        pt_die("this GPU does not support cooperative launches");
    PT_RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    PT_RT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, BLOCK, 0));
    if (per_sm < 1)
        pt_die("the cooperative kernel cannot be resident on this GPU");
    // One block per SM: always co-resident. The results do not depend on the grid size.
    unsigned *a, *b, n = N;
    PT_RT(cudaMalloc(&a, N * sizeof *a));
    PT_RT(cudaMalloc(&b, N * sizeof *b));
    void *args[] = {&a, &b, &n};
    PT_RT(cudaLaunchCooperativeKernel((void *)phases, dim3(sms), dim3(BLOCK), args, 0, 0));
    PT_RT(cudaDeviceSynchronize());

    unsigned *got = (unsigned *)pt_xmalloc(N * sizeof *got);
    unsigned *want = (unsigned *)pt_xmalloc(N * sizeof *want);
    unsigned *mid = (unsigned *)pt_xmalloc(N * sizeof *mid);
    PT_RT(cudaMemcpy(got, a, N * sizeof *got, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < N; i++)
        mid[i] = pt_mix32((i + 4099u) % N) ^ pt_mix32(i);
    for (unsigned i = 0; i < N; i++)
        want[i] = mid[N - 1 - i] + 1u;
    pt_expect_u32("a", got, want, N);
    pt_print_u32("a", got, N);
    free(got);
    free(want);
    free(mid);
    PT_RT(cudaFree(a));
    PT_RT(cudaFree(b));
    printf("cooperative: ok\n");
    return 0;
}
