// global_atomic_block_private_norace.cu: block-scope atomics on global memory that only
// one block touches: each of four blocks counts its threads into its own global counter
// with atomicAdd_block and claims its own global slot with atomicCAS_block; after a
// __syncthreads() one thread of the block reads both with plain loads. Block scope
// includes every thread that accesses these words, and the barrier orders the plain reads
// after the atomics: no race.
// SCORD-CATEGORY: 5
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

__global__ void count_per_block(int *counts, int *owner, int *out)
{
    int b = blockIdx.x;
    atomicAdd_block(&counts[b], 1);
    atomicCAS_block(&owner[b], 0, int(threadIdx.x) + 1);
    __syncthreads();
    if (threadIdx.x == 0)
        out[b] = counts[b] * 100 + (owner[b] != 0);
}

int main()
{
    rs_require_device();
    int *counts = rs_zeros<int>(BLOCKS), *owner = rs_zeros<int>(BLOCKS);
    int *out = rs_zeros<int>(BLOCKS);
    count_per_block<<<BLOCKS, THREADS>>>(counts, owner, out);
    RS_LAUNCHED();
    rs_print_checksum("per-block counts", out, BLOCKS);
    rs_done();
    return 0;
}
