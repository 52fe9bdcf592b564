// global_cub_device_algorithms_norace.cu: one CUB device algorithm after another on 1M
// ints, each checked against the host and reported on its own line: radix sort of 8-bit
// keys (one onesweep pass) and of 32-bit keys, merge sort, segmented radix sort, inclusive
// scan (decoupled look-back), reduce, histogram, select-if, partition, run-length encode.
// Race-free: every line must read "ok" under scord as natively.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "cub_run.h"
#include <algorithm>
#include <cub/cub.cuh>
#include <numeric>
#include <vector>

static const int N = 1 << 20;
static int verdict(const char *what, bool ok)
{
    printf("%-22s %s\n", what, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}

struct Less {
    __host__ __device__ bool operator()(int a, int b) const { return a < b; }
};

struct Even {
    __host__ __device__ bool operator()(int v) const { return (v & 1) == 0; }
};

int main()
{
    rs_require_device();
    std::vector<int> h(N);
    uint32_t x = 2463534242u;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        h[i] = (int)(x % 100000) - 50000;
    }
    int *in = rs_fill<int>(N, [&](size_t i) { return h[i]; });
    int *out = rs_zeros<int>(N);
    int *num = rs_zeros<int>(1);
    int bad = 0;

    { // 8-bit keys: one onesweep pass
        std::vector<unsigned char> hk(N);
        for (int i = 0; i < N; i++)
            hk[i] = (unsigned char)(h[i] * 7);
        unsigned char *k = rs_fill<unsigned char>(N, [&](size_t i) { return hk[i]; });
        unsigned char *ko = rs_zeros<unsigned char>(N);
        CUB_RUN(cub::DeviceRadixSort::SortKeys(d_temp_storage, temp_storage_bytes, k, ko, N));
        std::sort(hk.begin(), hk.end());
        bad += verdict("radix sort u8", down(ko, N) == hk);
    }
    { // 32-bit keys: four onesweep passes
        CUB_RUN(cub::DeviceRadixSort::SortKeys(d_temp_storage, temp_storage_bytes, in, out, N));
        std::vector<int> want = h;
        std::sort(want.begin(), want.end());
        bad += verdict("radix sort i32", down(out, N) == want);
    }
    { // merge sort
        RS_CHECK(cudaMemcpy(out, in, N * sizeof(int), cudaMemcpyDeviceToDevice));
        CUB_RUN(cub::DeviceMergeSort::SortKeys(d_temp_storage, temp_storage_bytes, out, N, Less()));
        std::vector<int> want = h;
        std::sort(want.begin(), want.end());
        bad += verdict("merge sort", down(out, N) == want);
    }
    { // segmented radix sort: 1024 segments of 1024
        const int segs = 1024;
        int *offsets = rs_fill<int>(segs + 1, [](size_t i) { return (int)i * (N / 1024); });
        CUB_RUN(cub::DeviceSegmentedRadixSort::SortKeys(d_temp_storage, temp_storage_bytes, in, out, N,
                                                        segs, offsets, offsets + 1));
        std::vector<int> want = h;
        for (int s = 0; s < segs; s++)
            std::sort(want.begin() + s * (N / segs), want.begin() + (s + 1) * (N / segs));
        bad += verdict("segmented radix sort", down(out, N) == want);
    }
    { // inclusive scan
        CUB_RUN(cub::DeviceScan::InclusiveSum(d_temp_storage, temp_storage_bytes, in, out, N));
        std::vector<int> want(N);
        std::partial_sum(h.begin(), h.end(), want.begin());
        bad += verdict("inclusive scan", down(out, N) == want);
    }
    { // reduce
        long long *sum = rs_zeros<long long>(1);
        CUB_RUN(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, in, sum, N));
        bad += verdict("reduce", down(sum, 1)[0] == std::accumulate(h.begin(), h.end(), 0LL));
    }
    { // histogram: 256 even bins over [-50000, 50000)
        int *hist = rs_zeros<int>(256);
        CUB_RUN(cub::DeviceHistogram::HistogramEven(d_temp_storage, temp_storage_bytes, in, hist, 257,
                                                    -50000, 50000, N));
        std::vector<int> want(256);
        for (int v : h)
            want[(long long)(v + 50000) * 256 / 100000]++;
        bad += verdict("histogram", down(hist, 256) == want);
    }
    { // select-if and partition
        CUB_RUN(cub::DeviceSelect::If(d_temp_storage, temp_storage_bytes, in, out, num, N, Even()));
        std::vector<int> want;
        for (int v : h)
            if ((v & 1) == 0)
                want.push_back(v);
        int got = down(num, 1)[0];
        std::vector<int> sel = down(out, got);
        bad += verdict("select if", got == (int)want.size() && sel == want);
        CUB_RUN(cub::DevicePartition::If(d_temp_storage, temp_storage_bytes, in, out, num, N, Even()));
        std::vector<int> part = down(out, N);
        bool ok = down(num, 1)[0] == (int)want.size() &&
                  std::equal(want.begin(), want.end(), part.begin());
        bad += verdict("partition", ok);
    }
    { // run-length encode of the sorted input
        std::vector<int> sorted = h;
        std::sort(sorted.begin(), sorted.end());
        int *s = rs_fill<int>(N, [&](size_t i) { return sorted[i]; });
        int *counts = rs_zeros<int>(N);
        CUB_RUN(cub::DeviceRunLengthEncode::Encode(d_temp_storage, temp_storage_bytes, s, out, counts, num, N));
        std::vector<int> uniq, cnt;
        for (int i = 0; i < N; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                uniq.push_back(sorted[i]);
                cnt.push_back(0);
            }
            cnt.back()++;
        }
        int runs = down(num, 1)[0];
        bad += verdict("run-length encode", runs == (int)uniq.size() && down(out, runs) == uniq &&
                                                down(counts, runs) == cnt);
    }
    printf("cub device algorithms: %d wrong\n", bad);
    rs_done();
    return bad != 0;
}
