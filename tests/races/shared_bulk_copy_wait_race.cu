// shared_bulk_copy_wait_race.cu: thread 0 loads a 2 KiB tile from global into shared
// memory with one bulk copy (cp.async.bulk ... mbarrier::complete_tx::bytes, the
// non-tensor form of TMA), after mbarrier.arrive.expect_tx on the tile's mbarrier;
// warps 1-3 read the row 32 places on before they wait for the mbarrier's phase: the
// copy may not have landed. Cause: missing_fence (the readers lack the acquire, the
// wait, that the copy's complete-tx releases to).
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include <cstdint>

#include "rs_hopper.h"

enum { BLOCKS = 4, THREADS = 128, BYTES = THREADS * 16 };

__global__ void rotate_rows(const int4 *in, int *out)
{
    __shared__ alignas(128) int4 tile[THREADS];
    __shared__ alignas(8) uint64_t full;
    int t = threadIdx.x;
    if (t == 0) {
        rs_mbar_init(&full, 1);
    }
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(rs_smem(&full)), "r"(BYTES)
                     : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(rs_smem(tile)), "l"(in + blockIdx.x * THREADS), "r"(BYTES), "r"(rs_smem(&full)) : "memory"); // race(A) write shared
    }
    if (t < 32) {
        rs_mbar_wait(&full, 0);
        return;
    }
    int4 r = tile[(t + 32) % THREADS]; // race(A) read shared
    if (!rs_mbar_wait(&full, 0))
        return;
    out[blockIdx.x * THREADS + t] = r.x + r.y + r.z + r.w;
}

int main()
{
    rs_require_device();
    int4 *in = rs_fill<int4>(BLOCKS * THREADS, [](size_t i) {
        return make_int4(int(i), int(i * 3), int(i * 5 + 1), int(i * 7 + 2));
    });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    rotate_rows<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("rotate_rows", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
