/* A static-model rANS coder (range asymmetric numeral systems, after Duda; written from the
 * description of ryg_rans's byte-wise variant and its two interleaved states): decoding a symbol
 * is a table look-up by the state's low bits, a short forward step, a multiply and an add.
 * Integer-only, so a stream decodes bit for bit the same on every compiler and level.
 *
 * A table gives each of at most RANS_SYMBOLS symbols a frequency; the frequencies sum to
 * RANS_TOTAL = 2^RANS_PROB_BITS.  The encoder's table is indexed by symbol; the decoder's holds
 * the running sums up to its last symbol of non-zero frequency and a look-up of RANS_LUT entries by
 * the top bits of the slot (a table of s symbols takes 256 + 2 (s + 1) bytes, not 2^RANS_PROB_BITS;
 * the look-up resolves most slots without a step).  The
 * encoder takes the symbols in order and codes them backwards; the decoder reads them forwards.
 *
 * Invariants:
 *  - two states take the symbols in turn (symbol i: state i mod 2), each with its own word stream,
 *    so a decoder has two independent chains of work in flight (a shared stream would chain them
 *    through its read position);
 *  - between symbols a state x is in [RANS_LOW, 2^16 RANS_LOW), RANS_LOW = 2^16: an encoder
 *    shifts 16-bit words out of x until coding a symbol of frequency f keeps it below 2^32, a
 *    decoder shifts one word in when x < RANS_LOW (one is always enough: a decoded state is at
 *    least f 2^(16 - RANS_PROB_BITS) >= 16, so it needs no loop and no branch);
 *  - coding s: x' = (x / f) * RANS_TOTAL + (x mod f) + cum(s); decoding: slot = x mod RANS_TOTAL,
 *    s = the symbol whose [cum, cum + f) holds slot, x = f * (x / RANS_TOTAL) + slot - cum(s);
 *  - the stream is the two final states, 4 bytes little-endian each (the first symbol's first),
 *    the count of state 0's words as a LEB128 varint, then state 0's words and state 1's (2 bytes
 *    little-endian each), each in the order the decoder needs them;
 *  - a decoder's table is built only from frequencies that sum to RANS_TOTAL: every slot lies in
 *    the range of a symbol of frequency at least 1, and its look-up entry names a symbol at or
 *    before that one, so the forward step ends within the table.
 * The decoder reads only the bytes it is given: past the end it shifts in zeros and says so
 * (overrun), and it never loops on a state a corrupt stream left at 0, so bad bytes give wrong
 * symbols, never a read out of bounds or a hang. */
#ifndef ANIMBENCH_RANS_H
#define ANIMBENCH_RANS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"

#define RANS_PROB_BITS 12
#define RANS_TOTAL (1u << RANS_PROB_BITS)
#define RANS_LOW (1u << 16)
#define RANS_SYMBOLS 128
#define RANS_LUT_BITS 6
#define RANS_LUT (1u << RANS_LUT_BITS)

/* An encoder's table, by symbol. */
typedef struct rans_table {
    uint16_t freq[RANS_SYMBOLS], cum[RANS_SYMBOLS];
} rans_table;

/* Frequencies in proportion to counts (each symbol counted at least once gets at least 1), summing
 * to RANS_TOTAL; with no counts at all, symbol 0 takes the whole range.  symbols <= RANS_SYMBOLS. */
void rans_table_from_counts(rans_table *t, const uint32_t *counts, int symbols);
/* 0 when freq (symbols of them) sums to RANS_TOTAL, else -1. */
int rans_check_freqs(const uint16_t *freq, int symbols);

typedef struct rans_symbol {
    const rans_table *table;
    uint8_t symbol;
} rans_symbol;
/* Codes n symbols, symbol i with its table, into out (appended). */
bool rans_encode(const rans_symbol *symbols, size_t n, byte_buffer *out);
/* The ideal length of a symbol, in 1/256 bit, for an encoder comparing choices (255 bits for a
 * symbol of frequency 0); rans_freq_cost: of a frequency. */
uint32_t rans_cost(const rans_table *t, int symbol);
uint32_t rans_freq_cost(uint32_t freq);

/* A decoder's table: the look-up, then cum[0..last + 1] (cum[last + 1] = RANS_TOTAL). */
typedef struct rans_dtable {
    uint8_t lut[RANS_LUT]; /* per slot >> (RANS_PROB_BITS - RANS_LUT_BITS): the symbol holding its first slot */
    uint16_t cum[];
} rans_dtable;

/* The storage the decoder tables of n frequency lists need, in bytes (each table on a 64-byte line). */
size_t rans_dtables_storage(const uint16_t (*freqs)[RANS_SYMBOLS], int n, int symbols);
/* Builds n decoder tables in storage (rans_dtables_storage bytes, 64-byte aligned); tables[i] points
 * at the i-th.  0, or -1 when a list does not sum to RANS_TOTAL. */
int rans_dtables_build(const rans_dtable **tables, const uint16_t (*freqs)[RANS_SYMBOLS], int n, int symbols,
                       void *storage);

typedef struct rans_decoder {
    uint32_t x[2]; /* x[0]: the next symbol's state */
    const uint8_t *p[2], *end[2];
    bool overrun; /* a word past the end was needed, or the stream is cut */
} rans_decoder;

void rans_decoder_init(rans_decoder *d, const uint8_t *data, size_t size);

/* One symbol from state *x and its words at *p (the caller takes the two states in turn). */
static inline int rans_decode_step(uint32_t *x, const rans_dtable *t, const uint8_t **p, const uint8_t *end,
                                   bool *overrun)
{
    const uint32_t slot = *x & (RANS_TOTAL - 1);
    unsigned i = t->lut[slot >> (RANS_PROB_BITS - RANS_LUT_BITS)];
    while (t->cum[i + 1] <= slot)
        i++;
    uint32_t y = (uint32_t)(t->cum[i + 1] - t->cum[i]) * (*x >> RANS_PROB_BITS) + slot - t->cum[i];
    const bool refill = y < RANS_LOW, have = *p + 1 < end;
    const uint32_t word = have ? (uint32_t)(*p)[0] | (uint32_t)(*p)[1] << 8 : 0;
    *overrun |= refill && !have;
    y = refill ? (y << 16) | word : y;
    *p += (refill && have) ? 2 : 0;
    *x = y;
    return (int)i;
}

static inline int rans_decode(rans_decoder *d, const rans_dtable *t)
{
    const int s = rans_decode_step(&d->x[0], t, &d->p[0], d->end[0], &d->overrun);
    const uint32_t x = d->x[0];
    const uint8_t *p = d->p[0], *e = d->end[0];
    d->x[0] = d->x[1];
    d->p[0] = d->p[1];
    d->end[0] = d->end[1];
    d->x[1] = x;
    d->p[1] = p;
    d->end[1] = e;
    return s;
}

#endif
