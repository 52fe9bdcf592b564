"""global_triton_sum_race.py: a Triton kernel (Python; Triton makes its PTX, ptxas the cubin it
loads, and its cache keeps both) in which every program instance sums its block of the
input and stores the sum to one shared slot: the programs' stores race (unsynchronized_blocks). scord checks it
through the PTX in Triton's cache. Without Triton, or where it cannot
compile for the GPU, the program says SKIP.
// SCORD-CATEGORY: 14
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A unsynchronized_blocks
"""
import sys

try:
    import numpy as np
    import torch
    import triton
    import triton.language as tl
except Exception as e:  # noqa: BLE001 - Triton missing or broken: the runner skips the program
    print(f"SKIP: Triton does not import ({type(e).__name__}: {e})")
    sys.exit(0)


@triton.jit
def block_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    s = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0), axis=0)
    tl.store(out_ptr, s)  # // race(A) write,write global


def main():
    if not torch.cuda.is_available():
        print("SKIP: no CUDA device for PyTorch")
        return
    n, block = 1 << 16, 1024
    # Copies, not PyTorch kernels (machine code only, which scord would list unchecked):
    # the only kernel of the run is Triton's.
    x = torch.from_numpy(np.ones(n, dtype=np.int32)).to("cuda")
    out = torch.from_numpy(np.zeros(1, dtype=np.int32)).to("cuda")
    try:
        block_sum[(n // block,)](x, out, n, BLOCK=block)
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001 - a compile that fails natively too: skipped
        print(f"SKIP: Triton cannot run the kernel here ({type(e).__name__}: {e})")
        return
    print("stored", "some" if int(out.item()) > 0 else "none")
    print("DONE")


if __name__ == "__main__":
    main()
