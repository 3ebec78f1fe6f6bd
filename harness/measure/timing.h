/* Decode timings: what a pose costs to decode from each codec's bytes.
 *
 * Patterns of sample times, in frames, 4096 of them (a ring the timer walks round):
 *   study       time i = (i * 0.7) mod (N - 1.001), as the study
 *   sequential  every frame in turn: 0, 1, 2, ... N-1, again
 *   seek        uniform times in [0, N - 1] from PCG32 (seed 2026, 11): random access
 *   playback    a game playing the clip at 60 poses per second of game time: from a start drawn
 *               from PCG32 (seed 2026, 12), fps / 60 frames a pose, wrapping at N - 1
 * and the whole-clip decode (the codec's decoder on the whole stream).  runtime.h adds what a
 * sampler holds, the time to its first pose and the crowds.
 *
 * After the timed runs, outside the timed span, every pose of the pattern is
 * decoded again and checked against the codec's full decode: exactly (1e-9)
 * at frame times; between frames, within the range of the four decoded
 * frames around it widened by that range (cubic curves overshoot; scales
 * of codecs that compose them down the chain, 0.1 % more; codecs that
 * interpolate in float32, 8 float ulps more), and
 * rotations of unit length.  A codec whose sampler disagrees with its own
 * decoder gets an error, not a figure. */
#ifndef ANIMBENCH_TIMING_H
#define ANIMBENCH_TIMING_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "codecs/codec.h"
#include "harness/measure/bench_timer.h"
#include "harness/measure/measure.h"
#include "harness/measure/runtime.h"

#define STUDY_TIME_COUNT 4096

typedef enum time_pattern { PATTERN_STUDY, PATTERN_SEQUENTIAL, PATTERN_SEEK, PATTERN_PLAYBACK, PATTERN_COUNT } time_pattern;
extern const char *const PATTERN_NAMES[PATTERN_COUNT];

/* Fills count times for a clip of `frames` frames at fps; count must be a power of 2. */
void pattern_times(time_pattern p, int frames, double fps, double *times, int count);

/* What time_codec times: a bit per pattern, and the rest. */
enum timing_parts {
    TIME_FIRST_POSE = 1u << PATTERN_COUNT,
    TIME_WHOLE_CLIP = 1u << (PATTERN_COUNT + 1),
    TIME_ENCODE = 1u << (PATTERN_COUNT + 2),
    TIME_ALL = (1u << (PATTERN_COUNT + 3)) - 1
};

typedef struct codec_timings {
    unsigned timed;                      /* the timing_parts measured */
    timer_result pattern[PATTERN_COUNT]; /* ns per pose */
    timer_result first_pose;             /* ns from the bytes to the first pose: create and one sample */
    timer_result whole_clip;             /* ns per whole-clip decode */
    timer_result encode;                 /* ns per encode of the whole clip */
    double ns_per_joint_sample;          /* whole_clip median / (frames * bones) */
    int frames, bones;
    sampler_memory memory;               /* what the sampler holds (always measured) */
    byte_buffer stream;                  /* the stream timed, kept for a crowd: bytes_free it */
} codec_timings;

/* Encodes, measures what the sampler holds, then times what `what` asks (timing_parts).  Returns
 * 0, or -1 with a message (encode or decode failed, or the check failed).  out->stream is the
 * caller's to free either way. */
int time_codec(const measured_clip *clip, const codec *c, const codec_params *p, const timer_config *tc,
               unsigned what, codec_timings *out, char *err, size_t err_size);

/* Adds a later round's timings of the same codec, clip and parameters to `into` (timer_merge, each
 * part); what the sampler holds stays the first round's.  -1 with a message when the rounds timed
 * different parts or the encoder wrote different bytes (a determinism defect), or the runs together
 * exceed TIMER_MAX_RUNS.  `more`'s stream stays the caller's to free. */
int codec_timings_merge(codec_timings *into, const codec_timings *more, char *err, size_t err_size);

/* The ceilings every figure is read against, on the clip's raw frames:
 * copying one raw pose (10 floats per bone), and lerping two raw frames in
 * the best loop we can write (float, restrict, vectorisable). */
int time_ceilings(const measured_clip *clip, const timer_config *tc, timer_result *copy, timer_result *lerp,
                  char *err, size_t err_size);

cJSON *timer_result_json(const timer_result *r, const char *unit);

/* The study's two decode tables, in its layout, from our decoders. */
typedef struct study_timing_input {
    const measured_clip *walk;
    double tol_mm, lever_m;
    timer_config timer;
} study_timing_input;
int study_timings_print_decode(FILE *out, const study_timing_input *in, char *err, size_t err_size);
int study_timings_print_playback(FILE *out, const study_timing_input *in, char *err, size_t err_size);

#endif
