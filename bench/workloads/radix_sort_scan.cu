// radix_sort_scan.cu: the library pipeline of a sort-based group-by, as CUB runs it:
// cub::DeviceRadixSort::SortPairs of 4M (32-bit key, 8-bit weight) pairs (the onesweep
// kernels: a global histogram, decoupled look-back between the blocks of each pass,
// block indices taken with atomicAdd), then cub::DeviceScan::ExclusiveSum of the
// sorted weights (another decoupled look-back), so that each key's group starts at its
// scanned offset. The launches are CUB's, so the workload does not count them. The
// sorted keys, weights and offsets are compared with a stable sort and a prefix sum on
// the host.
#include <cub/cub.cuh>

#include "bench.h"

static const int PAIRS = 1 << 22;

typedef struct Sort {
    unsigned *keys_in, *weights_in, *keys_out, *weights_out, *offsets;
    void *temp;
    size_t sort_bytes, scan_bytes;
} Sort;

static void pipeline(BenchRun *run, void *ctx)
{
    Sort *s = (Sort *)ctx;
    (void)run;
    BENCH_CUDA(cub::DeviceRadixSort::SortPairs(s->temp, s->sort_bytes, s->keys_in, s->keys_out, s->weights_in,
                                               s->weights_out, PAIRS));
    BENCH_CUDA(cub::DeviceScan::ExclusiveSum(s->temp, s->scan_bytes, s->weights_out, s->offsets, PAIRS));
    BENCH_CUDA(cudaGetLastError());
}

static const unsigned *sort_keys;

static int by_key_then_place(const void *x, const void *y)
{
    unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
    if (sort_keys[a] != sort_keys[b])
        return sort_keys[a] < sort_keys[b] ? -1 : 1;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    BenchRun run;
    bench_init(&run, "radix_sort_scan", argc, argv);
    run.uncounted = 1;
    size_t bytes = (size_t)PAIRS * sizeof(unsigned);
    unsigned *keys = (unsigned *)bench_host_alloc(&run, bytes);
    unsigned *weights = (unsigned *)bench_host_alloc(&run, bytes);
    uint64_t state = 0x5eed0d01;
    for (size_t i = 0; i < PAIRS; i++) {
        uint64_t r = bench_rand(&state);
        keys[i] = (unsigned)r;
        weights[i] = (unsigned)(r >> 32) & 0xffu;
    }

    Sort s;
    s.keys_in = (unsigned *)bench_alloc(&run, bytes);
    s.weights_in = (unsigned *)bench_alloc(&run, bytes);
    s.keys_out = (unsigned *)bench_alloc(&run, bytes);
    s.weights_out = (unsigned *)bench_alloc(&run, bytes);
    s.offsets = (unsigned *)bench_alloc(&run, bytes);
    s.sort_bytes = s.scan_bytes = 0;
    BENCH_CUDA(cub::DeviceRadixSort::SortPairs(NULL, s.sort_bytes, s.keys_in, s.keys_out, s.weights_in,
                                               s.weights_out, PAIRS));
    BENCH_CUDA(cub::DeviceScan::ExclusiveSum(NULL, s.scan_bytes, s.weights_out, s.offsets, PAIRS));
    size_t temp_bytes = s.sort_bytes > s.scan_bytes ? s.sort_bytes : s.scan_bytes;
    s.temp = bench_alloc(&run, temp_bytes);
    s.sort_bytes = s.scan_bytes = temp_bytes;
    BENCH_CUDA(cudaMemcpy(s.keys_in, keys, bytes, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(s.weights_in, weights, bytes, cudaMemcpyHostToDevice));
    bench_time(&run, pipeline, &s);

    unsigned *got_keys = (unsigned *)bench_host_alloc(&run, bytes);
    unsigned *got_weights = (unsigned *)bench_host_alloc(&run, bytes);
    unsigned *got_offsets = (unsigned *)bench_host_alloc(&run, bytes);
    BENCH_CUDA(cudaMemcpy(got_keys, s.keys_out, bytes, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(got_weights, s.weights_out, bytes, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(got_offsets, s.offsets, bytes, cudaMemcpyDeviceToHost));
    // A radix sort is stable: equal keys keep their input order.
    unsigned *order = (unsigned *)bench_host_alloc(&run, bytes);
    for (unsigned i = 0; i < PAIRS; i++)
        order[i] = i;
    sort_keys = keys;
    qsort(order, PAIRS, sizeof *order, by_key_then_place);
    unsigned offset = 0;
    for (size_t i = 0; i < PAIRS; i++) {
        unsigned k = keys[order[i]], w = weights[order[i]];
        if (got_keys[i] != k || got_weights[i] != w || got_offsets[i] != offset)
            bench_die("radix_sort_scan: position %zu holds (%08x, %u) at offset %u, expected (%08x, %u) "
                      "at %u",
                      i, got_keys[i], got_weights[i], got_offsets[i], k, w, offset);
        offset += w;
    }
    bench_checksum(&run, bench_fnv1a(got_keys, bytes) ^ bench_fnv1a(got_offsets, bytes));
    printf("radix_sort_scan: ok (%d pairs, weights total %u, %zu bytes of CUB temporary storage)\n", PAIRS,
           offset, temp_bytes);
    BENCH_CUDA(cudaFree(s.keys_in));
    BENCH_CUDA(cudaFree(s.weights_in));
    BENCH_CUDA(cudaFree(s.keys_out));
    BENCH_CUDA(cudaFree(s.weights_out));
    BENCH_CUDA(cudaFree(s.offsets));
    BENCH_CUDA(cudaFree(s.temp));
    free(keys);
    free(weights);
    free(order);
    free(got_keys);
    free(got_weights);
    free(got_offsets);
    return 0;
}
