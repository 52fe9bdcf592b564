// global_streams_copy2d_norace.cu: a kernel fills a pitched 2D table on one stream and
// a 2D copy on another stream reads a rectangle of it back to pinned host memory after
// waiting for an event recorded after the launch. Twin of global_streams_copy2d_race.cu.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { WIDTH = 64, HEIGHT = 32, COLS = 16, ROWS = 8, X0 = 8, Y0 = 4 };

__global__ void produce(int *table, size_t pitch)
{
    int x = threadIdx.x, y = blockIdx.x;
    int *row = (int *)((char *)table + y * pitch);
    row[x] = y * 1000 + x;
}

int main()
{
    rs_require_device();
    int *table = nullptr, *host = nullptr;
    size_t pitch = 0;
    RS_CHECK(cudaMallocPitch(&table, &pitch, WIDTH * sizeof(int), HEIGHT));
    RS_CHECK(cudaMemset2D(table, pitch, 0, WIDTH * sizeof(int), HEIGHT));
    RS_CHECK(cudaMallocHost(&host, COLS * ROWS * sizeof(int)));
    cudaStream_t s1, s2;
    cudaEvent_t filled;
    RS_CHECK(cudaStreamCreate(&s1));
    RS_CHECK(cudaStreamCreate(&s2));
    RS_CHECK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
    produce<<<HEIGHT, WIDTH, 0, s1>>>(table, pitch);
    RS_CHECK(cudaEventRecord(filled, s1));
    RS_CHECK(cudaStreamWaitEvent(s2, filled, 0));
    const char *corner = (const char *)table + Y0 * pitch + X0 * sizeof(int);
    RS_CHECK(cudaMemcpy2DAsync(host, COLS * sizeof(int), corner, pitch, COLS * sizeof(int), ROWS,
                               cudaMemcpyDeviceToHost, s2));
    RS_LAUNCHED();
    RS_CHECK(cudaStreamSynchronize(s2));
    uint32_t h = 2166136261u;
    for (int i = 0; i < COLS * ROWS; i++)
        h = (h ^ (uint32_t)host[i]) * 16777619u;
    printf("host: %d values, fnv1a %08x\n", COLS * ROWS, (unsigned)h);
    RS_CHECK(cudaFreeHost(host));
    rs_done();
    return 0;
}
