// global_app_tree_search_race.cu: the unbalanced tree search of
// global_app_tree_search_norace.cu, but the device-scope lock is taken without the
// __threadfence() after its atomicCAS. The relaxed CAS that reads the last holder's
// atomicExch is no acquire pattern on its own, so each block's critical section (the
// read and the write of the global tally) is not ordered after the previous holder's.
// Every block takes the lock once. lock_no_fence: the lock and its scope are right, the
// acquire fence is missing (missing_fence would not say that a lock is involved).
// SCORD-CATEGORY: 7
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A lock_no_fence
// SCORD-CAUSE: B lock_no_fence
#include "rs_common.h"
#include <vector>

enum { SUBTREES = 4096, MAX_DEPTH = 48, CHILDREN = 4, BRANCH_PER_MILLE = 245 };
enum { BLOCKS = 48, WARPS = 4, THREADS = WARPS * 32, WIDTH = 1024 };
// Waits are bounded so that a broken run fails loudly instead of hanging.
constexpr int SPIN_LIMIT = 1 << 24;

__host__ __device__ unsigned mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ x >> 16;
}

__host__ __device__ int children(unsigned hash, int depth)
{
    return depth < MAX_DEPTH && mix(hash) % 1000 < BRANCH_PER_MILLE ? CHILDREN : 0;
}

__host__ __device__ unsigned child(unsigned hash, int c)
{
    return mix(hash * CHILDREN + c + 1);
}

// Nodes counted, and the deepest level seen: its depth, its nodes, their least hash.
struct alignas(16) Tally {
    int nodes, depth, at_depth;
    unsigned least;
};

__host__ __device__ Tally merge(Tally a, Tally b)
{
    Tally m = a.depth >= b.depth ? a : b, other = a.depth >= b.depth ? b : a;
    m.nodes = a.nodes + b.nodes;
    if (other.depth == m.depth) {
        m.at_depth += other.at_depth;
        m.least = min(m.least, other.least);
    }
    return m;
}

struct Pool {
    unsigned next;      // the next subtree to take
    int lock;           // guards tally
    Tally tally;
};

__device__ void give_up_after(int spins, const char *lock)
{
    if (spins > SPIN_LIMIT) {
        printf("tree_search: the %s lock is still taken after %d tries\n", lock, spins);
        __trap();
    }
}

__device__ void lock_block(int *lock)
{
    for (int spins = 0; atomicCAS_block(lock, 0, 1) != 0; spins++)
        give_up_after(spins, "block");
    __threadfence_block();
}

__device__ void unlock_block(int *lock)
{
    __threadfence_block();
    atomicExch_block(lock, 0);
}

__device__ void lock_device(int *lock)
{
    for (int spins = 0; atomicCAS(lock, 0, 1) != 0; spins++) {
        give_up_after(spins, "device");
        __nanosleep(64);
    }
}

__device__ void unlock_device(int *lock)
{
    __threadfence();
    atomicExch(lock, 0);
}

__global__ void search(const unsigned *roots, Pool *pool)
{
    __shared__ unsigned level[2][WIDTH];
    __shared__ int width[2];
    __shared__ unsigned item;
    __shared__ Tally tally;
    __shared__ int tally_lock;
    int lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        tally = Tally{0, 0, 0, ~0u};
        tally_lock = 0;
    }
    for (;;) {
        if (threadIdx.x == 0) {
            item = atomicAdd(&pool->next, 1u);
            level[0][0] = item < SUBTREES ? roots[item] : 0;
            width[0] = item < SUBTREES;
            width[1] = 0;
        }
        __syncthreads();
        if (item >= SUBTREES)
            break;
        for (int depth = 1, cur = 0;; depth++, cur ^= 1) {
            int n = min(width[cur], WIDTH);
            if (n == 0)
                break;
            int mine = 0;
            unsigned least = ~0u;
            for (int k = threadIdx.x; k < n; k += THREADS) {
                unsigned h = level[cur][k];
                mine++;
                least = min(least, h);
                for (int c = 0; c < children(h, depth); c++) {
                    int slot = atomicAdd_block(&width[cur ^ 1], 1);
                    if (slot < WIDTH)
                        level[cur ^ 1][slot] = child(h, c);
                }
            }
            for (int d = 16; d > 0; d /= 2) {
                mine += __shfl_down_sync(~0u, mine, d);
                least = min(least, __shfl_down_sync(~0u, least, d));
            }
            if (lane == 0 && mine > 0) {
                lock_block(&tally_lock);
                tally = merge(tally, Tally{mine, depth, mine, least});
                unlock_block(&tally_lock);
            }
            __syncthreads();
            if (threadIdx.x == 0)
                width[cur] = 0;
            __syncthreads();
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        lock_device(&pool->lock);
        Tally sum = merge(pool->tally, tally);      // race(A) read global
        pool->tally = sum;                          // race(A) write global race(B) write,write global
        unlock_device(&pool->lock);
    }
}

int main()
{
    rs_require_device();
    std::vector<unsigned> roots(SUBTREES);
    for (int i = 0; i < SUBTREES; i++)
        roots[i] = mix(i * 2654435761u + 12345u);

    // The host reference walks the same levels; a level wider than the device's buffer
    // would be a bug of this program's parameters, not of the run.
    Tally want = {0, 0, 0, ~0u};
    for (unsigned root : roots) {
        std::vector<unsigned> cur(1, root), next;
        for (int depth = 1; !cur.empty(); depth++) {
            if (cur.size() > WIDTH)
                rs_die("a level of %zu nodes does not fit in %d", cur.size(), int(WIDTH));
            unsigned least = ~0u;
            for (unsigned h : cur) {
                least = min(least, h);
                for (int c = 0; c < children(h, depth); c++)
                    next.push_back(child(h, c));
            }
            want = merge(want, Tally{int(cur.size()), depth, int(cur.size()), least});
            cur.swap(next);
            next.clear();
        }
    }

    unsigned *root = rs_fill<unsigned>(SUBTREES, [&](size_t i) { return roots[i]; });
    Pool *pool = rs_zeros<Pool>(1);
    search<<<BLOCKS, THREADS>>>(root, pool);
    RS_LAUNCHED();
    Pool *got = rs_download(pool, 1);
    Tally t = got->tally;
    free(got);
    bool same = t.nodes == want.nodes && t.depth == want.depth && t.at_depth == want.at_depth &&
                t.least == want.least;
    // A tally the race lost would change the result: report it, do not fail.
    printf("host reference: %s\n", same ? "same" : "differs");
    printf("nodes %d, deepest level %d with %d nodes, least hash %08x\n", t.nodes, t.depth,
           t.at_depth, t.least);
    rs_print_checksum("tally", &pool->tally, 1);
    rs_done();
    return 0;
}
