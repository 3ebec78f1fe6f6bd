/* JavaScript-compatible numerics.  Every expected value was printed by
 * Node 20 (V8) for the same input; see tests/data/README.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "core/jsmath.h"
#include "generators/study_clips.h"
#include "core/jsfmt.h"

static void test_hypot_matches_v8(void **state)
{
    (void)state;
    assert_true(js_hypot3(0.1, 0.2, 0.3) == 0.37416573867739417);
    assert_true(js_hypot3(1e-9, 3, 4) == 5);
    /* V8's Kahan sum gives 1.0000000000000002 where sqrt(a*a+b*b+c*c) does not */
    assert_true(js_hypot3(0.7071067811865476, 0.7071067811865475, 1e-8) == 1.0000000000000002);
    assert_true(js_hypot3(0.0123, 0.0456, 0.0789) == 0.09195575022803087);
    assert_true(js_hypot4(0.5, 0.5, 0.5, 0.5000000000000001) == 1);
    assert_true(js_hypot4(0.1, 0.2, 0.3, 0.9273618495495703) == 1);
    assert_true(js_hypot4(0.0008, 0.99, 0.01, 0.14) == 0.9999003150314536);
    assert_true(js_hypot4(0, 0, 0, 0) == 0);
    assert_true(isnan(js_hypot4(NAN, 1, 0, 0)));
    assert_true(js_hypot3(-3, 4, 0) == 5);
}

static void test_round_half_up(void **state)
{
    (void)state;
    assert_true(js_round(2.5) == 3);
    assert_true(js_round(-2.5) == -2);
    assert_true(js_round(0.49999999999999994) == 0);
    assert_true(js_round(1.5) == 2);
    assert_true(js_round(-1.5) == -1);
    assert_true(js_round(4503599627370495.5) == 4503599627370496.0);
}

static void check_fixed(double x, int digits, const char *expected)
{
    char out[JSFMT_MAX];
    assert_string_equal(js_to_fixed(x, digits, out), expected);
}

static void test_to_fixed_half_up(void **state)
{
    (void)state;
    check_fixed(2505.0 / 2, 0, "1253"); /* printf("%.0f") gives 1252 */
    check_fixed(0.125, 2, "0.13");      /* printf gives 0.12 */
    check_fixed(1.005, 2, "1.00");      /* 1.005 is 1.00499999... */
    check_fixed(2.5, 0, "3");
    check_fixed(-2.5, 0, "-3");
    check_fixed(-0.0, 2, "0.00");
    check_fixed(0.0005, 3, "0.001");
    check_fixed(72005.33333, 0, "72005");
    check_fixed(1e21, 2, "1e+21");
    check_fixed(123.456, 1, "123.5");
    check_fixed(0.35, 1, "0.3");
    check_fixed(-1.45, 1, "-1.4");
    check_fixed(9.995, 2, "9.99");
    check_fixed(99.5, 0, "100");
    check_fixed(0, 3, "0.000");
    check_fixed(NAN, 2, "NaN");
}

static void check_string(double x, const char *expected)
{
    char out[JSFMT_MAX];
    assert_string_equal(js_number_string(x, out), expected);
}

static void test_number_string(void **state)
{
    (void)state;
    check_string(0.1, "0.1");
    check_string(0.25, "0.25");
    check_string(50, "50");
    check_string(1e-7, "1e-7");
    check_string(1.5e21, "1.5e+21");
    check_string(123456789012345680000.0, "123456789012345680000");
    check_string(0.000001, "0.000001");
    check_string(1.0 / 3, "0.3333333333333333");
    check_string(-0.05, "-0.05");
    check_string(100, "100");
    check_string(2.5e-7, "2.5e-7");
}

static void test_study_lcg(void **state)
{
    (void)state;
    study_lcg lcg = {20260905u};
    assert_true(study_lcg_next(&lcg) == -0.20204693637788296);
    assert_true(study_lcg_next(&lcg) == 0.29536155005916953);
    assert_true(study_lcg_next(&lcg) == -0.8437518151476979);
    assert_true(study_lcg_next(&lcg) == 0.4820272237993777);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hypot_matches_v8),    cmocka_unit_test(test_round_half_up),
        cmocka_unit_test(test_to_fixed_half_up),    cmocka_unit_test(test_number_string),
        cmocka_unit_test(test_study_lcg),
    };
    return cmocka_run_group_tests_name("jsmath", tests, NULL, NULL);
}
