/* The study's techniques 2-7: one implementation, configured by a
 * track_codec_config per registry row (codecs/registry.c). */
#include "track_codecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study_container.h"
#include "study_plan.h"
#include "track_sampler.h"
#include "track_set.h"

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
    const plan_options o = {cfg->reduce_keys,  p->tol_mm / 1000, study_tolerance_deg(p->tol_mm, p->lever_m),
                            cfg->cubic,        cfg->quantize,    cfg->drop_constant,
                            cfg->layout == LAYOUT_SELF_CONTAINED, !in->encode_only};
    study_plan *plan = study_plan_create(in->view, &o);
    if (!plan) {
        snprintf(err, err_size, "out of memory while planning");
        return -1;
    }
    const container_status st = container_write(plan, cfg->layout, &out->bytes);
    if (st != CONTAINER_OK) {
        container_error(c, st, err, err_size);
        study_plan_free(plan);
        return -1;
    }
    out->keys = plan->keys_scalar + plan->keys_rotation;
    out->encoder_recon = plan->encoder_recon;
    plan->encoder_recon = NULL;
    long animated = 0;
    for (int i = 0; i < in->view->scalar_count; i++)
        animated += plan->scalars[i].is_constant ? 0 : plan->scalars[i].key_count;
    for (int i = 0; i < in->view->rotation_count; i++)
        animated += plan->rotations[i].is_constant ? 0 : plan->rotations[i].key_count;
    if (animated == 0 && cfg->layout != LAYOUT_SELF_CONTAINED) {
        /* its decoder would have to refuse these bytes: never emit them */
        snprintf(err, err_size,
                 "every track of this clip is constant, and the study's layout stores no frame count: its "
                 "length could not be decoded (the -sc rows store it)");
        study_plan_free(plan);
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
    study_plan_free(plan);
    return 0;
}

static track_set *parse(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                        size_t err_size)
{
    const track_codec_config *cfg = c->config;
    return track_set_parse(bytes, size, cfg->layout, cfg->cubic, cfg->quantize, rig->bone_count, err, err_size);
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
