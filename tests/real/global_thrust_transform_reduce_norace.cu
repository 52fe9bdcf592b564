// global_thrust_transform_reduce_norace.cu: statistics of 512K readings with Thrust:
// thrust::transform_reduce (sum of squared deviations from a reference, a user functor),
// thrust::transform of two vectors with a user functor (a clamped weighted difference),
// thrust::count_if on the result, and thrust::exclusive_scan_by_key of the result over
// runs of a station key (a running total per station). Integer arithmetic throughout, so
// the reductions are exact whatever their order. Race-free: library algorithms one after
// another on the default stream. Every result is checked against the host.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <vector>

struct SquaredDeviation {
    int reference;
    __host__ __device__ long long operator()(int v) const
    {
        long long d = v - reference;
        return d * d;
    }
};

struct WeightedDifference {
    int weight, limit;
    __host__ __device__ int operator()(int a, int b) const
    {
        int d = weight * a - b;
        return d > limit ? limit : d < -limit ? -limit : d;
    }
};

struct Positive {
    __host__ __device__ bool operator()(int v) const { return v > 0; }
};

int main()
{
    rs_require_device();
    const int n = 1 << 19, reference = 500, weight = 3, limit = 2000;
    std::vector<int> ha(n), hb(n), hs(n);
    uint32_t x = 424242;
    int station = 0;
    for (int i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        ha[i] = (int)(x % 1000);
        hb[i] = (int)((x >> 10) % 3000);
        if (x % 97 == 0) // runs of a station's readings, of varied lengths
            station++;
        hs[i] = station;
    }
    thrust::device_vector<int> a(ha.begin(), ha.end()), b(hb.begin(), hb.end());
    thrust::device_vector<int> stations(hs.begin(), hs.end());

    const long long squares = thrust::transform_reduce(a.begin(), a.end(), SquaredDeviation{reference},
                                                       0LL, thrust::plus<long long>());
    thrust::device_vector<int> diff(n);
    thrust::transform(a.begin(), a.end(), b.begin(), diff.begin(), WeightedDifference{weight, limit});
    const long positives = (long)thrust::count_if(diff.begin(), diff.end(), Positive());
    thrust::device_vector<int> running(n);
    thrust::exclusive_scan_by_key(stations.begin(), stations.end(), diff.begin(), running.begin());

    long long want_squares = 0;
    long want_positives = 0;
    for (int i = 0; i < n; i++)
        want_squares += (long long)(ha[i] - reference) * (ha[i] - reference);
    thrust::host_vector<int> hd = diff, hr = running;
    int bad = squares != want_squares;
    int run = 0;
    for (int i = 0; i < n; i++) {
        int d = weight * ha[i] - hb[i];
        d = d > limit ? limit : d < -limit ? -limit : d;
        want_positives += d > 0;
        if (i > 0 && hs[i] != hs[i - 1])
            run = 0;
        bad += hd[i] != d || hr[i] != run;
        run += d;
    }
    bad += positives != want_positives;
    printf("transform_reduce + transform + count_if + exclusive_scan_by_key: %d readings, %d "
           "stations, squares %lld, %ld positive, %d wrong\n",
           n, station + 1, squares, positives, bad);
    rs_print_checksum("differences", thrust::raw_pointer_cast(diff.data()), n);
    rs_print_checksum("running totals", thrust::raw_pointer_cast(running.data()), n);
    rs_done();
    return bad != 0;
}
