#include "core/error_joint.h"

#include <math.h>
#include <stdlib.h>

#include "core/fk.h"
#include "core/jsmath.h"
#include "core/quat.h"

fk_reference *fk_reference_create(const anim_clip *clip)
{
    const size_t n = (size_t)clip->frame_count * (size_t)clip->rig->bone_count;
    fk_reference *ref = calloc(1, sizeof *ref);
    if (!ref)
        return NULL;
    ref->clip = clip;
    ref->world_pos = malloc(n * 3 * sizeof *ref->world_pos);
    ref->world_rot = malloc(n * 4 * sizeof *ref->world_rot);
    if (!ref->world_pos || !ref->world_rot) {
        fk_reference_free(ref);
        return NULL;
    }
    fk_clip(clip, ref->world_pos, ref->world_rot);
    return ref;
}

void fk_reference_free(fk_reference *ref)
{
    if (!ref)
        return;
    free(ref->world_pos);
    free(ref->world_rot);
    free(ref);
}

int joint_error_measure(const fk_reference *ref, const anim_clip *dec, joint_error *out)
{
    const int nb = dec->rig->bone_count;
    double *wp = malloc((size_t)nb * 3 * sizeof *wp), *wq = malloc((size_t)nb * 4 * sizeof *wq);
    if (!wp || !wq) {
        free(wp);
        free(wq);
        return -1;
    }
    joint_error e = {0, 0, 0, 0, 0};
    double sum = 0, min_dot = INFINITY;
    long count = 0;
    for (int f = 0; f < dec->frame_count; f++) {
        fk_frame(dec, f, wp, wq);
        const double *ap = ref->world_pos + (size_t)f * nb * 3;
        const double *aq = ref->world_rot + (size_t)f * nb * 4;
        for (int b = 0; b < nb; b++) {
            const double d = js_hypot3(ap[b * 3] - wp[b * 3], ap[b * 3 + 1] - wp[b * 3 + 1],
                                       ap[b * 3 + 2] - wp[b * 3 + 2]);
            if (d > e.max_m) {
                e.max_m = d;
                e.worst_bone = b;
                e.worst_frame = f;
            }
            sum += d;
            count++;
            /* The angle falls as |dot| rises: only a |dot| within 1e-12 of
             * the smallest so far can hold the maximum angle (the slope of
             * acos is at least 1), so acos runs only for those. */
            const double dot = fabs(quat_dot(aq + b * 4, wq + b * 4));
            if (dot <= min_dot + 1e-12) {
                if (dot < min_dot)
                    min_dot = dot;
                const double a = quat_angle_deg(aq + b * 4, wq + b * 4);
                if (a > e.max_deg)
                    e.max_deg = a;
            } /* a NaN dot fails the test: its angle is NaN, never the maximum */
        }
    }
    e.mean_m = sum / count;
    *out = e;
    free(wp);
    free(wq);
    return 0;
}
