"""shared_torch_graph_race.py: a PyTorch CUDA extension built while the program runs
(torch.utils.cpp_extension.load_inline, with PTX for the device beside its machine code:
TORCH_CUDA_ARCH_LIST "<major>.<minor>+PTX") stages values in shared memory and reads the
value staged 32 places on, in another warp, with no barrier in between. scord checks it
through the extension's PTX; PyTorch's own kernels (the sum below), machine code only,
are listed unchecked. A #line directive makes the kernel's lines this file's. The
extension is built once, into a folder the native and the scord run share. After one
warm-up call, which scord leaves out (--launch-skip 1), torch.cuda.graph captures a
call and the graph is replayed twice: scord checks the kernel when the replays issue
the graph's nodes.
Without PyTorch, a GPU or a compiler for the extension, the program says SKIP.
// SCORD-CATEGORY: 14
// SCORD-UNCHECKED: no-ptx
// SCORD-OPTIONS: --kernel-name kns=rotate_shared --launch-skip 1
// SCORD-EXPECT: 1 race
// SCORD-CAUSE: A missing_barrier
"""
import inspect
import os
import sys

try:
    import torch
    from torch.utils.cpp_extension import load_inline
except Exception as e:  # noqa: BLE001 - PyTorch missing or broken: the runner skips the program
    print(f"SKIP: PyTorch does not import ({type(e).__name__}: {e})")
    sys.exit(0)

KERNEL_LINE = inspect.currentframe().f_lineno + 1
KERNEL = r"""
__global__ void rotate_shared(const int *in, int *out)
{
    __shared__ int tile[128];
    int t = threadIdx.x, i = blockIdx.x * 128 + t;
    tile[t] = in[i] * 7;                    // race(A) write shared
    out[i] = tile[(t + 32) % 128];          // race(A) read shared
}
"""
LAUNCH = r"""
#include <ATen/cuda/CUDAContext.h>
torch::Tensor rotate(torch::Tensor x)
{
    auto y = torch::empty_like(x);
    rotate_shared<<<x.numel() / 128, 128, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<int>(),
                                                                              y.data_ptr<int>());
    return y;
}
"""


def main():
    if not torch.cuda.is_available():
        print("SKIP: PyTorch sees no GPU")
        return
    major, minor = torch.cuda.get_device_capability()
    os.environ["TORCH_CUDA_ARCH_LIST"] = f"{major}.{minor}+PTX"
    os.environ.setdefault("TORCH_EXTENSIONS_DIR", "/tmp/scord-torch-extensions")
    source = ("#include <torch/extension.h>\n" + f'#line {KERNEL_LINE} "{os.path.basename(__file__)}"\n' +
              KERNEL + "#line 1 \"launch.cu\"\n" + LAUNCH)
    try:
        ext = load_inline("scord_rotate_graph_race", cpp_sources="torch::Tensor rotate(torch::Tensor x);",
                          cuda_sources=source, functions=["rotate"], extra_cuda_cflags=["-lineinfo"])
    except Exception as e:  # noqa: BLE001 - no compiler, no ninja: skipped, not failed
        print(f"SKIP: the extension does not build here ({type(e).__name__}: {str(e)[:200]})")
        return
    x = torch.arange(4 * 128, dtype=torch.int32, device="cuda")
    # Warm up on a side stream, as torch.cuda.graph asks, then capture one call.
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        ext.rotate(x)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = ext.rotate(x)
    for _ in range(2):
        graph.replay()
    torch.cuda.synchronize()
    print("checksum", int(y.sum().item()))
    print("DONE")


if __name__ == "__main__":
    main()
