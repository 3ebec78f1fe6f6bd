#include "core/pcg32.h"

uint32_t pcg32_next(pcg32 *rng)
{
    const uint64_t old = rng->state;
    rng->state = old * 6364136223846793005ull + rng->inc;
    const uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    const uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((32 - rot) & 31));
}

void pcg32_seed(pcg32 *rng, uint64_t initstate, uint64_t initseq)
{
    rng->state = 0;
    rng->inc = (initseq << 1) | 1;
    pcg32_next(rng);
    rng->state += initstate;
    pcg32_next(rng);
}

double pcg32_unit(pcg32 *rng)
{
    return pcg32_next(rng) * (1.0 / 4294967296.0);
}
