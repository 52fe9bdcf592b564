// global_cub_radix_pairs_norace.cu: cub::DeviceRadixSort::SortPairs of 2M (key, index)
// pairs (the onesweep kernels: decoupled look-back, block index by atomicAdd) and a
// cub::DeviceScan::ExclusiveSum over the sorted values, checked against the host.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <algorithm>
#include <cub/cub.cuh>
#include <vector>

int main()
{
    rs_require_device();
    const int n = 2 << 20;
    std::vector<unsigned> keys(n);
    std::vector<int> vals(n);
    uint32_t x = 777;
    for (int i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        keys[i] = x;
        vals[i] = i;
    }
    unsigned *kin = rs_fill<unsigned>(n, [&](size_t i) { return keys[i]; });
    int *vin = rs_fill<int>(n, [&](size_t i) { return vals[i]; });
    unsigned *kout = rs_zeros<unsigned>(n);
    int *vout = rs_zeros<int>(n);
    int *scan = rs_zeros<int>(n);
    size_t bytes = 0, scan_bytes = 0;
    RS_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kin, kout, vin, vout, n));
    RS_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, vout, scan, n));
    void *temp = nullptr;
    RS_CHECK(cudaMalloc(&temp, std::max(bytes, scan_bytes)));
    RS_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, kin, kout, vin, vout, n));
    RS_CHECK(cub::DeviceScan::ExclusiveSum(temp, scan_bytes, vout, scan, n));
    RS_LAUNCHED();

    unsigned *hk = rs_download(kout, n);
    int *hv = rs_download(vout, n);
    int *hs = rs_download(scan, n);
    std::vector<int> order(n);
    for (int i = 0; i < n; i++)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
    int bad = 0, run = 0;
    for (int i = 0; i < n; i++) {
        if (hk[i] != keys[order[i]] || hv[i] != order[i] || hs[i] != run)
            bad++;
        run += order[i];
    }
    printf("radix pairs + scan: %d pairs, %d wrong\n", n, bad);
    rs_print_checksum("values", vout, n);
    rs_done();
    return bad != 0;
}
