/* Initial states of adaptive bits fitted to example sequences (issue 23, "knowing the data before
 * seeing it"): a coder whose every probability starts at 1/2 with nothing seen spends its first few
 * hundred bits of a short clip learning what every clip is like.  A trace holds, for one adaptive
 * bit (one rc_prob of a model), its values in the order a coder met them, clip by clip; the fit is
 * the state (probability, bits seen) from which coding every clip's sequence afresh costs the
 * fewest bits, by the coder's own update rule and costs (range_coder.h).  Integer arithmetic only:
 * the same traces give the same states on every compiler. */
#ifndef ANIMBENCH_PROB_FIT_H
#define ANIMBENCH_PROB_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecs/entropy/range_coder.h"

/* A trace fits a state only when this many clips met the bit: fewer would fit the examples, not the
 * data (the state stays RC_PROB_INIT). */
#define PROB_FIT_MIN_RUNS 8

typedef struct bit_trace {
    uint8_t *bits;   /* 0 or 1, every clip's run one after another */
    size_t count, capacity;
    size_t *starts;  /* where each clip's run begins in bits */
    size_t runs, runs_capacity;
    uint32_t last_clip;
    bool failed;     /* out of memory: the trace is incomplete */
} bit_trace;

void bit_trace_init(bit_trace *t);
void bit_trace_free(bit_trace *t);
/* One more value of the bit, met while coding clip `clip` (clips numbered in the order they come). */
void bit_trace_add(bit_trace *t, uint32_t clip, int bit);

/* What coding every run from `init` costs, in 1/RC_COST_SCALE bit. */
uint64_t bit_trace_cost(const bit_trace *t, const rc_cost_table *costs, rc_prob init);
/* The state to start from: the cheapest of RC_PROB_INIT and, for each count of bits seen s (0 to
 * the coder's maximum), the probability of a 0 over the first s + 2 bits of every run (what a state
 * that has seen s bits stands for).  RC_PROB_INIT on a tie or with fewer than PROB_FIT_MIN_RUNS runs. */
rc_prob bit_trace_fit(const bit_trace *t, const rc_cost_table *costs);

#endif
