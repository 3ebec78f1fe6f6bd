/* The step exchange (shellpack_exchange.h).
 *
 * Why: shellpack's coarsening gives each component, leaves first and in rounds of halving size, the
 * coarsest step the closed loop allows at that moment, so whichever component is offered first takes
 * the error budget it shares with the joints above and below it.  Bits against error are not equal
 * across components: a finer step on one (the hips' translation, say, whose error every vertex sees)
 * can free enough of the shared budget for several others to coarsen, at fewer bits in all.  The
 * Lagrangian answer (every step at an equal slope of bits against the subtree's margin) has no
 * closed form under a worst-case contract through a hierarchy, so this is a local search for it.
 *
 * How: for each animated component A (joints in rig order, then kinds, then components) and each
 * offer d = largest, largest / 2, ..., largest / 8: A's step d grid indices finer (kept if the
 * subtree stays within, which a finer grid almost always does), then rounds of coarsening offered to
 * every other component of A's ancestors and A's subtree, leaves first, d grid indices at a time and
 * then halving, as shellpack's own coarsening does; the exchange is kept when the curves it changed
 * cost fewer estimated bits than before (sp_residual_costs, tabulated once from the plan as it came),
 * otherwise every changed curve and step is put back and the joints re-decoded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/shellpack/shellpack_costs.h"
#include "codecs/shellpack/shellpack_exchange.h"

typedef struct exchange_state {
    sp_encoder *e;
    size_t curves;      /* nb * SP_TYPES * SP_MAX_COMPS */
    int32_t *saved;     /* [curve][frame]: a changed curve's values before the exchange */
    uint16_t *old_step; /* [curve] */
    uint8_t *changed;   /* [curve] */
    uint8_t *related;   /* [joint]: A's ancestors and subtree */
    sp_residual_costs *costs; /* [SP_TYPES] */
} exchange_state;

static size_t curve_index(int b, int type, int c)
{
    return ((size_t)b * SP_TYPES + type) * SP_MAX_COMPS + c;
}

/* Sets component c of (b, type) to step `index` and keeps it if the subtree stays within; the
 * curve's values and step as they were before the exchange are saved the first time it changes. */
static bool offer_step(exchange_state *x, int b, int type, int c, int index)
{
    sp_encoder *e = x->e;
    sp_track *t = sp_track_at(&e->plan, b, type);
    if (index < 0 || index > SP_STEP_INDEX_MAX || !spe_probe_step(e, b, type, 1u << c, index))
        return false; /* before the curve is saved: a trial turned down leaves it as it was, so its cost is the same before and after */
    const size_t i = curve_index(b, type, c);
    int32_t *k = sp_curve(&e->plan, b, type, c);
    if (!x->changed[i]) {
        memcpy(x->saved + i * (size_t)e->n, k, (size_t)e->n * sizeof *k);
        x->old_step[i] = t->step_index[c];
        x->changed[i] = 1;
    }
    const uint16_t before = t->step_index[c];
    t->step_index[c] = (uint16_t)index;
    bool ok = spe_quantise_comp(e, b, type, c);
    if (ok) {
        for (int f = 0; f < e->n; f++)
            memcpy(e->cand + (size_t)f * POSE_STRIDE, loc_at(e, f, b), POSE_STRIDE * sizeof(double));
        sp_decode_track(&e->plan, e->rig, b, type, 0, e->n - 1, e->cand);
        ok = spe_within(e, b, 0, e->n - 1, e->cand);
    }
    if (ok) {
        spe_commit(e, b, 0, e->n - 1, e->cand);
        return true;
    }
    t->step_index[c] = before;
    spe_quantise_comp(e, b, type, c); /* the values at `before`, as committed: before the slack phase every
                                       * value is its nearest grid point */
    return false;
}

/* Rounds of coarsening over the related joints' components (A's left out), d grid indices at a time,
 * then halving, until none takes it. */
static void coarsen_related(exchange_state *x, int a_b, int a_type, int a_c, int largest)
{
    sp_encoder *e = x->e;
    for (int d = largest; d >= 1; d /= 2) {
        bool moved = true;
        while (moved) {
            moved = false;
            for (int j = e->nb - 1; j >= 0; j--) {
                if (!x->related[j])
                    continue;
                for (int type = 0; type < SP_TYPES; type++) {
                    const sp_track *t = sp_track_at(&e->plan, j, type);
                    if (t->mode != SP_ANIM)
                        continue;
                    for (int c = 0; c < sp_comps(&e->plan, type); c++)
                        if (!(j == a_b && type == a_type && c == a_c))
                            moved |= offer_step(x, j, type, c, t->step_index[c] - d);
                }
            }
        }
    }
}

/* The estimated bits of every changed curve, before (saved) and now; clears nothing. */
static void changed_costs(const exchange_state *x, uint64_t *before, uint64_t *now)
{
    const sp_encoder *e = x->e;
    *before = *now = 0;
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++)
            for (int c = 0; c < SP_MAX_COMPS; c++) {
                const size_t i = curve_index(b, type, c);
                if (!x->changed[i])
                    continue;
                *before += sp_curve_estimate(e, &x->costs[type], b, type, c, x->saved + i * (size_t)e->n);
                *now += sp_curve_estimate(e, &x->costs[type], b, type, c, sp_curve(&e->plan, b, type, c));
            }
}

/* Every changed curve and step back as before the exchange, the joints decoded again (rig order). */
static void put_back(exchange_state *x)
{
    sp_encoder *e = x->e;
    for (int b = 0; b < e->nb; b++) {
        bool any = false;
        for (int type = 0; type < SP_TYPES; type++)
            for (int c = 0; c < SP_MAX_COMPS; c++) {
                const size_t i = curve_index(b, type, c);
                if (!x->changed[i])
                    continue;
                memcpy(sp_curve(&e->plan, b, type, c), x->saved + i * (size_t)e->n, (size_t)e->n * sizeof(int32_t));
                sp_track_at(&e->plan, b, type)->step_index[c] = x->old_step[i];
                any = true;
            }
        if (any) {
            sp_decode_local(&e->plan, e->rig, b, 0, e->n - 1, e->cand);
            spe_commit(e, b, 0, e->n - 1, e->cand);
        }
    }
}

static void mark_related(exchange_state *x, int b)
{
    const sp_encoder *e = x->e;
    memset(x->related, 0, (size_t)e->nb);
    for (int j = b; j >= 0; j = e->rig->parents[j])
        x->related[j] = 1;
    for (int i = 0; i < e->sub_len[b]; i++)
        x->related[e->sub[e->sub_start[b] + i]] = 1;
}

int spe_exchange_steps(sp_encoder *e, int largest, char *err, size_t err_size)
{
    if (largest <= 0)
        return 0;
    exchange_state x = {e, (size_t)e->nb * SP_TYPES * SP_MAX_COMPS, NULL, NULL, NULL, NULL, NULL};
    x.saved = malloc(x.curves * (size_t)e->n * sizeof *x.saved);
    x.old_step = malloc(x.curves * sizeof *x.old_step);
    x.changed = malloc(x.curves);
    x.related = malloc((size_t)e->nb);
    x.costs = malloc(SP_TYPES * sizeof *x.costs);
    if (!x.saved || !x.old_step || !x.changed || !x.related ||  !x.costs) {
        snprintf(err, err_size, "out of memory (the step exchange's copy of the curves, %zu values)",
                 x.curves * (size_t)e->n);
        free(x.saved);
        free(x.old_step);
        free(x.changed);
        free(x.related);
        free(x.costs);
        return -1;
    }
    spe_choose_predictors(e);
    for (int type = 0; type < SP_TYPES; type++)
        if (sp_type_animated(&e->plan, type))
            sp_tabulate_costs(e, type, &x.costs[type]);
    for (int d = largest; d >= 1 && d >= largest / 8; d /= 2)
        for (int b = 0; b < e->nb; b++)
            for (int type = 0; type < SP_TYPES; type++) {
                const sp_track *t = sp_track_at(&e->plan, b, type);
                if (t->mode != SP_ANIM)
                    continue;
                for (int c = 0; c < sp_comps(&e->plan, type); c++) {
                    memset(x.changed, 0, x.curves);
                    if (!offer_step(&x, b, type, c, t->step_index[c] + d))
                        continue;
                    mark_related(&x, b);
                    coarsen_related(&x, b, type, c, d);
                    uint64_t before, now;
                    changed_costs(&x, &before, &now);
                    if (now >= before)
                        put_back(&x);
                }
            }
    free(x.saved);
    free(x.old_step);
    free(x.changed);
    free(x.related);
    free(x.costs);
    return 0;
}
