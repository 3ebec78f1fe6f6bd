/* World-space closed-loop key selection (seed 003): one target in metres of
 * world joint error, held by forward kinematics rather than by a tolerance
 * per channel.
 *
 * The clip is checked at every frame and at S - 1 sub-steps between frames
 * (t = f + k / S), against the interpolation of the input frames
 * (core/clip.h, clip_interpolate_pose: what the encoder sees; seed 003:
 * "sampling only at the original sample times understates the error").  The
 * decoded side is evaluated with the decoder's arithmetic on the float32 key
 * values the stream will hold.
 *
 * Starting from every frame as a key, each animated track is reduced in
 * turn, joints from the roots down, in passes whose target grows to the
 * full one (half, three quarters, all of it: a root does not spend the
 * whole budget before its chain has had any).  Within a track, from each
 * kept key, a run of following keys is removed only if, with the track's
 * new curve over the frames it changes (linear: the one new segment; cubic:
 * also the segments on either side, whose tangents moved), every joint of
 * the track's subtree stays within the target at every sample there: the
 * run's length is found by doubling and then bisection.  Removal never
 * touches another joint's tracks, and a joint's world error depends only on
 * its own and its ancestors' tracks, so each check sees the final state of
 * everything it depends on at the time, and the last check of every joint
 * holds at the end.
 *
 * Where even every frame as a key is outside the target (a cubic through
 * every frame overshoots the straight interpolation of a fast motion between
 * frames; float32 rounding at a tolerance near 0) the allowance at that
 * sample is that floor: a removal may not make it worse.  The encoder then
 * verifies the contract on the decoded stream (codecs/study/track_codecs.c). */
#ifndef ANIMBENCH_CLOSED_LOOP_H
#define ANIMBENCH_CLOSED_LOOP_H

#include <stdbool.h>

#include "core/channels.h"
#include "codecs/study/study_plan.h"
#include "codecs/study/track_sampler.h"

typedef struct closed_loop closed_loop;

/* Between frames the decoded clip is held to the input's straight
 * interpolation (REFERENCE_LINEAR: lerp and normalised lerp, what the
 * harness measures imported clips against) or to the row's own
 * interpolation of every input frame (REFERENCE_OWN: for cubic keys, the
 * Catmull-Rom curve through every frame, so the contract is "within the
 * target of what this decoder shows with every frame kept"). */
typedef enum closed_loop_reference { REFERENCE_LINEAR, REFERENCE_OWN } closed_loop_reference;

/* What the closed loop holds per joint and sample (reference, floor, local
 * pose, world position and rotation): 168 bytes, times substeps samples per
 * frame.  The encoder refuses a clip of more than CLOSED_LOOP_SAMPLES_MAX
 * joint-samples x substeps (672 MiB), before allocating. */
#define CLOSED_LOOP_BYTES_PER_SAMPLE 168
#define CLOSED_LOOP_SAMPLES_MAX 4194304

/* NULL when out of memory.  substeps >= 1 (1: frames only). */
closed_loop *closed_loop_create(const channel_view *view, int substeps, bool cubic, closed_loop_reference reference);
void closed_loop_free(closed_loop *cl);

/* Chooses every animated track's keys for target_m; the keys stay owned by
 * cl (valid until the next call).  Returns 0, or -1 when out of memory. */
int closed_loop_select(closed_loop *cl, double target_m, preset_keys *out);

/* The decoded stream against the contract: the largest excess of a joint's
 * world error over its allowance (target_m, or the floor where that is
 * higher) over every joint and sample; <= 0 when the contract holds.  The
 * largest error itself, and where, in *worst_m, *joint and *t. */
double closed_loop_excess(const closed_loop *cl, const track_sampler *decoded, double target_m, double *worst_m,
                          int *joint, double *t);

#endif
