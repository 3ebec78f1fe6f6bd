/* Estimated bits of a residual, from shellpack's range-coder model as it stands after coding the
 * whole clip once, tabulated per context: a static table, so that an estimate does not depend on the
 * order in which an encoder phase tries its changes.  Shared by the slack phase (shellpack_slack.c)
 * and the step exchange (shellpack_exchange.c). */
#ifndef ANIMBENCH_SHELLPACK_COSTS_H
#define ANIMBENCH_SHELLPACK_COSTS_H

#include <stdint.h>

#include "codecs/shellpack/shellpack_encoder.h"

#define SP_COST_RANGE 64 /* residuals tabulated per context: -64 .. 64 */

typedef struct sp_residual_costs {
    uint32_t at[RESIDUAL_CONTEXTS][2 * SP_COST_RANGE + 1];
    uint32_t beyond[RESIDUAL_CONTEXTS]; /* the cost of |r| = SP_COST_RANGE, for larger ones plus 2 bits per doubling */
} sp_residual_costs;

/* The estimated cost of residual r in context ctx, in 1/RC_COST_SCALE bit. */
static inline uint32_t sp_cost_of(const sp_residual_costs *t, int ctx, int32_t r)
{
    if (r >= -SP_COST_RANGE && r <= SP_COST_RANGE)
        return t->at[ctx][r + SP_COST_RANGE];
    uint32_t a = sp_magnitude(r), extra = 0;
    for (uint32_t m = SP_COST_RANGE; m < a && m < 0x80000000u; m <<= 1)
        extra += 2 * RC_COST_SCALE;
    return t->beyond[ctx] + extra;
}

/* The coder's model of sub-track kind `type` after every residual of the plan, as a table. */
void sp_tabulate_costs(const sp_encoder *e, int type, sp_residual_costs *out);

/* The estimated cost of curve (b, type, c) with values k (the plan's or a saved copy), its
 * predictor and its kept frames as the plan has them. */
uint64_t sp_curve_estimate(const sp_encoder *e, const sp_residual_costs *t, int b, int type, int c, const int32_t *k);

#endif
