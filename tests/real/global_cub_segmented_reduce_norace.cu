// global_cub_segmented_reduce_norace.cu: CUB's segmented algorithms over 1000 ragged
// segments (empty ones, short ones, medium ones and a few of 5000-20000 items, so that
// DeviceSegmentedSort takes its small, medium and large-segment paths):
// cub::DeviceSegmentedReduce::Sum (64-bit sums), ::Max and ::ArgMax, then
// cub::DeviceSegmentedSort::StableSortPairs (keys with their positions) and
// ::SortKeysDescending. Race-free: library algorithms one after another on the default
// stream, each with its own output. Every result is checked against the host.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "cub_run.h"
#include <algorithm>
#include <climits>
#include <cub/cub.cuh>
#include <functional>
#include <vector>

static int verdict(const char *what, int wrong)
{
    printf("%-34s %s\n", what, wrong ? "WRONG" : "ok");
    return wrong ? 1 : 0;
}

int main()
{
    rs_require_device();
    const int segments = 1000;
    std::vector<int> offsets(segments + 1, 0);
    uint32_t x = 5489;
    auto next = [&x]() { return x ^= x << 13, x ^= x >> 17, x ^= x << 5; };
    for (int s = 0; s < segments; s++) {
        const int r = next() % 100;
        const int len = r < 10   ? 0
                        : r < 80 ? 1 + next() % 64
                        : r < 97 ? 65 + next() % 1984
                                 : 5000 + next() % 15001;
        offsets[s + 1] = offsets[s] + len;
    }
    const int n = offsets[segments];
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (int)(next() % 200000) - 100000;

    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *d_offsets = rs_fill<int>(segments + 1, [&](size_t i) { return offsets[i]; });
    int *positions = rs_fill<int>(n, [](size_t i) { return (int)i; });
    long long *sums = rs_zeros<long long>(segments);
    int *maxima = rs_zeros<int>(segments);
    auto *argmax = rs_zeros<cub::KeyValuePair<int, int>>(segments);
    int *keys_out = rs_zeros<int>(n);
    int *pos_out = rs_zeros<int>(n);
    int *desc_out = rs_zeros<int>(n);
    int bad = 0;

    CUB_RUN(cub::DeviceSegmentedReduce::Sum(d_temp_storage, temp_storage_bytes, in, sums, segments,
                                            d_offsets, d_offsets + 1));
    CUB_RUN(cub::DeviceSegmentedReduce::Max(d_temp_storage, temp_storage_bytes, in, maxima, segments,
                                            d_offsets, d_offsets + 1));
    CUB_RUN(cub::DeviceSegmentedReduce::ArgMax(d_temp_storage, temp_storage_bytes, in, argmax,
                                               segments, d_offsets, d_offsets + 1));
    {
        auto hs = down(sums, segments);
        auto hm = down(maxima, segments);
        auto ha = down(argmax, segments);
        int wrong_sum = 0, wrong_max = 0, wrong_arg = 0;
        for (int s = 0; s < segments; s++) {
            long long sum = 0;
            int max = INT_MIN, arg = 1; // CUB's ArgMax of an empty segment: {1, lowest}
            for (int i = offsets[s]; i < offsets[s + 1]; i++) {
                sum += h[i];
                if (h[i] > max || i == offsets[s]) {
                    max = h[i];
                    arg = i - offsets[s];
                }
            }
            wrong_sum += hs[s] != sum;
            wrong_max += hm[s] != max;
            wrong_arg += ha[s].key != arg || ha[s].value != max;
        }
        bad += verdict("segmented reduce: sum", wrong_sum);
        bad += verdict("segmented reduce: max", wrong_max);
        bad += verdict("segmented reduce: argmax", wrong_arg);
    }

    CUB_RUN(cub::DeviceSegmentedSort::StableSortPairs(d_temp_storage, temp_storage_bytes, in, keys_out,
                                                      positions, pos_out, n, segments, d_offsets,
                                                      d_offsets + 1));
    CUB_RUN(cub::DeviceSegmentedSort::SortKeysDescending(d_temp_storage, temp_storage_bytes, in, desc_out,
                                                         n, segments, d_offsets, d_offsets + 1));
    {
        auto hk = down(keys_out, n);
        auto hp = down(pos_out, n);
        auto hd = down(desc_out, n);
        int wrong_pairs = 0, wrong_desc = 0;
        std::vector<int> order(n);
        for (int i = 0; i < n; i++)
            order[i] = i;
        for (int s = 0; s < segments; s++) {
            const int b = offsets[s], e = offsets[s + 1];
            std::stable_sort(order.begin() + b, order.begin() + e, [&](int p, int q) { return h[p] < h[q]; });
            std::vector<int> desc(h.begin() + b, h.begin() + e);
            std::sort(desc.begin(), desc.end(), std::greater<int>());
            for (int i = b; i < e; i++) {
                wrong_pairs += hk[i] != h[order[i]] || hp[i] != order[i];
                wrong_desc += hd[i] != desc[i - b];
            }
        }
        bad += verdict("segmented sort: stable pairs", wrong_pairs);
        bad += verdict("segmented sort: keys descending", wrong_desc);
    }
    printf("%d segments, %d items\n", segments, n);
    rs_print_checksum("sums", sums, segments);
    rs_print_checksum("sorted positions", pos_out, n);
    rs_done();
    return bad != 0;
}
