/* The long-range match model (match_model.h). */
#include <stdlib.h>
#include <string.h>

#include "codecs/entropy/match_model.h"

int match_model_init(match_model *m, size_t capacity)
{
    memset(m, 0, sizeof *m);
    if (capacity > MATCH_CAPACITY_MAX)
        return -1;
    /* a table of about twice the values (from 2^10 to 2^22 entries): few collisions, bounded memory */
    m->table_bits = 10;
    while (m->table_bits < 22 && ((size_t)1 << m->table_bits) < 2 * capacity)
        m->table_bits++;
    m->values = malloc((capacity ? capacity : 1) * sizeof *m->values);
    m->table = calloc((size_t)1 << m->table_bits, sizeof *m->table);
    if (!m->values || !m->table) {
        match_model_free(m);
        return -1;
    }
    m->capacity = capacity;
    for (int i = 0; i < MATCH_CONTEXTS; i++)
        m->hit[i] = RC_PROB_INIT;
    return 0;
}

void match_model_free(match_model *m)
{
    free(m->values);
    free(m->table);
    memset(m, 0, sizeof *m);
}

void match_model_push(match_model *m, int32_t value)
{
    match_model_push_value(m, value);
}

/* The residual encoder with the sign bit at `sign` instead of rm->negative[ctx] (NULL: rm's own), for
 * residual_signs.h: that probability is lent to the model for the one call, which codes the sign bit
 * at most once (never for a zero) and touches no other sign bit, and taken back after.  (The decoder,
 * residual_decode_at, is given the sign's probability instead.) */
static inline void lend_sign(residual_model *rm, int ctx, rc_prob *sign, rc_prob *kept)
{
    *kept = rm->negative[ctx];
    rm->negative[ctx] = *sign;
}

static inline void take_sign_back(residual_model *rm, int ctx, rc_prob *sign, rc_prob kept)
{
    *sign = rm->negative[ctx];
    rm->negative[ctx] = kept;
}

/* The encoder's body, inlined into its two entries below (plain, and with a sign given): no call per
 * value between the model and the coder but the residual coder's own, and that only on a miss. */
static inline void encode_value(rc_encoder *e, bit_writer *raw, residual_model *rm, match_model *mm, int ctx,
                                rc_prob *sign, int32_t v)
{
    int32_t expected = 0;
    int mctx;
    const bool expects = match_model_expect(mm, &expected, &mctx);
    if (expects)
        rc_encode_bit(e, &mm->hit[mctx], v == expected);
    if (!expects || v != expected) {
        rc_prob kept;
        if (sign)
            lend_sign(rm, ctx, sign, &kept);
        residual_encode(e, raw, rm, ctx, v);
        if (sign)
            take_sign_back(rm, ctx, sign, kept);
    }
    match_model_push_value(mm, v);
}

void match_encode(rc_encoder *e, bit_writer *raw, residual_model *rm, match_model *mm, int ctx, int32_t v)
{
    encode_value(e, raw, rm, mm, ctx, NULL, v);
}

int32_t match_decode(rc_decoder *d, bit_reader *raw, residual_model *rm, match_model *mm, int ctx)
{
    return match_decode_at(d, raw, rm, mm, ctx, NULL);
}

void match_encode_with_sign(rc_encoder *e, bit_writer *raw, residual_model *rm, match_model *mm, int ctx,
                            rc_prob *sign, int32_t v)
{
    encode_value(e, raw, rm, mm, ctx, sign, v);
}

int32_t match_decode_with_sign(rc_decoder *d, bit_reader *raw, residual_model *rm, match_model *mm, int ctx,
                               rc_prob *sign)
{
    return match_decode_at(d, raw, rm, mm, ctx, sign);
}
