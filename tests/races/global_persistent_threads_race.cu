// global_persistent_threads_race.cu: a persistent-threads kernel: a fixed grid of four
// blocks loops over 32 work items (block b takes items b, b + 4, ...), each adding a
// 64-element patch into a canvas at an offset from an input table. With patches 64
// apart (no arguments) patches never overlap; with --overlap, the run the suite makes,
// consecutive patches, which belong to different blocks, share 16 elements, and
// the plain read-modify-writes of those elements race.
// SCORD-CATEGORY: 11
// SCORD-RUN: --overlap
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A unsynchronized_blocks
// SCORD-CAUSE: B unsynchronized_blocks
#include "rs_common.h"

enum { BLOCKS = 4, THREADS = 64, ITEMS = 32 };

__global__ void paint(const int *offset, int *canvas)
{
    for (int item = blockIdx.x; item < ITEMS; item += gridDim.x) {
        int base = offset[item];
        canvas[base + threadIdx.x] += item + 1;     // race(A) read,write global race(B) write,write global
    }
}

int main(int argc, char **argv)
{
    rs_require_device();
    int step = argc > 1 && strcmp(argv[1], "--overlap") == 0 ? 48 : THREADS;
    int *offset = rs_fill<int>(ITEMS, [&](size_t item) { return int(item) * step; });
    int *canvas = rs_zeros<int>(ITEMS * THREADS);
    paint<<<BLOCKS, THREADS>>>(offset, canvas);
    RS_LAUNCHED();
    rs_print_checksum("canvas", canvas, ITEMS * THREADS);
    rs_done();
    return 0;
}
