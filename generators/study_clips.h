/* The study's three generated clips: walk, jump and mocap (walk + jitter).
 *
 * Every pose is a function of time, so a clip can be sampled on its frames
 * (what the study measures) or anywhere between them (error between frames).
 * The mocap jitter is drawn per frame from the study's LCG in the script's
 * order; between frames it is held at the earlier frame's draw. */
#ifndef ANIMBENCH_STUDY_CLIPS_H
#define ANIMBENCH_STUDY_CLIPS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/clip.h"

#define WALK_JITTER_DRAWS 22 /* LCG draws per mocap frame, in script order */

/* How to make or read a clip: the study's constants for the generated
 * clips, the unit and up axis for imported ones. */
typedef struct clip_params {
    double fps;          /* 60 */
    double walk_seconds; /* 3 */
    double jump_seconds; /* 2 */
    uint32_t seed;       /* 20260905, the mocap jitter's LCG seed */
    double unit_m;       /* imported: metres per file unit, 1 */
    int up_axis;         /* 1: y up (the study's clips); imports may be z up (2) */
    bool unit_given;     /* unit_m was asked for (a scene file has its own unit otherwise) */
    bool fps_given;      /* fps was asked for (a scene file is sampled at its own rate otherwise) */
} clip_params;

extern const clip_params CLIP_DEFAULTS;

/* The study's LCG: s = s * 1664525 + 1013904223 (mod 2^32), value in [-1, 1). */
typedef struct study_lcg {
    uint32_t state;
} study_lcg;
double study_lcg_next(study_lcg *lcg);

/* Frames of a clip of the given length: Math.round(seconds * fps); -1 when
 * that is outside 0 to LIMIT_FRAMES_MAX. */
int study_frame_count(double seconds, double fps);
/* 0 when clip `name` (walk, jump, mocap) with these parameters is within the
 * limits (core/limits.h); -1 with a message naming the clip otherwise. */
int study_clip_check(const char *name, const clip_params *p, char *err, size_t err_size);

/* Pose at time t seconds into flat arrays (pos 3, rot 4, scl 3 per bone) that
 * the caller has filled with the rest pose.  jitter: WALK_JITTER_DRAWS values
 * in [-1, 1), or NULL for none. */
void study_walk_pose(const anim_rig *rig, double t, const double *jitter, double *pos,
                     double *rot, double *scl);
void study_jump_pose(const anim_rig *rig, double t, double *pos, double *rot, double *scl);
/* The jump's vertical root offset in metres (the study's jumpY). */
double study_jump_height(double t);

/* Whole clips on the rig created by study_rig_create().  NULL when out of memory. */
anim_clip *study_walk_clip(const anim_rig *rig, const clip_params *p, bool jitter);
anim_clip *study_jump_clip(const anim_rig *rig, const clip_params *p);

#endif
