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

static int run_class(uint32_t run)
{
    const int bits = run ? 32 - __builtin_clz(run) : 0; /* 0, 1, 2-3, 4-7, ..., 64 and more */
    return bits < 7 ? bits : 7;
}

bool match_model_expect(const match_model *m, int32_t *value, int *ctx)
{
    if (!m->active)
        return false;
    *value = m->values[m->next];
    *ctx = run_class(m->run) * 2 + (*value == 0);
    return true;
}

static bool same_values(const int32_t *a, const int32_t *b)
{
    for (int i = 0; i < MATCH_ORDER; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* The hash of the MATCH_ORDER values ending before `end`. */
static uint32_t context_hash(const match_model *m, size_t end)
{
    uint32_t h = 0x811C9DC5u;
    for (size_t i = end - MATCH_ORDER; i < end; i++)
        h = (h ^ (uint32_t)m->values[i]) * 0x9E3779B1u;
    return h >> (32 - m->table_bits);
}

/* The table's entry for the context ending before index `end`: the value after it sits at `end`. */
static void table_store(match_model *m, size_t end)
{
    m->table[context_hash(m, end)] = (uint32_t)end;
}

/* match_model_push's body, inlined into the coder below (a call per value otherwise). */
static inline void push_value(match_model *m, int32_t value)
{
    if (m->count == m->capacity)
        return;
    m->values[m->count++] = value;
    if (m->active) {
        if (m->values[m->next] == value) {
            m->next++;
            m->run++;
        } else {
            m->active = false;
            m->run = 0;
        }
    }
    if (m->count < MATCH_ORDER)
        return;
    /* The table is read only while no match is held, so the stores of a held match's values wait
     * and are made in order before the next look-up: the same table at every look-up as storing
     * at every value, and independent hashes, which the processor overlaps, instead of one on
     * the coder's chain per value. */
    if (m->active)
        return;
    if (m->hashed < MATCH_ORDER)
        m->hashed = MATCH_ORDER - 1;
    for (size_t end = m->hashed + 1; end < m->count; end++)
        table_store(m, end);
    m->hashed = m->count;
    uint32_t *slot = &m->table[context_hash(m, m->count)];
    if (*slot) {
        /* taken only when the earlier context is the same values, not just the same hash */
        const size_t at = *slot;
        if (at >= MATCH_ORDER && same_values(m->values + at - MATCH_ORDER, m->values + m->count - MATCH_ORDER)) {
            m->active = true;
            m->next = at;
        }
    }
    *slot = (uint32_t)m->count; /* the value after this context will sit at index count */
}

void match_model_push(match_model *m, int32_t value)
{
    push_value(m, value);
}

/* The residual coder with the sign bit at `sign` instead of rm->negative[ctx] (NULL: rm's own), for
 * residual_signs.h: that probability is lent to the model for the one call, which codes the sign bit
 * at most once (never for a zero) and touches no other sign bit, and taken back after. */
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

/* The coder's bodies, each inlined into its two entries below (plain, and with a sign given): no call
 * per value between the model and the coder but the residual coder's own, and that only on a miss. */
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
    push_value(mm, v);
}

static inline int32_t decode_value(rc_decoder *d, bit_reader *raw, residual_model *rm, match_model *mm, int ctx,
                                   rc_prob *sign)
{
    int32_t expected = 0, v;
    int mctx;
    const bool expects = match_model_expect(mm, &expected, &mctx);
    if (expects && rc_decode_bit(d, &mm->hit[mctx]))
        v = expected;
    else {
        rc_prob kept;
        if (sign)
            lend_sign(rm, ctx, sign, &kept);
        v = residual_decode(d, raw, rm, ctx);
        if (sign)
            take_sign_back(rm, ctx, sign, kept);
        if (expects && v == expected)
            mm->contradicted = true;
    }
    push_value(mm, v);
    return v;
}

void match_encode(rc_encoder *e, bit_writer *raw, residual_model *rm, match_model *mm, int ctx, int32_t v)
{
    encode_value(e, raw, rm, mm, ctx, NULL, v);
}

int32_t match_decode(rc_decoder *d, bit_reader *raw, residual_model *rm, match_model *mm, int ctx)
{
    return decode_value(d, raw, rm, mm, ctx, NULL);
}

void match_encode_with_sign(rc_encoder *e, bit_writer *raw, residual_model *rm, match_model *mm, int ctx,
                            rc_prob *sign, int32_t v)
{
    encode_value(e, raw, rm, mm, ctx, sign, v);
}

int32_t match_decode_with_sign(rc_decoder *d, bit_reader *raw, residual_model *rm, match_model *mm, int ctx,
                               rc_prob *sign)
{
    return decode_value(d, raw, rm, mm, ctx, sign);
}
