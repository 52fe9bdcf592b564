// global_cub_device_for_norace.cu: CUB's element-wise device algorithms over 512K ints,
// each with a user functor: cub::DeviceFor::ForEachN (an in-place update through a
// reference), ::ForEach over an array of structs, ::Bulk over an index space (each index
// reads two inputs and writes its own output), ::ForEachCopyN (values by copy, counted
// into a 64-bin histogram with atomicAdd), and cub::DeviceTransform::Transform of two
// input sequences (on sm_90 the bulk-copy kernel, which stages tiles in shared memory
// with cp.async.bulk and an mbarrier). Race-free: each element is written by one thread,
// the histogram only by atomics, the algorithms one after another on the default stream.
// Every result is checked against the host.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "cub_run.h"
#include <cub/cub.cuh>
#include <cuda/std/tuple>
#include <vector>

constexpr int N = 1 << 19, BINS = 64;

struct Particle {
    int x, v;
};

struct Affine { // in place, through the reference ForEachN hands over
    __device__ void operator()(int &a) const { a = 3 * a + 1; }
};

struct Move {
    int dt;
    __device__ void operator()(Particle &p) const { p.x += p.v * dt; }
};

struct Mirror { // out[i] = a[i] - a[N-1-i]: reads two elements, writes its own
    const int *a;
    int *out;
    __device__ void operator()(int i) const { out[i] = a[i] - a[N - 1 - i]; }
};

struct Count {
    int *hist;
    __device__ void operator()(int v) const { atomicAdd(&hist[(unsigned)v % BINS], 1); }
};

struct Blend {
    __host__ __device__ int operator()(int a, int b) const { return 2 * a - b; }
};

static int verdict(const char *what, int wrong)
{
    printf("%-30s %s\n", what, wrong ? "WRONG" : "ok");
    return wrong ? 1 : 0;
}

int main()
{
    rs_require_device();
    std::vector<int> h(N);
    std::vector<Particle> hp(N);
    uint32_t x = 1013904223u;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        h[i] = (int)(x % 20000) - 10000;
        hp[i] = Particle{(int)(x >> 8) % 1000, (int)(x % 7) - 3};
    }
    int *a = rs_fill<int>(N, [&](size_t i) { return h[i]; });
    Particle *p = rs_fill<Particle>(N, [&](size_t i) { return hp[i]; });
    int *mirror = rs_zeros<int>(N);
    int *blend = rs_zeros<int>(N);
    int *hist = rs_zeros<int>(BINS);
    int bad = 0;

    RS_CHECK(cub::DeviceFor::ForEachN(a, N, Affine()));
    RS_LAUNCHED();
    std::vector<int> ha = h;
    for (int i = 0; i < N; i++)
        ha[i] = 3 * ha[i] + 1;
    bad += verdict("DeviceFor::ForEachN", down(a, N) != ha);

    RS_CHECK(cub::DeviceFor::ForEach(p, p + N, Move{5}));
    RS_LAUNCHED();
    {
        auto got = down(p, N);
        int wrong = 0;
        for (int i = 0; i < N; i++)
            wrong += got[i].x != hp[i].x + hp[i].v * 5 || got[i].v != hp[i].v;
        bad += verdict("DeviceFor::ForEach", wrong);
    }

    RS_CHECK(cub::DeviceFor::Bulk(N, Mirror{a, mirror}));
    RS_LAUNCHED();
    {
        std::vector<int> want(N);
        for (int i = 0; i < N; i++)
            want[i] = ha[i] - ha[N - 1 - i];
        bad += verdict("DeviceFor::Bulk", down(mirror, N) != want);
    }

    RS_CHECK(cub::DeviceFor::ForEachCopyN(a, N, Count{hist}));
    RS_LAUNCHED();
    {
        std::vector<int> want(BINS, 0);
        for (int i = 0; i < N; i++)
            want[(unsigned)ha[i] % BINS]++;
        bad += verdict("DeviceFor::ForEachCopyN", down(hist, BINS) != want);
    }

    RS_CHECK(cub::DeviceTransform::Transform(::cuda::std::make_tuple(a, mirror), blend, N, Blend()));
    RS_LAUNCHED();
    {
        std::vector<int> want(N);
        for (int i = 0; i < N; i++)
            want[i] = 2 * ha[i] - (ha[i] - ha[N - 1 - i]);
        bad += verdict("DeviceTransform::Transform", down(blend, N) != want);
    }

    rs_print_checksum("histogram", hist, BINS);
    rs_print_checksum("blend", blend, N);
    rs_done();
    return bad != 0;
}
