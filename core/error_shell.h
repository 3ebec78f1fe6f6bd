/* ACL's shell distance (seeds/001 section 3.1): for each joint and sample,
 * the largest displacement of three virtual vertices placed at distance d
 * along the joint's own axes, original against decoded, in object space.
 * A vertex is placed like a child joint at offset d * axis: scaled by the
 * joint's local scale, rotated by its world rotation, added to its world
 * position.  Like ACL's (at the commit seeds/001 measures), three vertices
 * can understate the largest displacement on the sphere, by up to a factor
 * sqrt(2/3) for a pure rotation error. */
#ifndef ANIMBENCH_ERROR_SHELL_H
#define ANIMBENCH_ERROR_SHELL_H

#include "core/pose_set.h"

#define SHELL_DISTANCE_DEFAULT_M 0.03  /* ACL: 3 cm */
#define SHELL_PRECISION_DEFAULT_M 0.0001 /* ACL: 0.01 cm */

/* out: [sample][joint] shell distance in metres; both sets alike in size. */
void shell_distance_m(const pose_set *original, const pose_set *decoded, double distance_m, double *out);
/* The joints' world displacement in metres, [sample][joint]. */
void joint_displacement_m(const pose_set *original, const pose_set *decoded, double *out);

#endif
