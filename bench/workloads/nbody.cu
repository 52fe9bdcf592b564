// nbody.cu: four steps of an all-pairs n-body simulation in integer arithmetic (exact,
// so the host's reference is bit-equal): 8192 bodies with a position, a velocity and a
// mass; each thread accumulates the softened pull of every body on its own, the bodies
// read in tiles of 128 that the block stages in shared memory (a barrier after each
// tile is filled and after it is used, every thread reading every word of the tile),
// then writes its body's new velocity and position into the other of two global
// buffers (ping-pong, one launch per step). Global reads and writes of whole bodies,
// shared tiles read by every warp: the traffic of the classic CUDA n-body.
#include "bench.h"

enum { BODIES = 8192, TILE = 128, STEPS = 4 };

typedef struct Body {
    int x, y, vx, vy;
} Body;

// The pull of body (bx, by, mass) on a body at (x, y), softened by 64 (one axis each).
__host__ __device__ static inline void pull(int x, int y, int bx, int by, int mass, int *ax, int *ay)
{
    int dx = bx - x, dy = by - y;
    int d = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) + 64;
    *ax += dx * mass * 64 / d;
    *ay += dy * mass * 64 / d;
}

__host__ __device__ static inline Body advance(Body b, int ax, int ay)
{
    b.vx += ax / 256;
    b.vy += ay / 256;
    b.x = (b.x + b.vx / 16) & 0xffff;
    b.y = (b.y + b.vy / 16) & 0xffff;
    return b;
}

__global__ void nbody_step(const Body *in, const int *mass, Body *out)
{
    __shared__ int4 tile[TILE];  // x, y, mass of a tile's bodies
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    Body me = in[i];
    int ax = 0, ay = 0;
    for (unsigned t = 0; t < BODIES; t += TILE) {
        Body b = in[t + threadIdx.x];
        tile[threadIdx.x] = make_int4(b.x, b.y, mass[t + threadIdx.x], 0);
        __syncthreads();
        for (unsigned j = 0; j < TILE; j++) {
            int4 o = tile[j];
            pull(me.x, me.y, o.x, o.y, o.z, &ax, &ay);
        }
        __syncthreads();
    }
    out[i] = advance(me, ax, ay);
}

typedef struct Sim {
    Body *start, *a, *b;
    int *mass;
} Sim;

static void pipeline(BenchRun *run, void *ctx)
{
    Sim *s = (Sim *)ctx;
    const Body *in = s->start;
    for (int k = 0; k < STEPS; k++) {
        Body *out = k % 2 ? s->b : s->a;
        nbody_step<<<BODIES / TILE, TILE>>>(in, s->mass, out);
        BENCH_LAUNCHED(run);
        in = out;
    }
}

int main(int argc, char **argv)
{
    BenchRun run;
    bench_init(&run, "nbody", argc, argv);
    size_t bytes = (size_t)BODIES * sizeof(Body), mbytes = (size_t)BODIES * sizeof(int);
    Body *bodies = (Body *)bench_host_alloc(&run, bytes);
    int *mass = (int *)bench_host_alloc(&run, mbytes);
    uint64_t state = 0x5eed0c01;
    for (int i = 0; i < BODIES; i++) {
        bodies[i].x = (int)(bench_rand(&state) & 0xffff);
        bodies[i].y = (int)(bench_rand(&state) & 0xffff);
        bodies[i].vx = (int)(bench_rand(&state) % 65) - 32;
        bodies[i].vy = (int)(bench_rand(&state) % 65) - 32;
        mass[i] = 1 + (int)(bench_rand(&state) % 16);
    }

    Sim s;
    s.start = (Body *)bench_alloc(&run, bytes);
    s.a = (Body *)bench_alloc(&run, bytes);
    s.b = (Body *)bench_alloc(&run, bytes);
    s.mass = (int *)bench_alloc(&run, mbytes);
    BENCH_CUDA(cudaMemcpy(s.start, bodies, bytes, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(s.mass, mass, mbytes, cudaMemcpyHostToDevice));
    bench_load((const void *)nbody_step);
    bench_time(&run, pipeline, &s);

    Body *got = (Body *)bench_host_alloc(&run, bytes);
    BENCH_CUDA(cudaMemcpy(got, STEPS % 2 ? s.a : s.b, bytes, cudaMemcpyDeviceToHost));
    Body *next = (Body *)bench_host_alloc(&run, bytes);
    for (int k = 0; k < STEPS; k++) {
        for (int i = 0; i < BODIES; i++) {
            int ax = 0, ay = 0;
            for (int j = 0; j < BODIES; j++)
                pull(bodies[i].x, bodies[i].y, bodies[j].x, bodies[j].y, mass[j], &ax, &ay);
            next[i] = advance(bodies[i], ax, ay);
        }
        memcpy(bodies, next, bytes);
    }
    for (int i = 0; i < BODIES; i++)
        if (memcmp(&got[i], &bodies[i], sizeof(Body)) != 0)
            bench_die("nbody: body %d is at (%d, %d) moving (%d, %d), expected (%d, %d) moving (%d, %d)",
                      i, got[i].x, got[i].y, got[i].vx, got[i].vy, bodies[i].x, bodies[i].y,
                      bodies[i].vx, bodies[i].vy);
    bench_checksum(&run, bench_fnv1a(got, bytes));
    printf("nbody: ok (%d bodies, %d steps, tiles of %d)\n", BODIES, STEPS, TILE);
    BENCH_CUDA(cudaFree(s.start));
    BENCH_CUDA(cudaFree(s.a));
    BENCH_CUDA(cudaFree(s.b));
    BENCH_CUDA(cudaFree(s.mass));
    free(bodies);
    free(mass);
    free(got);
    free(next);
    return 0;
}
