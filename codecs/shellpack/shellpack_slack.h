/* shellpack with the closed loop's slack spent on bytes (issue 23): the same stream format and
 * decoder as shellpack (or shellpack-ra), from an encoder that, once steps, keys and predictors are
 * chosen, moves each quantised value by up to `radius` grid points where that makes the residuals
 * it touches cheaper and the decoded subtree still meets the target at every frame it changes. */
#ifndef ANIMBENCH_SHELLPACK_SLACK_H
#define ANIMBENCH_SHELLPACK_SLACK_H

#include "codecs/shellpack/shellpack.h"

typedef struct shellpack_slack_config {
    shellpack_config base; /* first: shellpack's decoder and sampler read it */
    int radius;            /* grid points a value may move (0: shellpack's plan, unchanged) */
    int passes;            /* passes over every curve, predictors chosen again after each */
    bool trellis;          /* a curve's values chosen together (Viterbi; radius <= 3) instead of one by one */
    int exchange;          /* before keys and slack, steps exchanged along the hierarchy, offers of `exchange`
                            * grid indices down to exchange / 8 (shellpack_exchange.h; 0: none) */
    bool compensate;       /* after the closed loop's plan, rotations quantised against the decoded parent and
                            * steps chosen again that way (shellpack_comp.h), before the exchange */
} shellpack_slack_config;

extern const codec_ops SHELLPACK_SLACK_OPS;

#endif
