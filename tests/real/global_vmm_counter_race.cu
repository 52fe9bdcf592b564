// global_vmm_counter_race.cu: device memory from the virtual memory management API, as
// PyTorch's expandable segments allocate it (cuMemCreate, cuMemAddressReserve, cuMemMap,
// cuMemSetAccess): blocks count their elements above a threshold into a counter in it
// with a plain read-modify-write: an inter-block race, read against write and write against write. The twin uses atomicAdd.
// SCORD-CATEGORY: 2
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A unsynchronized_blocks
// SCORD-CAUSE: B unsynchronized_blocks
#include "rs_common.h"
#include <cuda.h>

__global__ void count(const int *in, int n, int threshold, int *above)
{
    __shared__ int local;
    if (threadIdx.x == 0)
        local = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > threshold)
        atomicAdd(&local, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        *above = *above + local; // race(A) read,write global race(B) write,write global
}

#define CU(call) rs_cu(call, #call)

static void rs_cu(CUresult r, const char *what)
{
    if (r != CUDA_SUCCESS)
        rs_die("%s failed: %d", what, (int)r);
}

int main()
{
    rs_require_device();
    RS_CHECK(cudaFree(nullptr)); // the primary context, current for the driver API
    int dev = 0;
    RS_CHECK(cudaGetDevice(&dev));
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    size_t granularity = 0;
    CU(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle handle;
    CUdeviceptr base = 0;
    CU(cuMemCreate(&handle, granularity, &prop, 0));
    CU(cuMemAddressReserve(&base, granularity, 0, 0, 0));
    CU(cuMemMap(base, granularity, 0, handle, 0));
    CUmemAccessDesc access = {};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CU(cuMemSetAccess(base, granularity, &access, 1));
    int *above = (int *)base;
    RS_CHECK(cudaMemset(above, 0, sizeof *above));
    const int n = 1 << 16;
    int *in = rs_fill<int>(n, [](size_t i) { return (int)((i * 2654435761u) % 1000); });
    count<<<n / 256, 256>>>(in, n, 500, above);
    RS_LAUNCHED();
    int total = 0;
    RS_CHECK(cudaMemcpy(&total, above, sizeof total, cudaMemcpyDeviceToHost));
    printf("counted (racy): %s\n", total > 0 ? "some" : "none");
    CU(cuMemUnmap(base, granularity));
    CU(cuMemAddressFree(base, granularity));
    CU(cuMemRelease(handle));
    rs_done();
    return 0;
}
