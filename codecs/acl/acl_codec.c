/* ACL (the Animation Compression Library, v2.1), as rows of the registry.
 *
 * The stream is ACL's compressed buffer, whole.  ACL is fed in its own
 * units (centimetres, a 3 cm shell, precision in cm) so its defaults mean
 * what they mean in an engine.  The hierarchy goes over as parent indices,
 * and the rig's rest offsets as ACL's default translations (the bind pose,
 * as ACL's own SJSON reader and engines use it): a translation track equal
 * to its rest offset costs nothing, and the decoder takes the defaults from
 * the rig, which every decoder here is given.
 *
 * Scale: our forward kinematics applies a joint's scale to its children's
 * offsets only; ACL composes scale down the chain (world scale = local scale
 * x parent's world scale).  Giving ACL the scale s'(b) = s(b) / s(parent(b))
 * (component-wise; a root keeps s) makes ACL's world scale of every joint
 * equal our s(b), so ACL's object space, and hence the error it optimises
 * and reports, is exactly ours.  The decoder multiplies back down the chain.
 * The price: a child of a joint with animated scale gets an animated scale
 * track of its own (the jump's spine and thighs).
 *
 * Built only when the Makefile finds ACL's and RTM's headers; otherwise the
 * rows stay in the table, flagged unavailable, and say how to enable them. */
#include "codecs/acl/acl_codec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void acl_local_transform(const anim_clip *c, int b, int f, double out[10])
{
    const double *q = clip_rot_track(c, b) + (size_t)f * 4;
    const int p = c->rig->parents[b];
    for (int i = 0; i < 4; i++)
        out[i] = q[i];
    for (int a = 0; a < 3; a++) {
        out[4 + a] = clip_pos_channel(c, b, a)[f] * 100.0;
        const double s = clip_scl_channel(c, b, a)[f];
        out[7 + a] = p < 0 ? s : s / clip_scl_channel(c, p, a)[f];
    }
}

#ifdef ANIMBENCH_HAVE_ACL
#include "codecs/acl/acl_shim.h"

/* The rig's rest offsets in ACL's units: the default translations. */
static float *rest_cm(const anim_rig *rig)
{
    float *r = malloc((size_t)rig->bone_count * 3 * sizeof *r);
    if (r)
        for (int i = 0; i < rig->bone_count * 3; i++)
            r[i] = (float)(rig->rest_offsets[i] * 100.0);
    return r;
}

struct codec_sampler {
    acl_shim_reader *reader;
    const anim_rig *rig;
    float *acl_pose; /* joints * ACL_SHIM_STRIDE */
};

static void to_acl(const anim_clip *c, int b, int f, float *out)
{
    double d[ACL_SHIM_STRIDE];
    acl_local_transform(c, b, f, d);
    for (int i = 0; i < ACL_SHIM_STRIDE; i++)
        out[i] = (float)d[i];
}

/* ACL's decoded transforms back to our pose layout (POSE_STRIDE doubles per
 * bone): centimetres to metres, rotations renormalised in double, scales
 * multiplied back down the chain (parents precede children). */
static void from_acl(const anim_rig *rig, const float *in, double *pose)
{
    for (int b = 0; b < rig->bone_count; b++) {
        const float *a = in + (size_t)b * ACL_SHIM_STRIDE;
        double *o = pose + (size_t)b * POSE_STRIDE;
        const double x = a[0], y = a[1], z = a[2], w = a[3];
        const double len = sqrt(x * x + y * y + z * z + w * w);
        const double inv = len > 0 ? 1.0 / len : 0.0;
        for (int i = 0; i < 3; i++)
            o[i] = a[4 + i] / 100.0;
        o[3] = len > 0 ? x * inv : 0;
        o[4] = len > 0 ? y * inv : 0;
        o[5] = len > 0 ? z * inv : 0;
        o[6] = len > 0 ? w * inv : 1;
        const int p = rig->parents[b];
        for (int i = 0; i < 3; i++)
            o[7 + i] = p < 0 ? (double)a[7 + i] : a[7 + i] * pose[(size_t)p * POSE_STRIDE + 7 + i];
    }
}

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    const acl_row_config *cfg = c->config;
    const anim_clip *clip = in->clip;
    const int nb = clip->rig->bone_count, nf = clip->frame_count;
    if (!(p->tol_mm > 0) || !isfinite(p->tol_mm)) {
        snprintf(err, err_size, "%s: precision (--tol-mm) must be a positive number of millimetres, got %g", c->name,
                 p->tol_mm);
        return -1;
    }
    for (int b = 0; b < nb; b++)
        for (int a = 0; a < 3; a++)
            for (int f = 0; f < nf; f++) {
                const double s = clip_scl_channel(clip, b, a)[f];
                if (!(s > 1e-6 && s < 1e6)) {
                    snprintf(err, err_size, "%s: bone %d ('%s') has scale %g at frame %d; the ACL rows need positive "
                             "scales (1e-6 to 1e6)", c->name, b, clip->rig->names[b], s, f);
                    return -1;
                }
            }
    float *transforms = malloc((size_t)nf * (size_t)nb * ACL_SHIM_STRIDE * sizeof *transforms);
    float *rest = rest_cm(clip->rig);
    if (!transforms || !rest) {
        free(transforms);
        free(rest);
        snprintf(err, err_size, "%s: out of memory", c->name);
        return -1;
    }
    for (int f = 0; f < nf; f++)
        for (int b = 0; b < nb; b++)
            to_acl(clip, b, f, transforms + ((size_t)f * nb + b) * ACL_SHIM_STRIDE);
    const acl_shim_settings settings = {(float)(p->tol_mm / 10.0), (float)(ACL_SHELL_DISTANCE_MM / 10.0),
                                        cfg->highest_level};
    acl_shim_result r;
    const int rc = acl_shim_compress(transforms, clip->rig->parents, rest, nb, nf, (float)clip->fps, &settings, &r,
                                     err, err_size);
    free(transforms);
    free(rest);
    if (rc != 0)
        return -1;
    if (!bytes_append(&out->bytes, r.bytes, r.size)) {
        free(r.bytes);
        snprintf(err, err_size, "%s: out of memory", c->name);
        return -1;
    }
    free(r.bytes);
    out->has_reported_error = true;
    out->reported_error_mm = r.reported_error_cm * 10.0;
    out->reported_joint = r.reported_joint;
    out->reported_frame = r.reported_joint < 0 ? -1 : (int)lround(r.reported_time_s * clip->fps);
    return 0;
}

static void sampler_free(codec_sampler *s)
{
    if (!s)
        return;
    acl_shim_close(s->reader);
    free(s->acl_pose);
    free(s);
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
    s->rig = rig;
    float *rest = rest_cm(rig);
    s->reader = rest ? acl_shim_open(bytes, size, rig->bone_count, rest, err, err_size) : NULL;
    free(rest);
    s->acl_pose = malloc((size_t)rig->bone_count * ACL_SHIM_STRIDE * sizeof *s->acl_pose);
    if (!s->reader || !s->acl_pose) {
        if (s->reader || !rest)
            snprintf(err, err_size, "out of memory");
        sampler_free(s);
        return NULL;
    }
    return s;
}

static void sample(codec_sampler *s, double t, double *pose)
{
    acl_shim_sample(s->reader, t, s->acl_pose);
    from_acl(s->rig, s->acl_pose, pose);
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    codec_sampler *s = sampler_create(c, bytes, size, rig, err, err_size);
    if (!s)
        return NULL;
    const int frames = acl_shim_frames(s->reader);
    if (frames > ACL_DECODE_FRAMES_MAX || clip_limits_check_decoded(frames, rig->bone_count, err, err_size) != 0) {
        if (frames > ACL_DECODE_FRAMES_MAX)
            snprintf(err, err_size, "acl stream holds %d frames, more than the %d a decoded clip may have", frames,
                     ACL_DECODE_FRAMES_MAX);
        sampler_free(s);
        return NULL;
    }
    anim_clip *clip = clip_create_rest(rig, frames, acl_shim_sample_rate(s->reader));
    double *pose = malloc((size_t)rig->bone_count * POSE_STRIDE * sizeof *pose);
    if (!clip || !pose) {
        snprintf(err, err_size, "out of memory");
        free(pose);
        clip_free(clip);
        sampler_free(s);
        return NULL;
    }
    for (int f = 0; f < frames; f++) {
        sample(s, f, pose);
        clip_set_pose(clip, f, pose);
    }
    free(pose);
    sampler_free(s);
    return clip;
}

const codec_ops ACL_CODEC_OPS = {encode, decode, sampler_create, sample, sampler_free};

const char *acl_codec_library(void)
{
    return acl_shim_version();
}

#else /* built without ACL */

const char *acl_codec_library(void)
{
    return "not built: " ACL_UNAVAILABLE_REASON;
}

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    (void)in, (void)p, (void)out;
    snprintf(err, err_size, "%s: %s", c->name, ACL_UNAVAILABLE_REASON);
    return -1;
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    (void)bytes, (void)size, (void)rig;
    snprintf(err, err_size, "%s: %s", c->name, ACL_UNAVAILABLE_REASON);
    return NULL;
}

static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    (void)bytes, (void)size, (void)rig;
    snprintf(err, err_size, "%s: %s", c->name, ACL_UNAVAILABLE_REASON);
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

const codec_ops ACL_CODEC_OPS = {encode, decode, sampler_create, sample, sampler_free};

#endif
