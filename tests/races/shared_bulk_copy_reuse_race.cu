// shared_bulk_copy_reuse_race.cu: one tile in shared memory is loaded twice by bulk
// copies (cp.async.bulk ... mbarrier::complete_tx::bytes, the non-tensor form of TMA):
// thread 0 loads round 0, warps 1-3 wait for the mbarrier's phase 0 and read the row 32
// places on; thread 0 then loads round 1 into the same tile with nothing to tell it that
// the readers are done with round 0: the copy's writes race those reads (write after
// read). Cause: missing_fence (the threads synchronize through the mbarrier, which
// orders only the copy before the reads; a barrier, or an "empty" mbarrier the readers
// arrive on, is missing before the second copy).
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include <cstdint>

#include "rs_hopper.h"

enum { BLOCKS = 4, THREADS = 128, BYTES = THREADS * 16 };

__global__ void two_rounds(const int4 *in, int *out)
{
    __shared__ alignas(128) int4 tile[THREADS];
    __shared__ alignas(8) uint64_t full;
    int t = threadIdx.x, sum = 0;
    if (t == 0) {
        rs_mbar_init(&full, 1);
    }
    __syncthreads();
    for (int round = 0; round < 2; round++) {
        const int4 *src = in + (round * BLOCKS + blockIdx.x) * THREADS;
        if (t == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(rs_smem(&full)), "r"(BYTES)
                         : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                         ::"r"(rs_smem(tile)), "l"(src), "r"(BYTES), "r"(rs_smem(&full)) : "memory"); // race(A) write shared
        }
        if (!rs_mbar_wait(&full, (uint32_t)round))
            return;
        if (t >= 32) {
            int4 r = tile[(t + 32) % THREADS]; // race(A) read shared
            sum += r.x + r.y + r.z + r.w;
        }
    }
    out[blockIdx.x * THREADS + t] = sum;
}

int main()
{
    rs_require_device();
    int4 *in = rs_fill<int4>(2 * BLOCKS * THREADS, [](size_t i) {
        return make_int4(int(i), int(i * 3), int(i * 5 + 1), int(i * 7 + 2));
    });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    two_rounds<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("two_rounds", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
