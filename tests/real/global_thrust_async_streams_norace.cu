// global_thrust_async_streams_norace.cu: a Thrust pipeline on one non-default stream:
// thrust::sequence, thrust::transform and thrust::sort_by_key with
// thrust::cuda::par_nosync.on(stream) (the host does not wait between them), the sorted
// keys widened to 64 bits by thrust::copy (a scan accumulates in its input's type), then
// thrust::inclusive_scan and thrust::reduce with thrust::cuda::par.on(stream), and a
// cudaMemcpyAsync of the scan on the stream before cudaStreamSynchronize. Race-free: every
// step runs in the one stream's order, after the vectors were filled on the default
// stream (a stream created without cudaStreamNonBlocking waits for it), and the host
// reads only after the synchronize. Checked against the host.
// SCORD-CATEGORY: 10
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <algorithm>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <vector>

struct Scramble {
    __host__ __device__ unsigned operator()(int i) const
    {
        unsigned v = (unsigned)i * 2654435761u;
        return (v ^ (v >> 15)) % 100000u;
    }
};

int main()
{
    rs_require_device();
    const int n = 1 << 18;
    thrust::device_vector<int> index(n);
    thrust::device_vector<unsigned> key(n);
    thrust::device_vector<long long> wide(n);
    thrust::device_vector<long long> scan(n);
    cudaStream_t stream;
    RS_CHECK(cudaStreamCreate(&stream));

    auto nosync = thrust::cuda::par_nosync.on(stream);
    thrust::sequence(nosync, index.begin(), index.end());
    thrust::transform(nosync, index.begin(), index.end(), key.begin(), Scramble());
    thrust::sort_by_key(nosync, key.begin(), key.end(), index.begin());
    thrust::copy(nosync, key.begin(), key.end(), wide.begin());
    thrust::inclusive_scan(thrust::cuda::par.on(stream), wide.begin(), wide.end(), scan.begin());
    const long long total = thrust::reduce(thrust::cuda::par.on(stream), key.begin(), key.end(), 0LL);

    std::vector<long long> hscan(n);
    std::vector<int> hindex(n);
    RS_CHECK(cudaMemcpyAsync(hscan.data(), thrust::raw_pointer_cast(scan.data()), n * sizeof(long long),
                             cudaMemcpyDeviceToHost, stream));
    RS_CHECK(cudaMemcpyAsync(hindex.data(), thrust::raw_pointer_cast(index.data()), n * sizeof(int),
                             cudaMemcpyDeviceToHost, stream));
    RS_CHECK(cudaStreamSynchronize(stream));

    std::vector<unsigned> want_key(n);
    std::vector<int> want_index(n);
    for (int i = 0; i < n; i++) {
        want_key[i] = Scramble()(i);
        want_index[i] = i;
    }
    std::stable_sort(want_index.begin(), want_index.end(),
                     [&](int a, int b) { return want_key[a] < want_key[b]; });
    int bad = 0;
    long long run = 0;
    for (int i = 0; i < n; i++) {
        run += want_key[want_index[i]];
        bad += hindex[i] != want_index[i] || hscan[i] != run;
    }
    bad += total != run;
    printf("thrust on a stream: %d keys, total %lld, %d wrong\n", n, total, bad);
    rs_print_checksum("sorted indices", thrust::raw_pointer_cast(index.data()), n);
    RS_CHECK(cudaStreamDestroy(stream));
    rs_done();
    return bad != 0;
}
