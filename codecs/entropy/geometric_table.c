#include "codecs/entropy/geometric_table.h"

#include <string.h>

#define ONE (1ull << 32)


/* round(2^32 2^(-m/8)), m = 0..7: 1 - t = ROOT8[j mod 8] >> (j / 8) */
static const uint64_t ROOT8[8] = {4294967296ull, 3938502376ull, 3611622603ull, 3311872529ull,
                                  3037000500ull, 2784941738ull, 2553802834ull, 2341847524ull};

static inline uint64_t mul_q32(uint64_t a, uint64_t b)
{
    return (a * b) >> 32; /* a, b <= 2^32: the product fits */
}

void gt_frequencies(gt_params p, uint16_t freq[RANS_SYMBOLS])
{
    memset(freq, 0, RANS_SYMBOLS * sizeof *freq);
    const int last = p.last < GT_SYMBOLS ? p.last : GT_SYMBOLS - 1;
    const uint32_t spare = RANS_TOTAL - (uint32_t)(last + 1);
    const uint32_t zero_share = (uint32_t)(((uint64_t)(p.zero < GT_ZEROS ? p.zero : GT_ZEROS - 1) * spare) / 63);
    const uint64_t nonzero_share = spare - zero_share;
    const uint64_t t = ONE - (ROOT8[p.slope & 7] >> (p.slope >> 3));
    uint32_t sum = 0;
    freq[0] = (uint16_t)(1 + zero_share);
    sum += freq[0];
    /* per sign, the mass of a symbol is half its magnitudes' (Q32) */
#define SHARE(s, mass)                                                           \
    do {                                                                         \
        if ((s) <= last) {                                                       \
            freq[s] = (uint16_t)(1 + ((((mass) >> 1) * nonzero_share) >> 32));   \
            sum += freq[s];                                                      \
        }                                                                        \
    } while (0)
    SHARE(1, ONE - t);
    SHARE(2, ONE - t);
    /* e0 = t^(2^c - 1), e1 = t^(2^c + 2^(c-1) - 1), power = t^(2^(c-1)): the tails where a class's
     * two halves start */
    uint64_t e0 = t, power = t;
    for (int c = 1; c <= 31 && 3 + 4 * (c - 1) <= last; c++) {
        const uint64_t e1 = mul_q32(e0, power), next = mul_q32(e1, power);
        const int s = 3 + 4 * (c - 1);
        SHARE(s, e0 - e1);
        SHARE(s + 1, e0 - e1);
        SHARE(s + 2, e1 - next);
        SHARE(s + 3, e1 - next);
        e0 = next;
        power = mul_q32(power, power);
    }
#undef SHARE
    int big = 0;
    for (int s = 1; s <= last; s++)
        if (freq[s] > freq[big])
            big = s;
    freq[big] = (uint16_t)(freq[big] + (RANS_TOTAL - sum));
}

void gt_table(gt_params p, rans_table *t)
{
    gt_frequencies(p, t->freq);
    uint32_t at = 0;
    for (int s = 0; s < RANS_SYMBOLS; s++) {
        t->cum[s] = (uint16_t)at;
        at += t->freq[s];
    }
}

static uint64_t cost_of(gt_params p, const uint32_t *counts)
{
    uint16_t freq[RANS_SYMBOLS];
    gt_frequencies(p, freq);
    uint64_t cost = 0;
    for (int s = 0; s <= p.last; s++)
        if (counts[s])
            cost += (uint64_t)counts[s] * rans_freq_cost(freq[s]);
    return cost;
}

gt_params gt_fit(const uint32_t counts[GT_SYMBOLS], uint64_t *cost)
{
    gt_params best = {0, 0, 0};
    uint64_t total = 0;
    for (int s = 0; s < GT_SYMBOLS; s++)
        if (counts[s]) {
            best.last = (uint8_t)s;
            total += counts[s];
        }
    if (total == 0) {
        *cost = 0;
        return best;
    }
    uint64_t least = UINT64_MAX;
    /* both on a coarse grid (a distribution of two humps has more than one good slope), then both
     * around the best */
    for (int j = 0; j < GT_SLOPES; j += 4)
        for (int z = 0; z < GT_ZEROS; z += 7) {
            const gt_params p = {(uint8_t)j, (uint8_t)z, best.last};
            const uint64_t c = cost_of(p, counts);
            if (c < least) {
                least = c;
                best = p;
            }
        }
    for (int pass = 0; pass < 2; pass++) {
        const gt_params centre = best;
        const int dj = pass ? 1 : 3, dz = pass ? 1 : 4;
        for (int j = centre.slope - dj; j <= centre.slope + dj; j++)
            for (int z = centre.zero - dz; z <= centre.zero + dz; z++) {
                if (j < 0 || j >= GT_SLOPES || z < 0 || z >= GT_ZEROS)
                    continue;
                const gt_params p = {(uint8_t)j, (uint8_t)z, best.last};
                const uint64_t c = cost_of(p, counts);
                if (c < least) {
                    least = c;
                    best = p;
                }
            }
    }
    *cost = least;
    return best;
}
