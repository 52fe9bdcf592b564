// global_mp_block_fence_race.cu: message passing between two blocks with block-scope
// fences on both sides: block 0 writes a value, __threadfence_block(), raises a volatile
// flag; block 1 waits for the flag, __threadfence_block(), reads the value. A release
// pattern synchronizes with an acquire pattern only if its first operation (the writer's
// fence) and the acquire's last (the reader's fence) include each other's thread; .cta
// scope includes neither block from the other, so the read races the write.
// SCORD-CATEGORY: 6
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A fence_scope
#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 32 };

__global__ void pass_message(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        *data = 42;      // race(A) write global
        __threadfence_block();
        *(volatile int *)flag = 1;
    } else if (rs_spin_until([&] { return *(volatile int *)flag != 0; })) {
        __threadfence_block();
        *out = *data;    // race(A) read global
    }
}

int main()
{
    rs_require_device();
    int *data = rs_zeros<int>(1), *flag = rs_zeros<int>(1), *out = rs_zeros<int>(1);
    pass_message<<<BLOCKS, THREADS>>>(data, flag, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("message", out, 1);
    rs_done();
    return 0;
}
