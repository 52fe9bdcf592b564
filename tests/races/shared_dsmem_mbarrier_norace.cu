// shared_dsmem_mbarrier_norace.cu: in each cluster of two blocks (sm_90), warp 0 of
// the second block fills a tile in the first block's shared memory (distributed shared
// memory) and each of its lanes arrives on the first block's mbarrier from afar
// (mbarrier.arrive.release.cluster.shared::cluster); the first block waits for the
// phase with mbarrier.try_wait.parity.acquire.cluster and reads the tile. Release and
// acquire at cluster scope, through the first block's object, order the stores before
// the reads.
// SCORD-CATEGORY: 12
// SCORD-REQUIRES: sm_90
// SCORD-PTX-TARGETS: sm_90 sm_90a
// SCORD-EXPECT: no race
#include <cstdint>

#include <cooperative_groups.h>

#include "rs_hopper.h"

namespace cg = cooperative_groups;

enum { BLOCKS = 8, THREADS = 64, LANES = 32 };

__global__ void __cluster_dims__(2, 1, 1) hand_over(const int *in, int *out)
{
    __shared__ int tile[LANES];
    __shared__ alignas(8) uint64_t full;
    cg::cluster_group cluster = cg::this_cluster();
    int t = threadIdx.x;
    if (cluster.block_rank() == 0 && t == 0) {
        rs_mbar_init(&full, LANES);
    }
    cluster.sync();
    if (cluster.block_rank() == 1) {
        if (t < LANES) {
            /* Warp 0 of the second block fills the first block's tile and arrives on its
             * mbarrier, each lane for its own store. */
            int *remote_tile = cluster.map_shared_rank(tile, 0);
            remote_tile[t] = in[blockIdx.x * LANES + t] * 3 + 1;
            uint32_t remote_bar;
            asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote_bar) : "r"(rs_smem(&full)));
            asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote_bar)
                         : "memory");
        }
    } else if (rs_spin_until([&] {
                   uint32_t done;
                   asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0;\n"
                                " selp.u32 %0, 1, 0, p;\n}" : "=r"(done) : "r"(rs_smem(&full)) : "memory");
                   return done != 0;
               })) {
        out[blockIdx.x * THREADS + t] = tile[(t + 5) % LANES];
    }
    cluster.sync();
}

int main()
{
    rs_require_device();
    int *in = rs_fill<int>(BLOCKS * LANES, [](size_t i) { return int(i * 7 % 101); });
    int *out = rs_zeros<int>(BLOCKS * THREADS);
    hand_over<<<BLOCKS, THREADS>>>(in, out);
    RS_LAUNCHED();
    rs_check_spins();
    rs_print_checksum("handed over", out, BLOCKS * THREADS);
    rs_done();
    return 0;
}
