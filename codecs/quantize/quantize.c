#include "codecs/quantize/quantize.h"

#include <math.h>

#include "core/jsmath.h"
#include "core/quat.h"

#define SQRT1_2 0.70710678118654752440

scalar_range quant_scalar_range(const double *values, const int *keys, int key_count)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < key_count; i++) {
        const double v = values[keys[i]];
        if (v < lo)
            lo = v;
        if (v > hi)
            hi = v;
    }
    const scalar_range r = {lo, hi - lo};
    return r;
}

uint16_t quant_scalar_encode(double v, scalar_range r)
{
    if (r.range == 0)
        return 0;
    return (uint16_t)js_round((v - r.lo) / r.range * QUANT_SCALAR_STEPS);
}

double quant_scalar_decode(uint16_t q, double lo, double range)
{
    return lo + (range == 0 ? 0 : q / (double)QUANT_SCALAR_STEPS * range);
}

static double clamp01(double v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

uint32_t quant_rotation_encode(const double q[4])
{
    double n[4];
    quat_normalize(q, n);
    int li = 0;
    for (int i = 1; i < 4; i++)
        if (fabs(n[i]) > fabs(n[li]))
            li = i;
    const double sign = n[li] < 0 ? -1 : 1;
    uint32_t packed = (uint32_t)li << 30;
    int shift = 20;
    for (int i = 0; i < 4; i++) {
        if (i == li)
            continue;
        const double e = js_round(clamp01((n[i] * sign + SQRT1_2) / (2 * SQRT1_2)) * QUANT_ROT_STEPS);
        packed |= (uint32_t)e << shift;
        shift -= 10;
    }
    return packed;
}

void quant_rotation_decode(uint32_t packed, double out[4])
{
    const int li = (int)(packed >> 30);
    const uint32_t e[3] = {(packed >> 20) & 1023u, (packed >> 10) & 1023u, packed & 1023u};
    double ss = 0;
    int k = 0;
    for (int i = 0; i < 4; i++) {
        if (i == li)
            continue;
        const double v = e[k] / (double)QUANT_ROT_STEPS * 2 * SQRT1_2 - SQRT1_2;
        out[i] = v;
        ss += v * v;
        k++;
    }
    out[li] = sqrt(fmax(0, 1 - ss));
}
