/* Training shellpack-trained's built-in initial states (shellpack_priors.h): every adaptive bit
 * of the residual coder, per sub-track type, traced over the plans of training clips and fitted
 * (harness/train/prob_fit.h).  Nothing here reads files or prints: the program is
 * harness/commands/cmd_train.c. */
#ifndef ANIMBENCH_SHELLPACK_TRAIN_H
#define ANIMBENCH_SHELLPACK_TRAIN_H

#include "harness/train/prob_fit.h"
#include "codecs/shellpack/shellpack_priors.h"
#include "core/bytes.h"

typedef struct sp_trainer {
    bit_trace trace[SP_TYPES][SP_PRIOR_SLOTS];
    uint32_t plans;                /* runs added so far */
    uint64_t residuals[SP_TYPES];  /* residuals traced, per type */
    rc_cost_table costs;
    residual_model probe;          /* every bit at RC_PROB_INIT between residuals */
} sp_trainer;

/* The trainer is large (a trace per bit): allocate it.  NULL when out of memory. */
sp_trainer *sp_trainer_create(void);
void sp_trainer_free(sp_trainer *t);
/* Every residual of a plan (every frame kept, log maps) in shellpack's order, coded as the match
 * stream codes it without the match model.  0, or -1 when out of memory or the plan omits frames. */
int sp_trainer_add_plan(sp_trainer *t, const sp_plan *p);
/* The fitted states. */
void sp_trainer_fit(const sp_trainer *t, rc_prob out[SP_TYPES][SP_PRIOR_SLOTS]);
/* What the traced residuals cost from `states` (in bits), per type: for a report of what training
 * saves on the training clips themselves. */
void sp_trainer_cost_bits(const sp_trainer *t, const rc_prob states[SP_TYPES][SP_PRIOR_SLOTS], double bits[SP_TYPES]);
/* shellpack_priors.c's text for these states; `about` goes into SP_PRIORS_ABOUT (no quotes or
 * backslashes).  0, or -1 when out of memory. */
int sp_priors_source(const rc_prob states[SP_TYPES][SP_PRIOR_SLOTS], const char *about, byte_buffer *out);

#endif
