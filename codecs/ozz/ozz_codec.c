/* ozz-animation (v0.16), as rows of the registry: `ozz`, its AnimationOptimizer (hierarchical
 * tolerance) then its AnimationBuilder, and `ozz-raw`, the builder alone: its runtime format, which
 * stores translations and scales as half floats and rotations as three 15-bit components.
 *
 * The stream is ozz's own archive of its runtime animation (codecs/ozz/ozz_shim.cpp).  ozz is fed
 * metres (its defaults, 1 mm of tolerance at 10 cm, assume them), time in seconds (a key at f /
 * fps; the animation's name says the rate), and the scale s'(b) = s(b) / s(parent(b)): ozz
 * composes scale down the chain, as ACL does (codecs/acl/acl_codec.c), and this makes its model
 * space, in which its optimizer measures error, our object space.  The decoder samples with ozz's
 * SamplingJob and multiplies the scale back down the chain.
 *
 * Built only when the Makefile finds ozz's sources; otherwise the rows stay in the table, flagged
 * unavailable, and say how to enable them. */
#include "codecs/ozz/ozz_codec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"

#ifdef ANIMBENCH_HAVE_OZZ
#include "codecs/ozz/ozz_shim.h"

const char *ozz_codec_library(void)
{
    return ozz_shim_version();
}

struct codec_sampler {
    ozz_shim_sampler *shim;
    const anim_rig *rig;
    float *locals; /* bones x 10, ozz's */
    int frames;
    double fps;
};

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    const ozz_row_config *cfg = c->config;
    const anim_clip *clip = in->clip;
    const int nb = clip->rig->bone_count, nf = clip->frame_count;
    const double tol_mm = cfg->optimize ? codec_param_get(c, p, 0) : 0;
    const double distance_m = cfg->optimize ? codec_param_get(c, p, 1) : 0;
    if (cfg->optimize && (!(tol_mm >= 0) || !isfinite(tol_mm))) {
        snprintf(err, err_size, "%s: tolerance (--tol-mm) must be a number of millimetres of at least 0, got %g", c->name,
                 tol_mm);
        return -1;
    }
    if (nf > OZZ_FRAMES_MAX) {
        snprintf(err, err_size, "%s: %d frames; ozz's runtime animation indexes its time points in 16 bits (at most "
                 "%d frames)", c->name, nf, OZZ_FRAMES_MAX);
        return -1;
    }
    for (int b = 0; b < nb; b++)
        for (int a = 0; a < 3; a++)
            for (int f = 0; f < nf; f++) {
                const double s = clip_scl_channel(clip, b, a)[f];
                if (!(s > 1e-6 && s < 1e6)) {
                    snprintf(err, err_size, "%s: bone %d ('%s') has scale %g at frame %d; the ozz rows need positive "
                             "scales (1e-6 to 1e6)", c->name, b, clip->rig->names[b], s, f);
                    return -1;
                }
            }
    float *transforms = malloc((size_t)nf * (size_t)nb * 10 * sizeof *transforms);
    float *rest = malloc((size_t)nb * 3 * sizeof *rest);
    if (!transforms || !rest) {
        free(transforms);
        free(rest);
        snprintf(err, err_size, "%s: out of memory", c->name);
        return -1;
    }
    for (int i = 0; i < nb * 3; i++)
        rest[i] = (float)clip->rig->rest_offsets[i];
    for (int f = 0; f < nf; f++)
        for (int b = 0; b < nb; b++) {
            float *o = transforms + ((size_t)f * nb + b) * 10;
            const double *q = clip_rot_track(clip, b) + (size_t)f * 4;
            const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            const int par = clip->rig->parents[b];
            for (int a = 0; a < 3; a++) {
                o[a] = (float)clip_pos_channel(clip, b, a)[f];
                const double s = clip_scl_channel(clip, b, a)[f];
                o[7 + a] = (float)(par < 0 ? s : s / clip_scl_channel(clip, par, a)[f]);
            }
            for (int i = 0; i < 4; i++)
                o[3 + i] = (float)(len > 0 ? q[i] / len : i == 3);
        }
    const ozz_shim_clip shim = {nb, nf, clip->fps, clip->rig->parents, rest, transforms};
    uint8_t *bytes = NULL;
    size_t size = 0;
    const int rc = ozz_shim_encode(&shim, cfg->optimize, (float)(tol_mm / 1000), (float)distance_m, &bytes, &size,
                                   err, err_size);
    free(transforms);
    free(rest);
    if (rc != 0)
        return -1;
    const bool ok = bytes_append(&out->bytes, bytes, size);
    free(bytes);
    if (!ok) {
        snprintf(err, err_size, "%s: out of memory", c->name);
        return -1;
    }
    return 0;
}

static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    (void)c;
    codec_sampler *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    s->shim = ozz_shim_sampler_create(bytes, size, rig->bone_count, rig->parents, &s->frames, &s->fps, err, err_size);
    s->locals = s->shim ? malloc((size_t)rig->bone_count * 10 * sizeof *s->locals) : NULL;
    if (!s->shim || !s->locals) {
        if (s->shim)
            snprintf(err, err_size, "out of memory");
        ozz_shim_sampler_free(s->shim);
        free(s->locals);
        free(s);
        return NULL;
    }
    s->rig = rig;
    return s;
}

/* ozz's locals back to our pose: rotations renormalised in double, scales multiplied back down the
 * chain (parents precede children). */
static void sample(codec_sampler *s, double t, double *pose)
{
    ozz_shim_sample(s->shim, t, s->locals);
    const anim_rig *rig = s->rig;
    for (int b = 0; b < rig->bone_count; b++) {
        const float *a = s->locals + (size_t)b * 10;
        double *o = pose + (size_t)b * POSE_STRIDE;
        const double x = a[3], y = a[4], z = a[5], w = a[6];
        const double len = sqrt(x * x + y * y + z * z + w * w);
        for (int i = 0; i < 3; i++)
            o[i] = a[i];
        o[3] = len > 0 ? x / len : 0;
        o[4] = len > 0 ? y / len : 0;
        o[5] = len > 0 ? z / len : 0;
        o[6] = len > 0 ? w / len : 1;
        const int p = rig->parents[b];
        for (int i = 0; i < 3; i++)
            o[7 + i] = p < 0 ? (double)a[7 + i] : a[7 + i] * pose[(size_t)p * POSE_STRIDE + 7 + i];
    }
}

static void sampler_free(codec_sampler *s)
{
    if (s) {
        ozz_shim_sampler_free(s->shim);
        free(s->locals);
    }
    free(s);
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    codec_sampler *s = sampler_create(c, bytes, size, rig, err, err_size);
    if (!s)
        return NULL;
    if (clip_limits_check_decoded(s->frames, rig->bone_count, err, err_size) != 0) {
        sampler_free(s);
        return NULL;
    }
    anim_clip *clip = clip_create_rest(rig, s->frames, s->fps);
    double *pose = malloc((size_t)rig->bone_count * POSE_STRIDE * sizeof *pose);
    if (!clip || !pose) {
        snprintf(err, err_size, "out of memory");
        clip_free(clip);
        clip = NULL;
    }
    for (int f = 0; clip && f < s->frames; f++) {
        sample(s, f, pose);
        for (int v = 0; v < rig->bone_count * POSE_STRIDE; v++)
            if (!isfinite(pose[v])) {
                snprintf(err, err_size, "ozz stream decodes to a value that is not finite (frame %d)", f);
                clip_free(clip);
                clip = NULL;
                break;
            }
        if (clip)
            clip_set_pose(clip, f, pose);
    }
    free(pose);
    sampler_free(s);
    return clip;
}

#else /* built without ozz */

const char *ozz_codec_library(void)
{
    return "not built: " OZZ_UNAVAILABLE_REASON;
}

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    (void)in, (void)p, (void)out;
    snprintf(err, err_size, "%s: %s", c->name, OZZ_UNAVAILABLE_REASON);
    return -1;
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    (void)bytes, (void)size, (void)rig;
    snprintf(err, err_size, "%s: %s", c->name, OZZ_UNAVAILABLE_REASON);
    return NULL;
}

static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    (void)bytes, (void)size, (void)rig;
    snprintf(err, err_size, "%s: %s", c->name, OZZ_UNAVAILABLE_REASON);
    return NULL;
}

static void sample(codec_sampler *s, double t, double *pose)
{
    (void)s, (void)t, (void)pose;
}

static void sampler_free(codec_sampler *s)
{
    (void)s;
}

#endif

const codec_ops OZZ_CODEC_OPS = {encode, decode, sampler_create, sample, sampler_free};
