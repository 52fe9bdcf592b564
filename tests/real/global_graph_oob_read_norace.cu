// global_graph_oob_read_norace.cu: a CSR graph kernel of the kind real code has, whose
// last thread reads row_ptr[n + 1], one element past the end of its allocation (inside
// the allocation's padding natively: harmless, and its value is never used). scord must
// not fault there nor change the result; the access itself is outside tracked memory.
// SCORD-CATEGORY: 14
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <vector>

__global__ void degrees(const int *row_ptr, int n, int *deg, int *next_start)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n)
        return;
    int begin = row_ptr[v], end = row_ptr[v + 1];
    int after = row_ptr[v + 2]; // one past the end for v == n - 1: read, never used
    deg[v] = end - begin;
    next_start[v] = v + 2 <= n ? after : end;
}

int main()
{
    rs_require_device();
    const int n = 100000;
    std::vector<int> rp(n + 1);
    for (int v = 0; v <= n; v++)
        rp[v] = v * 3 + (v % 7);
    int *row_ptr = rs_fill<int>(n + 1, [&](size_t i) { return rp[i]; });
    int *deg = rs_zeros<int>(n), *next = rs_zeros<int>(n);
    degrees<<<(n + 255) / 256, 256>>>(row_ptr, n, deg, next);
    RS_LAUNCHED();
    int *hd = rs_download(deg, n), *hn = rs_download(next, n);
    int bad = 0;
    for (int v = 0; v < n; v++)
        bad += hd[v] != rp[v + 1] - rp[v] || hn[v] != (v + 2 <= n ? rp[v + 2] : rp[v + 1]);
    printf("degrees: %d vertices, %d wrong\n", n, bad);
    rs_done();
    return bad != 0;
}
