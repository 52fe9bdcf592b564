// global_app_matmul_locks_race.cu: the split-k product of global_app_matmul_locks_norace.cu,
// but the tile lock is taken and released with the block-scope instance of the lock, as
// the warps' lock in shared memory is. The blocks that share a tile are then not ordered
// by it: their updates of C race (A, B: lock_scope). The lock word itself is written by
// atomicCAS_block and atomicExch_block from those blocks, whose cta scopes exclude each
// other: atomicity, and so mutual exclusion, is not guaranteed (C-E: atomic_scope, the
// cause of any two atomics whose scopes do not include each other).
// SCORD-CATEGORY: 7
// SCORD-EXPECT: 5 races
// SCORD-CAUSE: A lock_scope
// SCORD-CAUSE: B lock_scope
// SCORD-CAUSE: C atomic_scope
// SCORD-CAUSE: D atomic_scope
// SCORD-CAUSE: E atomic_scope
#include "rs_common.h"

enum { M = 128, N = 128, K = 1024, TILE = 32, SPLITS = 8, WARPS = 8 };
enum { K_BLOCK = K / SPLITS, K_WARP = K_BLOCK / WARPS, TILES = M / TILE * (N / TILE) };
// Waits are bounded so that a broken run fails loudly instead of hanging.
constexpr int SPIN_LIMIT = 1 << 24;

enum Scope { BLOCK, DEVICE };

template <Scope S> __device__ void acquire(int *lock)
{
    for (int spins = 0;; spins++) {
        int was;
        if (S == DEVICE)
            was = atomicCAS(lock, 0, 1);
        else
            was = atomicCAS_block(lock, 0, 1);  // race(C) atomic.cta,atomic.cta global race(D) atomic.cta global
        if (was == 0)
            break;
        if (spins > SPIN_LIMIT) {
            printf("matmul_locks: a lock is still taken after %d tries\n", spins);
            __trap();
        }
        __nanosleep(32);
    }
    if (S == DEVICE)
        __threadfence();
    else
        __threadfence_block();
}

template <Scope S> __device__ void release(int *lock)
{
    if (S == DEVICE) {
        __threadfence();
        atomicExch(lock, 0);
    } else {
        __threadfence_block();
        atomicExch_block(lock, 0);      // race(D) atomic.cta global race(E) atomic.cta,atomic.cta global
    }
}

__global__ void matmul(const int *a, const int *b, int *c, int *tile_lock)
{
    __shared__ int acc[TILE][TILE];
    __shared__ int acc_lock;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int i = threadIdx.x; i < TILE * TILE; i += blockDim.x)
        acc[i / TILE][i % TILE] = 0;
    if (threadIdx.x == 0)
        acc_lock = 0;
    __syncthreads();

    // Lane l computes column l of the warp's partial tile.
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    int k0 = blockIdx.z * K_BLOCK + warp * K_WARP;
    int part[TILE] = {};
    for (int k = k0; k < k0 + K_WARP; k++) {
        int bk = b[k * N + col0 + lane];
        for (int r = 0; r < TILE; r++)
            part[r] += a[(row0 + r) * K + k] * bk;
    }
    if (lane == 0)
        acquire<BLOCK>(&acc_lock);
    __syncwarp();
    for (int r = 0; r < TILE; r++)
        acc[r][lane] += part[r];
    __syncwarp();
    if (lane == 0)
        release<BLOCK>(&acc_lock);
    __syncthreads();

    int *lock = &tile_lock[blockIdx.y * gridDim.x + blockIdx.x];
    if (threadIdx.x == 0)
        acquire<BLOCK>(lock);
    __syncthreads();
    for (int i = threadIdx.x; i < TILE * TILE; i += blockDim.x) {
        int r = i / TILE, col = i % TILE;
        c[(row0 + r) * N + col0 + col] += acc[r][col];  // race(A) read,write global race(B) write,write global
    }
    __syncthreads();
    if (threadIdx.x == 0)
        release<BLOCK>(lock);
}

int main()
{
    rs_require_device();
    auto a_at = [](size_t i) { return int(i * 2654435761u >> 9 & 7) - 3; };
    auto b_at = [](size_t i) { return int(i * 40503u >> 5 & 7) - 4; };
    int *a = rs_fill<int>(M * K, a_at), *b = rs_fill<int>(K * N, b_at);
    int *c = rs_zeros<int>(M * N), *tile_lock = rs_zeros<int>(TILES);
    matmul<<<dim3(N / TILE, M / TILE, SPLITS), WARPS * 32>>>(a, b, c, tile_lock);
    RS_LAUNCHED();

    int *got = rs_download(c, M * N);
    bool same = true;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int want = 0;
            for (int k = 0; k < K; k++)
                want += a_at(size_t(i) * K + k) * b_at(size_t(k) * N + j);
            same = same && got[i * N + j] == want;
        }
    free(got);
    // An update the race lost would change the result: report it, do not fail.
    printf("host reference: %s\n", same ? "same" : "differs");
    rs_print_checksum("product", c, M * N);
    rs_done();
    return 0;
}
