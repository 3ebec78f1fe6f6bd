/* Unit tests of the core and the study's codec pieces, each against values
 * worked out by hand (the working is in the comments). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/quantize/quantize.h"
#include "codecs/keys/refine.h"
#include "codecs/study/study_container.h"
#include "codecs/study/study_plan.h"
#include "core/channels.h"
#include "core/curve.h"
#include "core/fk.h"
#include "core/pcg32.h"
#include "core/quat.h"
#include "generators/study_clips.h"
#include "generators/study_rig.h"
#include "channel_oracle.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-12)

static void world_of(const anim_clip *c, int bone, double out[3])
{
    double wp[STUDY_BONE_COUNT * 3], wq[STUDY_BONE_COUNT * 4];
    fk_frame(c, 0, wp, wq);
    memcpy(out, wp + bone * 3, 3 * sizeof *out);
}

/* Rest pose: hand.L = hips (0, .95, 0) + spine .12 + chest .16 + shoulder.L
 * (.05, .16) + upperarm .13 + forearm .28 + hand .26 = (0.72, 1.39, 0). */
static void test_fk_rest_pose(void **state)
{
    (void)state;
    anim_rig *rig = study_rig_create();
    anim_clip *c = clip_create_rest(rig, 1, 60);
    double p[3];
    world_of(c, rig_find_bone(rig, "hand.L"), p);
    NEAR(p[0], 0.72);
    NEAR(p[1], 1.39);
    NEAR(p[2], 0);
    world_of(c, rig_find_bone(rig, "toe.R"), p); /* (-0.09, 0.95-.06-.42-.40-.06, .12) */
    NEAR(p[0], -0.09);
    NEAR(p[1], 0.01);
    NEAR(p[2], 0.12);
    clip_free(c);
    rig_free(rig);
}

/* Hips turned +90 degrees about Y maps (x, y, z) to (z, y, -x): hand.L, at
 * (0.72, 0.44, 0) from the hips, lands at (0, 0.95 + 0.44, -0.72).  A hips
 * scale of 2 on x stretches only the hips' children's offsets: thigh.L at
 * (0.18, 0.89, 0) and shin.L, unscaled below it, at (0.18, 0.47, 0). */
static void test_fk_rotated_and_scaled(void **state)
{
    (void)state;
    anim_rig *rig = study_rig_create();
    anim_clip *c = clip_create_rest(rig, 1, 60);
    quat_from_euler_deg(0, 90, 0, clip_rot_track(c, 0));
    double p[3];
    world_of(c, rig_find_bone(rig, "hand.L"), p);
    NEAR(p[0], 0);
    NEAR(p[1], 1.39);
    NEAR(p[2], -0.72);
    quat_from_euler_deg(0, 0, 0, clip_rot_track(c, 0));
    clip_scl_channel(c, 0, 0)[0] = 2;
    world_of(c, rig_find_bone(rig, "thigh.L"), p);
    NEAR(p[0], 0.18);
    NEAR(p[1], 0.89);
    world_of(c, rig_find_bone(rig, "shin.L"), p);
    NEAR(p[0], 0.18);
    NEAR(p[1], 0.47);
    clip_free(c);
    rig_free(rig);
}

static void test_constant_tests(void **state)
{
    (void)state;
    const double inside[3] = {1, 1 + 0.9e-7, 1};
    const double outside[3] = {1, 1 + 1.1e-7, 1};
    assert_true(scalar_is_constant(inside, 3));
    assert_false(scalar_is_constant(outside, 3));
    double q[8] = {0, 0, 0, 1};
    quat_from_euler_deg(0.00009, 0, 0, q + 4);
    assert_true(rotation_is_constant(q, 2));
    quat_from_euler_deg(0.00011, 0, 0, q + 4);
    assert_false(rotation_is_constant(q, 2));
    /* a flipped sign is the same rotation: the angle uses |dot| */
    double flipped[8] = {0, 0, 0, 1, 0, 0, 0, -1};
    assert_true(rotation_is_constant(flipped, 2));
}

static int refine_keys(const double *v, int n, double eps, bool cubic, int *keys)
{
    double recon[16], err[64];
    assert_true(refine_err_scratch(n) <= 64);
    return refine_scalar(v, n, eps, cubic, keys, recon, err);
}

static void assert_keys(const int *keys, int count, const int *expected, int expected_count)
{
    assert_int_equal(count, expected_count);
    for (int i = 0; i < count; i++)
        assert_int_equal(keys[i], expected[i]);
}

/* Linear, v = 0 0 1 0 0.  Keys {0,4}: the error at frame 2 is 1, insert 2.
 * Keys {0,2,4}: frames 1 and 3 reconstruct to 0.5, error 0.5 (a tie: the
 * first, frame 1, is inserted when 0.5 > eps).  With eps 0.5 it stops. */
static void test_refine_linear(void **state)
{
    (void)state;
    const double v[5] = {0, 0, 1, 0, 0};
    int keys[5];
    const int all[5] = {0, 1, 2, 3, 4}, peak[3] = {0, 2, 4};
    assert_keys(keys, refine_keys(v, 5, 0.1, false, keys), all, 5);
    assert_keys(keys, refine_keys(v, 5, 0.5, false, keys), peak, 3);
    const double line[5] = {0, 1, 2, 3, 4};
    const int ends[2] = {0, 4};
    assert_keys(keys, refine_keys(line, 5, 1e-9, false, keys), ends, 2);
}

/* Cubic, v = 0 0 1 0 0, keys {0,2,4}: tangents (1-0)/2 = 0.5, (0-0)/4 = 0,
 * (0-1)/2 = -0.5, so segment 0 has p0 0, p1 1, m0 0.5*2 = 1, m1 0; at u = 0.5
 * it is (u^3 - 2u^2 + u) * 1 + (-2u^3 + 3u^2) * 1 = 0.125 + 0.5 = 0.625.
 * eps 0.7 keeps {0,2,4}; eps 0.5 inserts 1, then 3 (0.625 again). */
static void test_refine_cubic(void **state)
{
    (void)state;
    const double v[5] = {0, 0, 1, 0, 0};
    int keys[5];
    const int all[5] = {0, 1, 2, 3, 4}, peak[3] = {0, 2, 4};
    assert_keys(keys, refine_keys(v, 5, 0.5, true, keys), all, 5);
    assert_keys(keys, refine_keys(v, 5, 0.7, true, keys), peak, 3);
    /* Catmull-Rom end tangents reproduce a straight line exactly */
    const double line[5] = {0, 1, 2, 3, 4};
    const int ends[2] = {0, 4};
    assert_keys(keys, refine_keys(line, 5, 1e-12, true, keys), ends, 2);
}

/* A rotation track turning 0..40 degrees about X over 9 frames, with a bump:
 * after refinement every frame must lie within the tolerance. */
static void test_refine_rotation_within_tolerance(void **state)
{
    (void)state;
    enum { N = 9 };
    double q[N * 4], recon[N * 4], err[64];
    assert_true(refine_err_scratch(N) <= 64);
    int keys[N];
    for (int f = 0; f < N; f++)
        quat_from_euler_deg(5.0 * f + (f == 4 ? 3 : 0), 0, 0, q + f * 4);
    for (int cubic = 0; cubic <= 1; cubic++) {
        const int count = refine_rotation(q, N, 0.2, cubic, keys, recon, err);
        assert_true(count >= 3 && count <= N);
        assert_int_equal(keys[0], 0);
        assert_int_equal(keys[count - 1], N - 1);
        const curve_keys k = {q, 4, keys, count, cubic};
        curve_reconstruct4(&k, N, recon);
        for (int f = 0; f < N; f++) {
            double r[4];
            quat_normalize(recon + f * 4, r);
            assert_true(quat_angle_deg(r, q + f * 4) <= 0.2);
        }
    }
}

/* The study's fit() as written: refit the whole channel after every key and
 * insert the first frame with the largest error; a key frame never counts
 * (see exclude_keys in codecs/keys/refine.c).  Quadratic, and the oracle the
 * incremental refine must match key for key. */
static int naive_refine(const double *v, int n, bool rotation, double eps, bool cubic, int *keys)
{
    if (n <= 2) {
        for (int i = 0; i < n; i++)
            keys[i] = i;
        return n;
    }
    double *recon = malloc((size_t)n * 4 * sizeof *recon);
    int count = 2;
    keys[0] = 0;
    keys[1] = n - 1;
    for (;;) {
        int wi;
        const double worst = channel_worst_error(v, n, rotation, cubic, keys, count, recon, &wi);
        if (wi < 0 || worst <= eps || count >= n)
            break;
        int lo = 0;
        while (keys[lo] < wi)
            lo++;
        memmove(keys + lo + 1, keys + lo, (size_t)(count - lo) * sizeof *keys);
        keys[lo] = wi;
        count++;
    }
    free(recon);
    return count;
}

/* Smooth motion with corners, plateaus and noise, so that refinement
 * inserts keys all over the channel, in every order. */
static void random_channel(pcg32 *rng, int n, bool rotation, double *v)
{
    const double a = 0.2 + pcg32_unit(rng), w = 0.01 + 0.3 * pcg32_unit(rng);
    for (int f = 0; f < n; f++) {
        const double plateau = (f / 7) % 3 == 0 ? 0 : 1;
        const double x = a * sin(w * f) * plateau + 0.05 * pcg32_unit(rng) + (f > n / 2 ? 0.4 : 0);
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

/* The incremental refine (windows of keys, a max-tree) gives exactly the
 * keys of the quadratic full refit, over lengths that cross block and tree
 * boundaries, both curves, scalars and rotations, tolerances from "every
 * frame" to "two keys". */
static void test_refine_matches_full_refit(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 42, 54);
    static const int lengths[] = {3, 4, 5, 15, 16, 17, 33, 64, 100, 257, 600};
    static const double eps_scalar[] = {0, 1e-3, 0.02, 0.1, 10};
    static const double eps_deg[] = {0, 0.05, 0.5, 3, 360};
    int checked = 0, keys_total = 0;
    for (size_t li = 0; li < sizeof lengths / sizeof *lengths; li++) {
        const int n = lengths[li];
        double *v = malloc((size_t)n * 4 * sizeof *v), *recon = malloc((size_t)n * 4 * sizeof *recon);
        double *err = malloc(refine_err_scratch(n) * sizeof *err);
        int *keys = malloc((size_t)n * sizeof *keys), *expected = malloc((size_t)n * sizeof *expected);
        for (int rotation = 0; rotation <= 1; rotation++)
            for (int cubic = 0; cubic <= 1; cubic++)
                for (int e = 0; e < 5; e++) {
                    random_channel(&rng, n, rotation, v);
                    const double eps = rotation ? eps_deg[e] : eps_scalar[e];
                    const int count = rotation ? refine_rotation(v, n, eps, cubic, keys, recon, err)
                                               : refine_scalar(v, n, eps, cubic, keys, recon, err);
                    const int want = naive_refine(v, n, rotation, eps, cubic, expected);
                    assert_int_equal(count, want);
                    assert_memory_equal(keys, expected, (size_t)count * sizeof *keys);
                    checked++;
                    keys_total += count;
                }
        free(v);
        free(recon);
        free(err);
        free(keys);
        free(expected);
    }
    assert_int_equal(checked, 11 * 20);
    assert_true(keys_total > 2 * checked); /* the cases do refine */
}

/* 16-bit fixed point: the error is at most half a step, range / 65535 / 2. */
static void test_scalar_quantisation_bound(void **state)
{
    (void)state;
    study_lcg lcg = {12345};
    double v[200];
    int keys[200];
    for (int i = 0; i < 200; i++) {
        v[i] = 0.3 + 1.7 * study_lcg_next(&lcg);
        keys[i] = i;
    }
    const scalar_range r = quant_scalar_range(v, keys, 200);
    double worst = 0;
    for (int i = 0; i < 200; i++) {
        const double back = quant_scalar_decode(quant_scalar_encode(v[i], r), r.lo, r.range);
        worst = fmax(worst, fabs(back - v[i]));
    }
    assert_true(worst <= r.range / 65535 / 2 * (1 + 1e-9));
    assert_true(worst > 0);
}

/* Smallest three: each stored component is within d = sqrt(1/2) / 1023 of
 * the truth; the rebuilt largest one w >= 1/2 moves by at most
 * d * sum|x_i| / w <= d * sqrt(3 * 3/4) / (1/2) = 3d; so |dq| <= sqrt(3 + 9) d
 * and the angle 2|dq| <= 2 * 3.4641 * 6.9120e-4 rad = 0.2744 degrees. */
static void test_smallest_three_bound(void **state)
{
    (void)state;
    study_lcg lcg = {777};
    double worst = 0;
    for (int i = 0; i < 20000; i++) {
        double q[4] = {study_lcg_next(&lcg), study_lcg_next(&lcg), study_lcg_next(&lcg),
                       study_lcg_next(&lcg)}, n[4], back[4];
        quat_normalize(q, n);
        quant_rotation_decode(quant_rotation_encode(n), back);
        worst = fmax(worst, quat_angle_deg(n, back));
    }
    assert_true(worst < 0.2744);
    assert_true(worst > 0.01);
}

/* A one-bone rig, 3 frames; position x = 0, 0.5, 2 (a corner at frame 1,
 * so all three frames are keys); everything else at rest: position
 * (0, 0.25, 0), scale 1, identity rotation.  Bytes worked out by hand. */
static anim_rig *one_bone_rig(void)
{
    anim_rig *rig = rig_create(1);
    strcpy(rig->names[0], "root");
    rig->parents[0] = -1;
    rig->rest_offsets[1] = 0.25;
    return rig;
}

static void encode_tiny(bool quantize, byte_buffer *out)
{
    anim_rig *rig = one_bone_rig();
    anim_clip *c = clip_create_rest(rig, 3, 30);
    double *x = clip_pos_channel(c, 0, 0);
    x[0] = 0;
    x[1] = 0.5;
    x[2] = 2;
    channel_view *v = channels_create(c);
    const plan_options o = {.reduce_keys = true, .eps_m = 0.0001, .eps_deg = 0.01, .quantize = quantize, .drop_constant = true, .reconstruct = true};
    study_plan *p = study_plan_create(v, &o);
    bytes_init(out);
    assert_int_equal(study_container_write(p, out), CONTAINER_OK);
    study_plan_free(p);
    channels_free(v);
    clip_free(c);
    rig_free(rig);
}

static void test_container_layout_float(void **state)
{
    (void)state;
    static const uint8_t expected[] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* header */
        0, 0, 3, 0,                                     /* id 0, 3 keys */
        0, 0, 0, 0, 0, 0,                               /* frame 0, 0.0f */
        1, 0, 0, 0, 0, 0x3F,                            /* frame 1, 0.5f */
        2, 0, 0, 0, 0, 0x40,                            /* frame 2, 2.0f */
        1, 0, 1, 0, 0, 0, 0x80, 0x3E,                   /* id 1 constant 0.25f */
        2, 0, 1, 0, 0, 0, 0, 0,                         /* id 2 constant 0 */
        3, 0, 1, 0, 0, 0, 0x80, 0x3F,                   /* scale x 1.0f */
        4, 0, 1, 0, 0, 0, 0x80, 0x3F,                   /* scale y */
        5, 0, 1, 0, 0, 0, 0x80, 0x3F,                   /* scale z */
        0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3F, /* bone 0 identity */
    };
    byte_buffer b;
    encode_tiny(false, &b);
    assert_int_equal(b.size, sizeof expected);
    assert_memory_equal(b.data, expected, sizeof expected);
    bytes_free(&b);
}

/* Quantised: lo 0, range 2; codes 0, round(0.5 / 2 * 65535) = 16384 and
 * 65535.  Constant scalars store a u16 0 (the study's layout).  Identity:
 * largest is w (index 3), the others round(0.5 * 1023) = 512, so
 * 3 << 30 | 512 << 20 | 512 << 10 | 512 = 0xE0080200. */
static void test_container_layout_quantised(void **state)
{
    (void)state;
    static const uint8_t expected[] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* header */
        0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0x40,          /* id 0, 3 keys, lo 0, range 2.0f */
        0, 0, 0, 0, 1, 0, 0x00, 0x40, 2, 0, 0xFF, 0xFF, /* (0, 0) (1, 16384) (2, 65535) */
        1, 0, 1, 0, 0, 0,                               /* constants: u16 0 */
        2, 0, 1, 0, 0, 0, 3, 0, 1, 0, 0, 0, 4, 0, 1, 0, 0, 0, 5, 0, 1, 0, 0, 0,
        0, 0, 1, 0, 0x00, 0x02, 0x08, 0xE0, /* bone 0, identity smallest-three */
    };
    byte_buffer b;
    encode_tiny(true, &b);
    assert_int_equal(b.size, sizeof expected);
    assert_memory_equal(b.data, expected, sizeof expected);
    bytes_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fk_rest_pose),
        cmocka_unit_test(test_fk_rotated_and_scaled),
        cmocka_unit_test(test_constant_tests),
        cmocka_unit_test(test_refine_linear),
        cmocka_unit_test(test_refine_cubic),
        cmocka_unit_test(test_refine_rotation_within_tolerance),
        cmocka_unit_test(test_refine_matches_full_refit),
        cmocka_unit_test(test_scalar_quantisation_bound),
        cmocka_unit_test(test_smallest_three_bound),
        cmocka_unit_test(test_container_layout_float),
        cmocka_unit_test(test_container_layout_quantised),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
