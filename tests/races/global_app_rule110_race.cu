// global_app_rule110_race.cu: Rule 110 on a ring of 2^16 cells, as
// global_app_rule110_norace.cu, but a warp picks its release scope by its right-hand
// border only. The first warp of each block then publishes with __threadfence_block()
// though its left-hand neighbour is the last warp of the previous block, whose lane 31
// reads the first cell of the new generation (A) and overwrites, a step later, the cell
// that the first warp's lane 0 read as its left neighbour (B): neither pair is ordered
// by the cta-scoped release. fence_scope: fences and flags are there, one scope is too
// narrow (the other direction across the border, released at gpu scope, is race-free).
// SCORD-CATEGORY: 6
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A fence_scope
// SCORD-CAUSE: B fence_scope
#include "rs_common.h"

enum { BLOCKS = 32, WARPS = 4, CELLS = 1 << 16, STEPS = 256 };
enum { RING = BLOCKS * WARPS, SEGMENT = CELLS / RING };
// Waits are bounded so that a broken run fails loudly instead of hanging.
constexpr int SPIN_LIMIT = 1 << 24;

__device__ void wait_for(const int *flag, int step)
{
    for (int spins = 0; *(volatile const int *)flag < step; spins++) {
        if (spins > SPIN_LIMIT) {
            printf("rule110: block %d never saw step %d of a neighbour\n", blockIdx.x, step);
            __trap();
        }
        __nanosleep(32);
    }
}

__device__ void fence(bool across_blocks)
{
    if (across_blocks)
        __threadfence();
    else
        __threadfence_block();
}

// cells holds two generations of the ring; flag[w] counts the steps warp w published.
__global__ void rule110(int *cells, int *flag)
{
    int lane = threadIdx.x % 32, warp_in_block = threadIdx.x / 32;
    int warp = blockIdx.x * WARPS + warp_in_block;
    int left = (warp + RING - 1) % RING, right = (warp + 1) % RING;
    bool left_outside = warp_in_block == 0, right_outside = warp_in_block == WARPS - 1;
    int start = warp * SEGMENT;
    for (int step = 0; step < STEPS; step++) {
        const int *cur = cells + step % 2 * CELLS;
        int *next = cells + (step + 1) % 2 * CELLS;
        // Lane 0 reads the left neighbour's last cell, lane 31 the right one's first.
        if (lane == 0) {
            wait_for(&flag[left], step);
            fence(left_outside);
        }
        if (lane == 31) {
            wait_for(&flag[right], step);
            fence(right_outside);
        }
        __syncwarp();
        for (int i = start + lane; i < start + SEGMENT; i += 32) {
            int l = cur[(i + CELLS - 1) % CELLS];               // race(B) read global
            int c = cur[i];
            int r = cur[(i + 1) % CELLS];                       // race(A) read global
            next[i] = (110 >> (l << 2 | c << 1 | r)) & 1;       // race(A) write global race(B) write global
        }
        __syncwarp();
        if (lane == 0) {
            fence(right_outside);
            *(volatile int *)&flag[warp] = step + 1;
        }
    }
}

int main()
{
    rs_require_device();
    static int ring[2][CELLS];
    for (int i = 0; i < CELLS; i++)
        ring[0][i] = (i * 2654435761u >> 13) & 1;
    int *cells = rs_fill<int>(2 * CELLS, [](size_t i) { return i < CELLS ? ring[0][i] : 0; });
    int *flag = rs_zeros<int>(RING);
    rule110<<<BLOCKS, WARPS * 32>>>(cells, flag);
    RS_LAUNCHED();

    for (int step = 0; step < STEPS; step++) {
        const int *cur = ring[step % 2];
        int *next = ring[(step + 1) % 2];
        for (int i = 0; i < CELLS; i++) {
            int l = cur[(i + CELLS - 1) % CELLS], r = cur[(i + 1) % CELLS];
            next[i] = (110 >> (l << 2 | cur[i] << 1 | r)) & 1;
        }
    }
    int *got = rs_download(cells + STEPS % 2 * CELLS, CELLS);
    bool same = memcmp(got, ring[STEPS % 2], sizeof ring[0]) == 0;
    free(got);
    // A stale border cell would change the result: report it, do not fail.
    printf("host reference: %s\n", same ? "same" : "differs");
    rs_print_checksum("generation 256", cells + STEPS % 2 * CELLS, CELLS);
    rs_done();
    return 0;
}
