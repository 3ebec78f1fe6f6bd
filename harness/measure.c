#include "measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/gzip_size.h"

measured_clip *measured_clip_create(clip_source *source, char *err, size_t err_size)
{
    measured_clip *m = calloc(1, sizeof *m);
    if (m) {
        m->source = source;
        m->view = channels_create(source->clip);
        m->ref = fk_reference_create(source->clip);
    }
    if (!m || !m->view || !m->ref) {
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
    clip_source_free(m->source);
    free(m);
}

void point_result_free(point_result *r)
{
    free(r->key_histogram);
    r->key_histogram = NULL;
}

int measure_point(const measured_clip *mc, const codec *c, const codec_params *p, bool want_histogram,
                  point_result *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    out->codec = c;
    out->params = *p;
    const anim_clip *clip = mc->source->clip;
    const codec_input in = {clip, mc->view};
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
    out->gzip_bytes = gzip_size(enc.bytes.data, enc.bytes.size);
    out->keys = enc.keys;
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
    }
    clip_free(decoded);
    codec_output_free(&enc);
    return 0;
}
