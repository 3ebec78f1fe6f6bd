/* shellpack's keys and predictors (phases 3 and 4 of shellpack.c), chosen by bits estimated with
 * the coder's own adaptive models. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/shellpack/shellpack_encoder.h"


static uint32_t curve_cost(const sp_encoder *e, int b, int type, int c, int predictor)
{
    const int32_t *k = sp_curve(&e->plan, b, type, c);
    const uint8_t *kept = sp_kept(&e->plan, b);
    residual_model m;
    residual_model_init(&m);
    sp_predictor_state s;
    sp_predictor_reset(&s);
    uint32_t m1 = 0, m2 = 0, cost = 0;
    for (int f = 0; f < e->n; f++) {
        if (!kept[f])
            continue;
        const int32_t r = sp_wrap32((int64_t)k[f] - sp_predict(predictor, &s));
        const uint32_t mm = m1 > m2 ? m1 : m2;
        cost += residual_cost(&e->cost, &m, residual_context(mm), r);
        sp_predictor_update(predictor, &s, k[f], r);
        m2 = m1;
        m1 = r < 0 ? 0u - (uint32_t)r : (uint32_t)r;
    }
    return cost;
}

/* The cheapest predictor of a curve (only "none" without prediction); its cost. */
static uint32_t choose_predictor(const sp_encoder *e, int b, int type, int c, uint8_t *choice)
{
    uint32_t best = UINT32_MAX;
    for (int pr = 0; pr < (e->cfg->predict ? SP_PREDICTORS : 1); pr++) {
        const uint32_t cost = curve_cost(e, b, type, c, pr);
        if (cost < best) {
            best = cost;
            *choice = (uint8_t)pr;
        }
    }
    return best;
}

/* Estimated bits (x RC_COST_SCALE) of joint b's animated values and key mask. */
static uint64_t joint_cost(sp_encoder *e, int b)
{
    uint64_t cost = 0;
    for (int type = 0; type < SP_TYPES; type++) {
        sp_track *t = sp_track_at(&e->plan, b, type);
        if (t->mode == SP_ANIM)
            for (int c = 0; c < sp_comps(&e->plan, type); c++)
                cost += choose_predictor(e, b, type, c, &t->predictor[c]) + 2 * RC_COST_SCALE;
    }
    const uint8_t *kept = sp_kept(&e->plan, b);
    rc_prob has = RC_PROB_INIT, mask[2] = {RC_PROB_INIT, RC_PROB_INIT};
    bool gaps = false;
    for (int f = 0; f < e->n && !gaps; f++)
        gaps = !kept[f];
    cost += rc_bit_cost(&e->cost, &has, gaps);
    for (int f = 1; gaps && f < e->n - 1; f++)
        cost += rc_bit_cost(&e->cost, &mask[kept[f - 1]], kept[f]);
    return cost;
}

/* The per-channel check (the ablation without the closed loop): every
 * component within its own tolerance of the original at frames f0..f1. */
static bool channel_within(const sp_encoder *e, int b, int f0, int f1)
{
    double values[SP_MAX_COMPS * 64];
    for (int type = 0; type < SP_TYPES; type++) {
        if (sp_track_at(&e->plan, b, type)->mode != SP_ANIM)
            continue;
        const int comps = sp_comps(&e->plan, type);
        const double tol = e->target / e->lever[b * SP_TYPES + type];
        for (int g0 = f0; g0 <= f1; g0 += 64) {
            const int g1 = g0 + 63 < f1 ? g0 + 63 : f1;
            sp_track_values(&e->plan, b, type, g0, g1, values);
            for (int f = g0; f <= g1; f++)
                for (int c = 0; c < comps; c++)
                    if (!(fabs(values[(f - g0) * comps + c] - val_at(e, b, type, c)[f]) <= tol))
                        return false;
        }
    }
    return true;
}

static bool gap_within(sp_encoder *e, int b, int f0, int f1)
{
    if (e->cfg->per_channel)
        return channel_within(e, b, f0, f1);
    sp_decode_local(&e->plan, e->rig, b, f0, f1, e->cand);
    return spe_within(e, b, f0, f1, e->cand);
}

/* Greedy forward: from each kept frame, the longest run of left-out frames the target allows. */
static void omit_frames(sp_encoder *e, int b)
{
    uint8_t *kept = sp_kept(&e->plan, b);
    int a = 0;
    while (a < e->n - 1) {
        int best = a + 1;
        for (int z = a + 2; z <= e->n - 1 && z - a <= MAX_GAP; z++) {
            kept[z - 1] = 0;
            if (!gap_within(e, b, a + 1, z - 1)) {
                kept[z - 1] = 1;
                break;
            }
            best = z;
        }
        a = best;
    }
}

/* Phase 3: per joint, the cheapest of "every frame at the current steps" and
 * "steps finer by d, with the frames that then fit in linear gaps left out". */
void spe_choose_keys(sp_encoder *e)
{
    static const int REFINE[] = {0, 8, 16, 24};
    sp_track saved[SP_TYPES];
    for (int b = e->nb - 1; b >= 0; b--) {
        bool animated = false;
        for (int type = 0; type < SP_TYPES; type++) {
            saved[type] = *sp_track_at(&e->plan, b, type);
            animated |= saved[type].mode == SP_ANIM;
        }
        if (!animated)
            continue;
        uint8_t *kept = sp_kept(&e->plan, b);
        const uint64_t base = joint_cost(e, b);
        uint64_t best = base;
        int best_refine = -1;
        for (size_t r = 0; r < sizeof REFINE / sizeof REFINE[0]; r++) {
            bool ok = true;
            for (int type = 0; type < SP_TYPES && ok; type++) {
                sp_track *t = sp_track_at(&e->plan, b, type);
                if (t->mode != SP_ANIM)
                    continue;
                *t = saved[type];
                spe_refine_steps(t, REFINE[r]);
                ok = spe_quantise(e, b, type);
            }
            memset(kept, 1, (size_t)e->n);
            if (ok && (e->cfg->per_channel || gap_within(e, b, 0, e->n - 1))) {
                omit_frames(e, b);
                const uint64_t cost = joint_cost(e, b);
                if (cost < best) {
                    best = cost;
                    best_refine = (int)r;
                    memcpy(e->best_kept, kept, (size_t)e->n);
                }
            }
        }
        for (int type = 0; type < SP_TYPES; type++)
            *sp_track_at(&e->plan, b, type) = saved[type];
        if (best_refine >= 0)
            for (int type = 0; type < SP_TYPES; type++)
                if (saved[type].mode == SP_ANIM)
                    spe_refine_steps(sp_track_at(&e->plan, b, type), REFINE[best_refine]);
        for (int type = 0; type < SP_TYPES; type++)
            if (saved[type].mode == SP_ANIM)
                spe_quantise(e, b, type);
        if (best_refine >= 0)
            memcpy(kept, e->best_kept, (size_t)e->n);
        else
            memset(kept, 1, (size_t)e->n);
        if (!e->cfg->per_channel) {
            sp_decode_local(&e->plan, e->rig, b, 0, e->n - 1, e->cand);
            spe_commit(e, b, 0, e->n - 1, e->cand);
        }
    }
}

void spe_choose_predictors(sp_encoder *e)
{
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(&e->plan, b, type);
            if (t->mode == SP_ANIM)
                for (int c = 0; c < sp_comps(&e->plan, type); c++)
                    choose_predictor(e, b, type, c, &t->predictor[c]);
        }
}
