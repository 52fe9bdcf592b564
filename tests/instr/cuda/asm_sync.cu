// SCORD-PTX-TARGETS: sm_75 sm_90
// Inline PTX: named barriers with a thread count (bar.sync/bar.arrive), a
// predicated store and a volatile load inside asm blocks with their own
// registers, as producer/consumer warps use them.
__global__ void producer_consumer(int *data, int *out)
{
    __shared__ int stage[64];
    unsigned t = threadIdx.x;
    if (t < 32) {
        stage[t] = data[t];
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else if (t < 64) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        int v = stage[t - 32];
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, 0;\n\t@p st.global.u32 [%0], %1;\n\t}"
                     :: "l"(out + t), "r"(v) : "memory");
        int w;
        asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(w) : "l"(data + t));
        out[t - 32] = w;
    }
}
