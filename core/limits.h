/* What a clip, a file and a sweep may hold, in one table (README: "Limits").
 *
 * Every producer of a clip (the BVH importer, the study's generators) asks
 * clip_limits_check() before it allocates, so a declared size that breaks a
 * limit is refused by arithmetic on the declaration, never by running out of
 * memory.  The limits are the documented ones; tests probe each at the limit
 * and one past it. */
#ifndef ANIMBENCH_LIMITS_H
#define ANIMBENCH_LIMITS_H

#include <stddef.h>

#define LIMIT_FRAMES_MIN 2
#define LIMIT_FRAMES_MAX 4194304         /* 9.7 hours at 120 Hz; the study's layout holds 65,535 (the -sc rows all) */
#define LIMIT_JOINTS_MAX 4096
#define LIMIT_DEPTH_MAX 256
#define LIMIT_JOINT_SAMPLES_MAX 1048576  /* frames x joints: 80 MiB per clip; `run` peaks near 1.1 GB here */
#define LIMIT_JOINT_SAMPLES_ENCODE_MAX 16777216 /* `encode` alone: 1.25 GiB per clip, one copy of it and a view */
#define LIMIT_RATE_MIN_HZ 0.1
#define LIMIT_RATE_MAX_HZ 10000.0
#define LIMIT_BVH_FILE_BYTES (1ull << 30) /* 1 GiB, read as a stream */
#define LIMIT_JSON_FILE_BYTES (256ull << 20) /* sweep definitions and results files */
#define LIMIT_SWEEP_POINTS 100000
#define LIMIT_POSITION_M 1e6 /* |translation| after the unit: codecs store float32 (and far from overflow) */

/* 0 when a clip of `frames` (a double, so that a declared count is checked
 * before any cast) of `joints` at `rate_hz` is within the limits; otherwise
 * -1 with the broken limit in err ("65537 frames: at most 65536 ..."). */
int clip_limits_check(double frames, double joints, double rate_hz, char *err, size_t err_size);

/* The joint-sample limit clip_limits_check applies: LIMIT_JOINT_SAMPLES_MAX
 * for everything that measures a clip (it holds about 13 copies of it), or
 * LIMIT_JOINT_SAMPLES_ENCODE_MAX, which `animbench encode` sets before it
 * loads anything (it holds the clip, a channel view and the stream).  Set
 * once, before threads start. */
void clip_limits_set_joint_samples(long max);

/* For a decoder, before it allocates the clip a stream describes: 0 when
 * `frames` of `joints` stay within the frame limit and the joint-sample
 * limit in force; otherwise -1 with why.  A few bytes can describe a long
 * clip (two keys per track), so the stream's size bounds nothing. */
int clip_limits_check_decoded(double frames, int joints, char *err, size_t err_size);

#endif
