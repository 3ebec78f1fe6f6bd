/* An adaptive binary range coder, and a coder of signed integer residuals
 * on top of it with context modelling: the entropy stage issue 11's codec
 * needs.  Integer-only on both sides, so a stream decodes bit for bit the
 * same on every compiler and optimisation level.
 *
 * The range coder keeps a 32-bit range and a 64-bit low with carry
 * propagation through a cached byte (the scheme of LZMA's range coder,
 * written from its description): a bit costs -log2 p of its 11-bit
 * probability, which adapts by 1/32 of the distance to the bit seen.
 *
 * The residual coder binarises v as: zero or not; its sign; the class c of
 * |v| (|v| in [2^c, 2^(c+1)), c = 0..31) in unary; the c bits below |v|'s
 * leading one, the top two adaptively per class, the rest raw.  Every
 * adaptive bit has its own probability per context, chosen by the caller
 * from recent residual magnitudes (residual_context).
 *
 * The decoder reads only the bytes it is given: past the end it reads
 * zeros and says so (rc_decoder.overrun), so a truncated or corrupted
 * stream gives wrong values or an overrun, never a read out of bounds. */
#ifndef ANIMBENCH_RANGE_CODER_H
#define ANIMBENCH_RANGE_CODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/bytes.h"

#define RC_PROB_BITS 11
#define RC_PROB_INIT (1u << (RC_PROB_BITS - 1))

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
void rc_encode_bit(rc_encoder *e, uint16_t *prob, int bit);
/* The low `bits` bits of value (bits 0..32), each at probability 1/2. */
void rc_encode_raw(rc_encoder *e, uint32_t value, int bits);
/* Writes what is pending; the stream is complete after it. */
void rc_encoder_finish(rc_encoder *e);

void rc_decoder_init(rc_decoder *d, const uint8_t *data, size_t size);
int rc_decode_bit(rc_decoder *d, uint16_t *prob);
uint32_t rc_decode_raw(rc_decoder *d, int bits);

#define RESIDUAL_CONTEXTS 16
#define RESIDUAL_CLASSES 32

typedef struct residual_model {
    uint16_t nonzero[RESIDUAL_CONTEXTS], negative[RESIDUAL_CONTEXTS];
    uint16_t cls[RESIDUAL_CONTEXTS][RESIDUAL_CLASSES];
    uint16_t top[RESIDUAL_CLASSES][4]; /* the two bits below the leading one: a tree of 3 per class */
} residual_model;

void residual_model_init(residual_model *m);
/* A context from a recent magnitude (say, the larger of the last two
 * |residuals|): its bit length, capped at RESIDUAL_CONTEXTS - 1. */
int residual_context(uint32_t magnitude);
void residual_encode(rc_encoder *e, residual_model *m, int ctx, int32_t v);
int32_t residual_decode(rc_decoder *d, residual_model *m, int ctx);

#endif
