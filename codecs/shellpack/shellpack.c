/* shellpack's encoder (the stream and its decoder: shellpack_format.c).
 *
 * The closed loop holds the decoded clip: every joint's local pose as the
 * decoder will rebuild it and its world transform, so a trial change of one
 * joint's sub-track is checked exactly, by forward kinematics of that
 * joint's subtree (the only joints it moves) against the original's shell
 * vertices, at the frames it changes.  Every accepted change keeps every
 * joint within the target, so the state is always a stream that meets it.
 *
 *   1. Sub-tracks at their rest value or constant (to a thousandth of the
 *      target) are folded.  Steps from a lever-arm model: a rotation step in proportion to
 *      1 / (the farthest shell vertex below the joint), translations alike,
 *      all scaled by one level 2^(-g/16); g is the coarsest level whose
 *      decoded clip meets the target (bisection).
 *   2. Folds, joints from the leaves up (a leaf's error moves nothing else):
 *      each sub-track to the rest pose or to a constant if the target allows.
 *      Then rounds: every component of every animated sub-track, leaves
 *      first, is offered a step d grid points coarser, d = 32, 16, ..., 1,
 *      until a round changes nothing.  A trial is checked only at the frames
 *      where the subtree's current error plus what the change can move a
 *      vertex (move_bound) passes the target, and first (spe_probe_step) at
 *      the 16 frames where the subtree is nearest it, from those frames'
 *      values alone: most trials fail there, before every frame is quantised
 *      and decoded (the same answers, so the same plan).
 *   3. Keys: per joint, a few step refinements are tried, each with the
 *      frames a greedy forward search can leave out (linear gaps) within the
 *      target; the cheapest in estimated bits (the coder's own adaptive
 *      models, key masks included) wins, "every frame" included.
 *   4. A predictor per curve by the same estimate; the stream is written,
 *      decoded by the decoder alone and measured with the harness's shell
 *      metric.  A miss (it should not happen) refines every step and tries
 *      again, at most 8 times; a stream over its target is never emitted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_shell.h"
#include "codecs/shellpack/shellpack_encoder.h"

/* The largest shell distance of a decoded clip against the original, in metres, and where. */
static int measure_shell(const sp_encoder *e, const anim_clip *decoded, double *worst, int *joint, int *frame)
{
    pose_set *d = pose_set_from_clip(decoded);
    double *dist = d ? malloc((size_t)e->n * e->nb * sizeof *dist) : NULL;
    if (!dist) {
        pose_set_free(d);
        return -1;
    }
    shell_distance_m(e->orig, d, e->shell, dist);
    *worst = -1;
    for (int f = 0; f < e->n; f++)
        for (int b = 0; b < e->nb; b++)
            if (dist[(size_t)f * e->nb + b] > *worst) {
                *worst = dist[(size_t)f * e->nb + b];
                *joint = b;
                *frame = f;
            }
    free(dist);
    pose_set_free(d);
    return 0;
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size);

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    const shellpack_config *cfg = c->config;
    const double target_mm = codec_param_get(c, p, 0);
    if (!(target_mm > 0) || !isfinite(target_mm)) {
        snprintf(err, err_size, "%s: a target of %g mm cannot be met by quantised values; give one above 0", c->name,
                 target_mm);
        return -1;
    }
    sp_encoder e;
    if (spe_init(&e, in->clip, cfg, target_mm, err, err_size) != 0) {
        spe_free(&e);
        return -1;
    }
    int rc = cfg->per_channel ? spe_plan_per_channel(&e, err, err_size) : spe_plan_closed_loop(&e, err, err_size);
    if (rc == 0 && cfg->keys)
        spe_choose_keys(&e);
    const sp_header h = {(uint8_t)((cfg->quaternion ? SP_FLAG_QUATERNION : 0) | (cfg->gzip ? SP_FLAG_GZIP : 0)),
                         in->clip->fps, (float)target_mm, (float)(e.shell * 1000)};
    for (int attempt = 0; rc == 0; attempt++) {
        spe_choose_predictors(&e);
        out->bytes.size = 0;
        rc = cfg->random_access ? sp_write_ra(&e.plan, &h, e.rig, (int)codec_param_get(c, p, 1), &out->bytes, out->parts,
                                              &out->part_count, err, err_size)
                                : sp_write(&e.plan, &h, e.rig, &out->bytes, out->parts, &out->part_count, err, err_size);
        if (rc != 0)
            break;
        /* the contract, on the stream decoded by the decoder alone */
        anim_clip *decoded = decode(c, out->bytes.data, out->bytes.size, e.rig, err, err_size);
        if (!decoded) {
            rc = -1;
            break;
        }
        double worst;
        int joint = 0, frame = 0;
        if (!decoded || measure_shell(&e, decoded, &worst, &joint, &frame) != 0) {
            clip_free(decoded);
            snprintf(err, err_size, "out of memory");
            rc = -1;
            break;
        }
        clip_free(decoded);
        if (cfg->per_channel || worst <= target_mm / 1000) {
            out->has_reported_error = true;
            out->reported_error_mm = worst * 1000;
            out->reported_joint = joint;
            out->reported_frame = frame;
            break;
        }
        if (attempt == 8) {
            snprintf(err, err_size,
                     "shellpack: the decoded stream misses its %g mm target (%.6g mm at joint %d, frame %d) after 8 "
                     "refinements; no stream written",
                     target_mm, worst * 1000, joint, frame);
            rc = -1;
            break;
        }
        for (int b = 0; b < e.nb; b++)
            for (int type = 0; type < SP_TYPES; type++) {
                sp_track *t = sp_track_at(&e.plan, b, type);
                if (t->mode == SP_ANIM) {
                    spe_refine_steps(t, 4);
                    spe_quantise(&e, b, type);
                }
            }
    }
    if (rc == 0) {
        long keys = 0;
        for (int b = 0; b < e.nb; b++)
            for (int type = 0; type < SP_TYPES; type++)
                if (sp_track_at(&e.plan, b, type)->mode == SP_ANIM)
                    for (int f = 0; f < e.n; f++)
                        keys += sp_kept(&e.plan, b)[f] * sp_comps(&e.plan, type);
        out->keys = keys;
        out->key_time_bytes = 0;
        for (int i = 0; i < out->part_count; i++)
            if (strcmp(out->parts[i].name, "key masks") == 0)
                out->key_time_bytes = out->parts[i].bytes;
    }
    spe_free(&e);
    return rc;
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    const shellpack_config *cfg = c->config;
    if (cfg->random_access)
        return sp_decode_ra(bytes, size, rig, err, err_size);
    sp_plan p;
    sp_header h;
    if (sp_read(bytes, size, rig, &p, &h, err, err_size) != 0)
        return NULL;
    anim_clip *clip = sp_plan_to_clip(&p, rig, h.fps);
    sp_plan_free(&p);
    if (!clip)
        snprintf(err, err_size, "out of memory");
    return clip;
}

/* The whole-clip rows' sampler decodes the clip when it is created (they decode ahead); the
 * random-access row's samples from the bytes (shellpack_ra.c). */
struct codec_sampler {
    anim_clip *clip;
    sr_sampler *ra;
};

static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    const shellpack_config *cfg = c->config;
    if (cfg->random_access) {
        sr_sampler *ra = sr_sampler_create(bytes, size, rig, err, err_size);
        codec_sampler *s = ra ? malloc(sizeof *s) : NULL;
        if (!s) {
            if (ra)
                snprintf(err, err_size, "out of memory");
            sr_sampler_free(ra);
            return NULL;
        }
        *s = (codec_sampler){NULL, ra};
        return s;
    }
    anim_clip *clip = decode(c, bytes, size, rig, err, err_size);
    codec_sampler *s = clip ? malloc(sizeof *s) : NULL;
    if (!s) {
        if (clip)
            snprintf(err, err_size, "out of memory");
        clip_free(clip);
        return NULL;
    }
    *s = (codec_sampler){clip, NULL};
    return s;
}

static void sample(codec_sampler *s, double t, double *pose)
{
    if (s->ra)
        sr_sampler_sample(s->ra, t, pose);
    else
        clip_interpolate_pose(s->clip, t, pose);
}

static void sampler_free(codec_sampler *s)
{
    if (s) {
        clip_free(s->clip);
        sr_sampler_free(s->ra);
    }
    free(s);
}

const codec_ops SHELLPACK_OPS = {encode, decode, sampler_create, sample, sampler_free};
