/* rules_check.cu: proves at build time that rules.h compiles as device code: a kernel
 * that runs the CAS loop the device runtime will run. Never launched. */
#include "rules/rules.h"

extern "C" __global__ void sc_rules_check_kernel(unsigned long long *word, ScRulesAccess acc,
                                                 ScRulesWarpClk *wclk, ScRulesBlockClk *bclk,
                                                 int *out)
{
    ScRulesVerdict v;
    unsigned long long old = *(volatile unsigned long long *)word, next;
    int r;
    for (;;) {
        uint64_t n;
        r = sc_rules_access(old, &acc, &n, &v);
        if (r == SC_RULES_UNCHANGED || r == SC_RULES_SPLIT)
            break;
        next = atomicCAS(word, old, (unsigned long long)n);
        if (next == old)
            break;
        old = next;
    }
    if (r == SC_RULES_SPLIT) {
        uint64_t n;
        r = sc_rules_access_cell(sc_rules_split_cell(old, 0), &acc, &n, &v);
        word[1] = n;
    }
    sc_rules_warp_sync(wclk, 0xffffffffu, 1);
    sc_rules_block_barrier(bclk, 0xfu);
    out[0] = r + v.cause;
}
