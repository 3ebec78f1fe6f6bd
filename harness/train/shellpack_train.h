/* Training shellpack-trained's built-in initial states (shellpack_priors.h): every adaptive bit
 * of the residual coder, per sub-track type, traced over the plans of training clips and fitted
 * (harness/train/prob_fit.h).  Nothing here reads files or prints: the program is
 * harness/commands/cmd_train.c. */
#ifndef ANIMBENCH_SHELLPACK_TRAIN_H
#define ANIMBENCH_SHELLPACK_TRAIN_H

#include "harness/train/prob_fit.h"
#include "codecs/shellpack/shellpack_priors.h"
#include "core/bytes.h"

#define SP_SIGN_SLOTS (RESIDUAL_CONTEXTS * SIGN_CONTEXTS)

typedef struct sp_trainer {
    bit_trace trace[SP_TYPES][SP_PRIOR_SLOTS];
    bit_trace sign_trace[SP_TYPES][SP_SIGN_SLOTS]; /* each sign bit again, in its sign context (residual_signs.h) */
    uint32_t plans;                /* runs added so far */
    uint64_t residuals[SP_TYPES];  /* residuals traced, per type */
    rc_cost_table costs;
    residual_model probe;          /* every bit at RC_PROB_INIT between residuals */
} sp_trainer;

/* The trainer is large (a trace per bit): allocate it.  NULL when out of memory. */
sp_trainer *sp_trainer_create(void);
void sp_trainer_free(sp_trainer *t);
/* Every residual of a plan (every frame kept, log maps) in shellpack's order, coded as the match
 * stream codes it without the match model: each sign bit is traced twice, in its residual model's
 * context and in its sign context, so that the residual models' states are what they are without
 * the sign contexts.  0, or -1 when out of memory or the plan omits frames. */
int sp_trainer_add_plan(sp_trainer *t, const sp_plan *p);
/* The fitted states, and those of the sign contexts. */
void sp_trainer_fit(const sp_trainer *t, rc_prob out[SP_TYPES][SP_PRIOR_SLOTS]);
void sp_trainer_fit_signs(const sp_trainer *t, sign_model out[SP_TYPES]);
/* What the traced residuals cost from `states` (in bits), per type: for a report of what training
 * saves on the training clips themselves. */
void sp_trainer_cost_bits(const sp_trainer *t, const rc_prob states[SP_TYPES][SP_PRIOR_SLOTS], double bits[SP_TYPES]);
/* The same for the sign bits alone: from the residual models' sign states (`states`) and from the
 * sign contexts' (`signs`). */
void sp_trainer_sign_bits(const sp_trainer *t, const rc_prob states[SP_TYPES][SP_PRIOR_SLOTS],
                          const sign_model signs[SP_TYPES], double plain[SP_TYPES], double in_context[SP_TYPES]);
/* shellpack_priors.c's text for these states; `about` goes into SP_PRIORS_ABOUT (no quotes or
 * backslashes).  0, or -1 when out of memory. */
int sp_priors_source(const rc_prob states[SP_TYPES][SP_PRIOR_SLOTS], const sign_model signs[SP_TYPES], const char *about,
                     byte_buffer *out);

#endif
