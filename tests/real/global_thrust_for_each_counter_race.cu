// global_thrust_for_each_counter_race.cu: per sensor, count the readings above a
// threshold: thrust::for_each over a counting_iterator of 256K reading indices, whose
// functor adds 1 to the device histogram entry of the reading's sensor. The readings come
// in 4 rounds that poll the 65536 sensors in one fixed order, so two readings of one
// sensor are a multiple of 65536 indices apart: different blocks of the for_each kernel,
// whose tiles are contiguous and smaller. Injected race, in the program's functor: the
// count is a plain read-modify-write (`+= 1`) instead of an atomicAdd, so two blocks
// counting one sensor race, read against write and write against write. The twin uses
// atomicAdd.
// SCORD-CATEGORY: 2
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A unsynchronized_blocks
// SCORD-CAUSE: B unsynchronized_blocks
#include "rs_common.h"
#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <vector>

enum { SENSORS = 1 << 16, ROUNDS = 4, READINGS = SENSORS * ROUNDS };

struct CountAbove {
    const int *sensor;
    const int *value;
    int *count;
    int threshold;
    __device__ void operator()(int i) const
    {
        if (value[i] > threshold)
            count[sensor[i]] += 1; // race(A) read,write global race(B) write,write global
    }
};

int main()
{
    rs_require_device();
    const int threshold = 600;
    std::vector<int> hs(READINGS), hv(READINGS);
    uint32_t x = 31337;
    for (int r = 0; r < ROUNDS; r++) {
        // Every round polls the sensors in one scrambled order, s -> (s * 40503 + 7919) mod
        // 2^16 (an odd multiplier: a permutation).
        for (int s = 0; s < SENSORS; s++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            hs[r * SENSORS + s] = (int)(((unsigned)s * 40503u + 7919u) % SENSORS);
            hv[r * SENSORS + s] = (int)(x % 1000);
        }
    }
    thrust::device_vector<int> sensor(hs.begin(), hs.end()), value(hv.begin(), hv.end());
    thrust::device_vector<int> count(SENSORS, 0);

    CountAbove op{thrust::raw_pointer_cast(sensor.data()), thrust::raw_pointer_cast(value.data()),
                  thrust::raw_pointer_cast(count.data()), threshold};
    thrust::for_each(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(READINGS), op);

    RS_CHECK(cudaDeviceSynchronize());
    printf("for_each counter (racy): %d readings of %d sensors counted\n", READINGS, SENSORS);
    rs_done();
    return 0;
}
