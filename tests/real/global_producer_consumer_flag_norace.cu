// global_producer_consumer_flag_norace.cu: a grid of two blocks of 256 threads, one
// producer and one consumer (roles from an atomicAdd ticket: the consumer is the block
// that arrives second, so it only ever waits for a block that is already running). In
// each of 8 rounds the producer's threads fill that round's slot of a global buffer,
// __syncthreads, and thread 0 publishes the slot with a device-scope cuda::atomic_ref
// release store of the slot's flag; the consumer's thread 0 spins on an acquire load of
// the flag (bounded), __syncthreads, and the consumer's threads read the slot. Race-free:
// barrier, release, acquire, barrier order every write of a slot before every read of
// it; the producer never waits, so the kernel cannot hang natively.
// SCORD-CATEGORY: 6
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <cuda/atomic>
#include <vector>

enum { THREADS = 256, ROUNDS = 8, SLOT = 1024 };
constexpr long SPIN_LIMIT = 1L << 22;

using flag_ref = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

__host__ __device__ int produce(int x, int r) { return (x ^ (r * 0x9e37)) % 65521; }

__global__ void hand_over(const int *in, int *buffer, unsigned *ready, int *ticket, int *out,
                          unsigned *gave_up)
{
    __shared__ int role;
    __shared__ bool arrived;
    if (threadIdx.x == 0)
        role = atomicAdd(ticket, 1);
    __syncthreads();
    if (role == 0) {
        for (int r = 0; r < ROUNDS; r++) {
            for (int i = threadIdx.x; i < SLOT; i += THREADS)
                buffer[r * SLOT + i] = produce(in[r * SLOT + i], r);
            __syncthreads();
            if (threadIdx.x == 0)
                flag_ref(ready[r]).store(1u, cuda::memory_order_release);
        }
    } else {
        for (int r = 0; r < ROUNDS; r++) {
            if (threadIdx.x == 0) {
                flag_ref flag(ready[r]);
                long spins = 0;
                while (flag.load(cuda::memory_order_acquire) == 0 && ++spins < SPIN_LIMIT)
                    ;
                arrived = spins < SPIN_LIMIT;
                if (!arrived)
                    atomicAdd(gave_up, 1u);
            }
            __syncthreads();
            if (arrived)
                for (int i = threadIdx.x; i < SLOT; i += THREADS)
                    out[r * SLOT + SLOT - 1 - i] = buffer[r * SLOT + i] + i;
            __syncthreads(); // `arrived` is rewritten in the next round
        }
    }
}

int main()
{
    rs_require_device();
    const int n = ROUNDS * SLOT;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (int)((i * 2654435761u) >> 8);
    int *in = rs_fill<int>(n, [&](size_t i) { return h[i]; });
    int *buffer = rs_zeros<int>(n), *out = rs_zeros<int>(n), *ticket = rs_zeros<int>(1);
    unsigned *ready = rs_zeros<unsigned>(ROUNDS), *gave_up = rs_zeros<unsigned>(1);
    hand_over<<<2, THREADS>>>(in, buffer, ready, ticket, out, gave_up);
    RS_LAUNCHED();
    unsigned failed = 0;
    RS_CHECK(cudaMemcpy(&failed, gave_up, sizeof failed, cudaMemcpyDeviceToHost));
    if (failed)
        rs_die("%u waits for the producer gave up", failed);
    int *got = rs_download(out, n);
    int bad = 0;
    long long sum = 0;
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < SLOT; i++) {
            int want = produce(h[r * SLOT + i], r) + i;
            bad += got[r * SLOT + SLOT - 1 - i] != want;
            sum += want;
        }
    printf("producer/consumer: %d rounds of %d, sum %lld, %d wrong\n", ROUNDS, SLOT, sum, bad);
    free(got);
    rs_done();
    return bad != 0;
}
