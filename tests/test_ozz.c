/* The ozz-animation rows: `ozz-raw` reproduces the input within the quantisation ozz documents
 * (translations and scales as half floats, rotations as three 15-bit components of the smallest
 * three), through the track order, the rest pose, the time in seconds and the composed scale of
 * the mapping (codecs/ozz/ozz_codec.c); the optimizer's knob trades bytes for error; a stream for
 * another rig, a clip past ozz's 65,535 time points, and every truncation and byte flipped three
 * ways of a stream are refused or decode without touching memory they should not (ASan, UBSan).
 * The generic codec tests cover these rows too.  Built without ozz, every test here is skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/ozz/ozz_codec.h"
#include "generators/clip_library.h"
#include "harness/measure/measure.h"

static const codec *ozz_or_skip(const char *name)
{
    const codec *c = codec_find(name);
    assert_non_null(c);
    if (c->flags & CODEC_UNAVAILABLE) {
        print_message("  %s: skipped: %s\n", name, codec_unavailable_reason(c));
        skip();
    }
    return c;
}

static measured_clip *load_at(const char *name, const clip_params *p)
{
    char err[256];
    clip_source *s = clip_source_load(name, p, err, sizeof err);
    if (!s)
        fail_msg("%s: %s", name, err);
    measured_clip *m = measured_clip_create(s, NULL, err, sizeof err);
    assert_non_null(m);
    return m;
}

static measured_clip *load(const char *name)
{
    return load_at(name, &CLIP_DEFAULTS);
}

static codec_output encode(const codec *c, const measured_clip *m, const codec_params *p)
{
    codec_output out;
    codec_output_init(&out);
    const codec_input in = {m->source->clip, m->view, false};
    char err[256];
    if (c->ops->encode(c, &in, p, &out, err, sizeof err) != 0)
        fail_msg("%s on %s: %s", c->name, m->source->name, err);
    return out;
}

/* The depth of a bone: 1 for a root. */
static int depth(const anim_rig *rig, int b)
{
    int d = 1;
    for (int p = rig->parents[b]; p >= 0; p = rig->parents[p])
        d++;
    return d;
}

/* Half float: 11 significant bits, so a rounding is within 2^-11 of the value (2^-25 near 0). */
static double half_error(double x)
{
    return fabs(x) * ldexp(1, -11) + ldexp(1, -25);
}

static void test_raw_format_reproduces_the_input(void **state)
{
    (void)state;
    const codec *c = ozz_or_skip("ozz-raw");
    const char *clips[] = {"walk", "jump", "mocap", "random:bones=40,frames=90,seed=3",
                           "tests/data/bvh_good/two_joints_crlf.bvh"};
    for (int k = 0; k < 5; k++) {
        measured_clip *m = load(clips[k]);
        const anim_clip *orig = m->source->clip;
        const anim_rig *rig = orig->rig;
        codec_params p;
        codec_params_init(c, &p);
        codec_output out = encode(c, m, &p);
        char err[256];
        anim_clip *dec = c->ops->decode(c, out.bytes.data, out.bytes.size, rig, err, sizeof err);
        if (!dec)
            fail_msg("%s: %s", clips[k], err);
        assert_int_equal(dec->frame_count, orig->frame_count);
        assert_true(fabs(dec->fps - orig->fps) <= 1e-12 * orig->fps);
        double worst_t = 0, worst_q = 0, worst_s = 0;
        for (int b = 0; b < rig->bone_count; b++)
            for (int f = 0; f < orig->frame_count; f++) {
                for (int a = 0; a < 3; a++) {
                    const double x = clip_pos_channel(orig, b, a)[f], y = clip_pos_channel(dec, b, a)[f];
                    /* float32 on the way in, then half: both roundings */
                    const double bound = half_error(x) + fabs(x) * ldexp(1, -24);
                    if (!(fabs(x - y) <= bound))
                        fail_msg("%s: bone %d frame %d translation %d: %.9g for %.9g (half float: within %.3g)",
                                 clips[k], b, f, a, y, x, bound);
                    /* as a share of that bound: relative to x, a value near zero stored as 0 read 1.00 */
                    worst_t = fmax(worst_t, fabs(x - y) / bound);
                    /* scale: s / s(parent) in half, multiplied back down the chain */
                    const double s = clip_scl_channel(orig, b, a)[f], t = clip_scl_channel(dec, b, a)[f];
                    const double rel = pow(1 + ldexp(1, -11) + ldexp(1, -23), 2 * depth(rig, b)) - 1;
                    if (!(fabs(s - t) <= rel * fabs(s) + 1e-7))
                        fail_msg("%s: bone %d frame %d scale %d: %.9g for %.9g", clips[k], b, f, a, t, s);
                    worst_s = fmax(worst_s, fabs(s - t) / fabs(s));
                }
                /* rotation: the smallest three components to 2 / 32767 of [-1, 1] after x sqrt(2) (2.2e-5), the
                 * largest rebuilt from them as x * RSqrtEst(x) (ozz favours speed: an SSE estimate, 12 bits,
                 * 3.7e-4 relative): every component within 4e-4 once renormalised, the sign either way */
                const double *q = clip_rot_track(orig, b) + (size_t)f * 4, *r = clip_rot_track(dec, b) + (size_t)f * 4;
                const double dot = q[0] * r[0] + q[1] * r[1] + q[2] * r[2] + q[3] * r[3];
                const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
                for (int i = 0; i < 4; i++) {
                    const double d = fabs(q[i] / len - (dot < 0 ? -r[i] : r[i]));
                    if (!(d <= 4e-4))
                        fail_msg("%s: bone %d frame %d rotation %d: %.9g for %.9g", clips[k], b, f, i, r[i], q[i]);
                    worst_q = fmax(worst_q, d);
                }
            }
        print_message("  %-40s %6zu bytes; worst translation error %.2f of its bound, rotation component %.2e, "
                      "relative scale %.2e\n", clips[k], out.bytes.size, worst_t, worst_q, worst_s);
        clip_free(dec);
        codec_output_free(&out);
        measured_clip_free(m);
    }
}

/* The optimizer's knob: fewer bytes as the tolerance grows, and a decoded error that follows it. */
static void test_optimizer_knob(void **state)
{
    (void)state;
    const codec *c = ozz_or_skip("ozz");
    measured_clip *m = load("walk");
    const double tolerances[] = {0.1, 1, 10};
    size_t last = SIZE_MAX;
    double last_error = 0;
    for (int i = 0; i < 3; i++) {
        codec_params p;
        codec_params_init(c, &p);
        char err[256];
        assert_int_equal(codec_param_set(c, &p, 0, tolerances[i], err, sizeof err), 0);
        point_result r;
        assert_int_equal(measure_point(m, c, &p, false, &r, err, sizeof err), 0);
        assert_true(r.decoded_ok);
        assert_true(r.bytes < last);
        assert_true(r.decoded.max_m >= last_error);
        print_message("  ozz at %g mm: %zu bytes, decoded joint max %.4f mm\n", tolerances[i], r.bytes,
                      r.decoded.max_m * 1000);
        last = r.bytes;
        last_error = r.decoded.max_m;
        point_result_free(&r);
    }
    measured_clip_free(m);
}

static void test_other_rig_and_long_clips_refused(void **state)
{
    (void)state;
    const codec *c = ozz_or_skip("ozz-raw");
    measured_clip *m = load("walk");
    codec_params p;
    codec_params_init(c, &p);
    codec_output out = encode(c, m, &p);
    anim_rig *other = rig_create(29);
    char err[256];
    assert_null(c->ops->decode(c, out.bytes.data, out.bytes.size, other, err, sizeof err));
    assert_non_null(strstr(err, "30 tracks for a rig of 29 bones"));
    rig_free(other);
    codec_output_free(&out);
    measured_clip_free(m);
    /* 65,536 frames of one joint: one time point too many */
    clip_params cp = CLIP_DEFAULTS;
    clip_source *s = clip_source_load("random:bones=1,frames=65536,seed=1", &cp, err, sizeof err);
    assert_non_null(s);
    channel_view *view = channels_create(s->clip);
    codec_output o;
    codec_output_init(&o);
    const codec_input in = {s->clip, view, false};
    assert_int_equal(c->ops->encode(c, &in, &p, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "at most 65535 frames"));
    codec_output_free(&o);
    channels_free(view);
    clip_source_free(s);
}

/* ozz keeps the duration as a float32 of (frames - 1) / fps: at some rates a clip of two frames came
 * back as 0.99999994 of a frame and its stream was refused (found by the BVH fuzz target at 0.967742
 * fps).  Short clips at rates from 0.1 to 10,000 Hz decode to the frames they were made from. */
static void test_short_clips_at_any_rate(void **state)
{
    (void)state;
    const codec *rows[] = {ozz_or_skip("ozz-raw"), ozz_or_skip("ozz")};
    static const char *RATES[] = {"0.1", "0.967742", "0.9677419", "1", "3", "7.3", "23.976", "29.97", "30",
                                  "59.94", "119.88", "1000.3", "9999.7"};
    int checked = 0;
    for (size_t r = 0; r < sizeof RATES / sizeof *RATES; r++)
        for (int frames = 2; frames <= 5; frames++)
            for (int k = 0; k < 2; k++) {
                char spec[128], err[256];
                snprintf(spec, sizeof spec, "random:bones=3,frames=%d,rate=%s,seed=%d", frames, RATES[r], frames);
                clip_source *src = clip_source_load(spec, &CLIP_DEFAULTS, err, sizeof err);
                if (!src)
                    fail_msg("%s: %s", spec, err);
                channel_view *view = channels_create(src->clip);
                codec_params p;
                codec_params_init(rows[k], &p);
                codec_output out;
                codec_output_init(&out);
                const codec_input in = {src->clip, view, false};
                if (rows[k]->ops->encode(rows[k], &in, &p, &out, err, sizeof err) != 0)
                    fail_msg("%s on %s: %s", rows[k]->name, spec, err);
                anim_clip *dec = rows[k]->ops->decode(rows[k], out.bytes.data, out.bytes.size, src->rig, err, sizeof err);
                if (!dec)
                    fail_msg("%s on %s: its stream was refused: %s", rows[k]->name, spec, err);
                assert_int_equal(dec->frame_count, frames);
                assert_true(fabs(dec->fps - src->clip->fps) <= 1e-12 * src->clip->fps);
                checked++;
                clip_free(dec);
                codec_output_free(&out);
                channels_free(view);
                clip_source_free(src);
            }
    print_message("  %d short clips decoded to their frames\n", checked);
}

/* Every truncation refused; every byte flipped three ways refused, or decoded and sampled at the
 * frames and between them, without a read or write ASan or UBSan would see. */
static void test_hostile_streams(void **state)
{
    (void)state;
    const char *rows[] = {"ozz", "ozz-raw"};
    clip_params cp = CLIP_DEFAULTS;
    cp.fps = 10; /* the jump in 21 frames: its scales through the mapping, a stream short enough to flip whole */
    for (int r = 0; r < 2; r++)
        ozz_or_skip(rows[r]); /* before the clip is loaded: a skip jumps out and would leak it */
    measured_clip *m = load_at("jump", &cp);
    const anim_rig *rig = m->source->clip->rig;
    for (int r = 0; r < 2; r++) {
        const codec *c = ozz_or_skip(rows[r]);
        codec_params p;
        codec_params_init(c, &p);
        codec_output out = encode(c, m, &p);
        const size_t n = out.bytes.size;
        char err[256];
        for (size_t len = 0; len < n; len++) {
            uint8_t *cut = malloc(len ? len : 1);
            memcpy(cut, out.bytes.data, len);
            anim_clip *dec = c->ops->decode(c, cut, len, rig, err, sizeof err);
            if (dec)
                fail_msg("%s: a stream cut to %zu of %zu bytes decoded", c->name, len, n);
            free(cut);
        }
        static const uint8_t MASKS[] = {0x01, 0x80, 0xff};
        int refused = 0, decoded = 0;
        double pose[30 * POSE_STRIDE];
        for (size_t at = 0; at < n; at++)
            for (int k = 0; k < 3; k++) {
                uint8_t *bad = malloc(n);
                memcpy(bad, out.bytes.data, n);
                bad[at] ^= MASKS[k];
                anim_clip *dec = c->ops->decode(c, bad, n, rig, err, sizeof err);
                refused += dec == NULL;
                decoded += dec != NULL;
                clip_free(dec);
                codec_sampler *s = c->ops->sampler_create(c, bad, n, rig, err, sizeof err);
                if (s) {
                    const double times[] = {0, 0.5, 7.25, 20, 3.0, 19.9};
                    for (int i = 0; i < 6; i++)
                        c->ops->sample(s, times[i], pose);
                    c->ops->sampler_free(s);
                }
                free(bad);
            }
        print_message("  %-8s %6zu bytes: %zu cuts refused; %d flips refused, %d decoded\n", c->name, n, n, refused,
                      decoded);
        codec_output_free(&out);
    }
    measured_clip_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_format_reproduces_the_input),
        cmocka_unit_test(test_optimizer_knob),
        cmocka_unit_test(test_other_rig_and_long_clips_refused),
        cmocka_unit_test(test_short_clips_at_any_rate),
        cmocka_unit_test(test_hostile_streams),
    };
    return cmocka_run_group_tests_name("ozz", tests, NULL, NULL);
}
