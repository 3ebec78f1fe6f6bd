/* BD-rate on rate-distortion curves whose answer is worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "harness/report/bdrate.h"

/* Half the bytes at every error: the log-rate difference is ln 0.5 over the
 * whole range, BD-rate exactly -50 %. */
static void test_half_the_bytes(void **state)
{
    (void)state;
    const double mm[] = {0.1, 0.3, 1, 3, 10};
    double ref[5], test[5];
    for (int i = 0; i < 5; i++) {
        ref[i] = 1000 / mm[i];
        test[i] = 500 / mm[i];
    }
    bd_result r;
    assert_int_equal(bd_rate(mm, test, 5, mm, ref, 5, &r), 0);
    assert_true(fabs(r.rate + 0.5) < 1e-12);
    assert_true(fabs(r.overlap_lo_mm - 0.1) < 1e-12 && fabs(r.overlap_hi_mm - 10) < 1e-9);
}

/* test = 1000 / e on e in [0.1, 10], reference = 1000 / e^2 on [1, 100]:
 * they overlap on e in [1, 10], x = log10 e in [0, 1]; the log-rate
 * difference is ln(1000 / e) - ln(1000 / e^2) = ln e = x ln 10, linear in
 * x, so the interpolation is exact; its mean over [0, 1] is (ln 10) / 2 and
 * BD-rate = exp((ln 10) / 2) - 1 = sqrt(10) - 1 = 2.16228 (216 % more).  A
 * dominated point (5 mm at 5000 bytes, more than the 1000 bytes at 1 mm)
 * is off the frontier and changes nothing. */
static void test_partial_overlap(void **state)
{
    (void)state;
    const double tm[] = {0.1, 1, 5, 10}, tb[] = {10000, 1000, 5000, 100};
    const double rm[] = {1, 10, 100}, rb[] = {1000, 10, 0.1};
    bd_result r;
    assert_int_equal(bd_rate(tm, tb, 4, rm, rb, 3, &r), 0);
    if (fabs(r.rate - (sqrt(10) - 1)) > 1e-12)
        fail_msg("BD-rate %.15g, expected %.15g", r.rate, sqrt(10) - 1);
    assert_true(fabs(r.overlap_lo_mm - 1) < 1e-12 && fabs(r.overlap_hi_mm - 10) < 1e-9);
    assert_int_equal(r.test_points, 3);
    /* the other way round: 1 / sqrt(10) - 1 */
    assert_int_equal(bd_rate(rm, rb, 3, tm, tb, 4, &r), 0);
    assert_true(fabs(r.rate - (1 / sqrt(10) - 1)) < 1e-12);
}

/* Curves that share no error range have no BD-rate, and say what each covers. */
static void test_no_overlap(void **state)
{
    (void)state;
    const double am[] = {0.1, 0.5}, ab[] = {100, 50}, bm[] = {1, 2}, bb[] = {10, 5};
    bd_result r;
    assert_int_equal(bd_rate(am, ab, 2, bm, bb, 2, &r), -1);
    assert_true(isnan(r.rate));
    const double one[] = {1}, onebytes[] = {10};
    assert_int_equal(bd_rate(one, onebytes, 1, bm, bb, 2, &r), -1); /* one point is not a curve */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_the_bytes),
        cmocka_unit_test(test_partial_overlap),
        cmocka_unit_test(test_no_overlap),
    };
    return cmocka_run_group_tests_name("summary", tests, NULL, NULL);
}
