// global_volatile_pipeline_norace.cu: a producer block streams eight items to a consumer
// block through one volatile sequence counter: for each item it writes the item,
// __threadfence(), and stores the item's number + 1 in the counter; the consumer polls
// the counter with volatile loads until it passes the item's number, __threadfence(), and
// reads the item. Volatile accesses are strong (relaxed, system scope), so fence +
// counter store and counter load + fence are release and acquire patterns: every item is
// ordered before its read. The count the consumer sees may be a later one than the
// item's; its release covers the item too, since the producer wrote the item before that
// fence.
// SCORD-CATEGORY: 8
// SCORD-EXPECT: no race
#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 32, ITEMS = 8 };

__global__ void stream_items(int *items, int *published, int *out)
{
    if (threadIdx.x != 0)
        return;
    volatile int *count = published;
    if (blockIdx.x == 0) {
        for (int i = 0; i < ITEMS; i++) {
            items[i] = i * i + 3;
            __threadfence();
            *count = i + 1;
        }
        return;
    }
    for (int i = 0; i < ITEMS; i++) {
        if (!rs_spin_until([&] { return *count > i; }))
            return;
        __threadfence();
        out[i] = items[i] * 2;
    }
}

int main()
{
    rs_require_device();
    int *items = rs_zeros<int>(ITEMS), *published = rs_zeros<int>(1), *out = rs_zeros<int>(ITEMS);
    stream_items<<<BLOCKS, THREADS>>>(items, published, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("items", out, ITEMS);
    rs_done();
    return 0;
}
