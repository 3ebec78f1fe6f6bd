/* Numerics that reproduce the study's JavaScript runtime bit for bit.
 *
 * The study (seeds/000) is a Node script; its printed figures depend on how
 * V8 computes Math.hypot and Math.round.  These are defined here once so that
 * every caller that must agree with the study uses the same arithmetic. */
#ifndef ANIMBENCH_JSMATH_H
#define ANIMBENCH_JSMATH_H

/* Math.hypot as V8 computes it: divide every argument by the largest
 * magnitude, sum the squares with Kahan compensation, sqrt, scale back.
 * The result can differ from C's hypot() in the last bit, which is enough to
 * move a key choice or a printed error digit. */
double js_hypot3(double a, double b, double c);
double js_hypot4_slow(double a, double b, double c, double d);

/* Inlined because it sits in the refine loop; finite non-zero inputs take
 * the fast path, the rest the general one (NaN, infinity, all zero). */
static inline double js_hypot4(double a, double b, double c, double d)
{
    a = __builtin_fabs(a);
    b = __builtin_fabs(b);
    c = __builtin_fabs(c);
    d = __builtin_fabs(d);
    double max = a > b ? a : b;
    const double cd = c > d ? c : d;
    max = max > cd ? max : cd;
    if (!(max > 0 && max <= 1.79769313486231570815e308))
        return js_hypot4_slow(a, b, c, d);
    double sum = 0.0, comp = 0.0, n, summand, pre;
    n = a / max; summand = n * n - comp; pre = sum + summand; comp = (pre - sum) - summand; sum = pre;
    n = b / max; summand = n * n - comp; pre = sum + summand; comp = (pre - sum) - summand; sum = pre;
    n = c / max; summand = n * n - comp; pre = sum + summand; comp = (pre - sum) - summand; sum = pre;
    n = d / max; summand = n * n - comp; pre = sum + summand; sum = pre;
    return __builtin_sqrt(sum) * max;
}

/* Math.round: the nearest integer, halves toward +infinity. */
double js_round(double x);

#endif
