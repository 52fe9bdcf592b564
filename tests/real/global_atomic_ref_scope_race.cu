// global_atomic_ref_scope_race.cu: block 0 writes a payload and publishes it with a
// cuda::atomic_ref<int, thread_scope_block> release store; block 1 spins on an acquire
// load of the same scope, then reads the payload. Block scope does not include the other
// block, so the release and the acquire do not synchronize: a scoped race on the
// payload, and one on the flag itself (two atomics whose scopes exclude each other are
// not morally strong: docs/race-suite.md, one defect breaking several pairs). The spin is bounded, so a run that never sees the flag still ends. The twin
// uses thread_scope_device. Natively this takes a fraction of a second, and scord must
// not make it hang.
// SCORD-CATEGORY: 5
// SCORD-PTX-TARGETS: sm_90
// SCORD-EXPECT: 2 races
// SCORD-CAUSE: A fence_scope
// SCORD-CAUSE: B atomic_scope
#include "rs_common.h"
#include <cuda/atomic>

constexpr cuda::thread_scope SCOPE = cuda::thread_scope_block;
constexpr long SPIN_LIMIT = 1L << 22;

__global__ void handoff(int *payload, int *flag, int *seen)
{
    if (threadIdx.x != 0)
        return;
    cuda::atomic_ref<int, SCOPE> f(*flag);
    if (blockIdx.x == 0) {
        *payload = 42; // race(A) write global
        f.store(1, cuda::memory_order_release); // race(B) write global
    } else {
        long spins = 0;
        while (f.load(cuda::memory_order_acquire) == 0 && spins < SPIN_LIMIT) // race(B) read global
            spins++;
        *seen = spins < SPIN_LIMIT ? *payload : -1; // race(A) read global
    }
}

int main()
{
    rs_require_device();
    int *payload = rs_zeros<int>(1), *flag = rs_zeros<int>(1), *seen = rs_zeros<int>(1);
    handoff<<<2, 32>>>(payload, flag, seen);
    RS_LAUNCHED();
    int got = 0;
    RS_CHECK(cudaMemcpy(&got, seen, sizeof got, cudaMemcpyDeviceToHost));
    printf("handoff: %s\n", got == 42 ? "payload seen" : got == -1 ? "flag never seen" : "stale payload");
    rs_done();
    return 0;
}
