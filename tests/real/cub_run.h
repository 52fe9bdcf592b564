// cub_run.h: what the programs of the real-programs corpus that call CUB's device
// algorithms share: the two-call temporary-storage idiom, and copies back to the host.
#ifndef CUB_RUN_H
#define CUB_RUN_H

#include "rs_common.h"
#include <vector>

static void *g_temp;
static size_t g_temp_bytes;

// Temporary storage for one algorithm call: grown, never shrunk.
static inline void *temp(size_t bytes)
{
    if (bytes > g_temp_bytes) {
        if (g_temp)
            RS_CHECK(cudaFree(g_temp));
        RS_CHECK(cudaMalloc(&g_temp, bytes));
        g_temp_bytes = bytes;
    }
    return g_temp;
}

// The CUB two-call idiom: ask for the temporary storage's size, then run. `call` names
// d_temp_storage and temp_storage_bytes, as CUB's documentation writes it.
#define CUB_RUN(call)                                                                             \
    do {                                                                                          \
        void *d_temp_storage = nullptr;                                                           \
        size_t temp_storage_bytes = 0;                                                            \
        RS_CHECK(call);                                                                           \
        d_temp_storage = temp(temp_storage_bytes);                                                \
        RS_CHECK(call);                                                                           \
        RS_LAUNCHED();                                                                            \
    } while (0)

// n elements of device memory, as a host vector.
template <class T> static inline std::vector<T> down(const T *d, size_t n)
{
    std::vector<T> h(n);
    RS_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

#endif
