/* The study's quantisers.
 *
 * Scalars: 16-bit fixed point over the range of the values at the keys:
 * q = round((v - lo) / range * 65535), v' = lo + q / 65535 * range.
 *
 * Rotations, smallest three: normalise, drop the largest-magnitude component
 * (first on ties), flip the sign so it is positive, store its index in 2 bits
 * and the other three in 10 bits each over [-sqrt(1/2), sqrt(1/2)]. */
#ifndef ANIMBENCH_QUANTIZE_H
#define ANIMBENCH_QUANTIZE_H

#include <stdint.h>

#define QUANT_SCALAR_STEPS 65535
#define QUANT_ROT_STEPS 1023

typedef struct scalar_range {
    double lo, range;
} scalar_range;

scalar_range quant_scalar_range(const double *values, const int *keys, int key_count);
uint16_t quant_scalar_encode(double value, scalar_range r);
double quant_scalar_decode(uint16_t q, double lo, double range);

/* Packed as (index << 30) | (a << 20) | (b << 10) | c. */
uint32_t quant_rotation_encode(const double q[4]);
void quant_rotation_decode(uint32_t packed, double out[4]);

#endif
