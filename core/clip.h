/* The clip model: for every bone and frame a local position (3), a rotation
 * quaternion (x, y, z, w) and a scale (3), all double precision.
 *
 * Layout follows the study so that channel views need no copies:
 *   position and scale: [bone][axis][frame]   (a channel is contiguous)
 *   rotation:           [bone][frame][4]      (a track is contiguous) */
#ifndef ANIMBENCH_CLIP_H
#define ANIMBENCH_CLIP_H

#include <stddef.h>

#include "core/rig.h"

typedef struct anim_clip {
    const anim_rig *rig; /* not owned */
    int frame_count;
    double fps;
    double *pos;
    double *rot;
    double *scl;
} anim_clip;

/* A clip at the rig's rest pose: rest offsets, identity rotations, unit
 * scale.  Returns NULL when out of memory or frame_count < 1. */
anim_clip *clip_create_rest(const anim_rig *rig, int frame_count, double fps);
anim_clip *clip_clone(const anim_clip *clip);
void clip_free(anim_clip *clip);

static inline double *clip_pos_channel(const anim_clip *c, int bone, int axis)
{
    return c->pos + ((size_t)bone * 3 + (size_t)axis) * (size_t)c->frame_count;
}
static inline double *clip_scl_channel(const anim_clip *c, int bone, int axis)
{
    return c->scl + ((size_t)bone * 3 + (size_t)axis) * (size_t)c->frame_count;
}
static inline double *clip_rot_track(const anim_clip *c, int bone)
{
    return c->rot + (size_t)bone * (size_t)c->frame_count * 4;
}
/* Frame f from a pose of 10 doubles per bone (position, rotation, scale). */
void clip_set_pose(anim_clip *c, int f, const double *pose);
/* The pose of frame f, 10 doubles per bone. */
void clip_get_pose(const anim_clip *c, int f, double *pose);

/* The clip between its frames, at time t in frames (clamped to the clip):
 * lerp for positions and scales, normalised lerp the short way round for
 * rotations; frame f exactly at t = f.  What an imported clip is compared
 * against between frames, and what the closed-loop encoder holds to. */
void clip_interpolate_pose(const anim_clip *c, double t, double *pose);

static inline double clip_seconds(const anim_clip *c)
{
    return c->frame_count / c->fps;
}

#endif
