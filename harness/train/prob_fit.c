/* Fitting initial states of adaptive bits (prob_fit.h). */
#include <stdlib.h>

#include "harness/train/prob_fit.h"

void bit_trace_init(bit_trace *t)
{
    *t = (bit_trace){0};
}

void bit_trace_free(bit_trace *t)
{
    free(t->bits);
    free(t->starts);
    *t = (bit_trace){0};
}

static bool grow(void **data, size_t *capacity, size_t need, size_t size)
{
    if (need <= *capacity)
        return true;
    size_t n = *capacity ? *capacity : 64;
    while (n < need)
        n *= 2;
    void *p = realloc(*data, n * size);
    if (!p)
        return false;
    *data = p;
    *capacity = n;
    return true;
}

void bit_trace_add(bit_trace *t, uint32_t clip, int bit)
{
    if (t->failed)
        return;
    if (t->runs == 0 || clip != t->last_clip) {
        if (!grow((void **)&t->starts, &t->runs_capacity, t->runs + 1, sizeof *t->starts)) {
            t->failed = true;
            return;
        }
        t->starts[t->runs++] = t->count;
        t->last_clip = clip;
    }
    if (!grow((void **)&t->bits, &t->capacity, t->count + 1, sizeof *t->bits)) {
        t->failed = true;
        return;
    }
    t->bits[t->count++] = (uint8_t)(bit != 0);
}

static size_t run_end(const bit_trace *t, size_t r)
{
    return r + 1 < t->runs ? t->starts[r + 1] : t->count;
}

uint64_t bit_trace_cost(const bit_trace *t, const rc_cost_table *costs, rc_prob init)
{
    uint64_t cost = 0;
    for (size_t r = 0; r < t->runs; r++) {
        rc_prob p = init;
        for (size_t i = t->starts[r]; i < run_end(t, r); i++)
            cost += rc_bit_cost(costs, &p, t->bits[i]);
    }
    return cost;
}

/* The probability of a 0 over the first `window` bits of every run, in units of 2^-RC_PROB_BITS,
 * with half a count added to each side, kept off 0 and 1 by as much as the coder keeps its own. */
static uint16_t early_probability(const bit_trace *t, size_t window)
{
    uint64_t zeros = 0, n = 0;
    for (size_t r = 0; r < t->runs; r++) {
        const size_t end = run_end(t, r);
        for (size_t i = t->starts[r]; i < end && i - t->starts[r] < window; i++) {
            zeros += t->bits[i] == 0;
            n++;
        }
    }
    const uint64_t one = 1u << RC_PROB_BITS, margin = 1u << RC_SHIFT_MAX;
    uint64_t p = ((2 * zeros + 1) * one) / (2 * n + 2);
    p = p < margin ? margin : p > one - margin ? one - margin : p;
    return (uint16_t)p;
}

rc_prob bit_trace_fit(const bit_trace *t, const rc_cost_table *costs)
{
    rc_prob best = RC_PROB_INIT;
    if (t->failed || t->runs < PROB_FIT_MIN_RUNS)
        return best;
    uint64_t best_cost = bit_trace_cost(t, costs, best);
    for (uint16_t seen = 0; seen <= (1u << RC_SHIFT_MAX) - 2; seen++) {
        const rc_prob trial = {early_probability(t, (size_t)seen + 2), seen};
        const uint64_t cost = bit_trace_cost(t, costs, trial);
        if (cost < best_cost) {
            best = trial;
            best_cost = cost;
        }
    }
    return best;
}
