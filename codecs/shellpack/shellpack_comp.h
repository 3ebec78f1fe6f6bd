/* shellpack-comp (issue 23): shellpack's closed loop with every joint's rotation quantised against
 * its parent's decoded world rotation instead of the original's (error feedback down the
 * hierarchy), so that a joint's rounding error no longer turns the whole subtree below it.  The
 * stream, decoder and sampler are shellpack's: only the encoder's choice of integers changes.  The
 * rows are the slack encoder's (shellpack_slack.h: its `compensate` phase); shellpack_comp.c says why
 * and how. */
#ifndef ANIMBENCH_SHELLPACK_COMP_H
#define ANIMBENCH_SHELLPACK_COMP_H

#include <stddef.h>

#include "codecs/shellpack/shellpack_encoder.h"

/* After spe_plan_closed_loop: every animated rotation of a joint with a parent quantised against the
 * parent's decoded world rotation, then folds and rounds of coarsening as shellpack's, each trial
 * checked with its subtree quantised again the same way.  The decoded state stays e's plan's and
 * within the target; a plan the compensated quantisation cannot bring within it is left as shellpack's
 * (returns 0 either way).  -1 with a message: out of memory. */
int spe_compensate(sp_encoder *e, char *err, size_t err_size);
/* Every frame kept, every animated rotation with a parent quantised again at its step, joints parents
 * first, against the parent as decoded, and the decoded state rebuilt (whether it meets the target is
 * the caller's to check): after the steps change, e.g. refined after a miss.  0, or -1 with a message. */
int spe_compensated_requantise(sp_encoder *e, char *err, size_t err_size);

/* After spe_compensate: shellpack_exchange.h's step exchange with every trial in compensated terms
 * (offers of `largest` grid indices finer down to largest / 8).  0, or -1 with a message. */
int spe_compensated_exchange(sp_encoder *e, int largest, char *err, size_t err_size);

#endif
