/* devrt.cu: the device runtime: block slots, synchronization clocks, shadow lookup,
 * the per-location rules and race records. Compiled to PTX at build time and
 * appended to every instrumented module (kept C-like: no classes, no templates). */
#include <stdint.h>

#include "devrt/devrt_abi.h"
#include "devrt/devrt_state.h"

/* The launch descriptor of the module's current launch (set by the host at load). */
extern "C" __device__ uint64_t __scord_state;
/* The slot of this block, published by the block's first thread at entry. */
extern "C" __shared__ uint32_t __scord_slot;

static __device__ __forceinline__ ScDevLaunch *launch_desc(void)
{
    return (ScDevLaunch *)__scord_state;
}

static __device__ __forceinline__ uint32_t thread_linear(void)
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

static __device__ __forceinline__ uint32_t block_linear(void)
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

static __device__ __forceinline__ uint32_t smid(void)
{
    uint32_t id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

static __device__ __forceinline__ ScDevThread *thread_state(const ScDevLaunch *l)
{
    return (ScDevThread *)l->threads + (size_t)__scord_slot * l->threads_per_block +
           thread_linear();
}

static __device__ __forceinline__ ScDevBlock *block_state(const ScDevLaunch *l)
{
    return (ScDevBlock *)l->blocks + __scord_slot;
}
