/* World transforms of a rig at a list of sample times, the common input of
 * the error metrics: per sample and joint a world position (m), a world
 * rotation, and the joint's own local scale (which places its virtual
 * vertices, as it places its children). */
#ifndef ANIMBENCH_POSE_SET_H
#define ANIMBENCH_POSE_SET_H

#include "core/clip.h"

typedef struct pose_set {
    const anim_rig *rig;
    int samples;
    double *times;       /* in frames */
    double *world_pos;   /* [sample][joint][3] */
    double *world_rot;   /* [sample][joint][4] */
    double *local_scale; /* [sample][joint][3] */
} pose_set;

/* A local pose at time t (10 doubles per joint), for pose_set_from_eval. */
typedef void (*pose_eval)(const void *ctx, double t, double *pose);

pose_set *pose_set_from_clip(const anim_clip *clip);
pose_set *pose_set_from_eval(const anim_rig *rig, pose_eval eval, const void *ctx, const double *times, int count);
void pose_set_free(pose_set *p);

static inline const double *pose_set_pos(const pose_set *p, int s, int j)
{
    return p->world_pos + ((size_t)s * p->rig->bone_count + j) * 3;
}
static inline const double *pose_set_rot(const pose_set *p, int s, int j)
{
    return p->world_rot + ((size_t)s * p->rig->bone_count + j) * 4;
}
static inline const double *pose_set_scale(const pose_set *p, int s, int j)
{
    return p->local_scale + ((size_t)s * p->rig->bone_count + j) * 3;
}

#endif
