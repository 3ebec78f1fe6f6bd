#include "core/channels.h"

#include <stdlib.h>
#include <string.h>

#include "core/quat.h"

bool scalar_is_constant(const double *v, int n)
{
    double lo = v[0], hi = v[0];
    for (int i = 0; i < n; i++) {
        if (v[i] < lo)
            lo = v[i];
        if (v[i] > hi)
            hi = v[i];
    }
    return hi - lo < CONSTANT_SCALAR_RANGE;
}

bool rotation_is_constant(const double *q, int n)
{
    for (int f = 0; f < n; f++)
        if (!(quat_angle_deg(q + f * 4, q) < CONSTANT_ROTATION_DEG))
            return false;
    return true;
}

void hemisphere_align(double *q, int n)
{
    for (int f = 1; f < n; f++)
        if (quat_dot(q + (f - 1) * 4, q + f * 4) < 0)
            for (int i = 0; i < 4; i++)
                q[f * 4 + i] = -q[f * 4 + i];
}

channel_view *channels_create(const anim_clip *clip)
{
    const int nb = clip->rig->bone_count, n = clip->frame_count;
    channel_view *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->clip = clip;
    v->frame_count = n;
    v->scalar_count = nb * 6;
    v->rotation_count = nb;
    v->scalars = calloc((size_t)nb * 6, sizeof *v->scalars);
    v->rotations = calloc((size_t)nb, sizeof *v->rotations);
    v->aligned = malloc((size_t)nb * (size_t)n * 4 * sizeof *v->aligned);
    if (!v->scalars || !v->rotations || !v->aligned) {
        channels_free(v);
        return NULL;
    }
    for (int b = 0; b < nb; b++) {
        for (int k = 0; k < 6; k++) {
            scalar_channel *c = &v->scalars[b * 6 + k];
            c->id = b * 6 + k;
            c->kind = k < 3 ? CHANNEL_POSITION : CHANNEL_SCALE;
            c->bone = b;
            c->axis = k % 3;
            c->values = k < 3 ? clip_pos_channel(clip, b, k) : clip_scl_channel(clip, b, k - 3);
            c->is_constant = scalar_is_constant(c->values, n);
        }
        rotation_track *r = &v->rotations[b];
        r->bone = b;
        r->quats = v->aligned + (size_t)b * (size_t)n * 4;
        memcpy(r->quats, clip_rot_track(clip, b), (size_t)n * 4 * sizeof *r->quats);
        hemisphere_align(r->quats, n);
        r->is_constant = rotation_is_constant(r->quats, n);
    }
    return v;
}

void channels_free(channel_view *v)
{
    if (!v)
        return;
    free(v->scalars);
    free(v->rotations);
    free(v->aligned);
    free(v);
}

int channels_constant_scalars(const channel_view *v)
{
    int count = 0;
    for (int i = 0; i < v->scalar_count; i++)
        count += v->scalars[i].is_constant;
    return count;
}

int channels_constant_rotations(const channel_view *v)
{
    int count = 0;
    for (int i = 0; i < v->rotation_count; i++)
        count += v->rotations[i].is_constant;
    return count;
}
