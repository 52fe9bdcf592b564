// shared_tma_load_wait_race.cu: thread 0 of each block loads a 32x32 tile of a
// row-major int matrix into shared memory with one tensor copy (TMA:
// cp.async.bulk.tensor.2d through a tensor map the host encoded with
// cuTensorMapEncodeTiled), after mbarrier.arrive.expect_tx on the tile's mbarrier;
// warps 1-3 read a row of the tile before they wait for the mbarrier's phase: the
// copy may not have landed. Cause: missing_fence (the readers lack the acquire, the
// wait, that the copy's complete-tx releases to). What they read early goes to a
// scratch array the program does not print. Twin: the read after the wait.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_fence
#include <cstdint>

#include "rs_hopper.h"

enum { BLOCKS = 4, THREADS = 128, TILE = 32, WIDTH = TILE * BLOCKS, HEIGHT = TILE };

__global__ void tile_rows(const __grid_constant__ CUtensorMap map, int *out, int *scratch)
{
    __shared__ alignas(128) int tile[TILE][TILE];
    __shared__ alignas(8) uint64_t full;
    int t = threadIdx.x;
    if (t == 0) {
        rs_mbar_init(&full, 1);
    }
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(rs_smem(&full)),
                     "r"((int)sizeof tile) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];" ::"r"(rs_smem(tile)), "l"(&map), "r"(blockIdx.x * TILE), "r"(0),
                     "r"(rs_smem(&full)) : "memory"); // race(A) write shared
    }
    if (t < 32) {
        rs_mbar_wait(&full, 0);
        return;
    }
    int early = tile[t % TILE][t / TILE * 8]; // race(A) read shared
    if (!rs_mbar_wait(&full, 0))
        return;
    scratch[blockIdx.x * THREADS + t] = early;
    out[blockIdx.x * THREADS + t] = tile[t % TILE][t / TILE * 8 + 1];
}

int main()
{
    rs_require_device();
    int *matrix = rs_fill<int>(WIDTH * HEIGHT, [](size_t i) { return int(i * 7 + 3); });
    int *out = rs_zeros<int>(BLOCKS * THREADS), *scratch = rs_zeros<int>(BLOCKS * THREADS);
    CUtensorMap map = rs_int_tiles(matrix, WIDTH, HEIGHT, TILE);
    tile_rows<<<BLOCKS, THREADS>>>(map, out, scratch);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("tile_rows", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
