#include "core/fk.h"

#include "core/quat.h"

/* One hierarchy walk serves clips ([bone][axis][frame]) and flat poses
 * ([bone][axis]) through strides, so there is a single FK implementation. */
typedef struct local_view {
    const double *pos, *rot, *scl;
    size_t vec_bone_stride, vec_axis_stride, rot_bone_stride;
} local_view;

static void fk_walk(const anim_rig *rig, const local_view *v, double *wp, double *wq)
{
    for (int b = 0; b < rig->bone_count; b++) {
        const int p = rig->parents[b];
        const double *lp = v->pos + (size_t)b * v->vec_bone_stride;
        const double *lq = v->rot + (size_t)b * v->rot_bone_stride;
        const size_t ax = v->vec_axis_stride;
        if (p < 0) {
            wp[b * 3 + 0] = lp[0];
            wp[b * 3 + 1] = lp[ax];
            wp[b * 3 + 2] = lp[2 * ax];
            for (int i = 0; i < 4; i++)
                wq[b * 4 + i] = lq[i];
            continue;
        }
        const double *s = v->scl + (size_t)p * v->vec_bone_stride;
        const double scaled[3] = {lp[0] * s[0], lp[ax] * s[ax], lp[2 * ax] * s[2 * ax]};
        double off[3];
        quat_rotate(wq + p * 4, scaled, off);
        wp[b * 3 + 0] = wp[p * 3 + 0] + off[0];
        wp[b * 3 + 1] = wp[p * 3 + 1] + off[1];
        wp[b * 3 + 2] = wp[p * 3 + 2] + off[2];
        quat_mul(wq + p * 4, lq, wq + b * 4);
    }
}

void fk_pose(const anim_rig *rig, const double *lpos, const double *lrot, const double *lscl,
             double *wp, double *wq)
{
    const local_view v = {lpos, lrot, lscl, 3, 1, 4};
    fk_walk(rig, &v, wp, wq);
}

void fk_frame(const anim_clip *clip, int f, double *wp, double *wq)
{
    const size_t n = (size_t)clip->frame_count;
    const local_view v = {clip->pos + f, clip->rot + (size_t)f * 4, clip->scl + f, 3 * n, n, 4 * n};
    fk_walk(clip->rig, &v, wp, wq);
}

void fk_clip(const anim_clip *clip, double *wp, double *wq)
{
    const size_t nb = (size_t)clip->rig->bone_count;
    for (int f = 0; f < clip->frame_count; f++)
        fk_frame(clip, f, wp + (size_t)f * nb * 3, wq + (size_t)f * nb * 4);
}
