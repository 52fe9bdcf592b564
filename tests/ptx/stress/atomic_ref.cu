// atomic_ref.cu: libcu++ atomics as nvcc lowers them: cuda::atomic_ref and
// cuda::atomic with every thread_scope and memory_order, cuda::std::atomic,
// atomic_thread_fence, and cuda::barrier (mbarrier-backed on sm_80+).
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/std/atomic>
#include "stress.cuh"

template <cuda::thread_scope S, typename T>
__device__ T every_order(T *p, T v)
{
    cuda::atomic_ref<T, S> r(*p);
    T acc = r.load(cuda::std::memory_order_relaxed);
    acc += r.load(cuda::std::memory_order_acquire);
    acc += r.load(cuda::std::memory_order_seq_cst);
    r.store(v, cuda::std::memory_order_relaxed);
    r.store(v, cuda::std::memory_order_release);
    r.store(v, cuda::std::memory_order_seq_cst);
    acc += r.fetch_add(v, cuda::std::memory_order_relaxed);
    acc += r.fetch_add(v, cuda::std::memory_order_acquire);
    acc += r.fetch_add(v, cuda::std::memory_order_release);
    acc += r.fetch_add(v, cuda::std::memory_order_acq_rel);
    acc += r.fetch_add(v, cuda::std::memory_order_seq_cst);
    acc += r.exchange(v, cuda::std::memory_order_acq_rel);
    acc += r.fetch_min(v, cuda::std::memory_order_relaxed);
    acc += r.fetch_or(v, cuda::std::memory_order_release);
    T expected = acc;
    r.compare_exchange_strong(expected, v, cuda::std::memory_order_acq_rel, cuda::std::memory_order_acquire);
    r.compare_exchange_weak(expected, v, cuda::std::memory_order_relaxed);
    acc += expected;
    return acc;
}

__global__ void atomic_ref_scopes(int *gi, unsigned long long *g64, int *out)
{
    __shared__ int sh[32];
    sh[threadIdx.x % 32] = 0;
    __syncthreads();
    int acc = every_order<cuda::thread_scope_thread>(gi, 1);
    acc += every_order<cuda::thread_scope_block>(gi + 1, 2);
    acc += every_order<cuda::thread_scope_device>(gi + 2, 3);
    acc += every_order<cuda::thread_scope_system>(gi + 3, 4);
    acc += every_order<cuda::thread_scope_block>(&sh[threadIdx.x % 32], 5);
    acc += (int)every_order<cuda::thread_scope_device>(g64, 6ull);
    cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_block);
    cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
    cuda::atomic_thread_fence(cuda::std::memory_order_acq_rel, cuda::thread_scope_system);
    cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_device);
    cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);
    out[threadIdx.x] = acc;
}

__device__ cuda::atomic<int, cuda::thread_scope_device> d_counter;
__device__ cuda::std::atomic<unsigned> d_std_counter;

__global__ void atomic_objects(int *out)
{
    __shared__ cuda::atomic<int, cuda::thread_scope_block> s_counter;
    if (threadIdx.x == 0)
        s_counter.store(0, cuda::std::memory_order_relaxed);
    __syncthreads();
    int acc = s_counter.fetch_add(1);
    acc += d_counter.fetch_add(1, cuda::std::memory_order_relaxed);
    acc += (int)d_std_counter.fetch_add(1u);
    acc += (int)d_std_counter.load();
    d_std_counter.store(2u, cuda::std::memory_order_release);
    while (d_counter.load(cuda::std::memory_order_acquire) < 0) {
    }
    out[threadIdx.x] = acc;
}

__global__ void barrier_object(int *g, int *out)
{
    using Bar = cuda::barrier<cuda::thread_scope_block>;
    // The pattern the CUDA guide gives: init() below does the construction.
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ Bar bar;
    __shared__ int sh[256];
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    sh[threadIdx.x] = g[threadIdx.x];
    bar.arrive_and_wait();
    int acc = sh[(threadIdx.x + 1) % 256];
    Bar::arrival_token tok = bar.arrive();
    bar.wait(cuda::std::move(tok));
    out[threadIdx.x] = acc;
}
