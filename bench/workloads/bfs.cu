// bfs.cu: breadth-first search from vertex 0 over an undirected graph of 1M vertices
// in CSR form, generated from a fixed seed: a random recursive tree (vertex v > 0 is
// joined to a random earlier vertex, so the graph is connected and has hubs) plus
// 256K random edges, about 1.3M edges (2.6M adjacency entries) in all.
// Level-synchronous: one launch per level, one thread per vertex of the frontier; a
// thread claims each unvisited neighbour with a global atomicCAS on its distance and
// appends the ones it claimed to the next frontier with a global atomicAdd. The host
// reads the next frontier's length after each level (as such codes do), so a run's
// time includes those small copies. One launch to reset the distances plus one per
// level; the distances are compared with the host's BFS.
#include "bench.h"

enum { VERTICES = 1 << 20, EXTRA_EDGES = 1 << 18, BLOCK = 256 };
#define UNVISITED 0xffffffffu

__global__ void bfs_reset(unsigned *dist, unsigned n, unsigned source)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dist[i] = i == source ? 0 : UNVISITED;
}

__global__ void bfs_level(const unsigned *row_start, const unsigned *adj, unsigned *dist,
                          const unsigned *frontier, unsigned frontier_len, unsigned *next,
                          unsigned *next_len, unsigned next_dist)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= frontier_len)
        return;
    unsigned v = frontier[i];
    for (unsigned e = row_start[v]; e < row_start[v + 1]; e++) {
        unsigned u = adj[e];
        // Only the thread whose exchange succeeds appends u, so it enters once.
        if (atomicCAS(&dist[u], UNVISITED, next_dist) == UNVISITED)
            next[atomicAdd(next_len, 1u)] = u;
    }
}

typedef struct Bfs {
    unsigned *row_start, *adj, *dist, *frontier, *next, *next_len;
    unsigned levels;  // of the last run: frontiers expanded
} Bfs;

static void pipeline(BenchRun *run, void *ctx)
{
    Bfs *g = (Bfs *)ctx;
    const unsigned source = 0;
    bfs_reset<<<(VERTICES + BLOCK - 1) / BLOCK, BLOCK>>>(g->dist, VERTICES, source);
    BENCH_LAUNCHED(run);
    BENCH_CUDA(cudaMemcpy(g->frontier, &source, sizeof source, cudaMemcpyHostToDevice));
    unsigned *frontier = g->frontier, *next = g->next;
    unsigned len = 1, levels = 0;
    while (len) {
        BENCH_CUDA(cudaMemsetAsync(g->next_len, 0, sizeof(unsigned)));
        bfs_level<<<(len + BLOCK - 1) / BLOCK, BLOCK>>>(g->row_start, g->adj, g->dist, frontier,
                                                         len, next, g->next_len, levels + 1);
        BENCH_LAUNCHED(run);
        BENCH_CUDA(cudaMemcpy(&len, g->next_len, sizeof len, cudaMemcpyDeviceToHost));
        unsigned *t = frontier;
        frontier = next;
        next = t;
        levels++;
    }
    g->levels = levels;
}

// The graph: n - 1 tree edges and `extra` random ones, each stored in both directions,
// neighbours in the order the edges were made.
static void make_graph(const BenchRun *run, unsigned n, unsigned extra, unsigned **row_start_out,
                       unsigned **adj_out, unsigned *entries_out)
{
    unsigned edges = n - 1 + extra;
    unsigned *ends = (unsigned *)bench_host_alloc(run, 2 * (size_t)edges * sizeof(unsigned));
    uint64_t seed = 0x5eed0501;
    for (unsigned v = 1; v < n; v++) {
        ends[2 * (v - 1)] = (unsigned)(bench_rand(&seed) % v);
        ends[2 * (v - 1) + 1] = v;
    }
    for (unsigned e = n - 1; e < edges; e++) {
        unsigned a = (unsigned)(bench_rand(&seed) % n), b = (unsigned)(bench_rand(&seed) % n);
        if (a == b)
            b = (b + 1) % n;
        ends[2 * e] = a;
        ends[2 * e + 1] = b;
    }
    unsigned *row_start = (unsigned *)bench_host_alloc(run, ((size_t)n + 1) * sizeof(unsigned));
    unsigned *fill = (unsigned *)bench_host_alloc(run, (size_t)n * sizeof(unsigned));
    unsigned *adj = (unsigned *)bench_host_alloc(run, 2 * (size_t)edges * sizeof(unsigned));
    memset(fill, 0, (size_t)n * sizeof(unsigned));
    for (size_t i = 0; i < 2 * (size_t)edges; i++)
        fill[ends[i]]++;
    row_start[0] = 0;
    for (unsigned v = 0; v < n; v++) {
        row_start[v + 1] = row_start[v] + fill[v];
        fill[v] = row_start[v];
    }
    for (unsigned e = 0; e < edges; e++) {
        unsigned a = ends[2 * e], b = ends[2 * e + 1];
        adj[fill[a]++] = b;
        adj[fill[b]++] = a;
    }
    free(fill);
    free(ends);
    *row_start_out = row_start;
    *adj_out = adj;
    *entries_out = 2 * edges;
}

int main(int argc, char **argv)
{
    BenchRun run;
    bench_init(&run, "bfs", argc, argv);
    unsigned *row_start, *adj, entries;
    make_graph(&run, VERTICES, EXTRA_EDGES, &row_start, &adj, &entries);
    size_t vbytes = (size_t)VERTICES * sizeof(unsigned);

    Bfs g;
    g.row_start = (unsigned *)bench_alloc(&run, vbytes + sizeof(unsigned));
    g.adj = (unsigned *)bench_alloc(&run, (size_t)entries * sizeof(unsigned));
    g.dist = (unsigned *)bench_alloc(&run, vbytes);
    // Every vertex enters a frontier at most once.
    g.frontier = (unsigned *)bench_alloc(&run, vbytes);
    g.next = (unsigned *)bench_alloc(&run, vbytes);
    g.next_len = (unsigned *)bench_alloc(&run, sizeof(unsigned));
    g.levels = 0;
    BENCH_CUDA(cudaMemcpy(g.row_start, row_start, vbytes + sizeof(unsigned),
                          cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(g.adj, adj, (size_t)entries * sizeof(unsigned), cudaMemcpyHostToDevice));
    bench_load((const void *)bfs_reset);
    bench_load((const void *)bfs_level);
    bench_time(&run, pipeline, &g);
    unsigned *got = (unsigned *)bench_host_alloc(&run, vbytes);
    BENCH_CUDA(cudaMemcpy(got, g.dist, vbytes, cudaMemcpyDeviceToHost));

    unsigned *want = (unsigned *)bench_host_alloc(&run, vbytes);
    unsigned *queue = (unsigned *)bench_host_alloc(&run, vbytes);
    for (unsigned v = 0; v < VERTICES; v++)
        want[v] = UNVISITED;
    want[0] = 0;
    queue[0] = 0;
    unsigned head = 0, tail = 1;
    while (head < tail) {
        unsigned v = queue[head++];
        for (unsigned e = row_start[v]; e < row_start[v + 1]; e++)
            if (want[adj[e]] == UNVISITED) {
                want[adj[e]] = want[v] + 1;
                queue[tail++] = adj[e];
            }
    }
    unsigned depth = want[queue[tail - 1]];
    for (unsigned v = 0; v < VERTICES; v++)
        if (got[v] != want[v])
            bench_die("bfs: vertex %u is at distance %u, expected %u", v, got[v], want[v]);
    // The last level finds nothing new: one launch per distance, and one more.
    if (g.levels != depth + 1)
        bench_die("bfs: %u levels were expanded, expected %u", g.levels, depth + 1);
    bench_checksum(&run, bench_fnv1a(got, vbytes));
    printf("bfs: ok (%d vertices, %u adjacency entries, %u reached, depth %u)\n", VERTICES,
           entries, tail, depth);
    BENCH_CUDA(cudaFree(g.row_start));
    BENCH_CUDA(cudaFree(g.adj));
    BENCH_CUDA(cudaFree(g.dist));
    BENCH_CUDA(cudaFree(g.frontier));
    BENCH_CUDA(cudaFree(g.next));
    BENCH_CUDA(cudaFree(g.next_len));
    free(row_start);
    free(adj);
    free(got);
    free(want);
    free(queue);
    return 0;
}
