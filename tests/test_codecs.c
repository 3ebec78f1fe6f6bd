/* Every codec of the registry: round trip from the bytes alone, agreement
 * with the encoder's reconstruction where the layout is self-contained,
 * samplers against the full decode, and hostile bytes (every truncation of
 * a small stream, every byte flipped) giving an error or a clip, never a
 * read out of bounds (the sanitizer build checks that). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "codecs/codec.h"
#include "core/channels.h"
#include "core/error_joint.h"
#include "generators/clip_library.h"
#include "harness/measure/measure.h"

static measured_clip *load(const char *name, double seconds)
{
    clip_params p = CLIP_DEFAULTS;
    p.walk_seconds = seconds;
    p.jump_seconds = seconds;
    char err[256];
    clip_source *s = clip_source_load(name, &p, err, sizeof err);
    assert_non_null(s);
    measured_clip *m = measured_clip_create(s, NULL, err, sizeof err);
    assert_non_null(m);
    return m;
}

static codec_output encode(const measured_clip *m, const codec *c, double tol_mm)
{
    const codec_input in = {m->source->clip, m->view, false};
    const codec_params p = codec_params_with(c, tol_mm, 0.35, 3);
    codec_output out;
    codec_output_init(&out);
    char err[256];
    if (c->ops->encode(c, &in, &p, &out, err, sizeof err) != 0)
        fail_msg("%s: %s", c->name, err);
    return out;
}

static void test_every_codec_round_trips(void **state)
{
    (void)state;
    const char *clips[] = {"walk", "jump", "mocap"};
    for (int k = 0; k < 3; k++) {
        measured_clip *m = load(clips[k], k == 1 ? 2 : 3);
        for (int i = 0; i < codec_count(); i++) {
            const codec *c = codec_at(i);

            if (c->flags & CODEC_UNAVAILABLE) {

                print_message("  %s: skipped (not built here)\n", c->name);

                continue;

            }
            point_result r;
            char err[256];
            const codec_params p = codec_params_with(c, 1.0, 0.35, 3);
            assert_int_equal(measure_point(m, c, &p, false, &r, err, sizeof err), 0);
            if (!r.decoded_ok)
                fail_msg("%s on %s did not decode: %s", c->name, clips[k], r.decode_error);
            assert_int_equal(r.decoded_frames, m->source->clip->frame_count);
            assert_true(isfinite(r.decoded.max_m));
            if (r.has_encoder && !(c->flags & CODEC_NOT_SELF_CONTAINED)) {
                /* the bytes hold float32 where the encoder kept doubles: the
                 * decoded clip may differ by rounding, never by more */
                if (fabs(r.decoded.max_m - r.encoder.max_m) > 1e-5)
                    fail_msg("%s on %s: decoded max %.9f m, encoder %.9f m", c->name, clips[k], r.decoded.max_m,
                             r.encoder.max_m);
            }
            if (c->flags & CODEC_NOT_SELF_CONTAINED) {
                /* the study's quantised layout writes 0 for constant channels
                 * and no range: decoded alone, scales come back as 0 */
                assert_true(r.has_encoder);
                assert_true(r.decoded.max_m > 0.1);
                assert_true(r.encoder.max_m < 0.02);
            }
            point_result_free(&r);
        }
        measured_clip_free(m);
    }
}

/* The self-contained layout costs the header's information (nothing: the
 * same 16 bytes) plus 2 bytes per constant scalar channel. */
static void test_self_contained_cost(void **state)
{
    (void)state;
    measured_clip *m = load("walk", 3);
    codec_output a = encode(m, codec_find("cubic-q"), 1), b = encode(m, codec_find("cubic-q-sc"), 1);
    const int constant_scalars = channels_constant_scalars(m->view);
    assert_int_equal(b.bytes.size - a.bytes.size, 2 * constant_scalars);
    codec_output_free(&a);
    codec_output_free(&b);
    measured_clip_free(m);
}

static void test_samplers_match_full_decode(void **state)
{
    (void)state;
    measured_clip *m = load("jump", 2);
    const anim_rig *rig = m->source->clip->rig;
    double *pose = malloc((size_t)rig->bone_count * POSE_STRIDE * sizeof *pose);
    double *expect = malloc((size_t)rig->bone_count * POSE_STRIDE * sizeof *expect);
    for (int i = 0; i < codec_count(); i++) {
        const codec *c = codec_at(i);

        if (c->flags & CODEC_UNAVAILABLE) {

            print_message("  %s: skipped (not built here)\n", c->name);

            continue;

        }
        codec_output out = encode(m, c, 0.5);
        char err[256];
        anim_clip *dec = c->ops->decode(c, out.bytes.data, out.bytes.size, rig, err, sizeof err);
        codec_sampler *s = c->ops->sampler_create(c, out.bytes.data, out.bytes.size, rig, err, sizeof err);
        assert_non_null(dec);
        assert_non_null(s);
        for (int f = 0; f < dec->frame_count; f++) {
            c->ops->sample(s, f, pose);
            clip_get_pose(dec, f, expect);
            for (int v = 0; v < rig->bone_count * POSE_STRIDE; v++) {
                /* raw is not renormalised and stores float32; all else is the
                 * same arithmetic in another order */
                const double tol = strcmp(c->name, "raw") == 0 ? 1e-6 : 1e-9;
                if (fabs(pose[v] - expect[v]) > tol)
                    fail_msg("%s frame %d value %d: sampler %.12g, decode %.12g", c->name, f, v, pose[v], expect[v]);
            }
        }
        c->ops->sampler_free(s);
        clip_free(dec);
        codec_output_free(&out);
    }
    free(pose);
    free(expect);
    measured_clip_free(m);
}

/* Every prefix of a small stream is rejected; every single flipped byte
 * either decodes or is rejected, without touching memory it should not. */
static void test_hostile_bytes(void **state)
{
    (void)state;
    measured_clip *m = load("walk", 0.05); /* 3 frames, with motion */
    const anim_rig *rig = m->source->clip->rig;
    for (int i = 0; i < codec_count(); i++) {
        const codec *c = codec_at(i);

        if (c->flags & CODEC_UNAVAILABLE) {

            print_message("  %s: skipped (not built here)\n", c->name);

            continue;

        }
        codec_output out = encode(m, c, 1);
        const size_t n = out.bytes.size;
        char err[256];
        anim_clip *whole = c->ops->decode(c, out.bytes.data, n, rig, err, sizeof err);
        if (!whole)
            fail_msg("%s: the intact stream does not decode: %s", c->name, err);
        clip_free(whole);
        size_t shorter = 0;
        for (size_t len = 0; len < n; len++) {
            uint8_t *cut = malloc(len ? len : 1); /* exact size: ASan sees any overread */
            memcpy(cut, out.bytes.data, len);
            anim_clip *dec = c->ops->decode(c, cut, len, rig, err, sizeof err);
            if (dec) {
                /* The raw layout stores no frame count: cut at a frame
                 * boundary it is a shorter clip, which measure_point rejects
                 * by its frame count (docs/findings.md). */
                if (strcmp(c->name, "raw") != 0 || dec->frame_count >= m->source->clip->frame_count)
                    fail_msg("%s: a stream cut to %zu of %zu bytes decoded", c->name, len, n);
                clip_free(dec);
                free(cut);
                shorter++;
                continue;
            }
            assert_true(strlen(err) > 0);
            codec_sampler *s = c->ops->sampler_create(c, cut, len, rig, err, sizeof err);
            assert_null(s);
            free(cut);
        }
        int rejected = 0;
        for (size_t at = 0; at < n; at++) {
            uint8_t *bad = malloc(n);
            memcpy(bad, out.bytes.data, n);
            bad[at] ^= 0xA5;
            anim_clip *dec = c->ops->decode(c, bad, n, rig, err, sizeof err);
            rejected += dec == NULL;
            clip_free(dec);
            codec_sampler *s = c->ops->sampler_create(c, bad, n, rig, err, sizeof err);
            if (s) {
                double pose[30 * POSE_STRIDE];
                c->ops->sample(s, 0.5, pose);
                c->ops->sampler_free(s);
            }
            free(bad);
        }
        print_message("  %-11s %5zu bytes: %zu of %zu truncations rejected (%zu a shorter clip), %d of %zu byte flips "
                      "rejected\n", c->name, n, n - shorter, n, shorter, rejected, n);
        codec_output_free(&out);
    }
    measured_clip_free(m);
}

/* Issue 14, finding 4: from about 2e-5 mm, refine re-inserted a key whose
 * renormalised rotation kept a rounding error above the tolerance, and the
 * codec's own decoder refused the stream ("key frames not increasing").
 * Every tolerance codec must now decode at 0, 1e-9 and 1e-5 mm. */
static void test_tiny_tolerances_decode(void **state)
{
    (void)state;
    measured_clip *m = load("walk", 3);
    const double tolerances[] = {0, 1e-9, 1e-5};
    for (int i = 0; i < codec_count(); i++) {
        const codec *c = codec_at(i);
        if (codec_param_index(c, "tol_mm") < 0 || (c->flags & CODEC_UNAVAILABLE))
            continue;
        for (int t = 0; t < 3; t++) {
            if (strncmp(c->name, "acl", 3) == 0 && tolerances[t] == 0)
                continue; /* ACL refuses a precision of 0 itself, with a message */
            point_result r;
            char err[256];
            const codec_params p = codec_params_with(c, tolerances[t], 0.35, 3);
            const int rc = measure_point(m, c, &p, false, &r, err, sizeof err);
            /* shellpack's values are 31-bit integers: it refuses a target they cannot reach, saying so */
            if (rc != 0 && strncmp(c->name, "shellpack", 9) == 0 &&
                (strstr(err, "above 0") || strstr(err, "more than 2^30 steps")))
                continue;
            if (rc != 0)
                fail_msg("%s at %g mm: %s", c->name, tolerances[t], err);
            if (!r.decoded_ok)
                fail_msg("%s at %g mm does not decode: %s", c->name, tolerances[t], r.decode_error);
            point_result_free(&r);
        }
    }
    measured_clip_free(m);
}

/* Found by fuzzing the pipeline (tests/fuzz/corpus/bvh keeps both inputs):
 * every-nth wrote a step longer than the clip that its decoder refused, and
 * the study's layout wrote an all-constant clip whose length it cannot
 * store.  Now the first decodes (first and last frame kept) and the second
 * is refused at encode, with the reason. */
static void test_encoders_never_emit_undecodable_bytes(void **state)
{
    (void)state;
    anim_rig *rig = rig_create(1);
    strcpy(rig->names[0], "root");
    rig->parents[0] = -1;
    anim_clip *clip = clip_create_rest(rig, 2, 30);
    channel_view *view = channels_create(clip);
    const codec_input in = {clip, view, false};
    char err[256] = "";
    codec_output out;
    const codec *nth = codec_find("every-nth");
    const codec_params p = codec_params_with(nth, 1, 0.35, 5);
    codec_output_init(&out);
    assert_int_equal(nth->ops->encode(nth, &in, &p, &out, err, sizeof err), 0);
    anim_clip *back = nth->ops->decode(nth, out.bytes.data, out.bytes.size, rig, err, sizeof err);
    if (!back)
        fail_msg("every-nth, step 5 on 2 frames: %s", err);
    assert_int_equal(back->frame_count, 2);
    clip_free(back);
    codec_output_free(&out);
    const codec *lin = codec_find("linear");
    codec_output_init(&out);
    assert_int_not_equal(lin->ops->encode(lin, &in, &p, &out, err, sizeof err), 0);
    assert_non_null(strstr(err, "stores no frame count"));
    codec_output_free(&out);
    channels_free(view);
    clip_free(clip);
    rig_free(rig);
}

/* The decoder fuzz target's kept seeds (tests/fuzz/corpus/decode, `make fuzz-seeds`) still pick the
 * row and rig they were written for: a seed's first byte is its row's index in the table plus the
 * row count for the imported rig, so a row added before others moves theirs.  Every row the fuzz
 * build decodes (all but ACL's, and rows this build lacks) has a seed on both rigs. */
static void test_fuzz_seeds_select_their_rows(void **state)
{
    (void)state;
    static const char *const FOLDER = "tests/fuzz/corpus/decode";
    static const struct {
        const char *suffix;
        int rig;
    } LABELS[] = {{"_study_jump", 0}, {"_imported", 1}, {"_study", 0}};
    const int count = codec_count();
    int *seen = calloc((size_t)count * 2, sizeof *seen);
    DIR *dir = opendir(FOLDER);
    if (!dir)
        fail_msg("%s: cannot open (the tests run from the repository root)", FOLDER);
    struct dirent *entry;
    int files = 0;
    while ((entry = readdir(dir))) {
        if (entry->d_name[0] == '.')
            continue;
        char name[256];
        snprintf(name, sizeof name, "%s", entry->d_name);
        int rig = -1;
        for (size_t i = 0; i < sizeof LABELS / sizeof *LABELS && rig < 0; i++) {
            const size_t n = strlen(name), k = strlen(LABELS[i].suffix);
            if (n > k && strcmp(name + n - k, LABELS[i].suffix) == 0) {
                name[n - k] = 0;
                rig = LABELS[i].rig;
            }
        }
        if (rig < 0)
            fail_msg("%s/%s: not ROW_study, ROW_imported or ROW_study_jump", FOLDER, entry->d_name);
        int index = -1;
        for (int i = 0; i < count && index < 0; i++)
            if (strcmp(codec_at(i)->name, name) == 0)
                index = i;
        if (index < 0)
            fail_msg("%s/%s: no row %s in the table: run make fuzz-seeds", FOLDER, entry->d_name, name);
        char path[600];
        snprintf(path, sizeof path, "%s/%s", FOLDER, entry->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        const int first = fgetc(f);
        fclose(f);
        if (first != index + rig * count)
            fail_msg("%s: its first byte %d picks another row than %s (%d): run make fuzz-seeds", path, first, name,
                     index + rig * count);
        seen[index * 2 + rig] = 1;
        files++;
    }
    closedir(dir);
    for (int i = 0; i < count; i++) {
        const codec *c = codec_at(i);
        if ((c->flags & CODEC_UNAVAILABLE) || strncmp(c->name, "acl", 3) == 0)
            continue;
        if (!seen[i * 2] || !seen[i * 2 + 1])
            fail_msg("%s has no seed on the %s rig in %s: run make fuzz-seeds", c->name, seen[i * 2] ? "imported" : "study",
                     FOLDER);
    }
    print_message("  %d seeds, each picking its row\n", files);
    free(seen);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_seeds_select_their_rows),
        cmocka_unit_test(test_every_codec_round_trips),
        cmocka_unit_test(test_self_contained_cost),
        cmocka_unit_test(test_samplers_match_full_decode),
        cmocka_unit_test(test_hostile_bytes),
        cmocka_unit_test(test_tiny_tolerances_decode),
        cmocka_unit_test(test_encoders_never_emit_undecodable_bytes),
    };
    return cmocka_run_group_tests_name("codecs", tests, NULL, NULL);
}
