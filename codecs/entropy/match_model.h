/* A long-range match model for a sequence of integers coded one by one (issue 23): when the
 * last MATCH_ORDER values have occurred before, it expects the value that followed them then, and
 * keeps expecting the values after it for as long as they come true.  A coder spends one adaptive
 * bit on "as expected" (its probability per context: how long the match has held, and whether the
 * expected value is zero) and codes the value otherwise as it would without the model.  It finds
 * what deflate finds in a periodic clip's residuals (a cycle repeated), without deflate's cost of
 * coding the rest as literals.
 *
 * Encoder and decoder push the same values in the same order, so they expect the same: the model
 * reads only values already pushed, and never past `capacity`. */
#ifndef ANIMBENCH_MATCH_MODEL_H
#define ANIMBENCH_MATCH_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecs/entropy/range_coder.h"

#define MATCH_ORDER 6    /* values that must repeat before a match is taken */
#define MATCH_CONTEXTS 16 /* 8 lengths of the match so far, times expected value zero or not */
#define MATCH_CAPACITY_MAX 0x3FFFFFFFu

typedef struct match_model {
    int32_t *values;   /* every value pushed */
    size_t count, capacity;
    uint32_t *table;   /* hash of MATCH_ORDER values -> index of the value after them (0: none) */
    uint32_t table_bits;
    size_t hashed;     /* the table holds every context ending before index hashed + 1 (see push) */
    bool active;       /* a match is held: values[next] is expected */
    size_t next;
    uint32_t run;      /* values it has predicted right since it began */
    bool contradicted; /* decoding: a value flagged "not as expected" was the expected one */
    rc_prob hit[MATCH_CONTEXTS];
} match_model;

/* For up to `capacity` values (at most MATCH_CAPACITY_MAX); 0, or -1 when out of memory or too many. */
int match_model_init(match_model *m, size_t capacity);
void match_model_free(match_model *m);
/* The value the model expects next and its flag's context; false when it expects none. */
bool match_model_expect(const match_model *m, int32_t *value, int *ctx);
/* The value that came (the caller has coded it); ignored past capacity. */
void match_model_push(match_model *m, int32_t value);

/* A value through the model and the residual coder (range_coder.h), and back.  An encoder never
 * flags a miss and then codes the expected value; a decoder that reads one sets `contradicted`, so
 * that a reader can refuse the stream (it is not one an encoder wrote). */
void match_encode(rc_encoder *e, bit_writer *raw, residual_model *rm, match_model *mm, int ctx, int32_t v);
int32_t match_decode(rc_decoder *d, bit_reader *raw, residual_model *rm, match_model *mm, int ctx);
/* The same with a residual's sign bit coded at `sign` instead of rm->negative[ctx] (residual_signs.h:
 * a sign in a context of its own; NULL: rm->negative[ctx], as the plain entries); every other bit is
 * the plain coder's.  `sign` is a probability of the caller's own, not one of rm's or mm's. */
void match_encode_with_sign(rc_encoder *e, bit_writer *raw, residual_model *rm, match_model *mm, int ctx,
                            rc_prob *sign, int32_t v);
int32_t match_decode_with_sign(rc_decoder *d, bit_reader *raw, residual_model *rm, match_model *mm, int ctx,
                               rc_prob *sign);

#endif
