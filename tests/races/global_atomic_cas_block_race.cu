// global_atomic_cas_block_race.cu: every thread of four blocks folds its input into one
// global maximum with a compare-and-swap loop on atomicCAS_block (atom.cas at .cta
// scope). Block scope does not include the other blocks' threads, so the
// compare-and-swaps of different blocks are not atomic with respect to each other: one
// block's update can be lost.
// SCORD-CATEGORY: 5
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_scope
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64 };

// The maximum of the inputs, by a compare-and-swap loop (what atomicMax does).
__global__ void find_max(const unsigned *in, unsigned *max)
{
    unsigned v = in[blockIdx.x * THREADS + threadIdx.x];
    unsigned seen = 0, assumed;
    do {
        assumed = seen;
        unsigned larger = v > assumed ? v : assumed;
        seen = atomicCAS_block(max, assumed, larger);    // race(A) atomic.cta,atomic.cta global
    } while (seen != assumed);
}

int main()
{
    rs_require_device();
    unsigned *in = rs_fill<unsigned>(BLOCKS * THREADS, [](size_t i) {
        return unsigned(i * 2654435761u % 1000003u);
    });
    unsigned *max = rs_zeros<unsigned>(1);
    find_max<<<BLOCKS, THREADS>>>(in, max);
    RS_LAUNCHED();
    rs_print_checksum("max", max, 1);
    rs_done();
    return 0;
}
