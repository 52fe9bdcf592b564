// warp.cu: warp-collective instructions (shfl/vote/match/redux/elect .sync,
// activemask) and cooperative-groups tiled partitions built on them.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "stress.cuh"

namespace cg = cooperative_groups;

__global__ void warp_collectives(const int *in, int *out)
{
    int i = threadIdx.x;
    int v = in[i];
    unsigned full = 0xffffffffu;
    int acc = __shfl_sync(full, v, 0);
    acc += __shfl_up_sync(full, v, 1);
    acc += __shfl_down_sync(full, v, 2);
    acc += __shfl_xor_sync(full, v, 4);
    acc += (int)__shfl_sync(full, (double)v, 3);
    acc += __all_sync(full, v > 0);
    acc += __any_sync(full, v > 1);
    acc += __uni_sync(full, v > 2);
    acc += __popc(__ballot_sync(full, v > 3));
    acc += __popc(__activemask());
    acc += __popc(__match_any_sync(full, v));
    int pred;
    acc += __popc(__match_all_sync(full, v & 1, &pred)) + pred;
    {
        unsigned r;
        asm volatile("shfl.sync.idx.b32 %0, %1, 5, 0x1f, %2;" : "=r"(r) : "r"(v), "r"(full));
        acc += r;
        asm volatile("{ .reg .pred p; shfl.sync.bfly.b32 %0|p, %1, 1, 0x1f, %2; }" : "=r"(r) : "r"(v), "r"(full));
        acc += r;
        asm volatile("vote.sync.ballot.b32 %0, 1, %1;" : "=r"(r) : "r"(full));
        acc += r;
        asm volatile("{ .reg .pred p; vote.sync.any.pred p, 1, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(full));
        acc += r;
        asm volatile("match.any.sync.b64 %0, %1, %2;" : "=r"(r) : "l"((long long)v), "r"(full));
        acc += r;
        asm volatile("activemask.b32 %0;" : "=r"(r));
        acc += r;
    }
#if STRESS_SM80
    acc += (int)__reduce_add_sync(full, (unsigned)v);
    acc += (int)__reduce_min_sync(full, (unsigned)v);
    acc += __reduce_max_sync(full, v);
    acc += (int)__reduce_and_sync(full, (unsigned)v);
    acc += (int)__reduce_or_sync(full, (unsigned)v);
    acc += (int)__reduce_xor_sync(full, (unsigned)v);
    {
        unsigned r;
        asm volatile("redux.sync.add.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(full));
        acc += r;
    }
#endif
#if STRESS_SM90
    {
        unsigned leader;
        asm volatile("{ .reg .pred p; elect.sync %0|p, %1; }" : "=r"(leader) : "r"(full));
        acc += leader;
        asm volatile("{ .reg .pred p; elect.sync _|p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(leader) : "r"(full));
        acc += leader;
    }
#endif
    __nanosleep(10);
    out[i] = acc;
}

__global__ void tiled_partitions(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(warp);
    int v = in[block.thread_rank()];
    int acc = cg::reduce(warp, v, cg::plus<int>());
    acc += tile8.shfl_down(v, 1);
    acc += tile8.any(v > 3);
    acc += (int)warp.ballot(v > 5);
    tile8.sync();
    warp.sync();
    cg::coalesced_group active = cg::coalesced_threads();
    if (v & 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        acc += odd.shfl(v, 0) + (int)odd.size();
        odd.sync();
    }
    acc += (int)active.thread_rank();
    cg::thread_group dyn = cg::tiled_partition(block, 16);
    dyn.sync();
    block.sync();
    out[block.thread_rank()] = acc;
}
