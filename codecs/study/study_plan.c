#include "codecs/study/study_plan.h"

#include <stdlib.h>
#include <string.h>

#include "core/curve.h"
#include "core/quat.h"
#include "codecs/keys/refine.h"

double study_tolerance_deg(double tol_mm, double lever_m)
{
    return (tol_mm / 1000 / lever_m) * 180 / ANIM_PI;
}

typedef struct plan_scratch {
    double *recon; /* n * 4 */
    double *err;   /* refine_err_scratch(n) */
    double *src;   /* n * 4: values a decoder sees at the keys */
    int *keys;     /* n: one track's keys while it is planned */
    /* every track's keys and codes, appended as the tracks are planned:
     * sized to what they keep, not to tracks x frames */
    int *key_store;
    size_t key_count, key_capacity;
    uint16_t *code_store;
    size_t code_count, code_capacity;
    key_workspace *strategy; /* NULL for the study's refine */
    bool failed;
} plan_scratch;

static void *grow(void *data, size_t *capacity, size_t need, size_t item)
{
    if (need <= *capacity)
        return data;
    size_t cap = *capacity ? *capacity : 1024;
    while (cap < need)
        cap *= 2;
    void *more = realloc(data, cap * item);
    if (more)
        *capacity = cap;
    return more;
}

/* Appends a track's keys (and codes) to the stores; returns their offset. */
static size_t store_keys(plan_scratch *s, const int *keys, int count)
{
    int *more = grow(s->key_store, &s->key_capacity, s->key_count + (size_t)count, sizeof *more);
    if (!more) {
        s->failed = true;
        return 0;
    }
    s->key_store = more;
    memcpy(s->key_store + s->key_count, keys, (size_t)count * sizeof *keys);
    s->key_count += (size_t)count;
    return s->key_count - (size_t)count;
}

static uint16_t *reserve_codes(plan_scratch *s, int count, size_t *offset)
{
    uint16_t *more = grow(s->code_store, &s->code_capacity, s->code_count + (size_t)count, sizeof *more);
    if (!more) {
        s->failed = true;
        return NULL;
    }
    s->code_store = more;
    *offset = s->code_count;
    s->code_count += (size_t)count;
    return s->code_store + *offset;
}

/* An animated track's keys: preset, the study's refine, or another strategy. */
static int choose_keys(const plan_options *o, plan_scratch *s, int track, const double *values, int n,
                       bool rotation, double eps, int *keys)
{
    if (o->preset) {
        const int count = o->preset->count[track];
        memcpy(keys, o->preset->keys + o->preset->offset[track], (size_t)count * sizeof *keys);
        return count;
    }
    if (o->strategy == KEYS_REFINE)
        return rotation ? refine_rotation(values, n, eps, o->cubic, keys, s->recon, s->err)
                        : refine_scalar(values, n, eps, o->cubic, keys, s->recon, s->err);
    return select_keys(s->strategy, o->strategy, values, n, rotation, o->cubic, eps, keys);
}

/* Offsets into the stores while planning; pointers once they stop moving. */
typedef struct track_offsets {
    size_t *keys, *codes;
} track_offsets;

static void plan_scalar(study_plan *plan, int i, plan_scratch *s, track_offsets *at)
{
    const plan_options *o = &plan->options;
    const scalar_channel *ch = &plan->view->scalars[i];
    const int n = plan->view->frame_count;
    planned_scalar *ps = &plan->scalars[i];
    ps->channel = ch;
    ps->is_constant = o->drop_constant && ch->is_constant;
    int *keys = s->keys;
    if (ps->is_constant) {
        keys[0] = 0;
        ps->key_count = 1;
    } else if (!o->reduce_keys) {
        for (int f = 0; f < n; f++)
            keys[f] = f;
        ps->key_count = n;
    } else {
        ps->key_count = choose_keys(o, s, i, ch->values, n, false, o->eps_scalar ? o->eps_scalar[i] : o->eps_m, keys);
    }
    at->keys[i] = store_keys(s, keys, ps->key_count);

    /* Only key frames are read by the reconstruction: dequantise just those. */
    const double *src = ch->values;
    if (o->quantize) {
        ps->range = quant_scalar_range(ch->values, keys, ps->key_count);
        uint16_t *codes = reserve_codes(s, ps->key_count, &at->codes[i]);
        if (!codes)
            return;
        for (int k = 0; k < ps->key_count; k++) {
            codes[k] = quant_scalar_encode(ch->values[keys[k]], ps->range);
            s->src[keys[k]] = quant_scalar_decode(codes[k], ps->range.lo, ps->range.range);
        }
        src = s->src;
    }
    if (!plan->encoder_recon)
        return;
    double *out = ch->kind == CHANNEL_POSITION ? clip_pos_channel(plan->encoder_recon, ch->bone, ch->axis)
                                               : clip_scl_channel(plan->encoder_recon, ch->bone, ch->axis);
    if (ps->is_constant) {
        for (int f = 0; f < n; f++)
            out[f] = src[0];
        return;
    }
    const curve_keys k = {src, 1, keys, ps->key_count, o->cubic};
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

static void plan_rotation(study_plan *plan, int i, plan_scratch *s, track_offsets *at)
{
    const plan_options *o = &plan->options;
    const rotation_track *tr = &plan->view->rotations[i];
    const int n = plan->view->frame_count;
    planned_rotation *pr = &plan->rotations[i];
    pr->track = tr;
    pr->is_constant = o->drop_constant && tr->is_constant;
    int *keys = s->keys;
    if (pr->is_constant) {
        keys[0] = 0;
        pr->key_count = 1;
    } else if (!o->reduce_keys) {
        for (int f = 0; f < n; f++)
            keys[f] = f;
        pr->key_count = n;
    } else {
        pr->key_count = choose_keys(o, s, plan->view->scalar_count + i, tr->quats, n, true,
                                    o->eps_rotation_deg ? o->eps_rotation_deg[i] : o->eps_deg, keys);
    }
    at->keys[plan->view->scalar_count + i] = store_keys(s, keys, pr->key_count);
    if (!plan->encoder_recon)
        return;

    /* Only key frames are read by the reconstruction: dequantise just those. */
    const double *src = tr->quats;
    if (o->quantize) {
        for (int k = 0; k < pr->key_count; k++) {
            const int f = keys[k];
            quant_rotation_decode(quant_rotation_encode(tr->quats + (size_t)f * 4), s->src + (size_t)f * 4);
        }
        if (o->realign_quantized)
            realign_keys(s->src, keys, pr->key_count);
        src = s->src;
    }
    double *out = clip_rot_track(plan->encoder_recon, tr->bone);
    if (pr->is_constant) {
        double q[4];
        quat_normalize(src, q);
        for (int f = 0; f < n; f++)
            memcpy(out + (size_t)f * 4, q, sizeof q);
        return;
    }
    const curve_keys k = {src, 4, keys, pr->key_count, o->cubic};
    curve_reconstruct4(&k, n, s->recon);
    for (int f = 0; f < n; f++)
        quat_normalize(s->recon + (size_t)f * 4, out + (size_t)f * 4);
}

static void scratch_free(plan_scratch *s)
{
    free(s->recon);
    free(s->err);
    free(s->src);
    free(s->keys);
    free(s->key_store);
    free(s->code_store);
    key_workspace_free(s->strategy);
}

study_plan *study_plan_create(const channel_view *view, const plan_options *options)
{
    const int n = view->frame_count;
    const size_t tracks = (size_t)view->scalar_count + (size_t)view->rotation_count;
    study_plan *plan = calloc(1, sizeof *plan);
    plan_scratch s = {0};
    track_offsets at = {calloc(tracks + 1, sizeof *at.keys), calloc(tracks + 1, sizeof *at.codes)};
    if (!plan || !at.keys || !at.codes) {
        free(plan);
        free(at.keys);
        free(at.codes);
        return NULL;
    }
    plan->view = view;
    plan->options = *options;
    plan->scalars = calloc((size_t)view->scalar_count, sizeof *plan->scalars);
    plan->rotations = calloc((size_t)view->rotation_count, sizeof *plan->rotations);
    if (options->reconstruct)
        plan->encoder_recon = clip_create_rest(view->clip->rig, n, view->clip->fps);
    s.recon = malloc((size_t)n * 4 * sizeof *s.recon);
    s.err = malloc(refine_err_scratch(n) * sizeof *s.err);
    s.src = malloc((size_t)n * 4 * sizeof *s.src);
    s.keys = malloc((size_t)n * sizeof *s.keys);
    if (options->reduce_keys && options->strategy != KEYS_REFINE && !options->preset)
        s.strategy = key_workspace_create(n);
    bool ok = plan->scalars && plan->rotations && (!options->reconstruct || plan->encoder_recon) && s.recon &&
              s.err && s.src && s.keys && (s.strategy || options->strategy == KEYS_REFINE || options->preset ||
                                           !options->reduce_keys);
    for (int i = 0; ok && i < view->scalar_count; i++) {
        plan_scalar(plan, i, &s, &at);
        plan->keys_scalar += plan->scalars[i].key_count;
        plan->constant_scalars += plan->scalars[i].is_constant;
        ok = !s.failed;
    }
    for (int i = 0; ok && i < view->rotation_count; i++) {
        plan_rotation(plan, i, &s, &at);
        plan->keys_rotation += plan->rotations[i].key_count;
        plan->constant_rotations += plan->rotations[i].is_constant;
        ok = !s.failed;
    }
    if (ok) { /* the stores are final: offsets become pointers */
        plan->key_storage = s.key_store;
        plan->code_storage = s.code_store;
        s.key_store = NULL;
        s.code_store = NULL;
        for (int i = 0; i < view->scalar_count; i++) {
            plan->scalars[i].keys = plan->key_storage + at.keys[i];
            plan->scalars[i].codes = options->quantize ? plan->code_storage + at.codes[i] : NULL;
        }
        for (int i = 0; i < view->rotation_count; i++)
            plan->rotations[i].keys = plan->key_storage + at.keys[view->scalar_count + i];
    }
    scratch_free(&s);
    free(at.keys);
    free(at.codes);
    if (!ok) {
        study_plan_free(plan);
        return NULL;
    }
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
