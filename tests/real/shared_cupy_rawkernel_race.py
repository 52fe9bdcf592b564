"""shared_cupy_rawkernel_race.py: a CuPy RawKernel, compiled by NVRTC to machine code for
the device (a cubin with no PTX), stages values in shared memory and reads the value
staged 32 places on, in another warp, with no barrier in between. scord checks it
through the PTX of the same NVRTC program (src/intercept/intercept_nvrtc.c); a #line
directive makes the kernel's lines this file's. CuPy's kernel cache stays in memory, so
that every run compiles with NVRTC. Without CuPy the program says SKIP.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
"""
import inspect
import os
import sys

os.environ["CUPY_CACHE_IN_MEMORY"] = "1"
try:
    import cupy as cp
except Exception as e:  # noqa: BLE001 - CuPy missing or broken: the runner skips the program
    print(f"SKIP: CuPy does not import ({type(e).__name__}: {e})")
    sys.exit(0)

KERNEL_LINE = inspect.currentframe().f_lineno + 1
SOURCE = r"""
extern "C" __global__ void rotate_shared(const int *in, int *out)
{
    __shared__ int tile[128];
    int t = threadIdx.x, i = blockIdx.x * 128 + t;
    tile[t] = in[i] * 7;                    // race(A) write shared
    out[i] = tile[(t + 32) % 128];          // race(A) read shared
}
"""


def main():
    text = f'#line {KERNEL_LINE} "{os.path.basename(__file__)}"\n' + SOURCE
    kernel = cp.RawKernel(text, "rotate_shared", options=("-lineinfo",))
    x = cp.arange(4 * 128, dtype=cp.int32)
    y = cp.zeros_like(x)
    kernel((4,), (128,), (x, y))
    cp.cuda.runtime.deviceSynchronize()
    print("checksum", int(y.sum()))
    print("DONE")


if __name__ == "__main__":
    main()
