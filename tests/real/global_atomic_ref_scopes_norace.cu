// global_atomic_ref_scopes_norace.cu: cuda::atomic_ref counters, each at the scope of the
// threads that share it: a block-scope fetch_add and fetch_max on a shared-memory tally and
// on the block's own slot of a global array (only that block's threads touch it), a
// device-scope fetch_add into a global histogram that all blocks share, and a
// system-scope fetch_add on a managed counter that the host reads after the kernel;
// after a __syncthreads thread 0 reads the block's counters with plain loads and adds
// them on at device scope. Race-free: every location is reached only by atomics whose
// scope includes all the threads that reach it, or by plain accesses the barrier orders
// after them. 64 blocks of 256 threads.
// SCORD-CATEGORY: 5
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <cuda/atomic>
#include <vector>

enum { THREADS = 256, BLOCKS = 64, PER_THREAD = 8, BINS = 16 };
constexpr int N = BLOCKS * THREADS * PER_THREAD;

struct block_stats {
    int count;
    int max;
    int odd;
};

__device__ int bin_of(int v) { return (v >> 3) % BINS; }

__global__ void tally(const int *in, block_stats *per_block, unsigned *histogram,
                      int *device_kept, unsigned long long *system_total)
{
    __shared__ int odd_in_block;
    if (threadIdx.x == 0)
        odd_in_block = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> odd(odd_in_block);
    cuda::atomic_ref<int, cuda::thread_scope_block> count(per_block[blockIdx.x].count);
    cuda::atomic_ref<int, cuda::thread_scope_block> max(per_block[blockIdx.x].max);
    const int *src = in + (size_t)blockIdx.x * THREADS * PER_THREAD;
    int kept = 0;
    for (int k = 0; k < PER_THREAD; k++) {
        int v = src[k * THREADS + threadIdx.x];
        if (v & 1)
            odd.fetch_add(1, cuda::memory_order_relaxed);
        if (v % 5 != 0) {
            count.fetch_add(1, cuda::memory_order_relaxed);
            max.fetch_max(v, cuda::memory_order_relaxed);
            cuda::atomic_ref<unsigned, cuda::thread_scope_device> bin(histogram[bin_of(v)]);
            bin.fetch_add(1u, cuda::memory_order_relaxed);
            kept++;
        }
    }
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> total(*system_total);
    total.fetch_add((unsigned long long)kept, cuda::memory_order_relaxed);
    __syncthreads();
    // The block's own counters are complete: plain reads after the barrier.
    if (threadIdx.x == 0) {
        per_block[blockIdx.x].odd = odd_in_block;
        cuda::atomic_ref<int, cuda::thread_scope_device> kept_total(*device_kept);
        kept_total.fetch_add(per_block[blockIdx.x].count, cuda::memory_order_relaxed);
    }
}

int main()
{
    rs_require_device();
    std::vector<int> h(N);
    for (int i = 0; i < N; i++)
        h[i] = (int)((i * 2654435761u) >> 12) % 100000;
    int *in = rs_fill<int>(N, [&](size_t i) { return h[i]; });
    block_stats *per_block = rs_fill<block_stats>(BLOCKS, [](size_t) { return block_stats{0, -1, 0}; });
    unsigned *histogram = rs_zeros<unsigned>(BINS);
    int *device_kept = rs_zeros<int>(1);
    unsigned long long *system_total = nullptr;
    RS_CHECK(cudaMallocManaged(&system_total, sizeof *system_total));
    *system_total = 0;
    tally<<<BLOCKS, THREADS>>>(in, per_block, histogram, device_kept, system_total);
    RS_LAUNCHED();

    block_stats *got = rs_download(per_block, BLOCKS);
    unsigned *bins = rs_download(histogram, BINS);
    std::vector<unsigned> want_bins(BINS, 0);
    unsigned long long want_total = 0;
    int bad = 0;
    for (int b = 0; b < BLOCKS; b++) {
        int count = 0, max = -1, odd = 0;
        for (int i = b * THREADS * PER_THREAD; i < (b + 1) * THREADS * PER_THREAD; i++) {
            odd += h[i] & 1;
            if (h[i] % 5 != 0) {
                count++;
                max = h[i] > max ? h[i] : max;
                want_bins[(h[i] >> 3) % BINS]++;
            }
        }
        want_total += count;
        bad += got[b].count != count || got[b].max != max || got[b].odd != odd;
    }
    for (int k = 0; k < BINS; k++)
        bad += bins[k] != want_bins[k];
    int kept = 0;
    RS_CHECK(cudaMemcpy(&kept, device_kept, sizeof kept, cudaMemcpyDeviceToHost));
    bad += *system_total != want_total || (unsigned long long)kept != want_total;
    printf("atomic_ref scopes: %llu kept, bin 0 %u, block 0 max %d, %d wrong\n", *system_total, bins[0],
           got[0].max, bad);
    free(got);
    free(bins);
    RS_CHECK(cudaFree(system_total));
    rs_done();
    return bad != 0;
}
