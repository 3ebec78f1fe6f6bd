#include "study_plan.h"

#include <stdlib.h>
#include <string.h>

#include "../core/curve.h"
#include "../core/quat.h"
#include "refine.h"

double study_tolerance_deg(double tol_mm, double lever_m)
{
    return (tol_mm / 1000 / lever_m) * 180 / ANIM_PI;
}

typedef struct plan_scratch {
    double *recon; /* n * 4 */
    double *err;   /* n */
    double *src;   /* n * 4: values a decoder sees at the keys */
} plan_scratch;

static void plan_scalar(study_plan *plan, int i, int **key_cursor, uint16_t **code_cursor,
                        plan_scratch *s)
{
    const plan_options *o = &plan->options;
    const scalar_channel *ch = &plan->view->scalars[i];
    const int n = plan->view->frame_count;
    planned_scalar *ps = &plan->scalars[i];
    ps->channel = ch;
    ps->is_constant = o->drop_constant && ch->is_constant;
    ps->keys = *key_cursor;
    if (ps->is_constant) {
        ps->keys[0] = 0;
        ps->key_count = 1;
    } else if (!o->reduce_keys) {
        for (int f = 0; f < n; f++)
            ps->keys[f] = f;
        ps->key_count = n;
    } else {
        ps->key_count = refine_scalar(ch->values, n, o->eps_m, o->cubic, ps->keys, s->recon, s->err);
    }
    *key_cursor += ps->key_count;

    /* Only key frames are read by the reconstruction: dequantise just those. */
    const double *src = ch->values;
    if (o->quantize) {
        ps->range = quant_scalar_range(ch->values, ps->keys, ps->key_count);
        ps->codes = *code_cursor;
        *code_cursor += ps->key_count;
        for (int k = 0; k < ps->key_count; k++) {
            ps->codes[k] = quant_scalar_encode(ch->values[ps->keys[k]], ps->range);
            s->src[ps->keys[k]] = quant_scalar_decode(ps->codes[k], ps->range.lo, ps->range.range);
        }
        src = s->src;
    }
    double *out = ch->kind == CHANNEL_POSITION ? clip_pos_channel(plan->encoder_recon, ch->bone, ch->axis)
                                               : clip_scl_channel(plan->encoder_recon, ch->bone, ch->axis);
    if (ps->is_constant) {
        for (int f = 0; f < n; f++)
            out[f] = src[0];
        return;
    }
    const curve_keys k = {src, 1, ps->keys, ps->key_count, o->cubic};
    curve_reconstruct(&k, n, out, 1);
}

void realign_keys(double *quats, const int *keys, int count)
{
    for (int k = 1; k < count; k++) {
        double *a = quats + (size_t)keys[k - 1] * 4, *b = quats + (size_t)keys[k] * 4;
        if (quat_dot(a, b) < 0)
            for (int c = 0; c < 4; c++)
                b[c] = -b[c];
    }
}

static void plan_rotation(study_plan *plan, int i, int **key_cursor, plan_scratch *s)
{
    const plan_options *o = &plan->options;
    const rotation_track *tr = &plan->view->rotations[i];
    const int n = plan->view->frame_count;
    planned_rotation *pr = &plan->rotations[i];
    pr->track = tr;
    pr->is_constant = o->drop_constant && tr->is_constant;
    pr->keys = *key_cursor;
    if (pr->is_constant) {
        pr->keys[0] = 0;
        pr->key_count = 1;
    } else if (!o->reduce_keys) {
        for (int f = 0; f < n; f++)
            pr->keys[f] = f;
        pr->key_count = n;
    } else {
        pr->key_count = refine_rotation(tr->quats, n, o->eps_deg, o->cubic, pr->keys, s->recon, s->err);
    }
    *key_cursor += pr->key_count;

    /* Only key frames are read by the reconstruction: dequantise just those. */
    const double *src = tr->quats;
    if (o->quantize) {
        for (int k = 0; k < pr->key_count; k++) {
            const int f = pr->keys[k];
            quant_rotation_decode(quant_rotation_encode(tr->quats + f * 4), s->src + f * 4);
        }
        if (o->realign_quantized)
            realign_keys(s->src, pr->keys, pr->key_count);
        src = s->src;
    }
    double *out = clip_rot_track(plan->encoder_recon, tr->bone);
    if (pr->is_constant) {
        double q[4];
        quat_normalize(src, q);
        for (int f = 0; f < n; f++)
            memcpy(out + f * 4, q, sizeof q);
        return;
    }
    const curve_keys k = {src, 4, pr->keys, pr->key_count, o->cubic};
    curve_reconstruct4(&k, n, s->recon);
    for (int f = 0; f < n; f++)
        quat_normalize(s->recon + f * 4, out + f * 4);
}

study_plan *study_plan_create(const channel_view *view, const plan_options *options)
{
    const int n = view->frame_count;
    const size_t tracks = (size_t)view->scalar_count + (size_t)view->rotation_count;
    study_plan *plan = calloc(1, sizeof *plan);
    plan_scratch s = {0};
    if (!plan)
        return NULL;
    plan->view = view;
    plan->options = *options;
    plan->scalars = calloc((size_t)view->scalar_count, sizeof *plan->scalars);
    plan->rotations = calloc((size_t)view->rotation_count, sizeof *plan->rotations);
    plan->key_storage = malloc(tracks * (size_t)n * sizeof *plan->key_storage);
    plan->code_storage = options->quantize
                             ? malloc((size_t)view->scalar_count * (size_t)n * sizeof *plan->code_storage)
                             : NULL;
    plan->encoder_recon = clip_create_rest(view->clip->rig, n, view->clip->fps);
    s.recon = malloc((size_t)n * 4 * sizeof *s.recon);
    s.err = malloc(refine_err_scratch(n) * sizeof *s.err);
    s.src = malloc((size_t)n * 4 * sizeof *s.src);
    if (!plan->scalars || !plan->rotations || !plan->key_storage || !plan->encoder_recon ||
        (options->quantize && !plan->code_storage) || !s.recon || !s.err || !s.src) {
        free(s.recon);
        free(s.err);
        free(s.src);
        study_plan_free(plan);
        return NULL;
    }
    int *key_cursor = plan->key_storage;
    uint16_t *code_cursor = plan->code_storage;
    for (int i = 0; i < view->scalar_count; i++) {
        plan_scalar(plan, i, &key_cursor, &code_cursor, &s);
        plan->keys_scalar += plan->scalars[i].key_count;
        plan->constant_scalars += plan->scalars[i].is_constant;
    }
    for (int i = 0; i < view->rotation_count; i++) {
        plan_rotation(plan, i, &key_cursor, &s);
        plan->keys_rotation += plan->rotations[i].key_count;
        plan->constant_rotations += plan->rotations[i].is_constant;
    }
    free(s.recon);
    free(s.err);
    free(s.src);
    return plan;
}

void study_plan_free(study_plan *plan)
{
    if (!plan)
        return;
    free(plan->scalars);
    free(plan->rotations);
    free(plan->key_storage);
    free(plan->code_storage);
    clip_free(plan->encoder_recon);
    free(plan);
}
