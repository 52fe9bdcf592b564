// global_lock_outside_norace.cu: one thread of each of four blocks counts itself into a
// global total under a correct spin lock and reads the count it keeps inside the critical
// section: every access to the total is under the lock, and the critical sections are
// ordered.
// SCORD-CATEGORY: 7
// SCORD-EXPECT: no race
#include "rs_sync.h"

enum { BLOCKS = 4, THREADS = 32 };

// Takes the lock: spins on atomicCAS until it turns the word from 0 to 1, then fences so
// that the critical section comes after the acquire.
__device__ bool lock(int *mutex)
{
    if (!rs_spin_until([&] { return atomicCAS(mutex, 0, 1) == 0; }))
        return false;
    __threadfence();
    return true;
}

// Gives the lock back: fences so that the critical section comes before the release,
// then clears the word.
__device__ void unlock(int *mutex)
{
    __threadfence();
    atomicExch(mutex, 0);
}

// Thread 0 of each block counts itself into the total under the lock and keeps the
// count it found.
__global__ void take_numbers(int *mutex, int *total, int *seen)
{
    if (threadIdx.x != 0)
        return;
    if (lock(mutex)) {
        int before = *total;
        *total = before + 1;
        unlock(mutex);
        seen[blockIdx.x] = before;
    }
}

int main()
{
    rs_require_device();
    int *mutex = rs_zeros<int>(1), *total = rs_zeros<int>(1), *seen = rs_zeros<int>(BLOCKS);
    take_numbers<<<BLOCKS, THREADS>>>(mutex, total, seen);
    RS_LAUNCHED();
    rs_check_spins();
    // Which block found which count varies from run to run; their sum does not.
    int *host = rs_download(seen, BLOCKS), sum = 0;
    for (int b = 0; b < BLOCKS; b++)
        sum += host[b];
    printf("counts found: sum %d\n", sum);
    free(host);
    rs_print_checksum("total", total, 1);
    rs_done();
    return 0;
}
