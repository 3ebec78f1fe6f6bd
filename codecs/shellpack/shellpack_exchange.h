/* The step exchange (issue 23's "steps by equal slope over the hierarchy"), a phase between
 * shellpack's closed-loop plan and its keys: one component's step made finer so that the joints
 * sharing its error (its ancestors and its subtree) can take coarser steps, kept when the curves it
 * changed cost fewer estimated bits.  shellpack_exchange.c says why and how. */
#ifndef ANIMBENCH_SHELLPACK_EXCHANGE_H
#define ANIMBENCH_SHELLPACK_EXCHANGE_H

#include <stddef.h>

#include "codecs/shellpack/shellpack_encoder.h"

/* Offers every animated component of e's plan steps `largest` grid indices finer, then largest / 2,
 * down to largest / 8, each followed by rounds of coarsening over the joints that share its error;
 * every subtree stays within the target (checked by the closed loop) and the decoded state is e's
 * plan's.  Chooses predictors first (the costs use them).  0, or -1 with a message (out of memory). */
int spe_exchange_steps(sp_encoder *e, int largest, char *err, size_t err_size);

#endif
