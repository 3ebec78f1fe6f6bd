/* The study's technique 1, the baseline row: every channel of every frame
 * as float32 after a 16-byte header (all zero in the study's layout). */
#include "codecs/study/raw_codec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hot.h"
#include "core/limits.h"
#include "codecs/study/study_container.h"

struct codec_sampler {
    int bone_count, frame_count;
    float *frames; /* frame_count * bone_count * 10 */
};

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    (void)c;
    (void)p;
    const container_status st = study_raw_write(in->clip, &out->bytes);
    if (st != CONTAINER_OK) {
        snprintf(err, err_size, "%s", container_status_message(st));
        return -1;
    }
    out->keys = (long)in->clip->frame_count * in->clip->rig->bone_count * 7;
    return 0;
}

/* The frame count follows from the size; the frame rate is not stored. */
static float *read_frames(const uint8_t *bytes, size_t size, const anim_rig *rig, int *frames, char *err,
                          size_t err_size)
{
    const size_t per_frame = (size_t)rig->bone_count * 40;
    if (size < STUDY_HEADER_BYTES || (size - STUDY_HEADER_BYTES) % per_frame != 0 ||
        size - STUDY_HEADER_BYTES == 0) {
        snprintf(err, err_size, "raw stream of %zu bytes is not a 16-byte header plus whole frames of %zu bytes",
                 size, per_frame);
        return NULL;
    }
    const size_t n = (size - STUDY_HEADER_BYTES) / 4;
    if (n / (per_frame / 4) > LIMIT_FRAMES_MAX) {
        snprintf(err, err_size, "raw stream holds more than %d frames", LIMIT_FRAMES_MAX);
        return NULL;
    }
    float *v = malloc(n * sizeof *v);
    if (!v) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        v[i] = load_f32(bytes + STUDY_HEADER_BYTES + i * 4);
        if (!isfinite(v[i])) {
            snprintf(err, err_size, "raw stream: value %zu is not finite (offset %zu)", i, STUDY_HEADER_BYTES + i * 4);
            free(v);
            return NULL;
        }
    }
    *frames = (int)(n / (per_frame / 4));
    return v;
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    (void)c;
    int frames;
    float *v = read_frames(bytes, size, rig, &frames, err, err_size);
    if (!v)
        return NULL;
    anim_clip *clip = clip_create_rest(rig, frames, 0);
    if (!clip) {
        free(v);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    for (int f = 0; f < frames; f++)
        for (int b = 0; b < rig->bone_count; b++) {
            const float *p = v + ((size_t)f * rig->bone_count + b) * 10;
            for (int a = 0; a < 3; a++) {
                clip_pos_channel(clip, b, a)[f] = p[a];
                clip_scl_channel(clip, b, a)[f] = p[7 + a];
            }
            double *q = clip_rot_track(clip, b) + (size_t)f * 4;
            for (int i = 0; i < 4; i++)
                q[i] = p[3 + i];
        }
    free(v);
    return clip;
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
    s->bone_count = rig->bone_count;
    s->frames = read_frames(bytes, size, rig, &s->frame_count, err, err_size);
    if (!s->frames) {
        free(s);
        return NULL;
    }
    return s;
}

WIDE_KERNEL static void lerp_frames(double *restrict out, const float *restrict a, const float *restrict b, double u,
                                   int n)
{
    for (int i = 0; i < n; i++)
        out[i] = a[i] + ((double)b[i] - a[i]) * u;
}

/* The study's raw decode: lerp every value between the two frames around t,
 * in double precision (rotations are not renormalised, as in the study). */
static void sample(codec_sampler *s, double t, double *pose)
{
    const int n = s->bone_count * 10;
    int f0 = (int)t;
    if (f0 > s->frame_count - 1)
        f0 = s->frame_count - 1;
    const int f1 = f0 + 1 < s->frame_count ? f0 + 1 : s->frame_count - 1;
    lerp_frames(pose, s->frames + (size_t)f0 * n, s->frames + (size_t)f1 * n, t - f0, n);
}

static void sampler_free(codec_sampler *s)
{
    if (!s)
        return;
    free(s->frames);
    free(s);
}

const codec_ops RAW_CODEC_OPS = {encode, decode, sampler_create, sample, sampler_free};
