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
_Static_assert(MATCH_ORDER >= 2, "prefix_end 0 means none: a look-up, at count >= MATCH_ORDER >= 2, never takes it for count - 1");
#define MATCH_CONTEXTS 16 /* 8 lengths of the match so far, times expected value zero or not */
#define MATCH_CAPACITY_MAX 0x3FFFFFFFu

typedef struct match_model {
    int32_t *values;   /* every value pushed */
    size_t count, capacity;
    uint32_t *table;   /* hash of MATCH_ORDER values -> index of the value after them (0: none) */
    uint32_t table_bits;
    size_t hashed;     /* the table holds every context ending before index hashed + 1 (see push) */
    uint32_t prefix;   /* the hash's steps over the MATCH_ORDER - 1 values before index prefix_end */
    size_t prefix_end; /* 0: none (a look-up is never made before MATCH_ORDER values) */
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
RC_ALWAYS_INLINE bool match_model_expect(const match_model *m, int32_t *value, int *ctx);
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
/* The same decoder inline (sign NULL: rm->negative[ctx]), for a decoder's loop that calls nothing
 * else and so keeps the coder's and the model's state in registers (shellpack_match.c's). */
RC_ALWAYS_INLINE int32_t match_decode_at(rc_decoder *d, bit_reader *raw, residual_model *rm, match_model *mm, int ctx,
                                         rc_prob *sign);

/* ---- inline: the decoder's path, and the push the encoder shares with it ---- */

RC_ALWAYS_INLINE int match_run_class(uint32_t run)
{
    const int bits = run ? 32 - __builtin_clz(run) : 0; /* 0, 1, 2-3, 4-7, ..., 64 and more */
    return bits < 7 ? bits : 7;
}

RC_ALWAYS_INLINE bool match_model_expect(const match_model *m, int32_t *value, int *ctx)
{
    if (!m->active)
        return false;
    *value = m->values[m->next];
    *ctx = match_run_class(m->run) * 2 + (*value == 0);
    return true;
}

#define MATCH_HASH_BASIS 0x811C9DC5u
#define MATCH_HASH_FACTOR 0x9E3779B1u

/* The hash's steps over values[from..end - 1]: over MATCH_ORDER values, a context's hash before its
 * shift to the table's size; over one fewer, its prefix (all but the value at `end`, not yet come). */
RC_ALWAYS_INLINE uint32_t match_hash_steps(const int32_t *values, size_t from, size_t end)
{
    uint32_t h = MATCH_HASH_BASIS;
    for (size_t i = from; i < end; i++)
        h = (h ^ (uint32_t)values[i]) * MATCH_HASH_FACTOR;
    return h;
}

/* The table's slot of the context of MATCH_ORDER values ending before `end`. */
RC_ALWAYS_INLINE uint32_t match_context_slot(const match_model *m, size_t end)
{
    return match_hash_steps(m->values, end - MATCH_ORDER, end) >> (32 - m->table_bits);
}

/* match_model_push's body, inlined into the coder (a call per value otherwise). */
RC_ALWAYS_INLINE void match_model_push_value(match_model *m, int32_t value)
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
        m->table[match_context_slot(m, end)] = (uint32_t)end;
    m->hashed = m->count;
    /* The look-up's hash from the prefix made at the last value when there is one: one step after
     * the value on the decoder's chain from one value to the next instead of MATCH_ORDER. */
    const uint32_t hash = m->prefix_end + 1 == m->count
                              ? ((m->prefix ^ (uint32_t)value) * MATCH_HASH_FACTOR) >> (32 - m->table_bits)
                              : match_context_slot(m, m->count);
    uint32_t *slot = &m->table[hash];
    /* Taken only when the earlier context is the same values, not just the same hash: compared
     * without a branch on an empty slot or per value, so that the one branch is on a match taken. */
    const uint32_t at = *slot;
    const size_t from = at >= MATCH_ORDER ? at : MATCH_ORDER;
    uint32_t differ = 0;
    for (int i = 0; i < MATCH_ORDER; i++)
        differ |= (uint32_t)(m->values[from - MATCH_ORDER + i] ^ m->values[m->count - MATCH_ORDER + i]);
    if ((at >= MATCH_ORDER) & (differ == 0)) {
        m->active = true;
        m->next = at;
    }
    m->prefix = match_hash_steps(m->values, m->count + 1 - MATCH_ORDER, m->count);
    m->prefix_end = m->count;
    *slot = (uint32_t)m->count; /* the value after this context will sit at index count */
}

RC_ALWAYS_INLINE int32_t match_decode_at(rc_decoder *d, bit_reader *raw, residual_model *rm, match_model *mm, int ctx,
                                         rc_prob *sign)
{
    int32_t expected = 0, v;
    int mctx;
    const bool expects = match_model_expect(mm, &expected, &mctx);
    if (expects && rc_decode_bit(d, &mm->hit[mctx]))
        v = expected;
    else {
        v = residual_decode_at(d, raw, rm, ctx, sign);
        if (expects && v == expected)
            mm->contradicted = true;
    }
    match_model_push_value(mm, v);
    return v;
}

#endif
