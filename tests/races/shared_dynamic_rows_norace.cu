// shared_dynamic_rows_norace.cu: rows of 32 values pass through dynamically sized shared
// memory (extern __shared__, sized at launch from the block's row count); each warp owns
// one row and reads the next warp's row,
// after a __syncthreads().
// SCORD-CATEGORY: 1
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { BLOCKS = 3, COLS = 32, ROWS = 8 };

__global__ void next_row(const float *in, float *out)
{
    extern __shared__ float rows[];
    int x = threadIdx.x, y = threadIdx.y, i = (blockIdx.x * blockDim.y + y) * COLS + x;
    rows[y * COLS + x] = in[i];
    __syncthreads();
    out[i] = rows[(y + 1) % blockDim.y * COLS + x];
}

int main()
{
    rs_require_device();
    float *in = rs_fill<float>(BLOCKS * ROWS * COLS, [](size_t i) { return float(i) * 0.5f; });
    float *out = rs_zeros<float>(BLOCKS * ROWS * COLS);
    next_row<<<BLOCKS, dim3(COLS, ROWS), ROWS * COLS * sizeof(float)>>>(in, out);
    RS_LAUNCHED();
    rs_print_checksum("next_row", out, BLOCKS * ROWS * COLS);
    rs_done();
    return 0;
}
