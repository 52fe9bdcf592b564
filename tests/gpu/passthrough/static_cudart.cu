// static_cudart.cu: a runtime-API program in the default nvcc build (static cudart),
// in two translation units and so two fat binaries; this one holds main, a template
// kernel, __constant__ data and a __device__ counter. Also built with -cudart shared.
#include "pt_rt.h"

enum { N = 1u << 20, TABLE = 16 };

// static_cudart_aux.cu: per-block sums of in[0, n) with dynamic shared memory, and
// their count of odd elements through that file's own __device__ variable.
void pt_aux_block_sums(const unsigned *in, unsigned n, unsigned *sums, unsigned blocks,
                       unsigned *odd);

__constant__ unsigned c_table[TABLE];
__device__ unsigned d_odd_count;

__global__ void fill_from_table(unsigned *out, unsigned n)
{
    PT_FOR_EACH(i, n) out[i] = c_table[i % TABLE] ^ pt_mix32(i);
}

template <typename T> __global__ void affine(T *v, unsigned n, T a, T b)
{
    PT_FOR_EACH(i, n) v[i] = v[i] * a + b;
}

__global__ void count_odd(const unsigned *v, unsigned n)
{
    PT_FOR_EACH(i, n) if (v[i] & 1u) atomicAdd(&d_odd_count, 1u);
}

int main()
{
    pt_rt_require_device();
    unsigned table[TABLE];
    for (unsigned i = 0; i < TABLE; i++)
        table[i] = pt_mix32(1000 + i);
    PT_RT(cudaMemcpyToSymbol(c_table, table, sizeof table));
    unsigned zero = 0;
    PT_RT(cudaMemcpyToSymbol(d_odd_count, &zero, sizeof zero));

    unsigned *v, *sums;
    const unsigned blocks = 48;
    PT_RT(cudaMalloc(&v, N * sizeof *v));
    PT_RT(cudaMalloc(&sums, blocks * sizeof *sums));
    fill_from_table<<<96, 256>>>(v, N);
    PT_RT_LAUNCHED();
    affine<unsigned><<<96, 256>>>(v, N, 5u, 17u);
    PT_RT_LAUNCHED();
    count_odd<<<96, 256>>>(v, N);
    PT_RT_LAUNCHED();
    unsigned aux_odd = 0;
    pt_aux_block_sums(v, N, sums, blocks, &aux_odd);

    unsigned *got = (unsigned *)pt_xmalloc(N * sizeof *got);
    unsigned *want = (unsigned *)pt_xmalloc(N * sizeof *want);
    unsigned got_sums[blocks], odd = 0;
    PT_RT(cudaMemcpy(got, v, N * sizeof *got, cudaMemcpyDeviceToHost));
    PT_RT(cudaMemcpy(got_sums, sums, sizeof got_sums, cudaMemcpyDeviceToHost));
    PT_RT(cudaMemcpyFromSymbol(&odd, d_odd_count, sizeof odd));

    unsigned want_odd = 0, total = 0, want_total = 0;
    for (unsigned i = 0; i < N; i++) {
        want[i] = (table[i % TABLE] ^ pt_mix32(i)) * 5u + 17u;
        want_odd += want[i] & 1u;
        want_total += want[i];
    }
    for (unsigned b = 0; b < blocks; b++)
        total += got_sums[b];
    pt_expect_u32("values", got, want, N);
    if (odd != want_odd || aux_odd != want_odd)
        pt_die("odd count: main %u, aux %u, expected %u", odd, aux_odd, want_odd);
    if (total != want_total)
        pt_die("block sums: total %u, expected %u", total, want_total);
    pt_print_u32("values", got, N);
    pt_print_u32("block sums", got_sums, blocks);
    printf("odd: %u\n", odd);

    free(got);
    free(want);
    PT_RT(cudaFree(v));
    PT_RT(cudaFree(sums));
    printf("static_cudart: ok\n");
    return 0;
}
