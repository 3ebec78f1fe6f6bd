/* Forward kinematics, as the study defines it: a child's local position is
 * scaled by its parent's local scale, rotated by the parent's world rotation
 * and added to the parent's world position; rotations compose parent * local.
 * A bone's own scale affects only its children. */
#ifndef ANIMBENCH_FK_H
#define ANIMBENCH_FK_H

#include "core/clip.h"

/* World positions (3 per bone) and rotations (4 per bone) of one frame. */
void fk_frame(const anim_clip *clip, int frame, double *world_pos, double *world_rot);

/* The same for every frame: arrays of frame_count * bone_count * 3 and * 4. */
void fk_clip(const anim_clip *clip, double *world_pos, double *world_rot);

/* One pose given as flat local arrays (pos 3, rot 4, scl 3 per bone). */
void fk_pose(const anim_rig *rig, const double *local_pos, const double *local_rot,
             const double *local_scl, double *world_pos, double *world_rot);

#endif
