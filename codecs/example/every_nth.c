/* every-nth: keeps frames 0, N, 2N, ... and the last one, as float32, and
 * rebuilds the others by linear interpolation (rotations: the shorter way
 * round, renormalised).  The example codec of docs/adding-a-codec.md.
 *
 * Bytes: "EN01", u32 frame count, u32 N, f32 fps; then per kept frame, per
 * bone, position (3), rotation (4) and scale (3) as float32. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "codecs/codec.h"

struct codec_sampler {
    int bones, frames, step;
    double fps;
    uint8_t *kept; /* a copy of the kept frames' bytes */
};

static int kept_count(int frames, int step)
{
    return (frames - 1) / step + 1 + ((frames - 1) % step != 0);
}

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    (void)c;
    const anim_clip *clip = in->clip;
    if (p->step < 1 || p->step > 65536) {
        snprintf(err, err_size, "every-nth needs a --step from 1 to 65536, got %d", p->step);
        return -1;
    }
    bytes_append(&out->bytes, "EN01", 4);
    bytes_u32(&out->bytes, (uint32_t)clip->frame_count);
    bytes_u32(&out->bytes, (uint32_t)p->step);
    bytes_f32(&out->bytes, clip->fps);
    for (int k = 0; k < kept_count(clip->frame_count, p->step); k++) {
        const int f = k * p->step < clip->frame_count ? k * p->step : clip->frame_count - 1;
        for (int b = 0; b < clip->rig->bone_count; b++) {
            for (int a = 0; a < 3; a++)
                bytes_f32(&out->bytes, clip_pos_channel(clip, b, a)[f]);
            for (int i = 0; i < 4; i++)
                bytes_f32(&out->bytes, clip_rot_track(clip, b)[f * 4 + i]);
            for (int a = 0; a < 3; a++)
                bytes_f32(&out->bytes, clip_scl_channel(clip, b, a)[f]);
        }
    }
    out->keys = (long)kept_count(clip->frame_count, p->step) * clip->rig->bone_count * 7;
    return out->bytes.failed ? -1 : 0;
}

static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    (void)c;
    if (size < 16 || bytes[0] != 'E' || bytes[1] != 'N' || bytes[2] != '0' || bytes[3] != '1') {
        snprintf(err, err_size, "not an every-nth stream (no 16-byte EN01 header)");
        return NULL;
    }
    const uint32_t frames = load_u32(bytes + 4), step = load_u32(bytes + 8);
    const float fps = load_f32(bytes + 12);
    if (frames < 1 || frames > LIMIT_FRAMES_MAX || step < 1 || step > 65536 || !(fps > 0)) { /* a step past the end keeps both ends */
        snprintf(err, err_size, "every-nth header: %u frames, step %u, %g fps is not a clip", frames, step, fps);
        return NULL;
    }
    const size_t expect = 16 + (size_t)kept_count((int)frames, (int)step) * (size_t)rig->bone_count * 40;
    if (size != expect) {
        snprintf(err, err_size, "every-nth stream is %zu bytes, its header implies %zu", size, expect);
        return NULL;
    }
    codec_sampler *s = malloc(sizeof *s);
    uint8_t *kept = malloc(size - 16);
    if (!s || !kept) {
        free(s);
        free(kept);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    memcpy(kept, bytes + 16, size - 16);
    *s = (codec_sampler){rig->bone_count, (int)frames, (int)step, fps, kept};
    return s;
}

static double kept_value(const codec_sampler *s, int k, int i)
{
    return load_f32(s->kept + ((size_t)k * s->bones * 10 + i) * 4);
}

static void sample(codec_sampler *s, double t, double *pose)
{
    const int last = kept_count(s->frames, s->step) - 1;
    int k = (int)(t / s->step);
    if (k >= last)
        k = last > 0 ? last - 1 : 0;
    const double f0 = (double)k * s->step, f1 = k + 1 < last ? (double)(k + 1) * s->step : s->frames - 1;
    const double u = last == 0 ? 0 : (t - f0) / (f1 - f0);
    const int k1 = last == 0 ? 0 : k + 1;
    for (int b = 0; b < s->bones; b++) {
        double *out = pose + b * 10, dot = 0;
        for (int i = 3; i < 7; i++)
            dot += kept_value(s, k, b * 10 + i) * kept_value(s, k1, b * 10 + i);
        for (int i = 0; i < 10; i++) {
            const double a = kept_value(s, k, b * 10 + i), z = kept_value(s, k1, b * 10 + i);
            out[i] = a + ((i >= 3 && i < 7 && dot < 0 ? -z : z) - a) * u;
        }
        const double len = sqrt(out[3] * out[3] + out[4] * out[4] + out[5] * out[5] + out[6] * out[6]);
        for (int i = 3; i < 7; i++)
            out[i] /= len;
    }
}

static void sampler_free(codec_sampler *s)
{
    if (s)
        free(s->kept);
    free(s);
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    codec_sampler *s = sampler_create(c, bytes, size, rig, err, err_size);
    if (s && clip_limits_check_decoded(s->frames, rig->bone_count, err, err_size) != 0) {
        sampler_free(s); /* a long step makes a short stream of a long clip */
        return NULL;
    }
    anim_clip *clip = s ? clip_create_rest(rig, s->frames, s->fps) : NULL;
    double *pose = s ? malloc((size_t)rig->bone_count * POSE_STRIDE * sizeof *pose) : NULL;
    if (clip && pose)
        for (int f = 0; f < s->frames; f++) {
            sample(s, f, pose);
            clip_set_pose(clip, f, pose);
        }
    else if (s) {
        snprintf(err, err_size, "out of memory");
        clip_free(clip);
        clip = NULL;
    }
    free(pose);
    sampler_free(s);
    return clip;
}

const codec_ops EVERY_NTH_OPS = {encode, decode, sampler_create, sample, sampler_free};
