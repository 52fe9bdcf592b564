"""shared_numba_cuda_norace.py: a Numba CUDA kernel (numba-cuda: NVVM makes its PTX, with line
info) stages values in shared memory and reads the value staged 32 places on, in another
warp, after cuda.syncthreads(). The race tags sit in Python comments after
`//`, where the suite's parser looks for them. Where Numba does not import, or its CUDA
target does not compile, it says SKIP (numba-cuda 0.30.4 with numpy 2.5 needs the
np.row_stack alias put back, below).
// SCORD-CATEGORY: 14
// SCORD-EXPECT: no race
"""
import sys

try:
    import numpy as np

    # numba-cuda 0.30.4 registers an overload of np.row_stack, an alias of np.vstack
    # that numpy 2.5 removed: without it the CUDA target does not compile at all.
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack
    from numba import cuda
except Exception as e:  # noqa: BLE001 - Numba missing or broken: the runner skips the program
    print(f"SKIP: Numba does not import ({type(e).__name__}: {e})")
    sys.exit(0)


@cuda.jit(lineinfo=True)
def rotate_shared(inp, out):
    tile = cuda.shared.array(128, dtype=np.int32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * 128 + t
    tile[t] = inp[i] * 7
    cuda.syncthreads()
    out[i] = tile[(t + 32) % 128]


def main():
    x = cuda.to_device(np.arange(4 * 128, dtype=np.int32))
    y = cuda.device_array(4 * 128, dtype=np.int32)
    try:
        rotate_shared[4, 128](x, y)  # compiles the kernel, with Numba's CUDA target's imports
    except Exception as e:  # noqa: BLE001 - a target that fails natively too: skipped, not failed
        print(f"SKIP: Numba's CUDA target does not compile here ({type(e).__name__}: {e})")
        return
    cuda.synchronize()
    print("checksum", int(y.copy_to_host().sum()))
    print("DONE")


if __name__ == "__main__":
    main()
