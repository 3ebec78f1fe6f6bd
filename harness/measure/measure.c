#include "harness/measure/measure.h"

#include "harness/measure/provenance.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gzip_size.h"

static void original_at(const void *ctx, double t, double *pose)
{
    clip_source_pose_at(ctx, t, pose);
}

measured_clip *measured_clip_create(clip_source *source, const metric_params *metrics, char *err, size_t err_size)
{
    measured_clip *m = calloc(1, sizeof *m);
    double *times = NULL;
    if (m) {
        m->source = source;
        if (metrics)
            m->metrics = *metrics;
        else
            metric_params_default(&m->metrics);
        m->metrics.contact.up_axis = source->params.up_axis;
        m->view = channels_create(source->clip);
        m->ref = fk_reference_create(source->clip);
        m->original_frames = pose_set_from_clip(source->clip);
        const int n = source->clip->frame_count, sub = m->metrics.substeps;
        times = malloc(((size_t)n * (sub > 1 ? sub : 1) + 1) * sizeof *times);
        if (times && sub > 1 && n > 1)
            m->original_between = pose_set_from_eval(source->clip->rig, original_at, source, times,
                                                     between_frame_times(n, sub, times));
    }
    free(times);
    const bool between_ok = m && (m->metrics.substeps <= 1 || source->clip->frame_count < 2 || m->original_between);
    if (!m || !m->view || !m->ref || !m->original_frames || !between_ok) {
        snprintf(err, err_size, "out of memory preparing clip '%s'", source->name);
        if (m)
            measured_clip_free(m);
        else
            clip_source_free(source);
        return NULL;
    }
    return m;
}

void measured_clip_free(measured_clip *m)
{
    if (!m)
        return;
    fk_reference_free(m->ref);
    channels_free(m->view);
    pose_set_free(m->original_frames);
    pose_set_free(m->original_between);
    clip_source_free(m->source);
    free(m);
}

void point_result_free(point_result *r)
{
    free(r->key_histogram);
    r->key_histogram = NULL;
    metrics_report_free(&r->metrics);
}

typedef struct sampler_ctx {
    const codec *c;
    codec_sampler *s;
} sampler_ctx;

static void decoded_at(const void *ctx, double t, double *pose)
{
    const sampler_ctx *x = ctx;
    x->c->ops->sample(x->s, t, pose);
}

/* Every metric on the decoded clip: at the frames from the decoder's clip,
 * between them from the sampler built from the same bytes. */
static void measure_metrics(const measured_clip *mc, const codec *c, const codec_output *enc, const anim_clip *decoded,
                            point_result *out)
{
    const anim_clip *clip = mc->source->clip;
    pose_set *dec_frames = pose_set_from_clip(decoded), *dec_between = NULL;
    char msg[256];
    codec_sampler *s = mc->original_between
                           ? c->ops->sampler_create(c, enc->bytes.data, enc->bytes.size, clip->rig, msg, sizeof msg)
                           : NULL;
    if (s) {
        const sampler_ctx ctx = {c, s};
        dec_between = pose_set_from_eval(clip->rig, decoded_at, &ctx, mc->original_between->times,
                                         mc->original_between->samples);
        c->ops->sampler_free(s);
    }
    if (dec_frames && (!mc->original_between || dec_between))
        out->has_metrics = metrics_compute(mc->original_frames, dec_frames, mc->original_between, dec_between,
                                           clip->fps, enc->bytes.size, &mc->metrics, &out->metrics) == 0;
    pose_set_free(dec_frames);
    pose_set_free(dec_between);
}

int measure_point(const measured_clip *mc, const codec *c, const codec_params *p, bool want_histogram,
                  point_result *out, char *err, size_t err_size)
{
    return measure_point_stream(mc, c, p, want_histogram, out, NULL, err, err_size);
}

int measure_point_stream(const measured_clip *mc, const codec *c, const codec_params *p, bool want_histogram,
                         point_result *out, byte_buffer *stream, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    char version[17];
    if (codec_cache_version(c, NULL, 0, version) != 0) {
        /* a point keyed on files the build does not know would survive edits of the real ones */
        snprintf(err, err_size, "codec %s: its row in codecs/registry.c names a source (\"%s\") that is not a file of "
                 "codecs/: its points' cache key could not follow its edits", c->name, c->sources);
        return -1;
    }
    out->codec = c;
    out->params = *p;
    const anim_clip *clip = mc->source->clip;
    const codec_input in = {clip, mc->view, false};
    codec_output enc;
    codec_output_init(&enc);
    char msg[256] = "";
    if (c->ops->encode(c, &in, p, &enc, msg, sizeof msg) != 0 || enc.bytes.failed) {
        snprintf(err, err_size, "%s on %s: encoding failed: %s", c->name, mc->source->name,
                 msg[0] ? msg : "out of memory");
        codec_output_free(&enc);
        return -1;
    }
    out->bytes = enc.bytes.size;
    if (stream && !bytes_append(stream, enc.bytes.data, enc.bytes.size)) {
        snprintf(err, err_size, "out of memory");
        codec_output_free(&enc);
        return -1;
    }
    out->stream_fnv1a64 = bytes_fnv1a64(enc.bytes.data, enc.bytes.size);
    out->gzip_bytes = gzip_size(enc.bytes.data, enc.bytes.size);
    out->keys = enc.keys;
    out->key_time_bytes = enc.key_time_bytes;
    out->part_count = enc.part_count;
    memcpy(out->parts, enc.parts, sizeof out->parts);
    out->has_reported = enc.has_reported_error;
    out->reported_error_mm = enc.reported_error_mm;
    out->reported_joint = enc.reported_joint;
    out->reported_frame = enc.reported_frame;
    if (enc.encoder_recon) {
        out->has_encoder = joint_error_measure(mc->ref, enc.encoder_recon, &out->encoder) == 0;
    }
    if (want_histogram && enc.key_frames) {
        out->key_histogram = calloc((size_t)clip->frame_count, sizeof *out->key_histogram);
        if (out->key_histogram) {
            out->key_histogram_frames = clip->frame_count;
            for (long k = 0; k < enc.key_frame_count; k++)
                out->key_histogram[enc.key_frames[k]]++;
        }
    }

    anim_clip *decoded = c->ops->decode(c, enc.bytes.data, enc.bytes.size, clip->rig, msg, sizeof msg);
    if (!decoded) {
        snprintf(out->decode_error, sizeof out->decode_error, "%s", msg);
    } else if (decoded->frame_count != clip->frame_count) {
        snprintf(out->decode_error, sizeof out->decode_error, "decoded %d frames, the clip has %d",
                 decoded->frame_count, clip->frame_count);
    } else if (joint_error_measure(mc->ref, decoded, &out->decoded) != 0) {
        snprintf(out->decode_error, sizeof out->decode_error, "out of memory measuring the decoded clip");
    } else {
        out->decoded_ok = true;
        out->decoded_frames = decoded->frame_count;
        out->decoded_fps = decoded->fps;
        measure_metrics(mc, c, &enc, decoded, out);
    }
    clip_free(decoded);
    codec_output_free(&enc);
    return 0;
}
