// global_persistent_work_queue_norace.cu: a persistent kernel, at most two blocks per SM
// (the device's SM count, queried), whose blocks take work items from a global queue
// head with atomicAdd until it runs out: thread 0 takes an item and puts it in shared
// memory, __syncthreads, the whole block evaluates the item (a polynomial over a
// variable-length slice of the input, reduced with cg::reduce and a shared array), and
// thread 0 writes the item's result to its own slot. Race-free: a block waits for no
// other block, each item is taken once and written by one thread, and a __syncthreads
// ends every item before thread 0 overwrites the shared item index. 1024 items.
// SCORD-CATEGORY: 2
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>

namespace cg = cooperative_groups;
enum { THREADS = 128, ITEMS = 1024, MAX_LEN = 384 };

__host__ __device__ int item_length(int item) { return 64 + (item * 37) % (MAX_LEN - 64); }
__host__ __device__ long long term(int x, int k) { return (long long)x * x % 977 + k; }

__global__ void drain(const int *in, int *head, long long *results, int *taken_by)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ int item;
    __shared__ long long warp_sums[THREADS / 32];
    while (true) {
        if (threadIdx.x == 0)
            item = atomicAdd(head, 1);
        block.sync();
        int it = item;
        if (it >= ITEMS)
            break;
        const int *slice = in + it * MAX_LEN;
        long long mine = 0;
        for (int k = threadIdx.x; k < item_length(it); k += THREADS)
            mine += term(slice[k], k);
        long long w = cg::reduce(warp, mine, cg::plus<long long>());
        if (warp.thread_rank() == 0)
            warp_sums[warp.meta_group_rank()] = w;
        block.sync();
        if (threadIdx.x == 0) {
            long long s = 0;
            for (int k = 0; k < THREADS / 32; k++)
                s += warp_sums[k];
            results[it] = s;
            taken_by[it] = blockIdx.x;
        }
        block.sync(); // the item index and warp_sums are reused for the next item
    }
}

int main()
{
    rs_require_device();
    int dev = 0, sms = 0;
    RS_CHECK(cudaGetDevice(&dev));
    RS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    int blocks = 2 * sms < ITEMS ? 2 * sms : ITEMS;
    const int n = ITEMS * MAX_LEN;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (int)((i * 2246822519u) >> 18);
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *head = rs_zeros<int>(1);
    long long *results = rs_zeros<long long>(ITEMS);
    int *taken_by = rs_fill<int>(ITEMS, [](size_t) { return -1; });
    drain<<<blocks, THREADS>>>(in, head, results, taken_by);
    RS_LAUNCHED();
    long long *got = rs_download(results, ITEMS);
    int *who = rs_download(taken_by, ITEMS);
    int bad = 0;
    long long total = 0;
    for (int it = 0; it < ITEMS; it++) {
        long long want = 0;
        for (int k = 0; k < item_length(it); k++)
            want += term(h[it * MAX_LEN + k], k);
        bad += got[it] != want || who[it] < 0 || who[it] >= blocks;
        total += want;
    }
    int end = 0;
    RS_CHECK(cudaMemcpy(&end, head, sizeof end, cudaMemcpyDeviceToHost));
    // Every block takes one index past the end before it stops.
    bad += end != ITEMS + blocks;
    printf("persistent queue: %d items, total %lld, %d wrong\n", ITEMS, total, bad);
    free(got);
    free(who);
    rs_done();
    return bad != 0;
}
