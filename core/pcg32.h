/* PCG32 (PCG-XSH-RR 64/32, O'Neill 2014), written from its published
 * definition: a 64-bit LCG state, output by xorshift-high and a random
 * rotation.  Seeded with (initstate, initseq) as the reference pcg32_srandom. */
#ifndef ANIMBENCH_PCG32_H
#define ANIMBENCH_PCG32_H

#include <stdint.h>

typedef struct pcg32 {
    uint64_t state, inc;
} pcg32;

void pcg32_seed(pcg32 *rng, uint64_t initstate, uint64_t initseq);
uint32_t pcg32_next(pcg32 *rng);
/* A double in [0, 1) with 32 random bits. */
double pcg32_unit(pcg32 *rng);

#endif
