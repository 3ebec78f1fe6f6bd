/* Hierarchical tolerance, after ozz-animation's optimizer: one distance
 * tolerance, turned into a per-track tolerance by how far the track's error
 * can travel down the skeleton.
 *
 * For each joint j, scale(j) is the largest |scale component| j has over the
 * clip (in the study's forward kinematics a joint's scale stretches only
 * its children's offsets, so it does not accumulate down the chain, as it
 * does in ozz); length(j) starts at distance_m x scale(j) and takes, from
 * every child c, length(c) + the largest |translation| c has over the clip
 * x scale(j): the longest chain below j, as the error sees it.  Then, per
 * component (the study's channels):
 *   translation of j:  tol / scale(parent(j))        (a root: tol)
 *   rotation of j:     2 asin(min(1, tol / (2 length(j)))), in degrees
 *                      (a chord of tol at radius length(j))
 *   scale of j:        tol / offset(j), the longest child offset over the
 *                      clip (or distance_m): a scale error moves each child by
 *                      the error times its offset, and its subtree rigidly
 * so a hip gets a far smaller angle than a finger.  distance_m stands for the
 * skin beyond the last joint (ozz's default: 0.1 m). */
#ifndef ANIMBENCH_HIERARCHY_TOLERANCE_H
#define ANIMBENCH_HIERARCHY_TOLERANCE_H

#include "core/channels.h"

/* eps_scalar: view->scalar_count (metres for positions, unitless for
 * scales); eps_rotation_deg: view->rotation_count.  Returns 0, or -1 when out
 * of memory. */
int hierarchy_tolerances(const channel_view *view, double tol_m, double distance_m, double *eps_scalar,
                         double *eps_rotation_deg);

#endif
