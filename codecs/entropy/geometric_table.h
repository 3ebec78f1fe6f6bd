/* Residual symbols and the tables a stream can name with three small integers instead of listing
 * every frequency (shellpack-ra's tables, issue 22).
 *
 * The alphabet: a residual r is a symbol and raw bits.  0 is symbol 0; +1 and -1 are 1 and 2; for
 * |r| in [2^c, 2^(c+1)), c >= 1, the symbol is 3 + 4 (c - 1) + 2 h + (r < 0), h the bit below the
 * leading one, and the c - 1 bits below h are raw.  GT_SYMBOLS = 127 symbols cover every 32-bit
 * residual.
 *
 * A table is a two-sided geometric distribution: P(0) = z / 63 (z in 0..63), and a magnitude
 * a >= 1 has probability (1 - P(0)) (1 - t) t^(a - 1) split evenly between the signs, with
 * t = 1 - 2^(-j / 8) (j in 0..255; 1 - t to 32 fractional bits: round(2^32 2^(-(j mod 8) / 8))
 * shifted right by j / 8); symbols past `last` (0..126) have none.  Each symbol up to
 * `last` is the sum over its magnitudes, at least 1 of the RANS_TOTAL slots; the slots the
 * rounding leaves go to the largest (the first of equals).  Fitted to a context's residuals it
 * codes them within a few per cent of the counts' own table (measured on Bandai clips: better
 * than the counts' table once that table's own bytes are paid), in 21 bits.
 *
 * Everything is integer arithmetic on Q32 fractions (t^n by squaring), so encoder and decoder
 * build the same frequencies on every compiler and level. */
#ifndef ANIMBENCH_GEOMETRIC_TABLE_H
#define ANIMBENCH_GEOMETRIC_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "codecs/entropy/rans.h"

#define GT_SYMBOLS 127
#define GT_SLOPES 256 /* j */
#define GT_ZEROS 64   /* z */
#define GT_BITS 21    /* j (8 bits), z (6), last (7) */

typedef struct gt_params {
    uint8_t slope; /* j */
    uint8_t zero;  /* z */
    uint8_t last;  /* the last symbol with a share */
} gt_params;

/* A residual's symbol; *raw and *raw_bits get the bits coded beside it. */
static inline int gt_symbol(int32_t r, uint32_t *raw, int *raw_bits)
{
    *raw_bits = 0;
    *raw = 0;
    if (r == 0)
        return 0;
    const uint32_t a = r < 0 ? 0u - (uint32_t)r : (uint32_t)r;
    const int c = 31 - __builtin_clz(a);
    if (c == 0)
        return 1 + (r < 0);
    *raw = a & ((1u << (c - 1)) - 1);
    *raw_bits = c - 1;
    return 3 + 4 * (c - 1) + 2 * (int)((a >> (c - 1)) & 1) + (r < 0);
}

/* How many raw bits follow a symbol. */
static inline int gt_raw_bits(int symbol)
{
    return symbol < 3 ? 0 : (symbol - 3) >> 2;
}

/* The residual of a symbol and its raw bits (gt_raw_bits(symbol) of them), modulo 2^32; without a
 * branch on the symbol (a decoder's symbols are not predictable). */
static inline int32_t gt_residual(int symbol, uint32_t raw)
{
    const bool small = symbol < 3;
    const int t = symbol - 3, c = small ? 0 : 1 + (t >> 2);
    const uint32_t a = small ? (uint32_t)(symbol != 0) : ((2u | ((uint32_t)(t >> 1) & 1)) << (c - 1)) | raw;
    const bool negative = small ? symbol == 2 : (t & 1) != 0;
    const uint32_t u = negative ? 0u - a : a;
    return (int32_t)(u <= INT32_MAX ? (int64_t)u : (int64_t)u - 4294967296LL);
}

/* The frequencies of a table (freq[0..RANS_SYMBOLS), zero past `last`), summing to RANS_TOTAL.
 * params must be in range (slope < GT_SLOPES, zero < GT_ZEROS, last < GT_SYMBOLS). */
void gt_frequencies(gt_params p, uint16_t freq[RANS_SYMBOLS]);
/* The same as an encoder's table. */
void gt_table(gt_params p, rans_table *t);
/* The parameters that code these symbol counts in the fewest bits (a search over the slope and a
 * few zero shares around the counts' own); `last` is the largest symbol counted.  *cost gets
 * their length in 1/256 bit. */
gt_params gt_fit(const uint32_t counts[GT_SYMBOLS], uint64_t *cost);

#endif
