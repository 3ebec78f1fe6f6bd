#include "core/jsmath.h"

#include <math.h>

static double kahan_hypot(const double *abs_values, int count)
{
    double max = 0.0;
    for (int i = 0; i < count; i++) {
        if (isnan(abs_values[i]))
            return NAN;
        if (abs_values[i] > max)
            max = abs_values[i];
    }
    if (max == 0.0)
        return 0.0;
    if (isinf(max))
        return INFINITY;
    double sum = 0.0, compensation = 0.0;
    for (int i = 0; i < count; i++) {
        double n = abs_values[i] / max;
        double summand = n * n - compensation;
        double preliminary = sum + summand;
        compensation = (preliminary - sum) - summand;
        sum = preliminary;
    }
    return sqrt(sum) * max;
}

double js_hypot3(double a, double b, double c)
{
    const double v[3] = {fabs(a), fabs(b), fabs(c)};
    return kahan_hypot(v, 3);
}

double js_hypot4_slow(double a, double b, double c, double d)
{
    const double v[4] = {fabs(a), fabs(b), fabs(c), fabs(d)};
    return kahan_hypot(v, 4);
}

double js_round(double x)
{
    if (!isfinite(x))
        return x;
    double r = floor(x);
    /* x - r is exact for |x| < 2^52, so the comparison sees the true fraction */
    if (x - r >= 0.5)
        r += 1.0;
    return r;
}
