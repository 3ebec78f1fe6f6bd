/* shellpack-ra (issue 22): the contract on the decoded clip, with a section boundary at the hardest
 * frame of a long chain; the decoded clip is the whole-clip row's with every frame kept (two
 * decoders, one set of values); sampling at any time (every frame, both sides of every section
 * boundary, between frames, the last frame; forwards, backwards and at random) is the whole-clip
 * decode bit for bit; what the sampler holds within the stream plus 32 KiB on rigs up to 64
 * bones; the byte breakdown and the cost of shorter sections; a bad section length refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/shellpack/shellpack.h"
#include "core/pcg32.h"
#include "generators/clip_library.h"
#include "harness/measure/measure.h"
#include "harness/measure/runtime.h"
#include "row_encode.h"

#define CHAIN "random:bones=20,frames=240,branching=1,depth=24,seed=4"

static measured_clip *load(const char *name, double seconds)
{
    return row_measured_clip(row_source(name, seconds));
}

static codec_params params(const codec *c, double tol_mm, int section_frames)
{
    codec_params p;
    codec_params_init(c, &p);
    p.tol_mm = tol_mm;
    char err[256];
    if (section_frames > 0 && codec_param_set(c, &p, codec_param_index(c, "section_frames"), section_frames, err,
                                              sizeof err) != 0)
        fail_msg("%s", err);
    return p;
}

static point_result measure(const measured_clip *m, const char *row, double tol_mm, int section_frames)
{
    const codec *c = codec_find(row);
    assert_non_null(c);
    codec_params p = params(c, tol_mm, section_frames);
    return measure_row_params(m, c, &p);
}

static codec_output encode(const measured_clip *m, const char *row, double tol_mm, int section_frames)
{
    const codec *c = codec_find(row);
    const codec_input in = {m->source->clip, m->view, false};
    codec_params p = params(c, tol_mm, section_frames);
    codec_output out;
    codec_output_init(&out);
    char err[256];
    if (c->ops->encode(c, &in, &p, &out, err, sizeof err) != 0)
        fail_msg("%s: %s", row, err);
    return out;
}

static anim_clip *decode(const char *row, const codec_output *out, const anim_rig *rig)
{
    const codec *c = codec_find(row);
    char err[256];
    anim_clip *d = c->ops->decode(c, out->bytes.data, out->bytes.size, rig, err, sizeof err);
    if (!d)
        fail_msg("%s: %s", row, err);
    return d;
}

static void assert_same_clip(const anim_clip *a, const anim_clip *b, const char *what)
{
    assert_int_equal(a->frame_count, b->frame_count);
    const size_t n = (size_t)a->frame_count * (size_t)a->rig->bone_count;
    if (memcmp(a->pos, b->pos, n * 3 * sizeof *a->pos) != 0 || memcmp(a->scl, b->scl, n * 3 * sizeof *a->scl) != 0)
        fail_msg("%s: the positions or scales differ", what);
    for (int bone = 0; bone < a->rig->bone_count; bone++)
        if (memcmp(clip_rot_track(a, bone), clip_rot_track(b, bone), (size_t)a->frame_count * 4 * sizeof(double)) != 0)
            fail_msg("%s: joint %d's rotations differ", what, bone);
}

/* The harness measures the decoded clip: shell distance within the target at every joint and
 * frame, the codec's own report that same figure; and the clip is shellpack-allkeys' (the same
 * values, decoded by the other format's decoder).  Then on the chain, a section boundary at the
 * frame its error is worst. */
static void test_contract(void **state)
{
    (void)state;
    static const char *const CLIPS[] = {CHAIN, "walk", "jump", "random:bones=40,frames=120,seed=3"};
    static const double TARGETS[] = {1, 0.1};
    for (size_t k = 0; k < sizeof CLIPS / sizeof *CLIPS; k++) {
        measured_clip *m = load(CLIPS[k], 1.5);
        const anim_rig *rig = m->source->clip->rig;
        for (size_t t = 0; t < 2; t++) {
            point_result r = measure(m, "shellpack-ra", TARGETS[t], 0);
            const double shell_mm = r.metrics.shell_m.max * 1000;
            if (!(shell_mm <= TARGETS[t]))
                fail_msg("shellpack-ra on %s at %g mm: shell max %.6f mm", CLIPS[k], TARGETS[t], shell_mm);
            assert_true(r.has_reported && fabs(r.reported_error_mm - shell_mm) <= 1e-9);
            codec_output ra = encode(m, "shellpack-ra", TARGETS[t], 0), all = encode(m, "shellpack-allkeys", TARGETS[t], 0);
            anim_clip *a = decode("shellpack-ra", &ra, rig), *b = decode("shellpack-allkeys", &all, rig);
            assert_same_clip(a, b, CLIPS[k]);
            print_message("  %-40s %4g mm: %6zu bytes (every frame, whole clip: %zu), shell max %.4f mm\n", CLIPS[k],
                          TARGETS[t], ra.bytes.size, all.bytes.size, shell_mm);
            if (k == 0) { /* the chain: a boundary at its hardest frame */
                const int worst = r.metrics.shell_m.worst_sample;
                const int L = worst >= 2 ? worst : 2;
                point_result again = measure(m, "shellpack-ra", TARGETS[t], L);
                assert_true(again.metrics.shell_m.max * 1000 <= TARGETS[t]);
                assert_int_equal(worst % L == 0 || worst < 2, 1);
                codec_output cut = encode(m, "shellpack-ra", TARGETS[t], L);
                anim_clip *c = decode("shellpack-ra", &cut, rig);
                assert_same_clip(a, c, "sections of another length");
                print_message("  %-40s %4g mm: worst at frame %d; sections of %d frames: %zu bytes, shell max %.4f mm\n",
                              "  (a boundary there)", TARGETS[t], worst, L, cut.bytes.size,
                              again.metrics.shell_m.max * 1000);
                clip_free(c);
                codec_output_free(&cut);
                point_result_free(&again);
            }
            clip_free(a);
            clip_free(b);
            codec_output_free(&ra);
            codec_output_free(&all);
            point_result_free(&r);
        }
        measured_clip_free(m);
    }
}

static void check_times(const codec *c, codec_sampler *s, const anim_clip *d, const double *times, int n,
                        const char *what)
{
    const int nv = d->rig->bone_count * POSE_STRIDE;
    double *got = malloc((size_t)nv * sizeof *got), *want = malloc((size_t)nv * sizeof *want);
    for (int i = 0; i < n; i++) {
        c->ops->sample(s, times[i], got);
        clip_interpolate_pose(d, times[i], want);
        if (memcmp(got, want, (size_t)nv * sizeof *got) != 0) {
            int v = 0;
            while (v < nv && memcmp(&got[v], &want[v], sizeof *got) == 0)
                v++;
            fail_msg("%s: at t = %.17g (%d of %d), value %d is %.17g, the whole-clip decode's %.17g", what, times[i], i,
                     n, v, got[v], want[v]);
        }
    }
    free(got);
    free(want);
}

/* sample(t) is clip_interpolate_pose of the decoded clip, bit for bit, whatever order the times
 * come in: it keeps two frames and a cursor, and each order takes another path through them. */
static void test_sampling_is_the_whole_clip(void **state)
{
    (void)state;
    static const char *const CLIPS[] = {"walk", CHAIN, "jump"};
    static const int LENGTHS[] = {2, 7, 32, 0}; /* 0: the row's default */
    const codec *c = codec_find("shellpack-ra");
    for (size_t k = 0; k < sizeof CLIPS / sizeof *CLIPS; k++) {
        measured_clip *m = load(CLIPS[k], 1);
        const anim_rig *rig = m->source->clip->rig;
        for (size_t l = 0; l < sizeof LENGTHS / sizeof *LENGTHS; l++) {
            codec_output out = encode(m, "shellpack-ra", 0.5, LENGTHS[l]);
            anim_clip *d = decode("shellpack-ra", &out, rig);
            const int frames = d->frame_count, L = LENGTHS[l] ? LENGTHS[l] : 32;
            char err[256];
            codec_sampler *s = c->ops->sampler_create(c, out.bytes.data, out.bytes.size, rig, err, sizeof err);
            assert_non_null(s);
            const int n = 8 * frames + 64;
            double *t = malloc((size_t)n * sizeof *t);
            int count = 0;
            for (int f = 0; f < frames; f++) /* forwards: every frame and between */
                t[count++] = f, t[count++] = f + 0.5 < frames - 1 ? f + 0.5 : f;
            check_times(c, s, d, t, count, "forwards");
            count = 0;
            for (int f = frames - 1; f >= 0; f--) /* backwards */
                t[count++] = f, t[count++] = f > 0 ? f - 0.25 : 0;
            check_times(c, s, d, t, count, "backwards");
            count = 0;
            for (int b = L; b < frames; b += L) { /* both sides of every boundary */
                t[count++] = b;
                t[count++] = nextafter(b, 0);
                t[count++] = b - 1;
                t[count++] = nextafter(b, frames);
                t[count++] = b - 0.5;
            }
            t[count++] = frames - 1; /* the last frame, and just before it */
            t[count++] = nextafter(frames - 1, 0);
            t[count++] = 0;
            check_times(c, s, d, t, count, "boundaries");
            pcg32 rng;
            pcg32_seed(&rng, 22, (uint64_t)l);
            count = 0;
            for (int i = 0; i < 4 * frames; i++) /* at random: seeks */
                t[count++] = pcg32_unit(&rng) * (frames - 1);
            check_times(c, s, d, t, count, "at random");
            count = 0;
            for (double x = 0.3; x < frames - 1 && count < n; x += 0.5) /* playback at twice the clip's rate */
                t[count++] = x;
            check_times(c, s, d, t, count, "playback");
            free(t);
            c->ops->sampler_free(s);
            clip_free(d);
            codec_output_free(&out);
        }
        measured_clip_free(m);
    }
}

/* What the sampler holds, measured by the allocator: at most the stream plus 32 KiB (the issue's
 * bound), here on the study's rig and on rigs of 64 bones; and it does not decode ahead. */
static void test_held_memory(void **state)
{
    (void)state;
    static const char *const CLIPS[] = {"walk", "random:bones=64,frames=600,seed=5",
                                        "random:bones=64,frames=300,branching=1,depth=64,seed=6"};
    const codec *c = codec_find("shellpack-ra");
    for (size_t k = 0; k < sizeof CLIPS / sizeof *CLIPS; k++) {
        measured_clip *m = load(CLIPS[k], 0);
        const anim_rig *rig = m->source->clip->rig;
        assert_true(rig->bone_count <= 64);
        codec_output out = encode(m, "shellpack-ra", 0.1, 0);
        const int frames = m->source->clip->frame_count;
        double *times = malloc(512 * sizeof *times);
        for (int i = 0; i < 512; i++)
            times[i] = fmod(i * 0.5, frames - 1);
        sampler_memory mem;
        char err[256];
        if (runtime_sampler_memory(c, out.bytes.data, out.bytes.size, rig, frames, times, 512, &mem, err, sizeof err) != 0)
            fail_msg("%s", err);
        if (mem.measured) {
            print_message("  %-52s stream %7zu B, held %7lld B (%+lld)\n", CLIPS[k], out.bytes.size, mem.held_bytes,
                          mem.held_bytes - (long long)out.bytes.size);
            assert_true(mem.held_bytes <= (long long)out.bytes.size + 32768);
            assert_false(mem.decodes_ahead);
            assert_int_equal(mem.sample_allocations, 0);
        }
        free(times);
        codec_output_free(&out);
        measured_clip_free(m);
    }
}

/* The breakdown adds up to the stream and names what random access costs; shorter sections cost
 * more (more restarts), one section the least; the index grows with the sections. */
static void test_sections_cost(void **state)
{
    (void)state;
    measured_clip *m = load("walk", 3);
    static const int LENGTHS[] = {65535, 64, 32, 8};
    size_t previous = 0;
    long previous_index = 0;
    for (size_t l = 0; l < sizeof LENGTHS / sizeof *LENGTHS; l++) {
        codec_output out = encode(m, "shellpack-ra", 0.1, LENGTHS[l]);
        long sum = 0, index = 0, restarts = 0, tables = 0;
        for (int i = 0; i < out.part_count; i++) {
            sum += out.parts[i].bytes;
            assert_true(out.parts[i].bytes > 0);
            index += strcmp(out.parts[i].name, "section index") == 0 ? out.parts[i].bytes : 0;
            restarts += strncmp(out.parts[i].name, "section restarts", 16) == 0 ? out.parts[i].bytes : 0;
            tables += strcmp(out.parts[i].name, "context tables") == 0 ? out.parts[i].bytes : 0;
        }
        assert_int_equal(sum, (long)out.bytes.size);
        assert_true(tables > 0);
        assert_true(LENGTHS[l] == 65535 ? restarts == 0 : restarts > 0);
        if (l > 0) {
            assert_true(out.bytes.size > previous);
            assert_true(index >= previous_index);
        }
        print_message("  sections of %5d frames: %5zu bytes (index %ld, restarts %ld, tables %ld)\n", LENGTHS[l],
                      out.bytes.size, index, restarts, tables);
        previous = out.bytes.size;
        previous_index = index;
        codec_output_free(&out);
    }
    /* the knob's range, with a message */
    const codec *c = codec_find("shellpack-ra");
    codec_params p;
    codec_params_init(c, &p);
    char err[256];
    assert_int_equal(codec_param_set(c, &p, codec_param_index(c, "section_frames"), 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "section_frames"));
    measured_clip_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contract),
        cmocka_unit_test(test_sampling_is_the_whole_clip),
        cmocka_unit_test(test_held_memory),
        cmocka_unit_test(test_sections_cost),
    };
    return cmocka_run_group_tests_name("shellpack_ra", tests, NULL, NULL);
}
