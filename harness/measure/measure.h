/* One measured point: a codec with its parameters on a clip.
 *
 * The byte count counts only because the bytes decode: every point is
 * decoded by the codec's decoder from the bytes alone and its error is
 * measured on that decoded clip.  Where the codec also knows its encoder-side
 * reconstruction (what the study measures), that error is reported too. */
#ifndef ANIMBENCH_MEASURE_H
#define ANIMBENCH_MEASURE_H

#include <stdbool.h>

#include "codecs/codec.h"
#include "core/error_joint.h"
#include "core/metrics.h"
#include "generators/clip_library.h"

typedef struct measured_clip {
    clip_source *source;
    channel_view *view;
    fk_reference *ref;
    metric_params metrics;
    pose_set *original_frames;  /* the original at its frames */
    pose_set *original_between; /* and between them, at metrics.substeps */
} measured_clip;

/* Takes ownership of source.  metrics: NULL for the defaults. */
measured_clip *measured_clip_create(clip_source *source, const metric_params *metrics, char *err, size_t err_size);
void measured_clip_free(measured_clip *m);

typedef struct point_result {
    const codec *codec;
    codec_params params;
    size_t bytes, gzip_bytes;
    uint64_t stream_fnv1a64; /* fingerprint of the encoded bytes */
    long keys;
    long key_time_bytes;  /* bytes spent on key times, or -1 when the codec does not say */
    int part_count;       /* where the bytes go, when the codec says (codec_output) */
    codec_part parts[CODEC_PARTS_MAX];
    bool decoded_ok;
    char decode_error[256];
    joint_error decoded;  /* error of the clip decoded from the bytes */
    bool has_encoder;
    joint_error encoder;  /* error of the encoder's own reconstruction */
    int decoded_frames;
    double decoded_fps;   /* 0 when the bytes do not carry it */
    long *key_histogram;  /* per frame: animated keys stored there; NULL unless asked */
    int key_histogram_frames;
    bool has_reported;    /* the codec's own account of its error (codec_output) */
    double reported_error_mm;
    int reported_joint, reported_frame;
    bool has_metrics;     /* every metric of core/metrics.h, on the decoded clip */
    metrics_report metrics;
} point_result;

/* Returns 0, or -1 with a message (encoding failed).  A decode failure is
 * not an error of the measurement: it is recorded in the result. */
int measure_point(const measured_clip *clip, const codec *c, const codec_params *p, bool want_histogram,
                  point_result *out, char *err, size_t err_size);
/* The same, with a copy of the stream appended to *stream (for `run`'s look at its sampler). */
int measure_point_stream(const measured_clip *clip, const codec *c, const codec_params *p, bool want_histogram,
                         point_result *out, byte_buffer *stream, char *err, size_t err_size);
void point_result_free(point_result *r);

#endif
