/* trail_judge.h: how the device runtime judges a word's trail for an access
 * (devrt_trail.cuh, __scord_acquired_cover), given every release record the access may use
 * (a->acq) instead of a walk over its chains: the word the trail began with against the
 * first record that covers all of its recorder, each stamp against the first that
 * covers its access. Shared by test_rules and the model checker. */
#ifndef SC_TRAIL_JUDGE_H
#define SC_TRAIL_JUDGE_H

#include "rules/rules.h"

/* The positions of t->before ordered before access a, and in *after_ordered bit i set
 * when stamp i is. */
static inline int trail_judge(const ScRulesTrail *t, const ScRulesAccess *a, unsigned *after_ordered)
{
    ScRulesAccess x = *a;
    uint64_t rec = 0;
    ScRulesState st = sc_rules_decode(t->before);
    for (uint32_t i = 0; i < a->n_acq && !rec; i++)
        if (sc_rules_release_covers(a->acq[i], &st) == SC_RULES_COVERS_ALL)
            rec = a->acq[i];
    x.acq = &rec;
    x.n_acq = rec != 0;
    int before_ordered = sc_rules_ordered_positions(t->before, &x);
    *after_ordered = 0;
    for (uint32_t k = 0; k < t->n_after; k++) {
        uint64_t word = sc_rules_stamp_word(t->after[k]);
        st = sc_rules_decode(word);
        rec = 0;
        for (uint32_t i = 0; i < a->n_acq && !rec; i++)
            if ((sc_rules_release_covers(a->acq[i], &st) >> SC_RULES_POS_SELF) & 1)
                rec = a->acq[i];
        x.n_acq = rec != 0;
        *after_ordered |= ((sc_rules_ordered_positions(word, &x) >> SC_RULES_POS_SELF) & 1u) << k;
    }
    return before_ordered;
}

#endif
