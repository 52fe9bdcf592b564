// cub.cu: CUB block- and warp-wide primitives (reduce, scan, load/store with
// warp transposes, histogram with shared atomics, radix sort, exchange), as a
// user's library code reaches the PTX front end.
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

constexpr int kThreads = 128;
constexpr int kItems = 4;

__global__ void __launch_bounds__(kThreads) block_primitives(const int *in, int *out, unsigned *hist)
{
    using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<int, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using Reduce = cub::BlockReduce<int, kThreads>;
    using Scan = cub::BlockScan<int, kThreads>;
    using Hist = cub::BlockHistogram<unsigned char, kThreads, kItems, 64>;
    using Sort = cub::BlockRadixSort<int, kThreads, kItems>;
    using Exchange = cub::BlockExchange<int, kThreads, kItems>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Reduce::TempStorage reduce;
        typename Scan::TempStorage scan;
        typename Hist::TempStorage hist;
        typename Sort::TempStorage sort;
        typename Exchange::TempStorage exchange;
    } tmp;
    __shared__ unsigned bins[64];
    int items[kItems];
    Load(tmp.load).Load(in + blockIdx.x * kThreads * kItems, items);
    __syncthreads();
    int sum = Reduce(tmp.reduce).Sum(items);
    __syncthreads();
    Scan(tmp.scan).ExclusiveSum(items, items);
    __syncthreads();
    unsigned char keys[kItems];
    for (int k = 0; k < kItems; k++)
        keys[k] = (unsigned char)(items[k] & 63);
    Hist(tmp.hist).Histogram(keys, bins);
    __syncthreads();
    Sort(tmp.sort).Sort(items);
    __syncthreads();
    Exchange(tmp.exchange).BlockedToStriped(items);
    __syncthreads();
    Store(tmp.store).Store(out + blockIdx.x * kThreads * kItems, items);
    if (threadIdx.x == 0)
        out[gridDim.x * kThreads * kItems + blockIdx.x] = sum;
    if (threadIdx.x < 64)
        atomicAdd(&hist[threadIdx.x], bins[threadIdx.x]);
}

__global__ void warp_primitives(const int *in, int *out)
{
    using WReduce = cub::WarpReduce<int>;
    using WScan = cub::WarpScan<int>;
    __shared__ typename WReduce::TempStorage rtmp[4];
    __shared__ typename WScan::TempStorage stmp[4];
    int warp = threadIdx.x / 32;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int total = WReduce(rtmp[warp]).Sum(v);
    int mx = WReduce(rtmp[warp]).Reduce(v, cuda::maximum<>());
    int prefix;
    WScan(stmp[warp]).InclusiveSum(v, prefix);
    out[blockIdx.x * blockDim.x + threadIdx.x] = total + mx + prefix;
}
