/* Random rigs and clips (generators/random_clip.h): parameters parsed and
 * range-checked, the same parameters give the same samples, another seed
 * gives another clip, the tree keeps its branching and depth, and every
 * codec round-trips one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "codecs/codec.h"
#include "generators/clip_library.h"
#include "generators/random_clip.h"
#include "harness/measure/measure.h"

static void test_parameters(void **state)
{
    (void)state;
    random_clip_params p;
    char err[300];
    assert_int_equal(random_clip_parse("random", &p, err, sizeof err), 0);
    assert_int_equal(p.bones, 30);
    assert_int_equal(p.frames, 600);
    assert_true(p.rate == 60);
    assert_int_equal(p.seed, 1);
    assert_int_equal(random_clip_parse("random:bones=60,frames=100,rate=120,seed=7,branching=2,depth=5", &p, err,
                                       sizeof err),
                     0);
    assert_int_equal(p.bones, 60);
    assert_int_equal(p.frames, 100);
    assert_true(p.rate == 120);
    assert_int_equal(p.seed, 7);
    assert_int_equal(p.branching, 2);
    assert_int_equal(p.depth, 5);
    const char *bad[] = {"random:bonez=3", "random:bones=0", "random:bones=2.5", "random:frames=4194305",
                         "random:rate=0x10", "random:seed", "random:seed=-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (random_clip_parse(bad[i], &p, err, sizeof err) == 0)
            fail_msg("%s was accepted", bad[i]);
}

static uint64_t hash_of(const char *name)
{
    random_clip_params p;
    char err[300];
    anim_rig *rig;
    anim_clip *clip;
    assert_int_equal(random_clip_parse(name, &p, err, sizeof err), 0);
    assert_int_equal(random_clip_make(&p, &rig, &clip, err, sizeof err), 0);
    const uint64_t h = clip_hash(clip);
    clip_free(clip);
    rig_free(rig);
    return h;
}

static void test_pure_function_of_parameters(void **state)
{
    (void)state;
    assert_true(hash_of("random:bones=40,frames=90,seed=3") == hash_of("random:bones=40,frames=90,seed=3"));
    assert_true(hash_of("random:bones=40,frames=90,seed=3") != hash_of("random:bones=40,frames=90,seed=4"));
    assert_true(hash_of("random:bones=40,frames=90,seed=3") != hash_of("random:bones=41,frames=90,seed=3"));
}

static void test_tree_shape(void **state)
{
    (void)state;
    random_clip_params p;
    char err[300];
    anim_rig *rig;
    anim_clip *clip;
    assert_int_equal(random_clip_parse("random:bones=200,frames=10,branching=2,depth=6,seed=11", &p, err, sizeof err), 0);
    assert_int_equal(random_clip_make(&p, &rig, &clip, err, sizeof err), 0);
    assert_true(rig_is_ordered(rig));
    int children[200] = {0}, level[200] = {0}, roots = 0;
    for (int b = 0; b < 200; b++) {
        const int parent = rig->parents[b];
        if (parent < 0) {
            roots++;
            continue;
        }
        children[parent]++;
        level[b] = level[parent] + 1;
        assert_true(children[parent] <= 2);
        assert_true(level[b] < 6);
    }
    /* 2-ary trees 6 deep hold 63 bones: the rest start new roots */
    assert_true(roots >= 200 / 63);
    for (int f = 0; f < clip->frame_count; f++)
        for (int b = 0; b < 200; b++) {
            const double *q = clip_rot_track(clip, b) + (size_t)f * 4;
            assert_true(fabs(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1) < 1e-12);
        }
    clip_free(clip);
    rig_free(rig);
}

/* Usable wherever a clip is: by name through the clip library, every codec. */
static void test_every_codec(void **state)
{
    (void)state;
    char err[300];
    clip_source *s = clip_source_load("random:bones=12,frames=40,seed=5", &CLIP_DEFAULTS, err, sizeof err);
    assert_non_null(s);
    assert_string_equal(s->generator, "random");
    measured_clip *m = measured_clip_create(s, NULL, err, sizeof err);
    assert_non_null(m);
    for (int i = 0; i < codec_count(); i++) {
        const codec *c = codec_at(i);
        if (c->flags & CODEC_UNAVAILABLE)
            continue;
        codec_params p;
        codec_params_init(c, &p);
        point_result r;
        if (measure_point(m, c, &p, false, &r, err, sizeof err) != 0)
            fail_msg("%s: %s", c->name, err);
        if (!r.decoded_ok)
            fail_msg("%s does not decode a random clip: %s", c->name, r.decode_error);
        point_result_free(&r);
    }
    measured_clip_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parameters),
        cmocka_unit_test(test_pure_function_of_parameters),
        cmocka_unit_test(test_tree_shape),
        cmocka_unit_test(test_every_codec),
    };
    return cmocka_run_group_tests_name("random", tests, NULL, NULL);
}
