// global_app_graph_coloring_race.cu: the Jones-Plassmann colouring of
// global_app_graph_coloring_norace.cu, but a warp takes chunks from its own block's
// queue with atomicAdd_block, as if the queue were the block's alone. Warps of other
// blocks steal from the same counter with atomicAdd: the cta scope of the owner's
// atomics does not include the thieves' blocks, so the two are not atomic with respect
// to each other (atomic_scope), in every round.
// SCORD-CATEGORY: 5
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A atomic_scope
#include "rs_common.h"
#include <vector>

enum { VERTICES = 1 << 14, EDGES = 1 << 16, CHUNK = 32, BLOCKS = 64, WARPS = 4 };
enum { PER_QUEUE = VERTICES / CHUNK / BLOCKS, MAX_DEGREE = 63 };

struct Graph {
    const int *row;     // CSR: the neighbours of v are adj[row[v]] .. adj[row[v + 1] - 1]
    const int *adj;
};

__host__ __device__ unsigned priority(int v)
{
    unsigned x = v * 0x9e3779b9u;
    x ^= x >> 16;
    x *= 0x7feb352du;
    return x ^ x >> 15;
}

__host__ __device__ bool beats(int u, int v)
{
    return priority(u) > priority(v) || (priority(u) == priority(v) && u > v);
}

// This round's colour of v, from the colours of the last round (-1: none yet).
__host__ __device__ int colour_of(const int *row, const int *adj, const int *before, int v)
{
    if (before[v] >= 0)
        return before[v];
    unsigned long long taken = 0;
    for (int e = row[v]; e < row[v + 1]; e++) {
        int u = adj[e];
        if (before[u] >= 0)
            taken |= 1ull << before[u];
        else if (beats(u, v))
            return -1;
    }
    int c = 0;
    while (taken >> c & 1)
        c++;
    return c;
}

__global__ void colour_round(Graph g, const int *before, int *after, unsigned *next,
                             unsigned *coloured_by)
{
    int lane = threadIdx.x % 32;
    unsigned coloured = 0;
    for (int k = 0; k < BLOCKS; k++) {
        int queue = (blockIdx.x + k) % BLOCKS;
        for (;;) {
            unsigned chunk = 0;
            if (lane == 0) {
                if (k == 0)
                    chunk = atomicAdd_block(&next[queue], 1u);  // own queue race(A) atomic.cta global
                else
                    chunk = atomicAdd(&next[queue], 1u);        // stealing  race(A) atomic.gpu global
            }
            chunk = __shfl_sync(~0u, chunk, 0);
            if (chunk >= PER_QUEUE)
                break;
            int v = (queue * PER_QUEUE + chunk) * CHUNK + lane;
            after[v] = colour_of(g.row, g.adj, before, v);
            coloured += before[v] < 0 && after[v] >= 0;
        }
    }
    for (int d = 16; d > 0; d /= 2)
        coloured += __shfl_down_sync(~0u, coloured, d);
    if (lane == 0)
        atomicAdd_block(&coloured_by[blockIdx.x], coloured);
}

int main()
{
    rs_require_device();
    // A random graph, without self-loops; an edge listed twice is harmless.
    std::vector<std::vector<int>> nbrs(VERTICES);
    unsigned seed = 12345;
    auto rnd = [&] { return (seed = seed * 1664525u + 1013904223u) >> 8; };
    for (int e = 0; e < EDGES; e++) {
        int u = rnd() % VERTICES, v = rnd() % VERTICES;
        if (u != v) {
            nbrs[u].push_back(v);
            nbrs[v].push_back(u);
        }
    }
    std::vector<int> row(1, 0), adj;
    for (auto &n : nbrs) {
        if (n.size() > MAX_DEGREE)
            rs_die("a vertex has %zu neighbours: colours would not fit in 64 bits", n.size());
        adj.insert(adj.end(), n.begin(), n.end());
        row.push_back(int(adj.size()));
    }
    Graph g = {rs_fill<int>(row.size(), [&](size_t i) { return row[i]; }),
               rs_fill<int>(adj.size(), [&](size_t i) { return adj[i]; })};
    int *colour[2] = {rs_fill<int>(VERTICES, [](size_t) { return -1; }), rs_zeros<int>(VERTICES)};
    unsigned *next = rs_zeros<unsigned>(BLOCKS), *coloured_by = rs_zeros<unsigned>(BLOCKS);

    std::vector<int> before(VERTICES, -1), after(VERTICES);
    int rounds = 0;
    for (int left = VERTICES; left > 0; rounds++) {
        RS_CHECK(cudaMemset(next, 0, BLOCKS * sizeof *next));
        RS_CHECK(cudaMemset(coloured_by, 0, BLOCKS * sizeof *coloured_by));
        colour_round<<<BLOCKS, WARPS * 32>>>(g, colour[rounds % 2], colour[(rounds + 1) % 2], next,
                                             coloured_by);
        RS_LAUNCHED();
        unsigned *counts = rs_download(coloured_by, BLOCKS);
        int coloured = 0;
        for (int b = 0; b < BLOCKS; b++)
            coloured += counts[b];
        free(counts);
        if (coloured == 0)
            rs_die("round %d coloured no vertex", rounds);
        left -= coloured;
        for (int v = 0; v < VERTICES; v++)
            after[v] = colour_of(row.data(), adj.data(), before.data(), v);
        before.swap(after);
    }
    int *got = rs_download(colour[rounds % 2], VERTICES);
    bool same = memcmp(got, before.data(), VERTICES * sizeof(int)) == 0;
    free(got);
    // A chunk the race handed out twice or never would change the result: report it.
    printf("host reference: %s\n", same ? "same" : "differs");
    printf("rounds: %d\n", rounds);
    rs_print_checksum("colours", colour[rounds % 2], VERTICES);
    rs_done();
    return 0;
}
