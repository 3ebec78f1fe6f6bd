/* Training shellpack-side's built-in states (codecs/shellpack/shellpack_side.h): every adaptive bit of
 * the side information, traced over the plans of training clips and fitted (harness/train/prob_fit.h).
 * Nothing here reads files or prints: the program is harness/commands/cmd_train.c (--side). */
#ifndef ANIMBENCH_SIDE_TRAIN_H
#define ANIMBENCH_SIDE_TRAIN_H

#include "harness/train/prob_fit.h"
#include "codecs/shellpack/shellpack_side.h"
#include "core/bytes.h"

typedef struct sp_side_trainer {
    bit_trace trace[SP_SIDE_SLOTS];
    uint32_t plans; /* runs added so far */
    rc_cost_table costs;
} sp_side_trainer;

/* NULL when out of memory. */
sp_side_trainer *sp_side_trainer_create(void);
void sp_side_trainer_free(sp_side_trainer *t);
/* Every adaptive bit of a plan's side information (`parents` the rig's), as sp_side_write codes it.
 * 0, or -1 when out of memory. */
int sp_side_trainer_add_plan(sp_side_trainer *t, const sp_plan *p, const int *parents);
void sp_side_trainer_fit(const sp_side_trainer *t, rc_prob out[SP_SIDE_SLOTS]);
/* What the traced bits of slots from..to-1 cost from `states`, in bits: for a report on the training
 * clips themselves. */
double sp_side_trainer_cost_bits(const sp_side_trainer *t, const rc_prob states[SP_SIDE_SLOTS], int from, int to);
/* shellpack_side_priors.c's text; `about` goes into SP_SIDE_PRIORS_ABOUT (no quotes or backslashes).
 * 0, or -1 when out of memory. */
int sp_side_priors_source(const rc_prob states[SP_SIDE_SLOTS], const char *about, byte_buffer *out);

#endif
