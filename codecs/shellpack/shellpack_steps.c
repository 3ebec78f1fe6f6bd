/* shellpack's steps and folds (phases 1 and 2 of shellpack.c): the lever-arm start, folding to
 * the rest pose or a constant, rounds of coarsening; and the per-channel plan of the ablation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/shellpack/shellpack_encoder.h"


/* The finest step index whose quantisation error (half a step per component)
 * moves a vertex by at most `error` metres through the sub-track's lever. */
static int step_index_for(const sp_encoder *e, int b, int type, double error)
{
    const double lever = e->lever[b * SP_TYPES + type];
    /* a log-map, translation or scale error vector is at most sqrt(3)/2 steps long; a
     * quaternion's sqrt(4)/2, and its angle twice that */
    const double per_step = type == SP_ROT && e->plan.rot_comps == 4 ? 2.0 : sqrt(3.0) / 2;
    const double step = error / (lever * per_step);
    const double idx = ceil(-16 * log2(step));
    return idx < 0 ? 0 : idx > SP_STEP_INDEX_MAX ? SP_STEP_INDEX_MAX : (int)idx;
}

static void set_steps(sp_track *t, int index)
{
    index = index < 0 ? 0 : index > SP_STEP_INDEX_MAX ? SP_STEP_INDEX_MAX : index;
    for (int c = 0; c < SP_MAX_COMPS; c++)
        t->step_index[c] = (uint16_t)index;
}

/* Every component's step finer by d (within the grid). */
void spe_refine_steps(sp_track *t, int d)
{
    for (int c = 0; c < SP_MAX_COMPS; c++)
        t->step_index[c] = (uint16_t)(t->step_index[c] + d > SP_STEP_INDEX_MAX ? SP_STEP_INDEX_MAX : t->step_index[c] + d);
}

/* Quantises component c of sub-track (b, type) at its step; false when a value is too large for it. */
bool spe_quantise_comp(sp_encoder *e, int b, int type, int c)
{
    const double step = sp_step(sp_track_at(&e->plan, b, type)->step_index[c]);
    const double *v = val_at(e, b, type, c);
    int32_t *k = sp_curve(&e->plan, b, type, c);
    for (int f = 0; f < e->n; f++) {
        const double x = nearbyint(v[f] / step);
        if (!(fabs(x) < 1073741824.0))
            return false;
        k[f] = (int32_t)x;
    }
    return true;
}

bool spe_quantise(sp_encoder *e, int b, int type)
{
    for (int c = 0; c < sp_comps(&e->plan, type); c++)
        if (!spe_quantise_comp(e, b, type, c))
            return false;
    return true;
}

/* Sets every animated sub-track's step from the lever model at error `err_m`. */
static bool set_level(sp_encoder *e, double err_m)
{
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(&e->plan, b, type);
            if (t->mode != SP_ANIM)
                continue;
            set_steps(t, step_index_for(e, b, type, err_m));
            if (!spe_quantise(e, b, type))
                return false;
        }
    return true;
}

/* The midrange of each component: the constant closest to every frame. */
void spe_midrange(const sp_encoder *e, int b, int type, float *out)
{
    for (int c = 0; c < sp_comps(&e->plan, type); c++) {
        const double *v = val_at(e, b, type, c);
        double lo = v[0], hi = v[0];
        for (int f = 1; f < e->n; f++) {
            lo = v[f] < lo ? v[f] : lo;
            hi = v[f] > hi ? v[f] : hi;
        }
        out[c] = (float)(lo + (hi - lo) / 2);
    }
}

/* Tries a change of joint b's sub-track `type` (every sub-track: type < 0)
 * already made in the plan: kept (and committed) when the subtree stays within. */
static bool try_joint(sp_encoder *e, int b, int type)
{
    if (type < 0)
        sp_decode_local(&e->plan, e->rig, b, 0, e->n - 1, e->cand);
    else {
        for (int f = 0; f < e->n; f++)
            memcpy(e->cand + (size_t)f * POSE_STRIDE, loc_at(e, f, b), POSE_STRIDE * sizeof(double));
        sp_decode_track(&e->plan, e->rig, b, type, 0, e->n - 1, e->cand);
    }
    if (!spe_within(e, b, 0, e->n - 1, e->cand))
        return false;
    spe_commit(e, b, 0, e->n - 1, e->cand);
    return true;
}

static bool try_fold(sp_encoder *e, int b, int type, int mode)
{
    sp_track *t = sp_track_at(&e->plan, b, type);
    const sp_track saved = *t;
    t->mode = (uint8_t)mode;
    if (mode == SP_CONST)
        spe_midrange(e, b, type, t->constant);
    if (try_joint(e, b, type))
        return true;
    *t = saved;
    return false;
}

/* Tries component `comp`'s step index (all components: comp < 0) at `index`. */
static bool try_step(sp_encoder *e, int b, int type, int comp, int index)
{
    sp_track *t = sp_track_at(&e->plan, b, type);
    const sp_track saved = *t;
    if (index < 0 || !spe_probe_step(e, b, type, comp < 0 ? ~0u : 1u << comp, index))
        return false;
    bool ok = true;
    for (int c = 0; c < sp_comps(&e->plan, type); c++)
        if (comp < 0 || c == comp) {
            t->step_index[c] = (uint16_t)index;
            ok = ok && spe_quantise_comp(e, b, type, c);
        }
    if (ok && try_joint(e, b, type))
        return true;
    *t = saved;
    for (int c = 0; c < sp_comps(&e->plan, type); c++)
        if (comp < 0 || c == comp)
            spe_quantise_comp(e, b, type, c);
    return false;
}

/* Phase 2: leaves first, fold or coarsen every sub-track as far as the target allows. */
static void coarsen(sp_encoder *e)
{
    /* folds first: a fold is worth a whole curve, and after a coarsened step has used the slack a
     * sub-track equal to its rest value may no longer fit exactly */
    for (int b = e->nb - 1; b >= 0; b--)
        for (int type = 0; type < SP_TYPES; type++)
            if (sp_track_at(&e->plan, b, type)->mode == SP_ANIM && !try_fold(e, b, type, SP_REST))
                try_fold(e, b, type, SP_CONST);
    /* then every component's step, in rounds: each round offers every component, leaves first, a step
     * d grid points coarser, until none takes it; d = 32, 16, ..., 1.  Taking each sub-track as far as it
     * goes in turn spent the slack on the first ones: rounds gave 2 to 4 % fewer bytes on five Bandai
     * clips.  Starting at 8 instead of 32 was 0.2 to 0.4 % smaller and twice as slow. */
    for (int d = 32; d >= 1; d /= 2) {
        bool moved = true;
        while (moved) {
            moved = false;
            for (int b = e->nb - 1; b >= 0; b--)
                for (int type = 0; type < SP_TYPES; type++) {
                    sp_track *t = sp_track_at(&e->plan, b, type);
                    if (t->mode != SP_ANIM)
                        continue;
                    for (int c = 0; c < sp_comps(&e->plan, type); c++)
                        moved |= try_step(e, b, type, c, t->step_index[c] - d);
                }
        }
    }
}

/* The value of a sub-track folded to its rest pose: identity, rest offset, unit scale. */
static void rest_value(const sp_encoder *e, int b, int type, double *out)
{
    for (int c = 0; c < SP_MAX_COMPS; c++)
        out[c] = type == SP_SCL || (type == SP_ROT && c == 3) ? 1.0 : 0.0;
    if (type == SP_POS)
        for (int c = 0; c < 3; c++)
            out[c] = e->rig->rest_offsets[b * 3 + c];
}

/* Whether every frame of a sub-track is within `slack` of value (per component). */
static bool constant_within(const sp_encoder *e, int b, int type, const double *value, const double *slack)
{
    for (int c = 0; c < sp_comps(&e->plan, type); c++)
        for (int f = 0; f < e->n; f++)
            if (!(fabs(val_at(e, b, type, c)[f] - value[c]) <= slack[c]))
                return false;
    return true;
}

static bool channel_const_within(const sp_encoder *e, int b, int type, const double *value)
{
    const double tol = e->target / e->lever[b * SP_TYPES + type];
    const double slack[SP_MAX_COMPS] = {tol, tol, tol, tol};
    return constant_within(e, b, type, value, slack);
}

int spe_plan_per_channel(sp_encoder *e, char *err, size_t err_size)
{
    for (int b = 0; b < e->nb; b++) {
        e->lever[b * SP_TYPES + SP_ROT] = STUDY_LEVER_M;
        e->lever[b * SP_TYPES + SP_SCL] = STUDY_LEVER_M;
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(&e->plan, b, type);
            double rest[SP_MAX_COMPS], mid[SP_MAX_COMPS];
            rest_value(e, b, type, rest);
            spe_midrange(e, b, type, t->constant);
            for (int c = 0; c < SP_MAX_COMPS; c++)
                mid[c] = t->constant[c];
            if (channel_const_within(e, b, type, rest))
                t->mode = SP_REST;
            else if (channel_const_within(e, b, type, mid)) {
                t->mode = SP_CONST;
            } else {
                t->mode = SP_ANIM;
                set_steps(t, step_index_for(e, b, type, e->target));
                if (!spe_quantise(e, b, type)) {
                    snprintf(err, err_size,
                             "shellpack: joint %d's values would need more than 2^30 steps of %g (quantised values are "
                             "31-bit integers)",
                             b, sp_step(t->step_index[0]));
                    return -1;
                }
            }
        }
    }
    return 0;
}

int spe_plan_closed_loop(sp_encoder *e, char *err, size_t err_size)
{
    /* sub-tracks that are their rest value or a constant (to a thousandth of the target through their
     * lever) fold before any step is chosen: quantised, they would spend error that folding them later
     * could not give back */
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(&e->plan, b, type);
            double rest[SP_MAX_COMPS], mid[SP_MAX_COMPS], slack[SP_MAX_COMPS];
            rest_value(e, b, type, rest);
            spe_midrange(e, b, type, t->constant);
            for (int c = 0; c < SP_MAX_COMPS; c++) {
                mid[c] = t->constant[c]; /* as the stream holds it */
                slack[c] = 1e-3 * e->target / e->lever[b * SP_TYPES + type];
            }
            t->mode = constant_within(e, b, type, rest, slack)  ? SP_REST
                      : constant_within(e, b, type, mid, slack) ? SP_CONST
                                                                : SP_ANIM;
        }
    /* the coarsest level of the lever model that meets the target: levels g, error target * 2^(-g/16),
     * tried 32 apart, then one by one where the next would need values past 31 bits */
    int lo = -16, hi = -16; /* lo: known to miss (or the start), hi: to be found meeting it */
    bool found = false;
    for (hi = 0; hi <= 640 && !found; hi += 32) {
        if (!set_level(e, e->target * exp2(-hi / 16.0))) {
            for (hi = lo + 1; hi < lo + 32 && !found; hi++)
                found = set_level(e, e->target * exp2(-hi / 16.0)) && spe_rebuild(e);
            hi -= found;
            break;
        }
        if (spe_rebuild(e)) {
            found = true;
            break;
        }
        lo = hi;
    }
    if (!found) {
        snprintf(err, err_size,
                 "shellpack: no step meets %g mm of shell error on this clip: its values would need more than 2^30 "
                 "steps (quantised values are 31-bit integers)",
                 e->target * 1000);
        return -1;
    }
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        if (set_level(e, e->target * exp2(-mid / 16.0)) && spe_rebuild(e))
            hi = mid;
        else
            lo = mid;
    }
    set_level(e, e->target * exp2(-hi / 16.0));
    spe_rebuild(e);
    coarsen(e);
    return 0;
}
