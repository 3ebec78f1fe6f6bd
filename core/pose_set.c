#include "core/pose_set.h"

#include <stdlib.h>
#include <string.h>

#include "core/fk.h"

static pose_set *pose_set_alloc(const anim_rig *rig, int samples)
{
    pose_set *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    const size_t n = (size_t)samples * (size_t)rig->bone_count;
    p->rig = rig;
    p->samples = samples;
    p->times = malloc((size_t)samples * sizeof *p->times);
    p->world_pos = malloc(n * 3 * sizeof *p->world_pos);
    p->world_rot = malloc(n * 4 * sizeof *p->world_rot);
    p->local_scale = malloc(n * 3 * sizeof *p->local_scale);
    if (!p->times || !p->world_pos || !p->world_rot || !p->local_scale) {
        pose_set_free(p);
        return NULL;
    }
    return p;
}

void pose_set_free(pose_set *p)
{
    if (!p)
        return;
    free(p->times);
    free(p->world_pos);
    free(p->world_rot);
    free(p->local_scale);
    free(p);
}

/* Splits a pose (10 per joint) into FK's arrays and runs FK into sample s. */
static void fk_into(pose_set *p, int s, const double *pose, double *lpos, double *lrot)
{
    const int nb = p->rig->bone_count;
    double *scale = p->local_scale + (size_t)s * nb * 3;
    for (int b = 0; b < nb; b++) {
        memcpy(lpos + b * 3, pose + b * 10, 3 * sizeof *lpos);
        memcpy(lrot + b * 4, pose + b * 10 + 3, 4 * sizeof *lrot);
        memcpy(scale + b * 3, pose + b * 10 + 7, 3 * sizeof *scale);
    }
    fk_pose(p->rig, lpos, lrot, scale, p->world_pos + (size_t)s * nb * 3, p->world_rot + (size_t)s * nb * 4);
}

pose_set *pose_set_from_eval(const anim_rig *rig, pose_eval eval, const void *ctx, const double *times, int count)
{
    pose_set *p = pose_set_alloc(rig, count);
    const int nb = rig->bone_count;
    double *pose = malloc((size_t)nb * 10 * sizeof *pose), *lpos = malloc((size_t)nb * 3 * sizeof *lpos),
           *lrot = malloc((size_t)nb * 4 * sizeof *lrot);
    if (!p || !pose || !lpos || !lrot) {
        pose_set_free(p);
        p = NULL;
    }
    for (int s = 0; p && s < count; s++) {
        p->times[s] = times[s];
        eval(ctx, times[s], pose);
        fk_into(p, s, pose, lpos, lrot);
    }
    free(pose);
    free(lpos);
    free(lrot);
    return p;
}

pose_set *pose_set_from_clip(const anim_clip *clip)
{
    pose_set *p = pose_set_alloc(clip->rig, clip->frame_count);
    if (!p)
        return NULL;
    const int nb = clip->rig->bone_count;
    fk_clip(clip, p->world_pos, p->world_rot);
    for (int f = 0; f < clip->frame_count; f++) {
        p->times[f] = f;
        for (int b = 0; b < nb; b++)
            for (int a = 0; a < 3; a++)
                p->local_scale[((size_t)f * nb + b) * 3 + a] = clip_scl_channel(clip, b, a)[f];
    }
    return p;
}
