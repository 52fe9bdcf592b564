// global_cub_adjacent_merge_norace.cu: more CUB device algorithms, each with a user type or
// functor, on 256K items: cub::DeviceMergeSort::SortPairs of (score, id) struct keys with
// a custom comparator (score descending, id ascending) and int payloads,
// cub::DeviceMerge::MergePairs of two sorted halves, cub::DeviceAdjacentDifference::
// SubtractLeftCopy and the in-place ::SubtractLeft (which reads each tile's left
// neighbour before any tile is overwritten), and cub::DeviceReduce::ArgMax with separate
// value and index outputs. Race-free: library algorithms one after another on the
// default stream; every result is checked against the host.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "cub_run.h"
#include <algorithm>
#include <cub/cub.cuh>
#include <vector>

static int verdict(const char *what, bool ok)
{
    printf("%-36s %s\n", what, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}

struct Entry {
    int score, id;
};

static bool operator==(const Entry &a, const Entry &b) { return a.score == b.score && a.id == b.id; }

struct Ranking { // higher scores first, ties by ascending id: a strict weak order
    __host__ __device__ bool operator()(const Entry &a, const Entry &b) const
    {
        return a.score != b.score ? a.score > b.score : a.id < b.id;
    }
};

int main()
{
    rs_require_device();
    const int n = 1 << 18, half = n / 2;
    std::vector<Entry> he(n);
    std::vector<int> hv(n), h(n);
    uint32_t x = 362436069u;
    for (int i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        he[i] = Entry{(int)(x % 5000), i};
        hv[i] = (int)(x >> 12);
        h[i] = (int)(x % 1000003) - 500000;
    }
    Entry *keys = rs_fill<Entry>(n, [&](size_t i) { return he[i]; });
    int *vals = rs_fill<int>(n, [&](size_t i) { return hv[i]; });
    Entry *merged_keys = rs_zeros<Entry>(n);
    int *merged_vals = rs_zeros<int>(n);
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *diff = rs_zeros<int>(n);
    int *max_value = rs_zeros<int>(1);
    long long *max_index = rs_zeros<long long>(1);
    int bad = 0;

    // Each half sorted on its own, then the halves merged.
    CUB_RUN(cub::DeviceMergeSort::SortPairs(d_temp_storage, temp_storage_bytes, keys, vals, half, Ranking()));
    CUB_RUN(cub::DeviceMergeSort::SortPairs(d_temp_storage, temp_storage_bytes, keys + half, vals + half,
                                            n - half, Ranking()));
    {
        std::vector<int> order(n);
        for (int i = 0; i < n; i++)
            order[i] = i;
        auto by_rank = [&](int a, int b) { return Ranking()(he[a], he[b]); };
        std::sort(order.begin(), order.begin() + half, by_rank);
        std::sort(order.begin() + half, order.end(), by_rank);
        auto gk = down(keys, n);
        auto gv = down(vals, n);
        bool ok = true;
        for (int i = 0; i < n; i++)
            ok = ok && gk[i] == he[order[i]] && gv[i] == hv[order[i]];
        bad += verdict("DeviceMergeSort::SortPairs (2 halves)", ok);
    }
    CUB_RUN(cub::DeviceMerge::MergePairs(d_temp_storage, temp_storage_bytes, keys, vals, half, keys + half,
                                         vals + half, n - half, merged_keys, merged_vals, Ranking()));
    {
        std::vector<int> order(n);
        for (int i = 0; i < n; i++)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](int a, int b) { return Ranking()(he[a], he[b]); });
        auto gk = down(merged_keys, n);
        auto gv = down(merged_vals, n);
        bool ok = true;
        for (int i = 0; i < n; i++)
            ok = ok && gk[i] == he[order[i]] && gv[i] == hv[order[i]];
        bad += verdict("DeviceMerge::MergePairs", ok);
    }

    std::vector<int> want(n);
    for (int i = 0; i < n; i++)
        want[i] = i == 0 ? h[0] : h[i] - h[i - 1];
    CUB_RUN(cub::DeviceAdjacentDifference::SubtractLeftCopy(d_temp_storage, temp_storage_bytes, in, diff, n));
    bad += verdict("AdjacentDifference::SubtractLeftCopy", down(diff, n) == want);
    CUB_RUN(cub::DeviceAdjacentDifference::SubtractLeft(d_temp_storage, temp_storage_bytes, in, n));
    bad += verdict("AdjacentDifference::SubtractLeft", down(in, n) == want);

    CUB_RUN(cub::DeviceReduce::ArgMax(d_temp_storage, temp_storage_bytes, diff, max_value, max_index, n));
    {
        const int at = (int)(std::max_element(want.begin(), want.end()) - want.begin()); // the first maximum
        bad += verdict("DeviceReduce::ArgMax", down(max_value, 1)[0] == want[at] && down(max_index, 1)[0] == at);
    }
    rs_print_checksum("merged payloads", merged_vals, n);
    rs_print_checksum("differences", diff, n);
    rs_done();
    return bad != 0;
}
