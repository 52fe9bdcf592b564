// global_thrust_sort_scan_norace.cu: a device thrust::sort (CUB's onesweep radix sort:
// decoupled look-back through volatile flags, a block index from atomicAdd) and a
// thrust::inclusive_scan of 1M ints, checked against the host. Race-free: its output must
// be the same under scord as natively.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <algorithm>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <vector>

int main()
{
    rs_require_device();
    const size_t n = 1 << 20;
    std::vector<int> host(n);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        host[i] = (int)(x >> 8) % 1000003 - 500000;
    }
    thrust::device_vector<int> d(host.begin(), host.end());
    thrust::sort(d.begin(), d.end());
    thrust::device_vector<long long> wide(d.begin(), d.end());
    thrust::inclusive_scan(wide.begin(), wide.end(), wide.begin());
    thrust::host_vector<int> sorted = d;
    thrust::host_vector<long long> scanned = wide;

    std::vector<int> ref = host;
    std::sort(ref.begin(), ref.end());
    long long run = 0;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        run += ref[i];
        if (sorted[i] != ref[i] || scanned[i] != run)
            bad++;
    }
    printf("sort+scan: %zu values, %zu wrong, last prefix %lld\n", n, bad, scanned[n - 1]);
    rs_print_checksum("sorted", thrust::raw_pointer_cast(d.data()), n);
    rs_done();
    return bad != 0;
}
