// global_cuda_semaphore_lock_race.cu: the lock of global_cuda_semaphore_lock_norace with
// block scope: a module-scope cuda::binary_semaphore<thread_scope_block> that thread 0 of
// each of 48 blocks takes (try_acquire in a bounded loop) around plain read-modify-writes
// of a global accumulator struct. Block scope does not include the other blocks: one
// block's release does not synchronize with another's acquire, so the critical sections
// race on both fields (lock_scope, read-write and write-write each); the semaphore's word
// races (atomic_scope): an acquiring exchange against another block's release store and the
// spinners' exchanges, and two holders' release stores. The output does not depend on them.
// SCORD-CATEGORY: 7
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: 7 races
// SCORD-CAUSE: A lock_scope
// SCORD-CAUSE: B lock_scope
// SCORD-CAUSE: C lock_scope
// SCORD-CAUSE: D lock_scope
// SCORD-CAUSE: E atomic_scope
// SCORD-CAUSE: F atomic_scope
// SCORD-CAUSE: G atomic_scope
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

__device__ cuda::binary_semaphore<cuda::thread_scope_block> guard(1);
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
            while (!guard.try_acquire() && ++tries < TRY_LIMIT) // race(E) atomic.cta global race(F) atomic.cta,atomic.cta global
                ;
            if (tries < TRY_LIMIT) {
                acc->sum += s;         // race(A) read,write global race(B) write,write global
                acc->chunks += 1;      // race(C) read,write global race(D) write,write global
                guard.release();       // race(E) write global race(G) write,write global
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
    printf("semaphore lock (block scope, racy): %d chunks over %d blocks\n", CHUNKS, BLOCKS);
    rs_done();
    return 0;
}
