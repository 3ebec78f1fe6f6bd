#ifndef ANIMBENCH_TRACK_CODECS_H
#define ANIMBENCH_TRACK_CODECS_H

#include "codecs/codec.h"
#include "codecs/keys/key_select.h"
#include "codecs/study/study_container.h"
#include "codecs/study/track_sampler.h"

/* How a row turns its tol_mm into what decides a key: the study's lever
 * (every channel at tol_mm, every rotation at tol_mm / lever_m radians), a
 * per-joint tolerance through the hierarchy (hierarchy_tolerance.h), or a
 * world-space target held by forward kinematics (closed_loop.h). */
typedef enum tolerance_mode { TOL_LEVER, TOL_HIERARCHY, TOL_CLOSED_LOOP } tolerance_mode;

typedef struct track_codec_config {
    bool reduce_keys, cubic, quantize, drop_constant;
    container_layout layout;
    key_strategy strategy; /* KEYS_REFINE: the study's */
    tolerance_mode tolerance;
    bool delta_times; /* self-contained layout only */
} track_codec_config;

extern const codec_ops TRACK_CODEC_OPS;

/* The parsed keys behind a track codec's sampler (for the timing tables). */
const track_sampler *track_codec_sampler_tracks(const codec_sampler *s);

#endif
