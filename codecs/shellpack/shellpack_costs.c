/* Residual costs tabulated from the coder's model (shellpack_costs.h). */
#include "codecs/shellpack/shellpack_costs.h"

void sp_tabulate_costs(const sp_encoder *e, int type, sp_residual_costs *out)
{
    residual_model m, trial;
    residual_model_init(&m);
    for (int b = 0; b < e->nb; b++) {
        const sp_track *t = sp_track_at(&e->plan, b, type);
        if (t->mode != SP_ANIM)
            continue;
        const uint8_t *kept = sp_kept(&e->plan, b);
        for (int c = 0; c < sp_comps(&e->plan, type); c++) {
            const int32_t *k = sp_curve(&e->plan, b, type, c);
            sp_predictor_state s;
            sp_predictor_reset(&s);
            uint32_t m1 = 0, m2 = 0;
            for (int f = 0; f < e->n; f++) {
                if (!kept[f])
                    continue;
                const int32_t r = sp_wrap32((int64_t)k[f] - sp_predict(t->predictor[c], &s));
                residual_cost(&e->cost, &m, sp_curve_context(m1, m2), r);
                sp_predictor_update(t->predictor[c], &s, k[f], r);
                m2 = m1;
                m1 = sp_magnitude(r);
            }
        }
    }
    for (int ctx = 0; ctx < RESIDUAL_CONTEXTS; ctx++) {
        for (int r = -SP_COST_RANGE; r <= SP_COST_RANGE; r++) {
            trial = m;
            out->at[ctx][r + SP_COST_RANGE] = residual_cost(&e->cost, &trial, ctx, r);
        }
        out->beyond[ctx] = out->at[ctx][2 * SP_COST_RANGE];
    }
}

uint64_t sp_curve_estimate(const sp_encoder *e, const sp_residual_costs *t, int b, int type, int c, const int32_t *k)
{
    const uint8_t *kept = sp_kept(&e->plan, b);
    const int predictor = sp_track_at(&e->plan, b, type)->predictor[c];
    sp_predictor_state s;
    sp_predictor_reset(&s);
    uint32_t m1 = 0, m2 = 0;
    uint64_t cost = 0;
    for (int f = 0; f < e->n; f++) {
        if (!kept[f])
            continue;
        const int32_t r = sp_wrap32((int64_t)k[f] - sp_predict(predictor, &s));
        cost += sp_cost_of(t, sp_curve_context(m1, m2), r);
        sp_predictor_update(predictor, &s, k[f], r);
        m2 = m1;
        m1 = sp_magnitude(r);
    }
    return cost;
}
