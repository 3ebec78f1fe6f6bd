/* A residual's sign coded in a context of its own (issue 23, "better models"): the sign of the
 * residual before it in the same curve and the direction the curve last moved.  Residuals of a
 * previous- or linear-predicted curve are not independent in sign (after a residual of one sign
 * the next tends to the other: the predictor overshoots what it followed), which the magnitude
 * context of range_coder.h does not see.  Measured before building it (ideal code lengths with
 * the coder's own adaptation, shellpack-comp-trellis's and shellpack-comp-exchange's plans of every
 * sixth Bandai clip by name, 29 clips): 1.0 % to 1.1 % fewer rotation bits and 1.5 % to 2.2 % fewer
 * translation bits at 0.1 and 1 mm; the previous sign alone gives about four fifths of that.
 *
 * The coder is range_coder.h's, bit for bit, but for the sign: the sign bit's probability is taken
 * from the sign model for the one call that codes it (the residual model's own sign bit of that
 * context is left as it was), so that every other bit, the binarisation and the raw bits are
 * shared with the plain coder rather than written again. */
#ifndef ANIMBENCH_RESIDUAL_SIGNS_H
#define ANIMBENCH_RESIDUAL_SIGNS_H

#include <stdint.h>

#include "codecs/entropy/match_model.h"
#include "codecs/entropy/range_coder.h"

#define SIGN_CONTEXTS 9 /* (previous residual: 0, positive, negative) x (last move: none, up, down) */

typedef struct sign_model {
    rc_prob negative[RESIDUAL_CONTEXTS][SIGN_CONTEXTS];
} sign_model;

void sign_model_init(sign_model *m);

/* The sign context of a residual: the one before it in its curve (0 for the first) and the curve's
 * last move, the difference of its last two values (0 when it has fewer than two). */
static inline int sign_context(int32_t previous_residual, int64_t last_move)
{
    const int a = previous_residual > 0 ? 1 : previous_residual < 0 ? 2 : 0;
    const int b = last_move > 0 ? 1 : last_move < 0 ? 2 : 0;
    return a * 3 + b;
}

/* residual_encode, residual_decode and residual_cost with the sign from s->negative[ctx][sctx]. */
void residual_encode_signs(rc_encoder *e, bit_writer *raw, residual_model *m, sign_model *s, int ctx, int sctx,
                           int32_t v);
int32_t residual_decode_signs(rc_decoder *d, bit_reader *raw, residual_model *m, sign_model *s, int ctx, int sctx);
uint32_t residual_cost_signs(const rc_cost_table *t, residual_model *m, sign_model *s, int ctx, int sctx, int32_t v);
/* match_encode and match_decode (match_model.h) the same way. */
void match_encode_signs(rc_encoder *e, bit_writer *raw, residual_model *m, sign_model *s, match_model *mm, int ctx,
                        int sctx, int32_t v);
int32_t match_decode_signs(rc_decoder *d, bit_reader *raw, residual_model *m, sign_model *s, match_model *mm, int ctx,
                           int sctx);

#endif
