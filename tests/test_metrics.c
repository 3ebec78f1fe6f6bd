/* Every metric on hand-made cases with known answers (worked in comments). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_contact.h"
#include "core/error_distribution.h"
#include "core/error_effectors.h"
#include "core/error_shell.h"
#include "core/metrics.h"
#include "core/quat.h"
#include "core/rate.h"
#include "generators/clip_library.h"
#include "generators/study_rig.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static anim_rig *chain(int n)
{
    anim_rig *rig = rig_create(n);
    strcpy(rig->names[0], "root");
    rig->parents[0] = -1;
    rig->rest_offsets[1] = 1.0; /* root 1 m up */
    if (n > 1) {
        strcpy(rig->names[1], "foot");
        rig->parents[1] = 0;
        rig->rest_offsets[1 * 3 + 1] = -1.0; /* foot at the ground */
    }
    return rig;
}

/* A pure rotation error of theta about z at the joint: the vertices on x and
 * y move by the chord 2 d sin(theta / 2); the one on z does not move. */
static void test_shell_pure_rotation(void **state)
{
    (void)state;
    anim_rig *rig = chain(1);
    anim_clip *a = clip_create_rest(rig, 1, 30), *b = clip_create_rest(rig, 1, 30);
    const double theta = 2.0, d = 0.03;
    quat_from_euler_deg(0, 0, theta, clip_rot_track(b, 0));
    pose_set *pa = pose_set_from_clip(a), *pb = pose_set_from_clip(b);
    double shell[1], disp[1];
    shell_distance_m(pa, pb, d, shell);
    joint_displacement_m(pa, pb, disp);
    NEAR(shell[0], 2 * d * sin(theta * ANIM_PI / 180 / 2), 1e-12);
    NEAR(disp[0], 0, 1e-15);
    /* the vertex follows the joint's own scale, as a child would */
    clip_scl_channel(b, 0, 0)[0] = 2;
    quat_from_euler_deg(0, 0, 0, clip_rot_track(b, 0));
    pose_set_free(pb);
    pb = pose_set_from_clip(b);
    shell_distance_m(pa, pb, d, shell);
    NEAR(shell[0], d, 1e-12); /* the x vertex moves from d to 2d */
    pose_set_free(pa), pose_set_free(pb), clip_free(a), clip_free(b), rig_free(rig);
}

/* A pure translation of (3, 0, 4) mm moves the joint and every vertex by 5 mm. */
static void test_pure_translation(void **state)
{
    (void)state;
    anim_rig *rig = chain(2);
    anim_clip *a = clip_create_rest(rig, 2, 30), *b = clip_create_rest(rig, 2, 30);
    for (int f = 0; f < 2; f++) {
        clip_pos_channel(b, 0, 0)[f] += 0.003;
        clip_pos_channel(b, 0, 2)[f] += 0.004;
    }
    pose_set *pa = pose_set_from_clip(a), *pb = pose_set_from_clip(b);
    double shell[4], disp[4];
    shell_distance_m(pa, pb, 0.03, shell);
    joint_displacement_m(pa, pb, disp);
    for (int i = 0; i < 4; i++) {
        NEAR(disp[i], 0.005, 1e-15);
        NEAR(shell[i], 0.005, 1e-15);
    }
    metric_params mp;
    metric_params_default(&mp);
    metrics_report m;
    assert_int_equal(metrics_compute(pa, pb, NULL, NULL, 30, 100, &mp, &m), 0);
    NEAR(m.joint_m.max, 0.005, 1e-15);
    NEAR(m.shell_above_precision, 1.0, 0); /* 5 mm > 0.1 mm everywhere */
    assert_int_equal(m.effector_count, 1); /* the foot: a leaf, and its name says foot */
    metrics_report_free(&m);
    pose_set_free(pa), pose_set_free(pb), clip_free(a), clip_free(b), rig_free(rig);
}

/* A foot held still on the ground for 10 frames.  Decoded, it slides 2 mm
 * along x and sinks 1 mm from frame 5 on: slide max 2, mean 5 * 2 / 10 = 1;
 * sink max 1, mean 0.5 (mm); one contact of 10 frames. */
static void test_foot_contact(void **state)
{
    (void)state;
    anim_rig *rig = chain(2);
    anim_clip *a = clip_create_rest(rig, 10, 30), *b = clip_create_rest(rig, 10, 30);
    for (int f = 5; f < 10; f++) {
        clip_pos_channel(b, 0, 0)[f] += 0.002;
        clip_pos_channel(b, 0, 1)[f] -= 0.001;
    }
    pose_set *pa = pose_set_from_clip(a), *pb = pose_set_from_clip(b);
    const contact_params p = {CONTACT_HEIGHT_DEFAULT_M, CONTACT_SPEED_DEFAULT_MPS, 1};
    contact_report r;
    assert_int_equal(foot_contact(pa, pb, 30, &p, &r), 0);
    assert_int_equal(r.feet, 1);
    assert_int_equal(r.contacts, 1);
    assert_int_equal(r.planted_frames, 10);
    NEAR(r.slide_max_m, 0.002, 1e-15);
    NEAR(r.slide_mean_m, 0.001, 1e-15);
    NEAR(r.sink_max_m, 0.001, 1e-15);
    NEAR(r.sink_mean_m, 0.0005, 1e-15);
    /* moved by 1 m per frame in the original, the foot is never planted */
    for (int f = 0; f < 10; f++)
        clip_pos_channel(a, 0, 0)[f] = f;
    pose_set_free(pa);
    pa = pose_set_from_clip(a);
    assert_int_equal(foot_contact(pa, pb, 30, &p, &r), 0);
    assert_int_equal(r.planted_frames, 0);
    pose_set_free(pa), pose_set_free(pb), clip_free(a), clip_free(b), rig_free(rig);
}

/* 1..100: max 100, mean 50.5, median (nearest rank) 50, p99 99. */
static void test_distribution(void **state)
{
    (void)state;
    double v[100], scratch[100];
    for (int i = 0; i < 100; i++)
        v[(i * 37) % 100] = i + 1; /* shuffled */
    error_distribution d;
    error_distribution_of(v, 10, 10, NULL, scratch, &d);
    NEAR(d.max, 100, 0);
    NEAR(d.mean, 50.5, 1e-12);
    NEAR(d.median, 50, 0);
    NEAR(d.p99, 99, 0);
    assert_int_equal(d.worst_sample * 10 + d.worst_joint, (99 * 37) % 100);
    const unsigned char only_first[10] = {1};
    error_distribution_of(v, 10, 10, only_first, scratch, &d);
    assert_int_equal(d.count, 10);
}

/* Between frames: the original's root rises as t^2 (t in frames, in m); the
 * decoded clip interpolates its frames linearly.  At f + 1/2 the lerp gives
 * f^2 + f + 1/2 and the curve f^2 + f + 1/4: 0.25 m off at every midpoint;
 * at f + 1/4 and f + 3/4, 3/16 m; at the frames themselves they agree. */
static void quadratic(const void *ctx, double t, double *pose)
{
    (void)ctx;
    memset(pose, 0, 10 * sizeof *pose);
    pose[1] = t * t;
    pose[6] = 1;
    pose[7] = pose[8] = pose[9] = 1;
}

static void chord(const void *ctx, double t, double *pose)
{
    const int f = (int)t;
    const double u = t - f;
    quadratic(ctx, t, pose);
    pose[1] = f * f + ((f + 1.0) * (f + 1.0) - f * f) * u;
}

static void test_between_frames(void **state)
{
    (void)state;
    anim_rig *rig = chain(1);
    double frames[5] = {0, 1, 2, 3, 4}, times[5 * 3];
    const int n = between_frame_times(5, 4, times);
    assert_int_equal(n, 12);
    NEAR(times[0], 0.25, 0);
    NEAR(times[11], 3.75, 0);
    pose_set *oa = pose_set_from_eval(rig, quadratic, NULL, frames, 5), *da = pose_set_from_eval(rig, chord, NULL, frames, 5);
    pose_set *ob = pose_set_from_eval(rig, quadratic, NULL, times, n), *db = pose_set_from_eval(rig, chord, NULL, times, n);
    metric_params mp;
    metric_params_default(&mp);
    metrics_report m;
    assert_int_equal(metrics_compute(oa, da, ob, db, 30, 100, &mp, &m), 0);
    NEAR(m.joint_m.max, 0, 1e-15);
    NEAR(m.between_joint_m.max, 0.25, 1e-12);
    NEAR(m.between_joint_m.median, 0.1875, 1e-12); /* 4 midpoints of 0.25, 8 quarter points of 3/16 */
    metrics_report_free(&m);
    pose_set_free(oa), pose_set_free(da), pose_set_free(ob), pose_set_free(db), rig_free(rig);
}

static void test_rate_and_effectors(void **state)
{
    (void)state;
    NEAR(bits_per_joint_sample(1000, 10, 10), 80, 0);
    NEAR(acl_raw_ratio(1000, 10, 10), 4, 0);
    /* the study's rig: 11 leaves (toes, fingers, prop, jaw, eyes, cape)
     * and 5 named ends (hands, feet, head) */
    anim_rig *rig = study_rig_create();
    unsigned char mask[STUDY_BONE_COUNT];
    assert_int_equal(end_effector_mask(rig, mask), 16);
    assert_true(mask[rig_find_bone(rig, "hand.L")] && mask[rig_find_bone(rig, "cape")]);
    assert_false(mask[rig_find_bone(rig, "shin.L")]);
    assert_int_equal(foot_mask(rig, mask), 4);
    rig_free(rig);
}

/* The generated clips are functions of time: at a frame the evaluator
 * returns the frame itself; between frames the walk's root travels at
 * exactly 1.4 m/s (pos z = 1.40 t). */
static void test_original_at_any_time(void **state)
{
    (void)state;
    char err[256];
    clip_source *s = clip_source_load("walk", &CLIP_DEFAULTS, err, sizeof err);
    double pose[STUDY_BONE_COUNT * 10], frame[STUDY_BONE_COUNT * 10];
    for (int f = 0; f < s->clip->frame_count; f += 17) {
        clip_source_pose_at(s, f, pose);
        clip_get_pose(s->clip, f, frame);
        assert_memory_equal(pose, frame, sizeof pose);
        clip_source_pose_at(s, f + 0.5, pose);
        NEAR(pose[2], 1.40 * (f + 0.5) / 60, 1e-15);
    }
    clip_source_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shell_pure_rotation), cmocka_unit_test(test_pure_translation),
        cmocka_unit_test(test_foot_contact),        cmocka_unit_test(test_distribution),
        cmocka_unit_test(test_between_frames),      cmocka_unit_test(test_rate_and_effectors),
        cmocka_unit_test(test_original_at_any_time),
    };
    return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
