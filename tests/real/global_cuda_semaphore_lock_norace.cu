// global_cuda_semaphore_lock_norace.cu: a module-scope cuda::binary_semaphore of device
// scope used as a lock: each of 48 blocks reduces chunks of the input (a grid-stride
// loop over 192 chunks) with cg::reduce, and its thread 0 takes the semaphore
// (try_acquire in a bounded loop), adds the chunk's sum and count to a global
// accumulator struct with plain read-modify-writes, and releases it. Race-free:
// try_acquire is an acquire, release a release, both of device scope, so the critical
// sections are ordered one after the other. The racy twin gives the semaphore block scope.
// SCORD-CATEGORY: 7
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/semaphore>
#include <vector>

namespace cg = cooperative_groups;
enum { THREADS = 128, BLOCKS = 48, CHUNKS = 192, CHUNK = 512 };
constexpr long TRY_LIMIT = 1L << 22;

struct accumulator {
    long long sum;
    int chunks;
};

__device__ cuda::binary_semaphore<cuda::thread_scope_device> guard(1);
__device__ unsigned gave_up;

__global__ void accumulate(const int *in, accumulator *acc)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ long long warp_sums[THREADS / 32];
    for (int c = blockIdx.x; c < CHUNKS; c += gridDim.x) {
        long long mine = 0;
        for (int i = threadIdx.x; i < CHUNK; i += THREADS)
            mine += in[c * CHUNK + i];
        long long w = cg::reduce(warp, mine, cg::plus<long long>());
        if (warp.thread_rank() == 0)
            warp_sums[warp.meta_group_rank()] = w;
        block.sync();
        if (threadIdx.x == 0) {
            long long s = 0;
            for (int k = 0; k < THREADS / 32; k++)
                s += warp_sums[k];
            long tries = 0;
            while (!guard.try_acquire() && ++tries < TRY_LIMIT)
                ;
            if (tries < TRY_LIMIT) {
                acc->sum += s;
                acc->chunks += 1;
                guard.release();
            } else {
                atomicAdd(&gave_up, 1u);
            }
        }
        block.sync();
    }
}

int main()
{
    rs_require_device();
    const int n = CHUNKS * CHUNK;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (int)((i * 2246822519u) >> 21) - 1024;
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    accumulator *acc = rs_zeros<accumulator>(1);
    accumulate<<<BLOCKS, THREADS>>>(in, acc);
    RS_LAUNCHED();
    unsigned failed = 0;
    RS_CHECK(cudaMemcpyFromSymbol(&failed, gave_up, sizeof failed));
    if (failed)
        rs_die("%u lock attempts gave up", failed);
    accumulator got;
    RS_CHECK(cudaMemcpy(&got, acc, sizeof got, cudaMemcpyDeviceToHost));
    long long want = 0;
    for (int i = 0; i < n; i++)
        want += h[i];
    printf("semaphore lock: sum %lld over %d chunks (%s)\n", got.sum, got.chunks,
           got.sum == want && got.chunks == CHUNKS ? "ok" : "WRONG");
    rs_done();
    return !(got.sum == want && got.chunks == CHUNKS);
}
