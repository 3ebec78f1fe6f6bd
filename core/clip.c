#include "core/clip.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static anim_clip *clip_alloc(const anim_rig *rig, int frame_count, double fps)
{
    if (!rig || frame_count < 1)
        return NULL;
    anim_clip *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    size_t per_bone = (size_t)frame_count * 3;
    size_t n = (size_t)rig->bone_count * per_bone;
    c->rig = rig;
    c->frame_count = frame_count;
    c->fps = fps;
    c->pos = malloc(n * sizeof *c->pos);
    c->scl = malloc(n * sizeof *c->scl);
    c->rot = malloc((size_t)rig->bone_count * (size_t)frame_count * 4 * sizeof *c->rot);
    if (!c->pos || !c->scl || !c->rot) {
        clip_free(c);
        return NULL;
    }
    return c;
}

anim_clip *clip_create_rest(const anim_rig *rig, int frame_count, double fps)
{
    anim_clip *c = clip_alloc(rig, frame_count, fps);
    if (!c)
        return NULL;
    for (int b = 0; b < rig->bone_count; b++) {
        for (int a = 0; a < 3; a++) {
            double *p = clip_pos_channel(c, b, a), *s = clip_scl_channel(c, b, a);
            for (int f = 0; f < frame_count; f++) {
                p[f] = rig->rest_offsets[b * 3 + a];
                s[f] = 1.0;
            }
        }
        double *r = clip_rot_track(c, b);
        for (int f = 0; f < frame_count; f++) {
            r[f * 4 + 0] = 0.0;
            r[f * 4 + 1] = 0.0;
            r[f * 4 + 2] = 0.0;
            r[f * 4 + 3] = 1.0;
        }
    }
    return c;
}

anim_clip *clip_clone(const anim_clip *src)
{
    anim_clip *c = clip_alloc(src->rig, src->frame_count, src->fps);
    if (!c)
        return NULL;
    size_t n = (size_t)src->rig->bone_count * (size_t)src->frame_count;
    memcpy(c->pos, src->pos, n * 3 * sizeof *c->pos);
    memcpy(c->scl, src->scl, n * 3 * sizeof *c->scl);
    memcpy(c->rot, src->rot, n * 4 * sizeof *c->rot);
    return c;
}

void clip_free(anim_clip *c)
{
    if (!c)
        return;
    free(c->pos);
    free(c->rot);
    free(c->scl);
    free(c);
}

void clip_set_pose(anim_clip *c, int f, const double *pose)
{
    for (int b = 0; b < c->rig->bone_count; b++) {
        const double *p = pose + b * 10;
        for (int a = 0; a < 3; a++) {
            clip_pos_channel(c, b, a)[f] = p[a];
            clip_scl_channel(c, b, a)[f] = p[7 + a];
        }
        memcpy(clip_rot_track(c, b) + (size_t)f * 4, p + 3, 4 * sizeof *p);
    }
}

void clip_get_pose(const anim_clip *c, int f, double *pose)
{
    for (int b = 0; b < c->rig->bone_count; b++) {
        double *p = pose + b * 10;
        for (int a = 0; a < 3; a++) {
            p[a] = clip_pos_channel(c, b, a)[f];
            p[7 + a] = clip_scl_channel(c, b, a)[f];
        }
        memcpy(p + 3, clip_rot_track(c, b) + (size_t)f * 4, 4 * sizeof *p);
    }
}

void clip_interpolate_pose(const anim_clip *c, double t, double *pose)
{
    const int n = c->frame_count;
    int f0 = (int)t;
    if (f0 > n - 1)
        f0 = n - 1;
    if (f0 < 0)
        f0 = 0;
    const double u = t - f0;
    clip_get_pose(c, f0, pose);
    if (u == 0 || f0 == n - 1)
        return;
    for (int b = 0; b < c->rig->bone_count; b++) {
        double *p = pose + b * 10;
        for (int a = 0; a < 3; a++) {
            p[a] += (clip_pos_channel(c, b, a)[f0 + 1] - p[a]) * u;
            p[7 + a] += (clip_scl_channel(c, b, a)[f0 + 1] - p[7 + a]) * u;
        }
        const double *q1 = clip_rot_track(c, b) + (size_t)(f0 + 1) * 4;
        const double sign = p[3] * q1[0] + p[4] * q1[1] + p[5] * q1[2] + p[6] * q1[3] < 0 ? -1 : 1;
        double len = 0;
        for (int i = 0; i < 4; i++) {
            p[3 + i] += (sign * q1[i] - p[3 + i]) * u;
            len += p[3 + i] * p[3 + i];
        }
        len = sqrt(len);
        for (int i = 0; i < 4 && len > 0; i++)
            p[3 + i] /= len;
    }
}
