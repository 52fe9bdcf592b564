// shared_mbarrier_pipeline_race.cu: a two-stage producer/consumer pipeline in shared
// memory synchronized by raw mbarriers, the way CUTLASS-style kernels do it: warp 0
// fills stage r % 2 in round r and arrives on its "full" barrier; warp 1 waits for that
// phase (mbarrier.try_wait.parity), reads the stage and arrives on its "empty" barrier,
// which the producer waits for before it fills the stage again two rounds later. Each
// of the 32 lanes arrives, so every access is released by its own thread. Here the
// producer stores into the stage before it waits for the stage to be empty: the store
// races the consumer's read of two rounds before. Cause: missing_fence, synchronization
// through the mbarriers that lacks the acquire (the producer's wait) the store needs.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include <cstdint>

#include "rs_hopper.h"

enum { BLOCKS = 8, STAGES = 2, ROUNDS = 8, LANES = 32 };

__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(rs_smem(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(rs_smem(bar)) : "memory");
}

__global__ void pipeline(const int *in, int *out)
{
    __shared__ int stage[STAGES][LANES];
    __shared__ uint64_t full[STAGES], empty[STAGES];
    int lane = threadIdx.x % LANES;
    if (threadIdx.x < STAGES) {
        mbar_init(&full[threadIdx.x], LANES);
        mbar_init(&empty[threadIdx.x], LANES);
    }
    __syncthreads();
    int sum = 0;
    for (int r = 0; r < ROUNDS; r++) {
        int s = r % STAGES;
        uint32_t phase = (uint32_t)(r / STAGES) & 1u;
        if (threadIdx.x < LANES) {
            stage[s][lane] = in[(blockIdx.x * ROUNDS + r) * LANES + lane] + r;   // race(A) write shared
            if (r >= STAGES && !rs_mbar_wait(&empty[s], phase ^ 1u))
                return;
            mbar_arrive(&full[s]);
        } else {
            if (!rs_mbar_wait(&full[s], phase))
                return;
            sum += stage[s][(lane * 3 + r) % LANES];                             // race(A) read shared
            mbar_arrive(&empty[s]);
        }
    }
    if (threadIdx.x >= LANES)
        out[blockIdx.x * LANES + lane] = sum;
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * ROUNDS * LANES, [](size_t i) { return int(i % 97); });
    int *out = rs_zeros<int>(BLOCKS * LANES);
    pipeline<<<BLOCKS, 2 * LANES>>>(in, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("pipeline", out, BLOCKS * LANES);
    rs_done();
    return 0;
}
