/* shellpack (issue 11): the contract on decoded clips, a chain built to break
 * a tolerance per channel, folding, predictors worked by hand, the byte
 * breakdown, the header's rig check, and hostile streams (run under ASan and
 * UBSan by make check). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/shellpack/shellpack.h"
#include "codecs/shellpack/shellpack_side.h"
#include "core/channels.h"
#include "core/fk.h"
#include "generators/clip_library.h"
#include "harness/measure/measure.h"
#include "row_encode.h"

/* twenty bones in one chain, 240 frames of random motion at every joint */
#define CHAIN "random:bones=20,frames=240,branching=1,depth=24,seed=4"

static measured_clip *load(const char *name, double seconds)
{
    return row_measured_clip(row_source(name, seconds));
}

/* The harness measures the clip decoded from the bytes: ACL's shell distance,
 * max over every joint and frame, within the target; the codec's own report
 * is that same figure.  Every closed-loop row, on a long chain, the study's
 * clips (the jump scales its joints) and a branching random rig. */
static void test_contract_on_decoded_clips(void **state)
{
    (void)state;
    static const char *const CLIPS[] = {CHAIN, "walk", "jump", "mocap", "random:bones=40,frames=120,seed=3"};
    static const char *const ROWS[] = {"shellpack", "shellpack-quat", "shellpack-allkeys", "shellpack-nopred",
                                       "shellpack-gzip"};
    assert_contract_on_decoded_clips(CLIPS, sizeof CLIPS / sizeof *CLIPS, ROWS, sizeof ROWS / sizeof *ROWS);
}

/* The chain is built so that a tolerance per channel fails: each of twenty
 * joints may turn by tol / 0.35 m, and the errors add up along a chain far
 * longer than 0.35 m.  shellpack-channel (that tolerance, no closed loop)
 * misses the target by more than twice; shellpack, closing the loop through
 * the hierarchy, meets it with the same tol_mm. */
static void test_chain_breaks_a_tolerance_per_channel(void **state)
{
    (void)state;
    measured_clip *m = load(CHAIN, 0);
    for (int t = 0; t < 2; t++) {
        const double target = t ? 0.1 : 1;
        point_result naive = measure_row(m, "shellpack-channel", target), closed = measure_row(m, "shellpack", target);
        print_message("  chain at %g mm: per channel %.3f mm (%zu bytes), closed loop %.4f mm (%zu bytes)\n", target,
                      naive.metrics.shell_m.max * 1000, naive.bytes, closed.metrics.shell_m.max * 1000, closed.bytes);
        assert_true(naive.metrics.shell_m.max * 1000 > 2 * target);
        assert_true(closed.metrics.shell_m.max * 1000 <= target);
        point_result_free(&naive);
        point_result_free(&closed);
    }
    measured_clip_free(m);
}

/* A clip whose joint 3 never moves from its rest pose and whose joint 5 holds
 * a rotation and a translation off its rest: the stream folds the first to
 * "rest" and the second to constants (float32), and stores no curve for them. */
static void test_folding(void **state)
{
    (void)state;
    clip_params cp = CLIP_DEFAULTS;
    cp.walk_seconds = 1;
    char err[256];
    clip_source *s = clip_source_load("walk", &cp, err, sizeof err);
    assert_non_null(s);
    anim_clip *c = s->clip;
    const double held[4] = {0.1, -0.2, 0.3, 0.9};
    const double len = sqrt(0.01 + 0.04 + 0.09 + 0.81);
    for (int f = 0; f < c->frame_count; f++) {
        for (int a = 0; a < 3; a++) {
            clip_pos_channel(c, 3, a)[f] = c->rig->rest_offsets[3 * 3 + a];
            clip_scl_channel(c, 3, a)[f] = 1;
            clip_pos_channel(c, 5, a)[f] = 0.25 + a;
            clip_scl_channel(c, 5, a)[f] = 1;
        }
        double *q3 = clip_rot_track(c, 3) + f * 4, *q5 = clip_rot_track(c, 5) + f * 4;
        q3[0] = q3[1] = q3[2] = 0;
        q3[3] = 1;
        for (int i = 0; i < 4; i++)
            q5[i] = held[i] / len;
    }
    s->sample_hash = clip_hash(c);
    strcpy(s->generator, "bvh"); /* between frames, the original is this clip's interpolation, not the walk's */
    measured_clip *m = row_measured_clip(s);
    codec_output out = encode_row(m, "shellpack", 0.1);
    sp_plan p;
    sp_header h;
    assert_int_equal(sp_read(out.bytes.data, out.bytes.size, c->rig, &p, &h, err, sizeof err), 0);
    for (int type = 0; type < SP_TYPES; type++)
        assert_int_equal(sp_track_at(&p, 3, type)->mode, SP_REST);
    assert_int_equal(sp_track_at(&p, 5, SP_ROT)->mode, SP_CONST);
    assert_int_equal(sp_track_at(&p, 5, SP_POS)->mode, SP_CONST);
    assert_int_equal(sp_track_at(&p, 5, SP_SCL)->mode, SP_REST);
    for (int a = 0; a < 3; a++)
        assert_true(sp_track_at(&p, 5, SP_POS)->constant[a] == (float)(0.25 + a));
    assert_int_equal(p.frames, c->frame_count);
    assert_true(h.fps == c->fps);
    assert_true(h.target_mm == 0.1f && h.shell_mm == 30.0f);
    sp_plan_free(&p);
    codec_output_free(&out);
    measured_clip_free(m);
}

/* The predictors, by hand, on 10, 13, 17, 22, 28.  None predicts 0;
 * previous 0 (no history), 10, 13, 17, 22; linear (2 k1 - k2) 0, 10, 16,
 * 21, 27.  The adaptive filter, k1 + floor((k1 - k2) w / 16), starts at
 * w = 16: 16 for 17 (residual +1, on the slope's side: w = 17), then
 * 17 + floor(4 * 17 / 16) = 21 for 22 (+1: w = 18), then
 * 22 + floor(5 * 18 / 16) = 27 for 28. */
static void test_predictors_worked(void **state)
{
    (void)state;
    static const int32_t v[5] = {10, 13, 17, 22, 28};
    static const int64_t expect[SP_PREDICTORS][5] = {
        {0, 0, 0, 0, 0},      /* none */
        {0, 10, 13, 17, 22},  /* previous */
        {0, 10, 16, 21, 27},  /* linear: 2 k1 - k2 */
        /* adaptive: k1 + floor((k1 - k2) w / 16); w = 16 at the third value (pred 13 + 3 = 16,
         * residual +1 on the slope's side: w = 17); fourth: 17 + floor(4 * 17 / 16) = 21, residual +1:
         * w = 18; fifth: 22 + floor(5 * 18 / 16) = 27 */
        {0, 10, 16, 21, 27},
    };
    for (int pr = 0; pr < SP_PREDICTORS; pr++) {
        sp_predictor_state s;
        sp_predictor_reset(&s);
        for (int i = 0; i < 5; i++) {
            const int64_t pred = sp_predict(pr, &s);
            if (pred != expect[pr][i])
                fail_msg("predictor %d, value %d: predicted %lld, expected %lld", pr, i, (long long)pred,
                         (long long)expect[pr][i]);
            sp_predictor_update(pr, &s, v[i], sp_wrap32(v[i] - pred));
        }
    }
    /* On 2^i the prediction with weight w is 2^(i-1) + 2^(i-2) w / 16, short of 2^i until w = 32:
     * every residual is on the slope's side, the weight climbs by one from the third value on and
     * stops at 32 after the 17th value; from there the residual is 0. */
    sp_predictor_state s;
    sp_predictor_reset(&s);
    for (int i = 0; i <= 28; i++) {
        const int32_t value = (int32_t)1 << i;
        const int64_t pred = sp_predict(SP_PRED_ADAPTIVE, &s);
        if (i >= 2)
            assert_true(pred == ((int64_t)1 << (i - 1)) + ((int64_t)1 << (i - 2)) * s.weight / 16);
        if (i >= 2 && s.weight < 32)
            assert_true(pred < value);
        if (i >= 18)
            assert_true(pred == value);
        sp_predictor_update(SP_PRED_ADAPTIVE, &s, value, sp_wrap32(value - pred));
    }
    assert_int_equal(s.weight, 32);
    assert_int_equal(sp_wrap32(INT64_C(4294967296) + 5), 5);
    assert_int_equal(sp_wrap32(INT64_C(2147483648)), INT32_MIN);
}

/* The breakdown adds up to the stream; its key masks are key_time_bytes. */
static void test_breakdown(void **state)
{
    (void)state;
    static const char *const CLIPS[] = {"walk", "jump"};
    for (int k = 0; k < 2; k++) {
        measured_clip *m = load(CLIPS[k], 2);
        codec_output out = encode_row(m, "shellpack", 1);
        long sum = 0, masks = 0;
        bool rotations = false, scales = false;
        for (int i = 0; i < out.part_count; i++) {
            sum += out.parts[i].bytes;
            assert_true(out.parts[i].bytes > 0);
            masks += strcmp(out.parts[i].name, "key masks") == 0 ? out.parts[i].bytes : 0;
            rotations |= strcmp(out.parts[i].name, "rotation residuals") == 0;
            scales |= strcmp(out.parts[i].name, "scale residuals") == 0;
        }
        assert_int_equal(sum, (long)out.bytes.size);
        assert_int_equal(masks, out.key_time_bytes);
        assert_true(rotations);
        assert_true(scales == (k == 1)); /* the jump squashes and stretches */
        assert_string_equal(out.parts[0].name, "header");
        codec_output_free(&out);
        measured_clip_free(m);
    }
}

/* The stream names its rig: another rest offset, parent or bone count is refused, saying so. */
static void test_rig_checksum(void **state)
{
    (void)state;
    measured_clip *m = load("walk", 1);
    codec_output out = encode_row(m, "shellpack", 1);
    const codec *c = codec_find("shellpack");
    const anim_rig *rig = m->source->clip->rig;
    anim_rig *other = rig_create(rig->bone_count);
    assert_non_null(other);
    memcpy(other->parents, rig->parents, (size_t)rig->bone_count * sizeof *rig->parents);
    memcpy(other->rest_offsets, rig->rest_offsets, (size_t)rig->bone_count * 3 * sizeof *rig->rest_offsets);
    memcpy(other->names, rig->names, (size_t)rig->bone_count * sizeof *rig->names);
    char err[256];
    anim_clip *same = c->ops->decode(c, out.bytes.data, out.bytes.size, other, err, sizeof err);
    assert_non_null(same);
    clip_free(same);
    other->rest_offsets[7] += 1e-9;
    assert_null(c->ops->decode(c, out.bytes.data, out.bytes.size, other, err, sizeof err));
    assert_non_null(strstr(err, "another rig"));
    rig_free(other);
    codec_output_free(&out);
    measured_clip_free(m);
}

/* Every truncation and every flipped byte (three masks) of each row's stream
 * is refused with a message or decodes, and sampling what decodes stays in
 * bounds (ASan, UBSan).  A cut stream is always refused: the header's
 * section sizes must add up to the bytes. */
static void test_hostile_streams(void **state)
{
    (void)state;
    static const char *const ROWS[] = {"shellpack", "shellpack-quat", "shellpack-channel", "shellpack-allkeys",
                                       "shellpack-nopred", "shellpack-gzip", "shellpack-ra", "shellpack-trellis", "shellpack-exchange",
                                       "shellpack-ra-trellis", "shellpack-ra-exchange", "shellpack-match", "shellpack-trained",
                                       "shellpack-comp", "shellpack-comp-trellis", "shellpack-comp-trained", "shellpack-ra-comp",
                                       "shellpack-comp-exchange", "shellpack-ra-comp-exchange", "shellpack-comp-keys",
                                       "shellpack-comp-trellis-p2", "shellpack-comp-fast", "shellpack-comp-fast-side",
                                       "shellpack-ra-side", "test-shellpack-side"};
    static const uint8_t MASKS[] = {0x01, 0x80, 0xFF};
    /* shellpack-side's container around shellpack's own stream, whose key masks are a section of their own */
    static const shellpack_side_config SIDE_OF_SHELLPACK_CONFIG = {"shellpack"};
    static codec side_of_shellpack;
    if (!codec_find("test-shellpack-side")) {
        const codec *plain = codec_find("shellpack");
        side_of_shellpack = (codec){"test-shellpack-side", "shellpack's stream in shellpack-side's container",
                                    CODEC_DECODES_AHEAD, &SIDE_OF_SHELLPACK_CONFIG, &SHELLPACK_SIDE_OPS, 1, "test",
                                    plain->params, plain->param_count};
        assert_int_equal(codec_register(&side_of_shellpack), 0);
    }
    measured_clip *m = load("jump", 0.5);
    const anim_rig *rig = m->source->clip->rig;
    for (size_t r = 0; r < sizeof ROWS / sizeof *ROWS; r++) {
        const codec *c = codec_find(ROWS[r]);
        codec_output out = encode_row(m, ROWS[r], 1);
        const size_t n = out.bytes.size;
        char err[256];
        for (size_t len = 0; len < n; len++) {
            uint8_t *cut = malloc(len ? len : 1);
            memcpy(cut, out.bytes.data, len);
            anim_clip *dec = c->ops->decode(c, cut, len, rig, err, sizeof err);
            if (dec)
                fail_msg("%s: cut to %zu of %zu bytes, it decoded", ROWS[r], len, n);
            assert_true(strlen(err) > 0);
            free(cut);
        }
        int refused = 0, decoded = 0;
        for (size_t at = 0; at < n; at++)
            for (size_t k = 0; k < sizeof MASKS; k++) {
                uint8_t *bad = malloc(n);
                memcpy(bad, out.bytes.data, n);
                bad[at] ^= MASKS[k];
                codec_sampler *s = c->ops->sampler_create(c, bad, n, rig, err, sizeof err);
                if (s) {
                    double pose[64 * POSE_STRIDE];
                    assert_true(rig->bone_count <= 64);
                    c->ops->sample(s, 0.37, pose);
                    c->ops->sample(s, m->source->clip->frame_count - 1, pose); /* shellpack-ra: another section */
                    c->ops->sampler_free(s);
                    decoded++;
                } else {
                    assert_true(strlen(err) > 0);
                    refused++;
                }
                free(bad);
            }
        print_message("  %-18s %5zu bytes: %zu cuts refused; %d flips refused, %d decoded\n", ROWS[r], n, n, refused,
                      decoded);
        codec_output_free(&out);
    }
    measured_clip_free(m);
}

/* Hand-made streams: a header with a bad version, unknown flags, zero
 * frames, sections that do not add up; the messages say which. */
static void test_bad_headers(void **state)
{
    (void)state;
    measured_clip *m = load("walk", 0.5);
    codec_output out = encode_row(m, "shellpack", 1);
    const codec *c = codec_find("shellpack");
    const anim_rig *rig = m->source->clip->rig;
    struct {
        size_t at;
        uint8_t value;
        const char *says;
    } cases[] = {{0, 'X', "no SP header"},
                 {2, 9, "version 9"},
                 {3, 0x10, "unknown flags"},
                 {4, 0, NULL},  /* frames 0 (with bytes 5..7 zeroed below) */
                 {28, 0x7F, "add up"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint8_t *b = malloc(out.bytes.size);
        memcpy(b, out.bytes.data, out.bytes.size);
        b[cases[i].at] = cases[i].value;
        if (cases[i].at == 4)
            b[5] = b[6] = b[7] = 0;
        char err[256];
        assert_null(c->ops->decode(c, b, out.bytes.size, rig, err, sizeof err));
        assert_non_null(strstr(err, cases[i].says ? cases[i].says : "0 frames"));
        free(b);
    }
    codec_output_free(&out);
    measured_clip_free(m);
}

/* The seven section sizes after the 28-byte header, as LEB128 varints; returns where the sections start. */
static size_t read_sizes(const uint8_t *b, size_t n, uint64_t sizes[7])
{
    size_t pos = 28;
    for (int i = 0; i < 7; i++) {
        sizes[i] = 0;
        for (int shift = 0; pos < n; shift += 7) {
            const uint8_t byte = b[pos++];
            sizes[i] |= (uint64_t)(byte & 0x7F) << shift;
            if (!(byte & 0x80))
                break;
        }
    }
    return pos;
}

/* A stream with new section sizes and `extra` bytes inserted at the start of section `at`. */
static byte_buffer resized(const byte_buffer *in, const uint64_t sizes[7], int at, const uint8_t *extra, size_t n_extra)
{
    uint64_t old[7];
    const size_t start = read_sizes(in->data, in->size, old);
    byte_buffer out;
    bytes_init(&out);
    bytes_append(&out, in->data, 28);
    for (int i = 0; i < 7; i++) {
        uint64_t v = sizes[i];
        do {
            bytes_u8(&out, (uint8_t)((v & 0x7F) | (v > 0x7F ? 0x80 : 0)));
            v >>= 7;
        } while (v);
    }
    size_t pos = start;
    for (int i = 0; i < 7; i++) {
        if (i == at)
            bytes_append(&out, extra, n_extra);
        bytes_append(&out, in->data + pos, (size_t)old[i]);
        pos += (size_t)old[i];
    }
    return out;
}

static void expect_refused(const byte_buffer *b, const anim_rig *rig, const char *says)
{
    const codec *c = codec_find("shellpack");
    char err[256] = "";
    anim_clip *clip = c->ops->decode(c, b->data, b->size, rig, err, sizeof err);
    if (clip || !strstr(err, says))
        fail_msg("expected a refusal saying \"%s\", got %s", says, clip ? "a clip" : err);
}

/* Found by a hostile-input audit: section sizes that add up past 2^64 (a
 * 10-byte varint) wrapped the total and let a section claim 2^64 - 1 bytes;
 * key masks in a stream with no animated joint were read as nothing; bytes
 * after a residual section's zlib stream were ignored.  All three are
 * refused now. */
static void test_audit_findings(void **state)
{
    (void)state;
    measured_clip *m = load("walk", 0.5);
    const anim_rig *rig = m->source->clip->rig;
    codec_output out = encode_row(m, "shellpack", 1);
    uint64_t sizes[7];
    read_sizes(out.bytes.data, out.bytes.size, sizes);
    uint64_t wrap[7];
    memcpy(wrap, sizes, sizeof wrap);
    wrap[1] = UINT64_MAX; /* the total wraps to the real one minus 1 ... */
    wrap[2] += 1;         /* ... and this makes it add up again */
    byte_buffer b = resized(&out.bytes, wrap, -1, NULL, 0);
    expect_refused(&b, rig, "add up past");
    bytes_free(&b);
    codec_output_free(&out);

    /* a clip where nothing moves: every sub-track folds to rest, no key section is written */
    clip_params cp = CLIP_DEFAULTS;
    cp.walk_seconds = 0.5;
    char err[256];
    clip_source *s = clip_source_load("walk", &cp, err, sizeof err);
    assert_non_null(s);
    anim_clip *still = clip_create_rest(s->clip->rig, s->clip->frame_count, s->clip->fps);
    assert_non_null(still);
    clip_free(s->clip);
    s->clip = still;
    s->sample_hash = clip_hash(still);
    strcpy(s->generator, "bvh");
    measured_clip *ms = row_measured_clip(s);
    codec_output rest = encode_row(ms, "shellpack", 1);
    read_sizes(rest.bytes.data, rest.bytes.size, sizes);
    assert_true(sizes[3] == 0 && sizes[4] == 0);
    static const uint8_t junk[5] = {1, 2, 3, 4, 5};
    sizes[3] = sizeof junk;
    b = resized(&rest.bytes, sizes, 3, junk, sizeof junk);
    expect_refused(&b, rig, "no animated joint");
    bytes_free(&b);
    codec_output_free(&rest);
    measured_clip_free(ms);

    /* one byte after the rotation residuals' zlib stream */
    const codec *gz = codec_find("shellpack-gzip");
    codec_output z = encode_row(m, "shellpack-gzip", 1);
    read_sizes(z.bytes.data, z.bytes.size, sizes);
    sizes[4] += 1;
    uint64_t old[7];
    const size_t start = read_sizes(z.bytes.data, z.bytes.size, old);
    size_t end_rot = start;
    for (int i = 0; i <= 4; i++)
        end_rot += (size_t)old[i];
    byte_buffer bz;
    bytes_init(&bz);
    { /* the stream with the byte inserted at the end of section 4 */
        byte_buffer head = resized(&z.bytes, sizes, -1, NULL, 0);
        const size_t head_len = head.size - (z.bytes.size - start);
        bytes_append(&bz, head.data, head_len);
        bytes_append(&bz, z.bytes.data + start, end_rot - start);
        bytes_u8(&bz, 0);
        bytes_append(&bz, z.bytes.data + end_rot, z.bytes.size - end_rot);
        bytes_free(&head);
    }
    anim_clip *dec = gz->ops->decode(gz, bz.data, bz.size, rig, err, sizeof err);
    assert_null(dec);
    assert_non_null(strstr(err, "not one zlib stream"));
    bytes_free(&bz);
    codec_output_free(&z);
    measured_clip_free(m);
}

/* sp_step's table of powers against ldexp: every step index the format allows, bit for bit (the first 16,
 * the mantissas, times 2^0), and each within a rounding of 2^(-i/16) */
static void test_steps_are_exact_powers(void **state)
{
    (void)state;
    for (int i = 0; i <= SP_STEP_INDEX_MAX; i++) {
        const double want = ldexp(sp_step(i & 15), -(i >> 4)), got = sp_step(i);
        if (memcmp(&want, &got, sizeof want) != 0)
            fail_msg("step index %d: %a, want %a", i, got, want);
        assert_true(fabs(got / exp2(-i / 16.0) - 1) < 1e-15);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contract_on_decoded_clips),
        cmocka_unit_test(test_chain_breaks_a_tolerance_per_channel),
        cmocka_unit_test(test_folding),
        cmocka_unit_test(test_predictors_worked),
        cmocka_unit_test(test_breakdown),
        cmocka_unit_test(test_rig_checksum),
        cmocka_unit_test(test_steps_are_exact_powers),
        cmocka_unit_test(test_hostile_streams),
        cmocka_unit_test(test_bad_headers),
        cmocka_unit_test(test_audit_findings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
