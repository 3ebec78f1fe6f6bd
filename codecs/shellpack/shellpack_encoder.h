/* What the parts of shellpack's encoder share (shellpack.c's header says how it works):
 * the state of the closed loop (shellpack_loop.c), steps and folds (shellpack_steps.c), keys and
 * predictors (shellpack_keys.c).  Not for other files: codecs/shellpack/shellpack.h is the format. */
#ifndef ANIMBENCH_SHELLPACK_ENCODER_H
#define ANIMBENCH_SHELLPACK_ENCODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecs/entropy/range_coder.h"
#include "codecs/shellpack/shellpack.h"
#include "core/pose_set.h"

/* What the encoder holds per joint-sample: original values (96 B), shell
 * vertices (72), decoded local pose (80), world transform (56) and errors
 * (16), and the original pose set (80): 400 bytes. */
#define SHELLPACK_BYTES_PER_SAMPLE 400
#define SHELLPACK_SAMPLES_MAX 2097152
#define MAX_GAP 64 /* the longest run of frames a key mask leaves out */
#define STUDY_LEVER_M 0.35 /* the per-channel ablation's lever, the study's */

typedef struct sp_encoder {
    const anim_clip *clip;
    const anim_rig *rig;
    const shellpack_config *cfg;
    int nb, n;
    double target, target2, shell; /* metres */
    sp_plan plan;
    double *val;   /* original values [bone][type][comp][frame] */
    double *vtx;   /* original shell vertices [frame][bone][axis][3] */
    double *loc;   /* decoded local poses [frame][bone][10] */
    double *world; /* decoded world [frame][bone][7]: position, rotation */
    double *cand;  /* one joint's candidate local poses [frame][10] */
    double *tmp;   /* world of a subtree at one frame [bone][7] */
    uint8_t *best_kept; /* the key mask of the cheapest option so far, one joint's frames */
    int *sub, *sub_start, *sub_len; /* each joint's subtree (itself first), in rig order */
    double *lever; /* [bone][type]: metres of displacement per unit of error in the sub-track */
    double *move_rot, *move_pos; /* [bone]: metres a vertex of the subtree moves per radian / metre of change */
    double *err, *err_sub; /* [frame][bone]: the decoded shell distance of the joint, and the largest in its subtree */
    int *children, *child_start, *child_len;
    pose_set *orig;
    rc_cost_table cost;
} sp_encoder;

static inline double *val_at(const sp_encoder *e, int b, int type, int c)
{
    return e->val + (((size_t)b * SP_TYPES + type) * SP_MAX_COMPS + c) * (size_t)e->n;
}
static inline double *loc_at(const sp_encoder *e, int f, int b)
{
    return e->loc + ((size_t)f * e->nb + b) * POSE_STRIDE;
}
static inline double *world_at(const sp_encoder *e, int f, int b)
{
    return e->world + ((size_t)f * e->nb + b) * 7;
}
static inline double *err_at(const sp_encoder *e, int f, int b)
{
    return e->err + (size_t)f * e->nb + b;
}
static inline double *err_sub_at(const sp_encoder *e, int f, int b)
{
    return e->err_sub + (size_t)f * e->nb + b;
}

/* shellpack_loop.c: the closed loop's state */
/* Allocates and fills e for clip (the original's values, shell vertices, subtrees and levers); 0, or
 * -1 with a message (the clip is over the encoder's limit, or memory ran out).  spe_free after either. */
int spe_init(sp_encoder *e, const anim_clip *clip, const shellpack_config *cfg, double target_mm, char *err,
             size_t err_size);
void spe_free(sp_encoder *e);
/* Whether joint j with candidate local poses cand[(f - f0) * 10] keeps its whole subtree within the
 * target at frames f0..f1, the rest as decoded now. */
bool spe_within(sp_encoder *e, int j, int f0, int f1, const double *cand);
/* A trial that changes components of one sub-track mostly fails where the subtree is nearest the
 * target now: spe_probe_step checks those frames first, from their own values alone, so that most
 * failing trials are turned down without quantising and decoding every frame.  It answers false only
 * where the full trial (every frame quantised, decoded and checked by spe_within) would, so the plan
 * is the same with or without it. */
#define SPE_PROBE_FRAMES 16
/* The frames of joint j's subtree nearest the target now (largest err_sub first, the earlier frame
 * first among equals): up to max of them in frames[], their errors in worst[]; how many. */
int spe_worst_frames(const sp_encoder *e, int j, int *frames, double *worst, int max);
/* Joint b's local pose at frame f (a kept frame) with the components in `comps` (bit c) of sub-track
 * `type` quantised at step index `index`, as spe_quantise_comp and sp_decode_track would make it, in
 * lj (POSE_STRIDE); the plan is left as it was.  False when a value is too large for the step. */
bool spe_candidate_at(sp_encoder *e, int b, int type, unsigned comps, int index, int f, double *lj);
/* False when setting those components to step index `index` cannot keep joint b's subtree within the
 * target under spe_within (or a value is too large for the step); true when the full check must say. */
bool spe_probe_step(sp_encoder *e, int b, int type, unsigned comps, int index);
/* Makes cand (frames f0..f1) joint j's decoded state. */
void spe_commit(sp_encoder *e, int j, int f0, int f1, const double *cand);
/* Every joint's decoded state from the plan; whether the clip meets the target. */
bool spe_rebuild(sp_encoder *e);

/* shellpack_steps.c: steps and folds */
bool spe_quantise_comp(sp_encoder *e, int b, int type, int c);
bool spe_quantise(sp_encoder *e, int b, int type);
/* Every component's step finer by d (within the grid). */
void spe_refine_steps(sp_track *t, int d);
/* The midrange of each component: the constant closest to every frame. */
void spe_midrange(const sp_encoder *e, int b, int type, float *out);
/* Phases 1 and 2 (shellpack.c's header), or the per-channel ablation's plan; 0 or -1 with a message. */
int spe_plan_closed_loop(sp_encoder *e, char *err, size_t err_size);
int spe_plan_per_channel(sp_encoder *e, char *err, size_t err_size);

/* shellpack_keys.c: keys and predictors by estimated bits */
/* Phase 3: the frames each joint keeps. */
void spe_choose_keys(sp_encoder *e);
/* Phase 4: every curve's predictor. */
void spe_choose_predictors(sp_encoder *e);

#endif
