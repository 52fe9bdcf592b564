// global_cub_block_radix_sort_norace.cu: 256 blocks each sort a segment of 1024 (key,
// position) pairs in shared memory: cub::BlockLoad (BLOCK_LOAD_TRANSPOSE), then
// cub::BlockRadixSort over 32-bit keys with the positions as values, then cub::BlockStore
// (BLOCK_STORE_TRANSPOSE) of keys and positions; the three collectives share one
// TempStorage union. Race-free: a __syncthreads() separates each use of the union from
// the next, as CUB documents. Checked on the host: the keys of every segment in order,
// each position naming an input element of that key, every position once.
// SCORD-CATEGORY: 13
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: no race
#include "rs_common.h"
#include <algorithm>
#include <cub/cub.cuh>
#include <vector>

enum { THREADS = 128, ITEMS = 8, SEGMENT = THREADS * ITEMS, SEGMENTS = 256 };

using BlockLoad = cub::BlockLoad<unsigned, THREADS, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
using BlockSort = cub::BlockRadixSort<unsigned, THREADS, ITEMS, int>;
using BlockStoreKeys = cub::BlockStore<unsigned, THREADS, ITEMS, cub::BLOCK_STORE_TRANSPOSE>;
using BlockStoreValues = cub::BlockStore<int, THREADS, ITEMS, cub::BLOCK_STORE_TRANSPOSE>;

__global__ void sort_segments(const unsigned *keys_in, unsigned *keys_out, int *pos_out)
{
    __shared__ union {
        BlockLoad::TempStorage load;
        BlockSort::TempStorage sort;
        BlockStoreKeys::TempStorage store_keys;
        BlockStoreValues::TempStorage store_values;
    } temp;
    const int base = blockIdx.x * SEGMENT;
    unsigned keys[ITEMS];
    int pos[ITEMS];
    BlockLoad(temp.load).Load(keys_in + base, keys);
    // After a transposing load, thread t holds the segment's items t*ITEMS .. t*ITEMS+ITEMS-1.
    for (int i = 0; i < ITEMS; i++)
        pos[i] = threadIdx.x * ITEMS + i;
    __syncthreads();
    BlockSort(temp.sort).Sort(keys, pos);
    __syncthreads();
    BlockStoreKeys(temp.store_keys).Store(keys_out + base, keys);
    __syncthreads();
    BlockStoreValues(temp.store_values).Store(pos_out + base, pos);
}

int main()
{
    rs_require_device();
    const int n = SEGMENTS * SEGMENT;
    std::vector<unsigned> h(n);
    uint32_t x = 88172645u;
    for (int i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        // Some segments with many equal keys, the others with keys over all 32 bits.
        h[i] = (i / SEGMENT) % 4 == 3 ? x % 64 : x;
    }
    unsigned *kin = rs_fill<unsigned>(n, [&](size_t i) { return h[i]; });
    unsigned *kout = rs_zeros<unsigned>(n);
    int *pout = rs_zeros<int>(n);
    sort_segments<<<SEGMENTS, THREADS>>>(kin, kout, pout);
    RS_LAUNCHED();

    unsigned *hk = rs_download(kout, n);
    int *hp = rs_download(pout, n);
    int bad = 0;
    for (int s = 0; s < SEGMENTS; s++) {
        const int base = s * SEGMENT;
        std::vector<unsigned> want(h.begin() + base, h.begin() + base + SEGMENT);
        std::sort(want.begin(), want.end());
        std::vector<char> seen(SEGMENT, 0);
        for (int i = 0; i < SEGMENT; i++) {
            const int p = hp[base + i];
            const bool pos_ok = p >= 0 && p < SEGMENT && !seen[p] && h[base + p] == hk[base + i];
            if (pos_ok)
                seen[p] = 1;
            bad += hk[base + i] != want[i] || !pos_ok;
        }
    }
    printf("block radix sort: %d segments of %d, %d wrong\n", SEGMENTS, SEGMENT, bad);
    rs_print_checksum("keys", kout, n);
    rs_print_checksum("positions", pout, n);
    free(hk);
    free(hp);
    rs_done();
    return bad != 0;
}
