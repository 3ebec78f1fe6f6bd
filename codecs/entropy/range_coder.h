/* An adaptive binary range coder, and a coder of signed integer residuals
 * on top of it with context modelling: the entropy stage issue 11's codec
 * needs.  Integer-only on both sides, so a stream decodes bit for bit the
 * same on every compiler and optimisation level.
 *
 * The range coder keeps a 32-bit range and a 64-bit low with carry
 * propagation through a cached byte (the scheme of LZMA's range coder,
 * written from its description).  A bit's probability is one 15-bit
 * estimate that moves by 2^-floor(log2(n + 2)) of the distance to the n-th
 * bit it sees (about 1/(n + 2)), down to 1/32 (rc_prob): fast to learn a
 * context seen a few times, steady once it is busy.
 *
 * The residual coder binarises v as: zero or not; its sign; the class c of
 * |v| (|v| in [2^c, 2^(c+1)), c = 0..31) in unary, up or down from the
 * class the context expects; the c bits below |v|'s
 * leading one, the first adaptively per class, the rest raw (one adaptive
 * bit measured smaller than two or three, or none, on Bandai clips).  Every
 * other adaptive bit has its own probability per context, chosen by the
 * caller from recent residual magnitudes (residual_context).  Raw bits go to
 * the range coder, or to a plain bit stream beside it (bit_writer), which a
 * decoder reads with shifts instead of a range division per bit.
 *
 * The decoder reads only the bytes it is given: past the end it reads
 * zeros and says so (rc_decoder.overrun), so a truncated or corrupted
 * stream gives wrong values or an overrun, never a read out of bounds. */
#ifndef ANIMBENCH_RANGE_CODER_H
#define ANIMBENCH_RANGE_CODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"

/* A decoder's inner functions, inlined into its loop even where the compiler's size heuristics
 * would call them: the loop then keeps the coder's state in registers (shellpack_match.c). */
#if defined(__GNUC__) || defined(__clang__)
#define RC_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define RC_ALWAYS_INLINE static inline
#endif

#define RC_PROB_BITS 15
#define RC_SHIFT_MAX 5

/* The probability of a 0 in units of 2^-15, and how many bits it has seen
 * (up to 2^RC_SHIFT_MAX - 2): the n-th bit moves it by about 1/(n + 2) of
 * the way, down to 2^-RC_SHIFT_MAX, so a context seen a few times learns
 * fast and a busy one settles. */
typedef struct rc_prob {
    uint16_t p, seen;
} rc_prob;
#define RC_PROB_INIT ((rc_prob){1u << (RC_PROB_BITS - 1), 0})

typedef struct rc_encoder {
    uint64_t low;
    uint32_t range;
    uint8_t cache;
    uint64_t pending; /* the cached byte and the 0xFF bytes behind it, not yet written */
    byte_buffer *out;
} rc_encoder;

typedef struct rc_decoder {
    const uint8_t *data;
    size_t size, pos;
    uint32_t code, range;
    bool overrun; /* a byte past the end was needed */
} rc_decoder;

void rc_encoder_init(rc_encoder *e, byte_buffer *out);
void rc_encode_bit(rc_encoder *e, rc_prob *prob, int bit);
/* The low `bits` bits of value (bits 0..32), each at probability 1/2. */
void rc_encode_raw(rc_encoder *e, uint32_t value, int bits);
/* Writes what is pending; the stream is complete after it. */
void rc_encoder_finish(rc_encoder *e);

void rc_decoder_init(rc_decoder *d, const uint8_t *data, size_t size);
RC_ALWAYS_INLINE int rc_decode_bit(rc_decoder *d, rc_prob *prob);
RC_ALWAYS_INLINE uint32_t rc_decode_raw(rc_decoder *d, int bits);

/* ---- inline: a decoder spends most of its time here, and callers in other files (the match
 * model) would otherwise pay a call per bit ---- */

/* The shift of the n-th update of a probability (rc_prob.seen = n). */
extern const uint8_t rc_shift_after[(1u << RC_SHIFT_MAX) - 1];

RC_ALWAYS_INLINE void rc_prob_update(rc_prob *p, int bit)
{
    const int shift = rc_shift_after[p->seen];
    const uint32_t up = p->p + (((1u << RC_PROB_BITS) - p->p) >> shift), down = p->p - (p->p >> shift);
    p->p = (uint16_t)(bit ? down : up);
    p->seen = (uint16_t)(p->seen + (p->seen < (1u << RC_SHIFT_MAX) - 2));
}

RC_ALWAYS_INLINE uint8_t rc_next_byte(rc_decoder *d)
{
    if (d->pos < d->size)
        return d->data[d->pos++];
    d->overrun = true;
    return 0;
}

RC_ALWAYS_INLINE int rc_decode_bit(rc_decoder *d, rc_prob *prob)
{
    const uint32_t bound = (d->range >> RC_PROB_BITS) * prob->p;
    /* without a branch on the bit, which the processor cannot predict */
    const uint32_t bit = d->code >= bound, mask = 0u - bit;
    d->code -= bound & mask;
    d->range = (bound & ~mask) | ((d->range - bound) & mask);
    rc_prob_update(prob, (int)bit);
    while (d->range < (1u << 24)) {
        d->range <<= 8;
        d->code = (d->code << 8) | rc_next_byte(d);
    }
    return (int)bit;
}

RC_ALWAYS_INLINE uint32_t rc_decode_raw(rc_decoder *d, int bits)
{
    uint32_t v = 0;
    for (int i = 0; i < bits; i++) {
        d->range >>= 1;
        uint32_t bit = 0;
        if (d->code >= d->range) {
            d->code -= d->range;
            bit = 1;
        }
        v = (v << 1) | bit;
        while (d->range < (1u << 24)) {
            d->range <<= 8;
            d->code = (d->code << 8) | rc_next_byte(d);
        }
    }
    return v;
}

#define RESIDUAL_CONTEXTS 16
#define RESIDUAL_CLASSES 32

typedef struct residual_model {
    rc_prob nonzero[RESIDUAL_CONTEXTS], negative[RESIDUAL_CONTEXTS], at_least[RESIDUAL_CONTEXTS];
    rc_prob cls[RESIDUAL_CONTEXTS][RESIDUAL_CLASSES];
    rc_prob top[RESIDUAL_CLASSES]; /* the bit below the leading one */
} residual_model;

/* Raw bits beside a range-coded stream: the low n bits of each value, most
 * significant first, packed into bytes from their top bit down. */
typedef struct bit_writer {
    byte_buffer *out;
    uint64_t acc;
    int count; /* bits in acc */
} bit_writer;
void bit_writer_init(bit_writer *w, byte_buffer *out);
void bit_put(bit_writer *w, uint32_t value, int n); /* n = 0..32 */
void bit_writer_finish(bit_writer *w);              /* pads the last byte with zeros */

typedef struct bit_reader {
    const uint8_t *data;
    size_t size, pos;
    uint64_t acc;
    int count;
    bool overrun; /* a bit past the end was needed */
} bit_reader;
void bit_reader_init(bit_reader *r, const uint8_t *data, size_t size);
RC_ALWAYS_INLINE uint32_t bit_get(bit_reader *r, int n); /* n = 0..32; zeros past the end */

void residual_model_init(residual_model *m);
/* A context from a recent magnitude (say, the larger of the last two
 * |residuals|): its bit length, capped at RESIDUAL_CONTEXTS - 1. */
static inline int residual_context(uint32_t magnitude)
{
    const int bits = magnitude ? 32 - __builtin_clz(magnitude) : 0;
    return bits < RESIDUAL_CONTEXTS - 1 ? bits : RESIDUAL_CONTEXTS - 1;
}
/* raw: where the raw bits go, or NULL for the range coder itself. */
void residual_encode(rc_encoder *e, bit_writer *raw, residual_model *m, int ctx, int32_t v);
int32_t residual_decode(rc_decoder *d, bit_reader *raw, residual_model *m, int ctx);
/* residual_decode with the sign bit at `negative` instead of m->negative[ctx] (NULL: that one), every
 * other bit the same; inline, so that a decoder's loop that calls nothing else (shellpack_match.c's)
 * keeps the decoder's state in registers from one value to the next. */
RC_ALWAYS_INLINE int32_t residual_decode_at(rc_decoder *d, bit_reader *raw, residual_model *m, int ctx,
                                            rc_prob *negative);

/* What coding costs, for an encoder choosing between representations: the
 * adaptive models step exactly as when coding, and each bit adds its ideal
 * length -log2 p, in 1/256 bit (RC_COST_SCALE).  A table is per encoder, so
 * threads share nothing. */
#define RC_COST_SCALE 256
typedef struct rc_cost_table {
    uint32_t zero[1u << (RC_PROB_BITS - 4)]; /* cost of a 0 at probability p >> 4 (of a 0) */
} rc_cost_table;
void rc_cost_table_init(rc_cost_table *t);
uint32_t rc_bit_cost(const rc_cost_table *t, rc_prob *prob, int bit);
uint32_t residual_cost(const rc_cost_table *t, residual_model *m, int ctx, int32_t v);

/* ---- inline: the residual decoder (residual_decode_at) and what it reads raw bits with ---- */

/* Where the class's unary code starts in a context: the class of the larger recent magnitude, so
 * that most classes take two or three decisions instead of one per class (the same bytes within
 * 0.3 %, a third fewer decisions); the encoder and the cost (range_coder.c) start from it too. */
static inline int residual_class_start(int ctx)
{
    return ctx > 1 ? ctx - 1 : 0; /* starting one or two classes lower measured the same */
}

RC_ALWAYS_INLINE uint32_t bit_get(bit_reader *r, int n)
{
    if (n == 0)
        return 0;
    while (r->count < n) {
        uint8_t byte = 0;
        if (r->pos < r->size)
            byte = r->data[r->pos++];
        else
            r->overrun = true;
        r->acc = (r->acc << 8) | byte;
        r->count += 8;
    }
    r->count -= n;
    const uint64_t v = r->acc >> r->count;
    return (uint32_t)(n == 32 ? v : v & ((1u << n) - 1));
}

RC_ALWAYS_INLINE int32_t residual_decode_at(rc_decoder *d, bit_reader *raw, residual_model *m, int ctx,
                                            rc_prob *negative)
{
    if (!rc_decode_bit(d, &m->nonzero[ctx]))
        return 0;
    const int is_negative = rc_decode_bit(d, negative ? negative : &m->negative[ctx]);
    const int k = residual_class_start(ctx);
    int c;
    if (rc_decode_bit(d, &m->at_least[ctx])) {
        c = k;
        while (c < RESIDUAL_CLASSES - 1 && rc_decode_bit(d, &m->cls[ctx][c]))
            c++;
    } else {
        c = k - 1; /* k >= 1 here in a stream from the encoder; a bad stream may say "below 0": class 0 */
        while (c > 0 && rc_decode_bit(d, &m->cls[ctx][c]))
            c--;
        c = c < 0 ? 0 : c;
    }
    uint32_t a = 1;
    if (c > 0) {
        a = 2u | (uint32_t)rc_decode_bit(d, &m->top[c]);
        a = (a << (c - 1)) | (raw ? bit_get(raw, c - 1) : rc_decode_raw(d, c - 1)); /* c - 1 <= 30 */
    }
    /* two's complement: -(2^31) is INT32_MIN; a larger magnitude decodes (from bad bytes) modulo 2^32 */
    const uint32_t u = is_negative ? 0u - a : a;
    return (int32_t)(u <= INT32_MAX ? (int64_t)u : (int64_t)u - 4294967296LL);
}

#endif
