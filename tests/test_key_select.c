/* Key selection strategies (codecs/key_select.h) against enumeration: on
 * channels short enough to try every subset of keys, the fewest keys that
 * keep every frame within tolerance are known exactly, with a check written
 * here from core/curve.h's reconstruction, not the strategies' own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../codecs/key_select.h"
#include "../codecs/refine.h"
#include "../core/curve.h"
#include "../core/pcg32.h"
#include "../core/quat.h"

/* Whether keys keep every non-key frame within eps: reconstruct the whole
 * channel as the decoder does and measure each frame. */
static bool valid(const double *v, int n, bool rotation, bool cubic, double eps, const int *keys, int count)
{
    double recon[64 * 4];
    const curve_keys k = {v, rotation ? 4 : 1, keys, count, cubic};
    if (rotation)
        curve_reconstruct4(&k, n, recon);
    else
        curve_reconstruct(&k, n, recon, 1);
    for (int f = 0, ki = 0; f < n; f++) {
        if (ki < count && keys[ki] == f) {
            ki++;
            continue;
        }
        double e;
        if (rotation) {
            double r[4];
            quat_normalize(recon + f * 4, r);
            e = quat_angle_deg(r, v + f * 4);
        } else {
            e = fabs(recon[f] - v[f]);
        }
        if (!(e <= eps))
            return false;
    }
    return true;
}

/* The fewest keys over every subset holding the first and last frame. */
static int brute_force_fewest(const double *v, int n, bool rotation, bool cubic, double eps)
{
    int best = n, keys[16];
    for (unsigned mask = 0; mask < 1u << (n - 2); mask++) {
        int count = 0;
        keys[count++] = 0;
        for (int f = 1; f < n - 1; f++)
            if (mask & 1u << (f - 1))
                keys[count++] = f;
        keys[count++] = n - 1;
        if (count < best && valid(v, n, rotation, cubic, eps, keys, count))
            best = count;
    }
    return best;
}

/* Bumpy motion with noise: enough turns that the keys matter. */
static void random_channel(pcg32 *rng, int n, bool rotation, double *v)
{
    const double a = 0.2 + pcg32_unit(rng), w = 0.1 + 0.8 * pcg32_unit(rng);
    for (int f = 0; f < n; f++) {
        const double x = a * sin(w * f) + 0.08 * pcg32_unit(rng) + (f > n / 2 ? 0.2 : 0);
        if (!rotation) {
            v[f] = x;
            continue;
        }
        quat_from_euler_deg(40 * x, 25 * cos(w * f), 10 * x * x, v + f * 4);
        if (f > 0 && quat_dot(v + f * 4, v + (f - 1) * 4) < 0)
            for (int c = 0; c < 4; c++)
                v[f * 4 + c] = -v[f * 4 + c];
    }
}

static int run(key_workspace *w, key_strategy s, const double *v, int n, bool rotation, bool cubic, double eps,
               int *keys)
{
    const int count = select_keys(w, s, v, n, rotation, cubic, eps, keys);
    assert_true(count >= 2 && count <= n);
    assert_true(valid(v, n, rotation, cubic, eps, keys, count));
    return count;
}

/* Linear: `optimal` keeps exactly the fewest keys enumeration finds, for
 * n = 3 to 14, scalars and rotations, at tolerances from "every frame" to
 * "two keys"; never more than refine, greedy or Douglas-Peucker; and on
 * some channels strictly fewer than greedy and than refine (so the
 * comparison can tell them apart).  Cubic: every strategy is within
 * tolerance, none beats enumeration, and `optimal` never keeps more than
 * refine or greedy. */
static void test_optimal_matches_enumeration(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 12, 34);
    key_workspace *w = key_workspace_create(14);
    static const double eps_scalar[] = {0.005, 0.03, 0.1, 0.3};
    static const double eps_deg[] = {0.3, 2, 6, 20};
    int beats_greedy = 0, beats_refine = 0, trials = 0, cubic_at_optimum = 0, cubic_trials = 0;
    for (int rep = 0; rep < 40; rep++)
        for (int n = 3; n <= 14; n++)
            for (int rot = 0; rot < 2; rot++) {
                double v[14 * 4];
                random_channel(&rng, n, rot, v);
                for (int e = 0; e < 4; e++) {
                    const double eps = rot ? eps_deg[e] : eps_scalar[e];
                    for (int cubic = 0; cubic < 2; cubic++) {
                        int keys[14];
                        const int fewest = brute_force_fewest(v, n, rot, cubic, eps);
                        const int opt = run(w, KEYS_OPTIMAL, v, n, rot, cubic, eps, keys);
                        const int ref = run(w, KEYS_REFINE, v, n, rot, cubic, eps, keys);
                        const int gre = run(w, KEYS_GREEDY, v, n, rot, cubic, eps, keys);
                        const int peu = run(w, KEYS_PEUCKER, v, n, rot, cubic, eps, keys);
                        assert_true(opt >= fewest);
                        assert_true(opt <= ref && opt <= gre);
                        if (!cubic) {
                            assert_int_equal(opt, fewest);
                            assert_true(opt <= peu);
                            beats_greedy += opt < gre;
                            beats_refine += opt < ref;
                            trials++;
                        } else {
                            cubic_at_optimum += opt == fewest;
                            cubic_trials++;
                        }
                    }
                }
            }
    print_message("linear: optimal < greedy on %d and < refine on %d of %d channels; cubic: optimal at the "
                  "enumerated optimum on %d of %d\n",
                  beats_greedy, beats_refine, trials, cubic_at_optimum, cubic_trials);
    assert_true(beats_greedy > 0);
    assert_true(beats_refine > 0);
    key_workspace_free(w);
}

/* A worked case: 0 1 2 3 2 1 0 at 0.1 is two straight lines: keys 0, 3, 6
 * for every strategy; at 10 the straight 0..6 chord is within (the peak
 * is 3 away), so two keys. */
static void test_tent(void **state)
{
    (void)state;
    const double v[7] = {0, 1, 2, 3, 2, 1, 0};
    key_workspace *w = key_workspace_create(7);
    for (int s = 0; s < KEY_STRATEGY_COUNT; s++) {
        int keys[7];
        assert_int_equal(select_keys(w, (key_strategy)s, v, 7, false, false, 0.1, keys), 3);
        assert_int_equal(keys[0], 0);
        assert_int_equal(keys[1], 3);
        assert_int_equal(keys[2], 6);
        assert_int_equal(select_keys(w, (key_strategy)s, v, 7, false, false, 10, keys), 2);
    }
    key_workspace_free(w);
}

/* Greedy extends each segment as far as the check allows: 0 0 0 0 1 2 3.
 * At 0.8 the chord 0..4 misses frames 1, 2, 3 by 0.25, 0.5, 0.75 (within)
 * and 0..5 misses frame 3 by 1.2: key 4, then 4..6 is straight: 0, 4, 6.
 * At 0.4, 0..4 misses by 0.75: key 3, then 3..6 is straight: 0, 3, 6. */
static void test_greedy_worked(void **state)
{
    (void)state;
    const double v[7] = {0, 0, 0, 0, 1, 2, 3};
    key_workspace *w = key_workspace_create(7);
    int keys[7];
    assert_int_equal(select_keys(w, KEYS_GREEDY, v, 7, false, false, 0.8, keys), 3);
    assert_int_equal(keys[1], 4);
    assert_int_equal(select_keys(w, KEYS_GREEDY, v, 7, false, false, 0.4, keys), 3);
    assert_int_equal(keys[1], 3);
    key_workspace_free(w);
}

/* Douglas-Peucker with vertical distance splits each segment at its worst
 * frame; refine inserts the channel's worst frame; for linear keys both
 * give the same keys, on channels of up to 600 frames. */
static void test_peucker_is_linear_refine(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 7, 8);
    static const int lengths[] = {3, 17, 64, 257, 600};
    key_workspace *w = key_workspace_create(600);
    double *v = malloc(600 * 4 * sizeof *v);
    int *a = malloc(600 * sizeof *a), *b = malloc(600 * sizeof *b);
    for (size_t li = 0; li < sizeof lengths / sizeof *lengths; li++)
        for (int rot = 0; rot < 2; rot++)
            for (int e = 0; e < 3; e++) {
                const int n = lengths[li];
                const double eps = rot ? (double[]){0.05, 0.5, 3}[e] : (double[]){1e-3, 0.02, 0.1}[e];
                random_channel(&rng, n, rot, v);
                const int ca = select_keys(w, KEYS_PEUCKER, v, n, rot, false, eps, a);
                const int cb = select_keys(w, KEYS_REFINE, v, n, rot, false, eps, b);
                assert_int_equal(ca, cb);
                assert_memory_equal(a, b, (size_t)ca * sizeof *a);
            }
    free(v);
    free(a);
    free(b);
    key_workspace_free(w);
}

/* Longer channels: every strategy within tolerance, linear optimal never
 * above the others. */
static void test_strategies_long_channels(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 3, 4);
    const int n = 500;
    key_workspace *w = key_workspace_create(n);
    double *v = malloc((size_t)n * 4 * sizeof *v), *recon = malloc((size_t)n * 4 * sizeof *recon);
    int *keys = malloc((size_t)n * sizeof *keys);
    for (int rot = 0; rot < 2; rot++)
        for (int cubic = 0; cubic < 2; cubic++) {
            random_channel(&rng, n, rot, v);
            const double eps = rot ? 1.0 : 0.02;
            int counts[KEY_STRATEGY_COUNT];
            for (int s = 0; s < KEY_STRATEGY_COUNT; s++) {
                counts[s] = select_keys(w, (key_strategy)s, v, n, rot, cubic, eps, keys);
                assert_true(keys_within_tolerance(v, n, rot, cubic, eps, keys, counts[s], recon));
            }
            assert_true(counts[KEYS_OPTIMAL] <= counts[KEYS_REFINE]);
            assert_true(counts[KEYS_OPTIMAL] <= counts[KEYS_GREEDY]);
            if (!cubic)
                assert_true(counts[KEYS_OPTIMAL] <= counts[KEYS_PEUCKER]);
        }
    free(v);
    free(recon);
    free(keys);
    key_workspace_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_optimal_matches_enumeration),
        cmocka_unit_test(test_tent),
        cmocka_unit_test(test_greedy_worked),
        cmocka_unit_test(test_peucker_is_linear_refine),
        cmocka_unit_test(test_strategies_long_channels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
