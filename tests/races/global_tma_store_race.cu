// global_tma_store_race.cu: each block fills a 32x32 int tile in shared memory and
// thread 0 stores it to its tile of a row-major matrix with one tensor copy (TMA:
// cp.async.bulk.tensor.2d.global.shared::cta, a bulk group it then waits for), then
// publishes it: __threadfence() and a flag of its own. Warp 1 of the next block reads
// the first row of that tile without waiting for the flag: nothing orders the copy's
// write before the read. What it reads goes to a scratch array the program does not
// print. Twin: warp 1 spins on the flag with an acquire load first. The map is encoded
// over another buffer and moved to the matrix with cuTensorMapReplaceAddress.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A unsynchronized_blocks
#include <cstdint>

#include "rs_hopper.h"

enum { BLOCKS = 4, THREADS = 128, TILE = 32, WIDTH = TILE * BLOCKS, HEIGHT = TILE };

__device__ __forceinline__ int load_acquire(const int *p)
{
    int v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__global__ void store_tiles(const __grid_constant__ CUtensorMap map, const int *matrix, int *flags, int *scratch)
{
    __shared__ alignas(128) int tile[TILE][TILE];
    int t = threadIdx.x, b = blockIdx.x;
    for (int i = t; i < TILE * TILE; i += THREADS)
        tile[i / TILE][i % TILE] = b * 100000 + i;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                     ::"l"(&map), "r"(b * TILE), "r"(0), "r"(rs_smem(tile)) : "memory"); // race(A) write global
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
        __threadfence();
        atomicExch(&flags[b], 1);
    }
    if (t / 32 != 1 || b == 0)
        return;
    int lane = t % 32;
    int seen = matrix[(b - 1) * TILE + lane]; // race(A) read global
    scratch[b * 32 + lane] = seen;
}

int main()
{
    rs_require_device();
    int *first = rs_zeros<int>(WIDTH * HEIGHT), *matrix = rs_zeros<int>(WIDTH * HEIGHT);
    int *flags = rs_zeros<int>(BLOCKS);
    int *scratch = rs_zeros<int>(BLOCKS * 32);
    CUtensorMap map = rs_int_tiles(first, WIDTH, HEIGHT, TILE);
    rs_move_tiles(&map, matrix);
    store_tiles<<<BLOCKS, THREADS>>>(map, matrix, flags, scratch);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("matrix", matrix, WIDTH * HEIGHT);
    rs_done();
    return 0;
}
