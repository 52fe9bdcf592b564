// global_streams_two_writers_race.cu: two kernels on two streams fill one table with
// different values and nothing orders them, so which value each entry keeps depends
// on the schedule. Twin: the second stream waits for an event recorded after the
// first kernel.
// SCORD-CATEGORY: 10
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A unordered_streams
#include "rs_common.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };

__global__ void fill(int *table, int seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    table[i] = i * seed + 1;                     // race(A) write global
}

__global__ void fill_reversed(int *table, int seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    table[N - 1 - i] = i * seed + 2;             // race(A) write global
}

int main()
{
    rs_require_device();
    int *table = rs_zeros<int>(N);
    cudaStream_t s1, s2;
    cudaEvent_t first_done;
    RS_CHECK(cudaStreamCreate(&s1));
    RS_CHECK(cudaStreamCreate(&s2));
    RS_CHECK(cudaEventCreateWithFlags(&first_done, cudaEventDisableTiming));
    fill<<<BLOCKS, THREADS, 0, s1>>>(table, 3);
    RS_CHECK(cudaGetLastError());
    fill_reversed<<<BLOCKS, THREADS, 0, s2>>>(table, 5);
    RS_LAUNCHED();
    // Nothing of the table: which kernel wrote an entry last differs from run to run.
    printf("filled\n");
    rs_done();
    return 0;
}
