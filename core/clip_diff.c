#include "core/clip_diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fk.h"
#include "core/quat.h"

void clip_diff_free(clip_diff_result *r)
{
    free(r->only_a_joints);
    free(r->only_b_joints);
    r->only_a_joints = r->only_b_joints = NULL;
}

int clip_diff(const anim_clip *a, const anim_clip *b, clip_diff_result *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    if (fabs(a->fps - b->fps) > 1e-6 * fmax(a->fps, b->fps)) /* a reader keeping a float32 rate is the same */
        return snprintf(err, err_size, "the clips have different rates (%.9g and %.9g frames a second): diff compares "
                                       "them frame by frame",
                        a->fps, b->fps),
               -1;
    const anim_rig *ra = a->rig, *rb = b->rig;
    int *match = malloc(((size_t)ra->bone_count + 1) * sizeof *match); /* a's joint -> b's, or -1 */
    char *used = calloc((size_t)rb->bone_count + 1, 1);
    out->only_a_joints = malloc(((size_t)ra->bone_count + 1) * sizeof *out->only_a_joints);
    out->only_b_joints = malloc(((size_t)rb->bone_count + 1) * sizeof *out->only_b_joints);
    double *wa = malloc(((size_t)ra->bone_count * 7 + 1) * sizeof *wa);
    double *wb = malloc(((size_t)rb->bone_count * 7 + 1) * sizeof *wb);
    if (!match || !used || !out->only_a_joints || !out->only_b_joints || !wa || !wb) {
        free(match);
        free(used);
        free(wa);
        free(wb);
        clip_diff_free(out);
        return snprintf(err, err_size, "out of memory"), -1;
    }
    for (int i = 0; i < ra->bone_count; i++) {
        match[i] = -1;
        for (int j = 0; j < rb->bone_count; j++) /* the first of that name not taken yet */
            if (!used[j] && strcmp(ra->names[i], rb->names[j]) == 0) {
                match[i] = j;
                used[j] = 1;
                break;
            }
        if (match[i] >= 0)
            out->shared++;
        else
            out->only_a_joints[out->only_a++] = i;
    }
    for (int j = 0; j < rb->bone_count; j++)
        if (!used[j])
            out->only_b_joints[out->only_b++] = j;
    int rc = 0;
    if (out->shared == 0)
        rc = snprintf(err, err_size, "the clips share no joint name (%d and %d joints)", ra->bone_count, rb->bone_count);
    out->frames = a->frame_count < b->frame_count ? a->frame_count : b->frame_count;
    double sum = 0;
    out->max_m = -1;
    for (int f = 0; rc == 0 && f < out->frames; f++) {
        fk_frame(a, f, wa, wa + (size_t)ra->bone_count * 3);
        fk_frame(b, f, wb, wb + (size_t)rb->bone_count * 3);
        for (int i = 0; i < ra->bone_count; i++) {
            const int j = match[i];
            if (j < 0)
                continue;
            const double *p = wa + i * 3, *q = wb + j * 3;
            const double d = sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
            sum += d;
            if (d > out->max_m) {
                out->max_m = d;
                out->max_joint_a = i;
                out->max_frame = f;
            }
            const double deg = quat_angle_deg(wa + (size_t)ra->bone_count * 3 + i * 4, wb + (size_t)rb->bone_count * 3 + j * 4);
            if (deg > out->max_deg) {
                out->max_deg = deg;
                out->max_deg_joint_a = i;
                out->max_deg_frame = f;
            }
        }
    }
    if (rc == 0)
        out->mean_m = sum / ((double)out->frames * out->shared);
    free(match);
    free(used);
    free(wa);
    free(wb);
    if (rc != 0) {
        clip_diff_free(out);
        return -1;
    }
    return 0;
}
