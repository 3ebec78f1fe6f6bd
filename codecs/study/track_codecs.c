/* The study's techniques 2-7: one implementation, configured by a
 * track_codec_config per registry row (codecs/registry.c). */
#include "codecs/study/track_codecs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/study/closed_loop.h"
#include "codecs/keys/hierarchy_tolerance.h"
#include "codecs/study/study_container.h"
#include "codecs/study/study_plan.h"
#include "codecs/study/track_sampler.h"
#include "codecs/study/track_set.h"

struct codec_sampler {
    track_sampler *tracks;
};

/* The container's refusal, with the row's self-contained twin named when
 * it has one. */
static void container_error(const codec *c, container_status st, char *err, size_t err_size)
{
    char twin[64];
    snprintf(twin, sizeof twin, "%s-sc", c->name);
    const bool has_twin = st == CONTAINER_TOO_MANY_FRAMES && codec_find(twin);
    snprintf(err, err_size, "%s%s%s%s", container_status_message(st),
             has_twin ? ": use " : st == CONTAINER_TOO_MANY_FRAMES ? "; this row has no self-contained twin (the -sc rows write 32-bit indices)" : "",
             has_twin ? twin : "", has_twin ? ", its self-contained row, which writes 32-bit indices" : "");
}

/* The row's output from its plan: keys, the encoder's reconstruction, every key's frame. */
static int fill_output(const codec *c, const codec_input *in, study_plan *plan, codec_output *out, char *err,
                       size_t err_size)
{
    out->keys = plan->keys_scalar + plan->keys_rotation;
    out->encoder_recon = plan->encoder_recon;
    plan->encoder_recon = NULL;
    long animated = 0;
    for (int i = 0; i < in->view->scalar_count; i++)
        animated += plan->scalars[i].is_constant ? 0 : plan->scalars[i].key_count;
    for (int i = 0; i < in->view->rotation_count; i++)
        animated += plan->rotations[i].is_constant ? 0 : plan->rotations[i].key_count;
    if (animated == 0 && ((const track_codec_config *)c->config)->layout != LAYOUT_SELF_CONTAINED) {
        /* its decoder would have to refuse these bytes: never emit them */
        snprintf(err, err_size,
                 "every track of this clip is constant, and the study's layout stores no frame count: its "
                 "length could not be decoded (the -sc rows store it)");
        return -1;
    }
    out->key_frames = malloc((size_t)(animated + 1) * sizeof *out->key_frames);
    if (out->key_frames) {
        long at = 0;
        for (int i = 0; i < in->view->scalar_count; i++)
            if (!plan->scalars[i].is_constant)
                for (int k = 0; k < plan->scalars[i].key_count; k++)
                    out->key_frames[at++] = plan->scalars[i].keys[k];
        for (int i = 0; i < in->view->rotation_count; i++)
            if (!plan->rotations[i].is_constant)
                for (int k = 0; k < plan->rotations[i].key_count; k++)
                    out->key_frames[at++] = plan->rotations[i].keys[k];
        out->key_frame_count = at;
    }
    return 0;
}

/* Plans with o and writes the row's container into out->bytes; NULL with a message. */
static study_plan *plan_and_write(const codec *c, const codec_input *in, const plan_options *o, codec_output *out,
                                  char *err, size_t err_size)
{
    const track_codec_config *cfg = c->config;
    study_plan *plan = study_plan_create(in->view, o);
    if (!plan) {
        snprintf(err, err_size, "out of memory while planning");
        return NULL;
    }
    size_t time_bytes = 0;
    const container_status st = container_write_counted(plan, cfg->layout, &out->bytes, &time_bytes);
    if (st != CONTAINER_OK) {
        container_error(c, st, err, err_size);
        study_plan_free(plan);
        return NULL;
    }
    out->key_time_bytes = (long)time_bytes;
    return plan;
}

static int param_int(const codec *c, const codec_params *p, const char *name)
{
    return (int)codec_param_get(c, p, codec_param_index(c, name));
}

/* The closed loop: keys chosen for the target, the stream written, decoded
 * by the decoder's own parser and sampler and measured against the target;
 * a stream that misses it is never emitted: the keys are chosen again for
 * a target 10 % tighter, up to 8 times, then the encode fails saying by how
 * much it missed. */
#define CLOSED_LOOP_TRIES 8
static study_plan *encode_closed_loop(const codec *c, const codec_input *in, const codec_params *p,
                                      const plan_options *base, codec_output *out, char *err, size_t err_size)
{
    const track_codec_config *cfg = c->config;
    const double target = p->tol_mm / 1000;
    const int substeps = param_int(c, p, "substeps");
    const double samples = (double)in->view->frame_count * in->clip->rig->bone_count * substeps;
    if (samples > CLOSED_LOOP_SAMPLES_MAX) {
        snprintf(err, err_size,
                 "closed loop: %d frames x %d joints x %d sub-steps is %.0f joint-samples, over its %d (%d bytes each, "
                 "%.0f MiB): use fewer sub-steps, or a shorter clip",
                 in->view->frame_count, in->clip->rig->bone_count, substeps, samples, CLOSED_LOOP_SAMPLES_MAX,
                 CLOSED_LOOP_BYTES_PER_SAMPLE, (double)CLOSED_LOOP_SAMPLES_MAX * CLOSED_LOOP_BYTES_PER_SAMPLE / 1048576);
        return NULL;
    }
    closed_loop *cl = closed_loop_create(in->view, substeps, cfg->cubic,
                                         (closed_loop_reference)param_int(c, p, "between"));
    if (!cl) {
        snprintf(err, err_size, "out of memory for the closed loop's poses");
        return NULL;
    }
    double select_at = target * (1 - 1e-7), worst = 0, when = 0;
    int joint = -1;
    for (int attempt = 0; attempt < CLOSED_LOOP_TRIES; attempt++, select_at *= 0.9) {
        preset_keys keys;
        closed_loop_select(cl, select_at, &keys);
        plan_options o = *base;
        o.preset = &keys;
        bytes_free(&out->bytes);
        study_plan *plan = plan_and_write(c, in, &o, out, err, err_size);
        if (!plan)
            break;
        track_set *t = track_set_parse(out->bytes.data, out->bytes.size, cfg->layout, cfg->cubic, cfg->quantize,
                                       cfg->delta_times, in->clip->rig->bone_count, err, err_size);
        track_sampler *s = t ? track_sampler_create(t) : NULL;
        const double excess = s ? closed_loop_excess(cl, s, target, &worst, &joint, &when) : INFINITY;
        track_sampler_free(s);
        track_set_free(t);
        if (excess <= 0) {
            closed_loop_free(cl);
            return plan;
        }
        study_plan_free(plan);
        if (!t) /* its own decoder refused the stream: a defect, not a target to tighten */
            break;
    }
    if (joint >= 0)
        snprintf(err, err_size,
                 "closed loop: after %d tries the decoded stream still misses its target of %g mm (%.6g mm at "
                 "joint %d, t = %g frames)",
                 CLOSED_LOOP_TRIES, p->tol_mm, worst * 1000, joint, when);
    closed_loop_free(cl);
    return NULL;
}

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    const track_codec_config *cfg = c->config;
    /* Every animated track keeps the last frame as a key, and a clip whose
     * tracks are all constant has no length in the study's layout: past
     * 65,536 frames the study's layout always refuses, so it does before
     * the work. */
    if (cfg->layout == LAYOUT_STUDY && in->view->frame_count > SC_NARROW_FRAMES_MAX + 1) {
        container_error(c, CONTAINER_TOO_MANY_FRAMES, err, err_size);
        return -1;
    }
    plan_options o = {.reduce_keys = cfg->reduce_keys,
                      .eps_m = p->tol_mm / 1000,
                      .eps_deg = study_tolerance_deg(p->tol_mm, p->lever_m),
                      .cubic = cfg->cubic,
                      .quantize = cfg->quantize,
                      .drop_constant = cfg->drop_constant,
                      .realign_quantized = cfg->layout == LAYOUT_SELF_CONTAINED,
                      .reconstruct = !in->encode_only,
                      .strategy = cfg->strategy,
                      .delta_times = cfg->delta_times};
    double *eps = NULL;
    if (cfg->tolerance == TOL_HIERARCHY) {
        eps = malloc(((size_t)in->view->scalar_count + (size_t)in->view->rotation_count) * sizeof *eps);
        const double distance_m = codec_param_get(c, p, codec_param_index(c, "distance_m"));
        if (!eps || hierarchy_tolerances(in->view, p->tol_mm / 1000, distance_m, eps,
                                         eps + in->view->scalar_count) != 0) {
            free(eps);
            snprintf(err, err_size, "out of memory");
            return -1;
        }
        o.eps_scalar = eps;
        o.eps_rotation_deg = eps + in->view->scalar_count;
    }
    study_plan *plan = cfg->tolerance == TOL_CLOSED_LOOP ? encode_closed_loop(c, in, p, &o, out, err, err_size)
                                                         : plan_and_write(c, in, &o, out, err, err_size);
    free(eps);
    if (!plan)
        return -1;
    const int rc = fill_output(c, in, plan, out, err, err_size);
    study_plan_free(plan);
    return rc;
}

static track_set *parse(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                        size_t err_size)
{
    const track_codec_config *cfg = c->config;
    return track_set_parse(bytes, size, cfg->layout, cfg->cubic, cfg->quantize, cfg->delta_times, rig->bone_count,
                           err, err_size);
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    track_set *t = parse(c, bytes, size, rig, err, err_size);
    if (!t)
        return NULL;
    anim_clip *clip = track_set_to_clip(t, rig);
    if (!clip)
        snprintf(err, err_size, "out of memory");
    track_set_free(t);
    return clip;
}

static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    track_set *t = parse(c, bytes, size, rig, err, err_size);
    if (!t)
        return NULL;
    codec_sampler *s = malloc(sizeof *s);
    if (s)
        s->tracks = track_sampler_create(t);
    track_set_free(t);
    if (!s || !s->tracks) {
        free(s);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    return s;
}

static void sample(codec_sampler *s, double t, double *pose)
{
    track_sampler_sample(s->tracks, t, pose);
}

static void sampler_free(codec_sampler *s)
{
    if (!s)
        return;
    track_sampler_free(s->tracks);
    free(s);
}

const track_sampler *track_codec_sampler_tracks(const codec_sampler *s)
{
    return s->tracks;
}

const codec_ops TRACK_CODEC_OPS = {encode, decode, sampler_create, sample, sampler_free};
