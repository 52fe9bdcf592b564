// global_ldcg_after_mp_norace.cu: cache operators on data passed between blocks: block 0
// stores four values with __stcg (st.global.cg), __threadfence(), raises a volatile flag;
// block 1 waits for the flag, __threadfence(), and loads them with __ldcg, __ldcv, __ldcs
// and __ldlu (ld.global.cg/.cv/.cs/.lu). A cache operator is a hint about caching, not a
// memory order: these are weak accesses, ordered by the message passing like plain ones.
// SCORD-CATEGORY: 8
// SCORD-EXPECT: no race
#include "rs_sync.h"

enum { BLOCKS = 2, THREADS = 32, VALUES = 4 };

__global__ void pass_message(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        for (int i = 0; i < VALUES; i++)
            __stcg(&data[i], 7 * i + 5);
        __threadfence();
        *(volatile int *)flag = 1;
    } else if (rs_spin_until([&] { return *(volatile int *)flag != 0; })) {
        __threadfence();
        out[0] = __ldcg(&data[0]);
        out[1] = __ldcv(&data[1]);
        out[2] = __ldcs(&data[2]);
        out[3] = __ldlu(&data[3]);
    }
}

int main()
{
    rs_require_device();
    int *data = rs_zeros<int>(VALUES), *flag = rs_zeros<int>(1), *out = rs_zeros<int>(VALUES);
    pass_message<<<BLOCKS, THREADS>>>(data, flag, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("message", out, VALUES);
    rs_done();
    return 0;
}
