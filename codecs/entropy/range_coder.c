#include "codecs/entropy/range_coder.h"

#include <math.h>

#define TOP (1u << 24)

/* The n-th update (n = seen) moves by 2^-shift, shift = floor(log2(n + 2)) up to
 * RC_SHIFT_MAX: 1, 2, 2, 3 (x4), 4 (x8), ...  The probability stays within
 * [2^shift - 1, 2^15 - 2^shift + 1]: never 0 or 2^15. */
const uint8_t rc_shift_after[(1u << RC_SHIFT_MAX) - 1] = {
#define S(n) ((n) + 2 >= 32 && RC_SHIFT_MAX >= 5 ? 5 : (n) + 2 >= 16 && RC_SHIFT_MAX >= 4 ? 4 : (n) + 2 >= 8 ? 3 : (n) + 2 >= 4 ? 2 : 1)
    S(0),  S(1),  S(2),  S(3),  S(4),  S(5),  S(6),  S(7),  S(8),  S(9),  S(10),
    S(11), S(12), S(13), S(14), S(15), S(16), S(17), S(18), S(19), S(20), S(21),
    S(22), S(23), S(24), S(25), S(26), S(27), S(28), S(29), S(30)
#undef S
};

static inline uint32_t prob_of(const rc_prob *p)
{
    return p->p;
}

static inline void prob_update(rc_prob *p, int bit)
{
    rc_prob_update(p, bit);
}

void rc_encoder_init(rc_encoder *e, byte_buffer *out)
{
    e->low = 0;
    e->range = 0xFFFFFFFFu;
    e->cache = 0;
    e->pending = 1;
    e->out = out;
}

/* Moves the top byte of low out.  A byte can still change by a carry from
 * below until a byte other than 0xFF follows it, so the last such byte and
 * the 0xFF run behind it wait in cache / pending. */
static void shift_low(rc_encoder *e)
{
    if ((uint32_t)e->low < 0xFF000000u || (e->low >> 32) != 0) {
        const uint8_t carry = (uint8_t)(e->low >> 32);
        uint8_t byte = e->cache;
        do {
            bytes_u8(e->out, (uint8_t)(byte + carry));
            byte = 0xFF;
        } while (--e->pending != 0);
        e->cache = (uint8_t)(e->low >> 24);
    }
    e->pending++;
    e->low = (e->low & 0x00FFFFFFu) << 8;
}

void rc_encode_bit(rc_encoder *e, rc_prob *prob, int bit)
{
    const uint32_t bound = (e->range >> RC_PROB_BITS) * prob_of(prob);
    if (!bit) {
        e->range = bound;
    } else {
        e->low += bound;
        e->range -= bound;
    }
    prob_update(prob, bit);
    while (e->range < TOP) {
        e->range <<= 8;
        shift_low(e);
    }
}

void rc_encode_raw(rc_encoder *e, uint32_t value, int bits)
{
    for (int i = bits - 1; i >= 0; i--) {
        e->range >>= 1;
        if ((value >> i) & 1)
            e->low += e->range;
        while (e->range < TOP) {
            e->range <<= 8;
            shift_low(e);
        }
    }
}

void rc_encoder_finish(rc_encoder *e)
{
    for (int i = 0; i < 5; i++)
        shift_low(e);
}

void rc_decoder_init(rc_decoder *d, const uint8_t *data, size_t size)
{
    d->data = data;
    d->size = size;
    d->pos = 0;
    d->overrun = false;
    d->range = 0xFFFFFFFFu;
    d->code = 0;
    for (int i = 0; i < 5; i++) /* the first byte is the encoder's initial cache, 0 */
        d->code = (d->code << 8) | rc_next_byte(d);
}

void residual_model_init(residual_model *m)
{
    rc_prob *p = (rc_prob *)m;
    for (size_t i = 0; i < sizeof *m / sizeof *p; i++)
        p[i] = RC_PROB_INIT;
}

static int bit_length(uint32_t v)
{
    return v ? 32 - __builtin_clz(v) : 0;
}

void bit_writer_init(bit_writer *w, byte_buffer *out)
{
    w->out = out;
    w->acc = 0;
    w->count = 0;
}

void bit_put(bit_writer *w, uint32_t value, int n)
{
    if (n == 0)
        return;
    const uint64_t v = n == 32 ? value : value & ((1u << n) - 1);
    w->acc = (w->acc << n) | v;
    w->count += n;
    while (w->count >= 8) {
        w->count -= 8;
        bytes_u8(w->out, (uint8_t)(w->acc >> w->count));
    }
}

void bit_writer_finish(bit_writer *w)
{
    if (w->count > 0)
        bytes_u8(w->out, (uint8_t)(w->acc << (8 - w->count)));
    w->count = 0;
}

void bit_reader_init(bit_reader *r, const uint8_t *data, size_t size)
{
    r->data = data;
    r->size = size;
    r->pos = 0;
    r->acc = 0;
    r->count = 0;
    r->overrun = false;
}

void residual_encode(rc_encoder *e, bit_writer *raw, residual_model *m, int ctx, int32_t v)
{
    rc_encode_bit(e, &m->nonzero[ctx], v != 0);
    if (v == 0)
        return;
    rc_encode_bit(e, &m->negative[ctx], v < 0);
    /* |v| as an unsigned: 2^31 for INT32_MIN */
    const uint32_t a = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    const int c = bit_length(a) - 1; /* a in [2^c, 2^(c+1)) */
    const int k = residual_class_start(ctx);
    rc_encode_bit(e, &m->at_least[ctx], c >= k);
    if (c >= k) { /* up from k: "above i?" for i = k, k + 1, ... */
        for (int i = k; i < c; i++)
            rc_encode_bit(e, &m->cls[ctx][i], 1);
        if (c < RESIDUAL_CLASSES - 1)
            rc_encode_bit(e, &m->cls[ctx][c], 0);
    } else { /* down from k - 1: "below i?" for i = k - 1, k - 2, ..., 1 */
        for (int i = k - 1; i > c; i--)
            rc_encode_bit(e, &m->cls[ctx][i], 1);
        if (c > 0)
            rc_encode_bit(e, &m->cls[ctx][c], 0);
    }
    if (c == 0)
        return;
    rc_encode_bit(e, &m->top[c], (int)((a >> (c - 1)) & 1));
    if (raw)
        bit_put(raw, a, c - 1);
    else
        rc_encode_raw(e, a, c - 1);
}

int32_t residual_decode(rc_decoder *d, bit_reader *raw, residual_model *m, int ctx)
{
    return residual_decode_at(d, raw, m, ctx, NULL);
}

void rc_cost_table_init(rc_cost_table *t)
{
    for (uint32_t i = 0; i < (1u << (RC_PROB_BITS - 4)); i++)
        t->zero[i] = (uint32_t)lround(-log2((i * 16.0 + 8) / (1u << RC_PROB_BITS)) * RC_COST_SCALE);
}

/* The probability moves as in rc_encode_bit. */
uint32_t rc_bit_cost(const rc_cost_table *t, rc_prob *prob, int bit)
{
    const uint32_t p = prob_of(prob);
    prob_update(prob, bit);
    return t->zero[(bit ? (1u << RC_PROB_BITS) - p : p) >> 4];
}

uint32_t residual_cost(const rc_cost_table *t, residual_model *m, int ctx, int32_t v)
{
    uint32_t cost = rc_bit_cost(t, &m->nonzero[ctx], v != 0);
    if (v == 0)
        return cost;
    cost += rc_bit_cost(t, &m->negative[ctx], v < 0);
    const uint32_t a = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    const int c = bit_length(a) - 1;
    const int k = residual_class_start(ctx);
    cost += rc_bit_cost(t, &m->at_least[ctx], c >= k);
    if (c >= k) {
        for (int i = k; i < c; i++)
            cost += rc_bit_cost(t, &m->cls[ctx][i], 1);
        if (c < RESIDUAL_CLASSES - 1)
            cost += rc_bit_cost(t, &m->cls[ctx][c], 0);
    } else {
        for (int i = k - 1; i > c; i--)
            cost += rc_bit_cost(t, &m->cls[ctx][i], 1);
        if (c > 0)
            cost += rc_bit_cost(t, &m->cls[ctx][c], 0);
    }
    if (c == 0)
        return cost;
    cost += rc_bit_cost(t, &m->top[c], (int)((a >> (c - 1)) & 1));
    return cost + (uint32_t)(c - 1) * RC_COST_SCALE;
}
