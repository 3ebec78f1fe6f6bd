/* The study's error metric (seeds/000, fkError): forward kinematics of the
 * original and the decoded clip at every frame; for every joint the world
 * displacement (Math.hypot of the difference, in metres) and the angle
 * between world rotations (degrees).  Reported: the maximum and mean
 * displacement over every joint and frame, and the maximum angle. */
#ifndef ANIMBENCH_ERROR_JOINT_H
#define ANIMBENCH_ERROR_JOINT_H

#include "core/clip.h"

typedef struct joint_error {
    double max_m;
    double mean_m;
    double max_deg;
    int worst_bone, worst_frame; /* where max_m occurs (first occurrence) */
} joint_error;

/* World transforms of a clip at its frames, computed once and compared
 * against many decoded clips. */
typedef struct fk_reference {
    const anim_clip *clip;
    double *world_pos; /* [frame][bone][3] */
    double *world_rot; /* [frame][bone][4] */
} fk_reference;

/* NULL when out of memory. */
fk_reference *fk_reference_create(const anim_clip *clip);
void fk_reference_free(fk_reference *ref);

/* decoded must have the reference clip's rig and frame count.  Returns 0, or
 * -1 when out of memory. */
int joint_error_measure(const fk_reference *ref, const anim_clip *decoded, joint_error *out);

#endif
