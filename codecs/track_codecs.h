#ifndef ANIMBENCH_TRACK_CODECS_H
#define ANIMBENCH_TRACK_CODECS_H

#include "codec.h"
#include "study_container.h"
#include "track_sampler.h"

typedef struct track_codec_config {
    bool reduce_keys, cubic, quantize, drop_constant;
    container_layout layout;
} track_codec_config;

extern const codec_ops TRACK_CODEC_OPS;

/* The parsed keys behind a track codec's sampler (for the timing tables). */
const track_sampler *track_codec_sampler_tracks(const codec_sampler *s);

#endif
