/* Writing a clip (generated, imported or decoded) for other tools.
 *
 * BVH, for Blender and most animation tools.  BVH has no scale, and the
 * study's forward kinematics applies a joint's scale only to its children's
 * offsets, so a child's translation is written with its parent's scale
 * applied: the joint positions are exactly those of the clip.  Joints whose
 * translation never leaves their offset get 3 rotation channels (Zrotation
 * Xrotation Yrotation, R = Rz Rx Ry), the others 6; roots always 6.  Leaves
 * without an end site get one a quarter of their own offset long (Blender
 * needs a bone length).  Values are printed with 10 significant digits.
 *
 * ACL's SJSON clip (version 5, ACL's docs: the_acl_file_format.md), for
 * ACL's own tools: bones with parent and bind pose, one track per bone with
 * rotations, translations and scales, lengths in centimetres, virtual
 * vertex distance 3 cm.  ACL composes scale down the hierarchy where the
 * study's FK does not, so translations are written with the parent's scale
 * applied and scales as 1: ACL's FK then gives the clip's joint positions. */
#ifndef ANIMBENCH_CLIP_EXPORT_H
#define ANIMBENCH_CLIP_EXPORT_H

#include <stdio.h>

#include "core/clip.h"

/* unit_m: metres per written unit (1: metres). Returns 0 or -1 (write error). */
int export_bvh(const anim_clip *clip, double unit_m, FILE *out);
int export_acl_sjson(const anim_clip *clip, const char *name, FILE *out);

/* Euler angles in degrees for R = Rz(z) Rx(x) Ry(y), from a unit quaternion. */
void quat_to_euler_zxy_deg(const double q[4], double *z_deg, double *x_deg, double *y_deg);

#endif
