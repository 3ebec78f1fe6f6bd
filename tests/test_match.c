/* The equal-error search on codecs whose rate-distortion curve is known by
 * construction: a test-only codec stores the clip as raw floats, moves the
 * root by e(tol) millimetres, and pads its stream to b(tol) bytes.  Every
 * joint then moves by e, so the decoded error is e (to float rounding) and
 * the answers can be worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/study/raw_codec.h"
#include "harness/measure/match.h"

typedef struct curve {
    double (*error_mm)(double tol);
    size_t (*bytes)(double tol);
} curve;

/* The knob's value: tol_mm, or the declared parameter "bits" / "fineness". */
static double setting(const codec *c, const codec_params *p)
{
    const int i = codec_knob(c);
    return i >= 0 ? codec_param_get(c, p, i) : p->tol_mm;
}

static int encode(const codec *c, const codec_input *in, const codec_params *p, codec_output *out, char *err,
                  size_t err_size)
{
    const curve *k = c->config;
    if (RAW_CODEC_OPS.encode(c, in, p, out, err, err_size) != 0)
        return -1;
    const size_t raw = out->bytes.size, want = k->bytes(setting(c, p));
    if (want > raw + 12)
        bytes_zeros(&out->bytes, want - raw - 12);
    bytes_f64(&out->bytes, k->error_mm(setting(c, p))); /* the stream ends with e and the raw part's size */
    bytes_u32(&out->bytes, (uint32_t)raw);
    return 0;
}

static anim_clip *decode(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig, char *err,
                         size_t err_size)
{
    if (size < 12)
        return NULL;
    byte_reader r = {bytes, size, size - 12};
    uint32_t raw = 0;
    double e = 0;
    if (!read_f64(&r, &e) || !read_u32(&r, &raw) || raw > size - 12)
        return NULL;
    anim_clip *clip = RAW_CODEC_OPS.decode(c, bytes, raw, rig, err, err_size);
    if (clip)
        for (int f = 0; f < clip->frame_count; f++)
            clip_pos_channel(clip, 0, 0)[f] += e / 1000;
    return clip;
}

static codec_sampler *sampler_create(const codec *c, const uint8_t *bytes, size_t size, const anim_rig *rig,
                                     char *err, size_t err_size)
{
    (void)c, (void)bytes, (void)size, (void)rig;
    snprintf(err, err_size, "no sampler");
    return NULL;
}

static void sample(codec_sampler *s, double t, double *pose)
{
    (void)s, (void)t, (void)pose;
}

static void sampler_free(codec_sampler *s)
{
    (void)s;
}

static const codec_ops OPS = {encode, decode, sampler_create, sample, sampler_free};

static size_t falling_bytes(double tol)
{
    return (size_t)(2000000.0 / (1.0 + tol));
}
static double linear_error(double tol)
{
    return 0.8 * tol;
}
/* Worse with tol, except a dip: between 2 and 4 mm of tolerance it decodes to 0.5 mm. */
static double dipping_error(double tol)
{
    return tol >= 2 && tol < 4 ? 0.5 : tol;
}
static double floored_error(double tol)
{
    return 2 + tol;
}

static measured_clip *walk(void)
{
    char err[256];
    clip_source *s = clip_source_load("walk", &CLIP_DEFAULTS, err, sizeof err);
    assert_non_null(s);
    metric_params mp;
    metric_params_default(&mp);
    mp.substeps = 1; /* the test codec has no sampler */
    measured_clip *m = measured_clip_create(s, &mp, err, sizeof err);
    assert_non_null(m);
    return m;
}

static const codec_param_decl TOLERANCE[] = {
    {"tol_mm", PARAM_REAL, 1, 0, INFINITY, true, "mm", "tolerance", NULL, +1},
};

static match_result search_codec(const codec *c, double target)
{
    measured_clip *m = walk();
    codec_params base;
    codec_params_init(c, &base);
    match_result r;
    char err[256];
    if (match_search(m, c, &base, MATCH_SHELL_MAX, target, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    measured_clip_free(m);
    return r;
}

static match_result search(const curve *k, double target)
{
    const codec c = {"synthetic", "test curve", 0, k, &OPS, 1, "", TOLERANCE, 1};
    return search_codec(&c, target);
}

/* e = 0.8 tol meets 1 mm up to tol = 1.25: bytes 2000000 / 2.25 = 888888. */
static void test_monotone_curve(void **state)
{
    (void)state;
    const curve k = {linear_error, falling_bytes};
    match_result r = search(&k, 1.0);
    assert_true(r.reachable);
    assert_true(r.knob <= 1.25 && r.knob > 1.25 * 0.999);
    assert_true(r.point.bytes >= 888888 && r.point.bytes <= 888888 + 200);
    assert_true(match_metric_mm(&r.point, MATCH_SHELL_MAX) <= 1.0);
    assert_true(r.encodes <= 20); /* 6 octaves up (to 25.6 mm, past 16x the target), 12 bisections */
    match_result_free(&r);
}

/* Met at tol <= 1 and again on [2, 4): the cheapest stream is just below 4,
 * 2000000 / 5 = 400000 bytes, not the 1000000 bytes at tol = 1 that a search
 * assuming monotone error would stop at. */
static void test_non_monotone_curve(void **state)
{
    (void)state;
    const curve k = {dipping_error, falling_bytes};
    match_result r = search(&k, 1.0);
    assert_true(r.reachable);
    if (!(r.knob < 4 && r.knob > 3.99))
        fail_msg("knob %.9g, %zu bytes after %d encodes", r.knob, r.point.bytes, r.encodes);
    assert_true(r.point.bytes >= 400000 && r.point.bytes <= 400200);
    match_result_free(&r);
}

/* Never below 2 mm: the target of 1 mm cannot be reached, and the floor says so. */
static void test_unreachable(void **state)
{
    (void)state;
    const curve k = {floored_error, falling_bytes};
    match_result r = search(&k, 1.0);
    assert_false(r.reachable);
    assert_true(r.floor_mm >= 2 && r.floor_mm < 2.001);
    match_result_free(&r);
}

/* Knobs whose larger values cost more bytes (direction -1), declared by the
 * codec: an integer "bits" with e = 100 / 2^bits mm and 1000 bytes a bit
 * meets 1 mm from 7 bits (0.78 mm; 6 bits give 1.56 mm): the answer is 7 bits,
 * 7000 bytes.  A real "fineness" f with e = 10 / f mm and 1000 f bytes meets
 * 1 mm from f = 10: the answer is f = 10 within the bisection, 10000 bytes. */
static double bits_error(double bits)
{
    return 100.0 / pow(2, bits);
}
static size_t bits_bytes(double bits)
{
    return (size_t)(1000 * bits) + 1000000;
}
static double fineness_error(double f)
{
    return 10.0 / f;
}
static size_t fineness_bytes(double f)
{
    return (size_t)(1000 * f) + 1000000;
}

static void test_knobs_declared_finer_upward(void **state)
{
    (void)state;
    static const codec_param_decl BITS[] = {
        {"bits", PARAM_INT, 8, 1, 16, false, "bits", "bits per value", NULL, -1},
    };
    static const codec_param_decl FINENESS[] = {
        {"fineness", PARAM_REAL, 4, 0, 1000, true, "", "how fine", NULL, -1},
    };
    const curve kb = {bits_error, bits_bytes}, kf = {fineness_error, fineness_bytes};
    const codec bits = {"synthetic-bits", "test curve", 0, &kb, &OPS, 1, "", BITS, 1};
    const codec fine = {"synthetic-fineness", "test curve", 0, &kf, &OPS, 1, "", FINENESS, 1};
    match_result r = search_codec(&bits, 1.0);
    assert_true(r.reachable);
    if (r.knob != 7)
        fail_msg("bits: chose %g after %d encodes", r.knob, r.encodes);
    assert_int_equal(r.point.bytes, 1007000);
    match_result_free(&r);
    r = search_codec(&fine, 1.0);
    assert_true(r.reachable);
    if (!(r.knob >= 10 && r.knob < 10.01))
        fail_msg("fineness: chose %.9g after %d encodes", r.knob, r.encodes);
    match_result_free(&r);
}

static void test_metric_names(void **state)
{
    (void)state;
    assert_int_equal(match_metric_find("shell_max_mm"), MATCH_SHELL_MAX);
    assert_int_equal(match_metric_find("between_max_mm"), MATCH_BETWEEN_MAX);
    assert_int_equal(match_metric_find("shell_max"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_monotone_curve),
        cmocka_unit_test(test_non_monotone_curve),
        cmocka_unit_test(test_unreachable),
        cmocka_unit_test(test_knobs_declared_finer_upward),
        cmocka_unit_test(test_metric_names),
    };
    return cmocka_run_group_tests_name("match", tests, NULL, NULL);
}
