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
double js_hypot4(double a, double b, double c, double d);

/* Math.round: the nearest integer, halves toward +infinity. */
double js_round(double x);

#endif
