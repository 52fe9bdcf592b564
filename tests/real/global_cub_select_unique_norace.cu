// global_cub_select_unique_norace.cu: CUB's stream-compaction family on 512K ints that
// come in runs of 1-8 equal values: cub::DeviceSelect::Unique (one item per run),
// ::Flagged (the items whose flag byte is set), ::UniqueByKey, cub::DevicePartition::If
// with two predicates (the three-way partition: small, large, the rest) and ::Flagged,
// and cub::DeviceRunLengthEncode::NonTrivialRuns (offsets and lengths of the runs longer
// than 1). These use the decoupled look-back of the select/partition agents. Race-free:
// library algorithms one after another on the default stream, each with its own output;
// every result is checked against the host.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "cub_run.h"
#include <cub/cub.cuh>
#include <vector>

static int verdict(const char *what, bool ok, long count)
{
    printf("%-30s %8ld items  %s\n", what, count, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}

struct Small {
    __host__ __device__ bool operator()(int v) const { return v < 100; }
};
struct Large {
    __host__ __device__ bool operator()(int v) const { return v >= 900; }
};

int main()
{
    rs_require_device();
    const int n = 1 << 19;
    std::vector<int> h(n), hval(n);
    std::vector<unsigned char> hflag(n);
    uint32_t x = 777767777u;
    auto next = [&x]() { return x ^= x << 13, x ^= x >> 17, x ^= x << 5; };
    for (int i = 0; i < n;) {
        const int v = (int)(next() % 1000), len = 1 + (int)(next() % 8);
        for (int j = 0; j < len && i < n; j++, i++)
            h[i] = v;
    }
    for (int i = 0; i < n; i++) {
        hflag[i] = next() % 3 == 0;
        hval[i] = i;
    }
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *vals = rs_fill<int>(n, [&](size_t i) { return hval[i]; });
    unsigned char *flags = rs_fill<unsigned char>(n, [&](size_t i) { return hflag[i]; });
    int *out = rs_zeros<int>(n);
    int *out2 = rs_zeros<int>(n);
    int *out3 = rs_zeros<int>(n);
    int *num = rs_zeros<int>(2);
    int bad = 0;

    { // Unique: the first item of each run of equal values
        CUB_RUN(cub::DeviceSelect::Unique(d_temp_storage, temp_storage_bytes, in, out, num, n));
        std::vector<int> want;
        for (int i = 0; i < n; i++)
            if (i == 0 || h[i] != h[i - 1])
                want.push_back(h[i]);
        auto got = down(out, want.size());
        const int count = down(num, 1)[0];
        bad += verdict("DeviceSelect::Unique", count == (int)want.size() && got == want, count);
    }
    { // UniqueByKey: the first value of each run of equal keys
        CUB_RUN(cub::DeviceSelect::UniqueByKey(d_temp_storage, temp_storage_bytes, in, vals, out, out2, num, n));
        std::vector<int> want_k, want_v;
        for (int i = 0; i < n; i++)
            if (i == 0 || h[i] != h[i - 1]) {
                want_k.push_back(h[i]);
                want_v.push_back(hval[i]);
            }
        const int count = down(num, 1)[0];
        bool ok = count == (int)want_k.size() && down(out, want_k.size()) == want_k &&
                  down(out2, want_v.size()) == want_v;
        bad += verdict("DeviceSelect::UniqueByKey", ok, count);
    }
    { // Flagged: the items whose flag is set, in order
        CUB_RUN(cub::DeviceSelect::Flagged(d_temp_storage, temp_storage_bytes, in, flags, out, num, n));
        std::vector<int> want;
        for (int i = 0; i < n; i++)
            if (hflag[i])
                want.push_back(h[i]);
        const int count = down(num, 1)[0];
        bad += verdict("DeviceSelect::Flagged", count == (int)want.size() && down(out, want.size()) == want,
                       count);
    }
    { // Partition::Flagged: the flagged items in order, then the others in reverse order
        CUB_RUN(cub::DevicePartition::Flagged(d_temp_storage, temp_storage_bytes, vals, flags, out, num, n));
        std::vector<int> want(n);
        int front = 0, back = n;
        for (int i = 0; i < n; i++)
            (hflag[i] ? want[front++] : want[--back]) = hval[i];
        const int count = down(num, 1)[0];
        bad += verdict("DevicePartition::Flagged", count == front && down(out, n) == want, count);
    }
    { // three-way Partition::If: small items, large items, the rest, each in order
        CUB_RUN(cub::DevicePartition::If(d_temp_storage, temp_storage_bytes, in, out, out2, out3, num, n,
                                         Small(), Large()));
        std::vector<int> small, large, rest;
        for (int i = 0; i < n; i++)
            (h[i] < 100 ? small : h[i] >= 900 ? large : rest).push_back(h[i]);
        auto counts = down(num, 2);
        bool ok = counts[0] == (int)small.size() && counts[1] == (int)large.size() &&
                  down(out, small.size()) == small && down(out2, large.size()) == large &&
                  down(out3, rest.size()) == rest;
        bad += verdict("DevicePartition::If (3-way)", ok, counts[0] + counts[1]);
    }
    { // NonTrivialRuns: offset and length of every run longer than one item
        CUB_RUN(cub::DeviceRunLengthEncode::NonTrivialRuns(d_temp_storage, temp_storage_bytes, in, out, out2,
                                                           num, n));
        std::vector<int> want_off, want_len;
        for (int i = 0; i < n;) {
            int j = i + 1;
            while (j < n && h[j] == h[i])
                j++;
            if (j - i > 1) {
                want_off.push_back(i);
                want_len.push_back(j - i);
            }
            i = j;
        }
        const int count = down(num, 1)[0];
        bool ok = count == (int)want_off.size() && down(out, want_off.size()) == want_off &&
                  down(out2, want_len.size()) == want_len;
        bad += verdict("RunLengthEncode::NonTrivialRuns", ok, count);
    }
    rs_done();
    return bad != 0;
}
