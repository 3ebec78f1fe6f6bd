/* End effectors and per-limb error budgets (seeds/003: "a per-limb error
 * budget, expressed as the maximum displacement of the end effector over the
 * clip, is the smallest unit that captures these relationships").
 *
 * End effectors: every leaf of the rig, and every joint whose name contains
 * "hand", "foot" or "head" (any case): on the study's rig the hands, feet,
 * head, fingers, toes, and the other leaves (prop, jaw, eyes, cape).  Each
 * end effector stands for the limb that ends in it. */
#ifndef ANIMBENCH_ERROR_EFFECTORS_H
#define ANIMBENCH_ERROR_EFFECTORS_H

#include "core/rig.h"

/* Fills mask[joint] (1 for end effectors); returns how many. */
int end_effector_mask(const anim_rig *rig, unsigned char *mask);

/* Joints whose name contains "foot" or "toe" (any case): the contact test's feet. */
int foot_mask(const anim_rig *rig, unsigned char *mask);

typedef struct limb_error {
    int joint;
    double max_m;
    int worst_sample;
} limb_error;

/* Per end effector, its largest displacement; displacement is [sample][joint]. */
int limb_errors(const anim_rig *rig, const unsigned char *mask, const double *displacement, int samples,
                limb_error *out);

#endif
