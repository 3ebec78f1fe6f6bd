/* The study's compression plan (seeds/000, plan()): for every scalar channel
 * and rotation track, whether it is dropped as constant, which frames are
 * kept as keys, and the quantised codes; plus the clip the encoder expects a
 * decoder to rebuild (what the study measures its error on).
 *
 * The plan is shared by the study's techniques 2-7: they differ only in
 * their plan_options. */
#ifndef ANIMBENCH_STUDY_PLAN_H
#define ANIMBENCH_STUDY_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/channels.h"
#include "codecs/keys/key_select.h"
#include "codecs/quantize/quantize.h"

/* Keys chosen before planning (the closed loop, codecs/study/closed_loop.h), per
 * track: scalar channels in id order, then rotation tracks. */
typedef struct preset_keys {
    const int *keys;
    const size_t *offset;
    const int *count;
} preset_keys;

typedef struct plan_options {
    bool reduce_keys;   /* false: every frame is a key (rows 2 and 7) */
    double eps_m;       /* scalar tolerance, metres */
    double eps_deg;     /* rotation tolerance, degrees */
    bool cubic;         /* Catmull-Rom Hermite, else linear */
    bool quantize;      /* 16-bit scalars, smallest-three rotations */
    bool drop_constant; /* constant channels stored as one value */
    /* Smallest-three flips a quaternion so its largest component is
     * positive, which undoes the hemisphere alignment of neighbouring keys
     * whenever the largest component changes; the study interpolates the
     * flipped components anyway.  true: flip each dequantised key back to
     * the hemisphere of the key before it (our self-contained rows). */
    bool realign_quantized;
    /* false: the caller wants only the keys and codes (animbench encode),
     * so no encoder_recon is built (a whole clip's memory). */
    bool reconstruct;
    /* How an animated track's keys are chosen (key_select.h); KEYS_REFINE is the study's. */
    key_strategy strategy;
    /* Per-track tolerances (hierarchical, codecs/keys/hierarchy_tolerance.h), or
     * NULL: eps_m for every scalar channel, eps_deg for every rotation. */
    const double *eps_scalar;
    const double *eps_rotation_deg;
    /* Keys chosen elsewhere, used as given for every animated track; NULL: chosen here. */
    const preset_keys *preset;
    /* Self-contained layout: key times as u8 deltas with escapes (study_container.h). */
    bool delta_times;
} plan_options;

typedef struct planned_scalar {
    const scalar_channel *channel;
    bool is_constant; /* dropped as constant: one value, keys = {0} */
    int *keys;
    int key_count;
    scalar_range range; /* quantize only */
    uint16_t *codes;    /* quantize only: one per key */
} planned_scalar;

typedef struct planned_rotation {
    const rotation_track *track;
    bool is_constant;
    int *keys;
    int key_count;
} planned_rotation;

typedef struct study_plan {
    const channel_view *view;
    plan_options options;
    planned_scalar *scalars;   /* view->scalar_count */
    planned_rotation *rotations; /* view->rotation_count */
    anim_clip *encoder_recon;  /* the study's `dec`; NULL unless options.reconstruct */
    long keys_scalar, keys_rotation;
    int constant_scalars, constant_rotations;
    int *key_storage;       /* every track's keys, sized to what the tracks keep */
    uint16_t *code_storage; /* every quantised scalar key's code */
} study_plan;

/* The angular tolerance the study derives from a distance tolerance through
 * a lever arm: mm / 1000 / lever_m in radians, returned in degrees. */
double study_tolerance_deg(double tol_mm, double lever_m);

/* Flips each of quats[keys[k]] (k >= 1) whose dot with the key before it is
 * negative: the rule of plan_options.realign_quantized, shared with the decoder. */
void realign_keys(double *quats, const int *keys, int count);

/* NULL when out of memory. */
study_plan *study_plan_create(const channel_view *view, const plan_options *options);
void study_plan_free(study_plan *plan);

#endif
