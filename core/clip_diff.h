/* Two clips compared in world space over the joints they share by name: the distance between
 * each shared joint's world positions, and the angle between its world rotations, at every frame
 * both have (frame by frame: the clips must have the same rate, within a millionth: a reader that
 * keeps a rate as float32 reads the same clip).  What `animbench diff` prints:
 * how far another reader's (or another exporter's) clip is from ours. */
#ifndef ANIMBENCH_CLIP_DIFF_H
#define ANIMBENCH_CLIP_DIFF_H

#include "core/clip.h"

typedef struct clip_diff_result {
    int frames;              /* compared: the fewer of the two clips' */
    int shared;              /* joints of the same name in both */
    int only_a, only_b;      /* joints in one clip only */
    int *only_a_joints, *only_b_joints; /* their indices in a and in b (owned) */
    double max_m, mean_m;    /* world position distance over shared joints and frames */
    int max_joint_a, max_frame; /* where the largest is (a's index) */
    double max_deg;          /* the largest world rotation angle between them */
    int max_deg_joint_a, max_deg_frame;
} clip_diff_result;

/* 0, or -1 with a message (different rates, no joint shared, out of memory). */
int clip_diff(const anim_clip *a, const anim_clip *b, clip_diff_result *out, char *err, size_t err_size);
void clip_diff_free(clip_diff_result *r);

#endif
