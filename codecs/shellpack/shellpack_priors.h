/* The residual coder's initial states for shellpack-trained (issue 23, "knowing the data before
 * seeing it"), one model per sub-track type: built into the codec like a compression dictionary.
 * shellpack_priors.c is written by `animbench train-priors` (harness/commands/cmd_train.c, the
 * fit in shellpack_train.c) from the Bandai Namco Research Motion Dataset 1 (CC BY-NC 4.0, Bandai
 * Namco Research Inc.) without the clips it holds out (SP_PRIORS_HOLD_OUT); `make priors` writes
 * it again and `make check` fails when the file and the program disagree. */
#ifndef ANIMBENCH_SHELLPACK_PRIORS_H
#define ANIMBENCH_SHELLPACK_PRIORS_H

#include "codecs/entropy/range_coder.h"
#include "codecs/entropy/residual_signs.h"
#include "codecs/shellpack/shellpack.h"

/* A residual model is an array of adaptive bits (residual_model_init reads it so). */
#define SP_PRIOR_SLOTS (sizeof(residual_model) / sizeof(rc_prob))
_Static_assert(sizeof(residual_model) == SP_PRIOR_SLOTS * sizeof(rc_prob), "a residual model is its bits");

/* Training reads the dataset's .bvh files in name order, all but every SP_PRIORS_HOLD_OUT-th
 * (the 5th, 10th, ...), which it never opens: those are the held-out clips. */
#define SP_PRIORS_HOLD_OUT 5

extern const rc_prob SP_PRIORS[SP_TYPES][SP_PRIOR_SLOTS];
/* The sign contexts' initial states (residual_signs.h), trained the same way on the same plans. */
extern const sign_model SP_SIGN_PRIORS[SP_TYPES];
extern const char SP_PRIORS_ABOUT[]; /* what they were trained on, as the program wrote it */

#endif
