// global_thrust_by_key_norace.cu: a group-by on device_vectors with Thrust: 256K (key,
// value) records are sorted by key (thrust::sort_by_key, CUB's radix sort for int keys,
// stable), summed per key (thrust::reduce_by_key), the distinct keys found again by
// thrust::unique on a copy of the sorted keys, and the groups whose sum exceeds a
// threshold kept by thrust::copy_if over (key, sum) zip iterators. Race-free: library
// algorithms on separate vectors, one after another on the default stream. Every
// result is checked against a host computation.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <algorithm>
#include <map>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/unique.h>
#include <vector>

struct SumAbove {
    long long threshold;
    __host__ __device__ bool operator()(const thrust::tuple<int, long long> &group) const
    {
        return thrust::get<1>(group) > threshold;
    }
};

int main()
{
    rs_require_device();
    const int n = 1 << 18, distinct = 5000;
    const long long threshold = 2600;
    std::vector<int> hk(n), hv(n);
    uint32_t x = 99991;
    for (int i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        hk[i] = (int)(x % distinct) * 7 - 9000; // some keys negative
        hv[i] = (int)(x >> 20) % 100;
    }
    thrust::device_vector<int> keys(hk.begin(), hk.end());
    thrust::device_vector<int> values(hv.begin(), hv.end());

    thrust::sort_by_key(keys.begin(), keys.end(), values.begin());

    thrust::device_vector<int> group_keys(n);
    thrust::device_vector<long long> group_sums(n);
    auto ends = thrust::reduce_by_key(keys.begin(), keys.end(), values.begin(), group_keys.begin(),
                                      group_sums.begin());
    const int groups = (int)(ends.first - group_keys.begin());

    thrust::device_vector<int> uniq = keys;
    const int uniques = (int)(thrust::unique(uniq.begin(), uniq.end()) - uniq.begin());

    thrust::device_vector<int> big_keys(groups);
    thrust::device_vector<long long> big_sums(groups);
    auto in_first = thrust::make_zip_iterator(thrust::make_tuple(group_keys.begin(), group_sums.begin()));
    auto out_first = thrust::make_zip_iterator(thrust::make_tuple(big_keys.begin(), big_sums.begin()));
    auto out_last = thrust::copy_if(in_first, in_first + groups, out_first, SumAbove{threshold});
    const int bigs = (int)(out_last - out_first);

    // The host's version: a stable sort by key, and the groups of a std::map.
    std::vector<int> order(n);
    for (int i = 0; i < n; i++)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return hk[a] < hk[b]; });
    std::map<int, long long> want;
    for (int i = 0; i < n; i++)
        want[hk[i]] += hv[i];

    thrust::host_vector<int> sk = keys, sv = values, gk = group_keys, uk = uniq, bk = big_keys;
    thrust::host_vector<long long> gs = group_sums, bs = big_sums;
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += sk[i] != hk[order[i]] || sv[i] != hv[order[i]];
    bad += groups != (int)want.size() || uniques != (int)want.size();
    int g = 0, b = 0;
    for (const auto &kv : want) {
        if (g < groups)
            bad += gk[g] != kv.first || gs[g] != kv.second || uk[g] != kv.first;
        g++;
        if (kv.second > threshold) {
            if (b < bigs)
                bad += bk[b] != kv.first || bs[b] != kv.second;
            b++;
        }
    }
    bad += bigs != b;
    printf("sort_by_key + reduce_by_key + unique + copy_if: %d records, %d groups, %d above "
           "%lld, %d wrong\n", n, groups, bigs, threshold, bad);
    rs_print_checksum("sorted values", thrust::raw_pointer_cast(values.data()), n);
    rs_print_checksum("group sums", thrust::raw_pointer_cast(group_sums.data()), groups);
    rs_done();
    return bad != 0;
}
