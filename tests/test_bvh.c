/* BVH import and export, rigs of any size, and the container's frame limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codecs/codec.h"
#include "codecs/study/study_container.h"
#include "core/fk.h"
#include "core/limits.h"
#include "core/quat.h"
#include "generators/bvh.h"
#include "generators/clip_library.h"
#include "harness/report/clip_export.h"
#include "harness/measure/measure.h"
#include "harness/measure/timing.h"
#include "table_compare.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static bvh_result load(const char *path, double unit)
{
    const bvh_options o = {unit};
    bvh_result r;
    char err[512];
    if (bvh_load(path, &o, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    return r;
}

static void world(const anim_clip *c, int f, int joint, double out[3])
{
    double wp[3 * 64], wq[4 * 64];
    fk_frame(c, f, wp, wq);
    memcpy(out, wp + joint * 3, 3 * sizeof *out);
}

/* Frame 2 of two_joints: root at (1, 2, 3) turned 90 degrees about z, which
 * takes the chest's offset (0, 1, 0) to (-1, 0, 0): chest at (0, 2, 3). */
static void test_line_endings_and_whitespace(void **state)
{
    (void)state;
    const char *files[] = {"lf", "crlf", "cr", "mixed", "tabs"};
    for (int i = 0; i < 5; i++) {
        char path[128];
        snprintf(path, sizeof path, "tests/data/bvh_good/two_joints_%s.bvh", files[i]);
        bvh_result r = load(path, 1.0);
        assert_int_equal(r.rig->bone_count, 2);
        assert_int_equal(r.clip->frame_count, 2);
        assert_string_equal(r.frame_time, "0.0333333");
        assert_true(r.clip->fps == 1 / 0.0333333);
        assert_true(r.rig->has_end_site[1]);
        NEAR(r.rig->end_site_offsets[4], 0.5, 0);
        double p[3];
        world(r.clip, 1, 1, p);
        NEAR(p[0], 0, 1e-12);
        NEAR(p[1], 2, 1e-12);
        NEAR(p[2], 3, 1e-12);
        const double *q = clip_rot_track(r.clip, 0) + 4;
        NEAR(q[2], sqrt(0.5), 1e-12);
        NEAR(q[3], sqrt(0.5), 1e-12);
        bvh_result_free(&r);
    }
}

/* Position channels on a child replace its offset on their axes, in any
 * channel order; a second ROOT is a second root; units scale lengths. */
static void test_channels_anywhere(void **state)
{
    (void)state;
    bvh_result r = load("tests/data/bvh_good/child_positions.bvh", 0.5);
    assert_int_equal(r.rig->bone_count, 3);
    assert_int_equal(r.rig->parents[2], -1);
    NEAR(clip_pos_channel(r.clip, 1, 0)[0], 1.0, 0); /* Xposition 2 * 0.5 */
    NEAR(clip_pos_channel(r.clip, 1, 1)[0], 1.5, 0);
    NEAR(clip_pos_channel(r.clip, 1, 2)[0], 2.0, 0);
    NEAR(clip_pos_channel(r.clip, 2, 0)[0], 2.5, 0); /* offset x kept: 5 * 0.5 */
    NEAR(clip_pos_channel(r.clip, 2, 1)[0], 3.5, 0); /* Yposition 7 * 0.5 */
    NEAR(r.rig->rest_offsets[3], 0.5, 0);
    assert_true(r.clip->fps == 1 / .008333);
    bvh_result_free(&r);
}

/* Rotation order: "Zrotation Yrotation Xrotation 30 45 60" is R = Rz Ry Rx;
 * the child's offset (1, 0, 0) is checked against those matrices multiplied
 * out here, independently of the quaternion code. */
static void test_rotation_order(void **state)
{
    (void)state;
    const char *text = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Yrotation Xrotation\n"
                       "JOINT B\n{\nOFFSET 1 0 0\nCHANNELS 0\n}\n}\nMOTION\nFrames: 2\nFrame Time: 1\n30 45 60\n30 45 60\n";
    const bvh_options o = {1.0};
    bvh_result r;
    char err[256];
    assert_int_equal(bvh_parse(text, strlen(text), "order", &o, &r, err, sizeof err), 0);
    const double a = 30 * ANIM_PI / 180, b = 45 * ANIM_PI / 180, c = 60 * ANIM_PI / 180;
    const double Rz[3][3] = {{cos(a), -sin(a), 0}, {sin(a), cos(a), 0}, {0, 0, 1}};
    const double Ry[3][3] = {{cos(b), 0, sin(b)}, {0, 1, 0}, {-sin(b), 0, cos(b)}};
    const double Rx[3][3] = {{1, 0, 0}, {0, cos(c), -sin(c)}, {0, sin(c), cos(c)}};
    double v[3] = {1, 0, 0}, t[3];
    const double(*chain[3])[3] = {Rx, Ry, Rz}; /* applied right to left */
    for (int m = 0; m < 3; m++) {
        for (int i = 0; i < 3; i++)
            t[i] = chain[m][i][0] * v[0] + chain[m][i][1] * v[1] + chain[m][i][2] * v[2];
        memcpy(v, t, sizeof v);
    }
    double p[3];
    world(r.clip, 0, 1, p);
    for (int i = 0; i < 3; i++)
        NEAR(p[i], v[i], 1e-12);
    bvh_result_free(&r);
}

/* Every malformed file gets the message in its .expected file; every prefix
 * of a good file parses or fails, never reading past its end (ASan). */
static void test_malformed_corpus(void **state)
{
    (void)state;
    DIR *d = opendir("tests/data/bvh_bad");
    assert_non_null(d);
    int checked = 0;
    for (struct dirent *e; (e = readdir(d));) {
        const size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".bvh") != 0)
            continue;
        char path[512], expected_path[512];
        snprintf(path, sizeof path, "tests/data/bvh_bad/%s", e->d_name);
        snprintf(expected_path, sizeof expected_path, "tests/data/bvh_bad/%.*s.expected", (int)(n - 4), e->d_name);
        char *expected = read_text_file(expected_path);
        assert_non_null(expected);
        expected[strcspn(expected, "\n")] = '\0';
        const bvh_options o = {1.0};
        bvh_result r;
        char err[512] = "";
        assert_int_not_equal(bvh_load(path, &o, &r, err, sizeof err), 0);
        if (!strstr(err, expected))
            fail_msg("%s: message\n  %s\ndoes not contain\n  %s", e->d_name, err, expected);
        assert_non_null(strstr(err, path)); /* names the file */
        assert_null(r.clip);
        free(expected);
        checked++;
    }
    closedir(d);
    assert_true(checked >= 18);
    char *good = read_text_file("tests/data/bvh_good/child_positions.bvh");
    const size_t len = strlen(good);
    for (size_t cut = 0; cut <= len; cut++) {
        char *part = malloc(cut ? cut : 1);
        memcpy(part, good, cut);
        const bvh_options o = {1.0};
        bvh_result r;
        char err[512];
        if (bvh_parse(part, cut, "cut", &o, &r, err, sizeof err) == 0)
            bvh_result_free(&r);
        free(part);
    }
    free(good);
}

/* Export a clip as BVH, import it: the same joint positions at every frame,
 * within the 10 printed digits. */
static void round_trip(const anim_clip *c, double unit)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    assert_int_equal(export_bvh(c, unit, mem), 0);
    fclose(mem);
    const bvh_options o = {unit};
    bvh_result r;
    char err[512];
    if (bvh_parse(text, size, "export", &o, &r, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(r.clip->frame_count, c->frame_count);
    assert_int_equal(r.rig->bone_count, c->rig->bone_count);
    NEAR(r.clip->fps, c->fps, c->fps * 1e-12);
    const int nb = c->rig->bone_count;
    double *a = malloc((size_t)nb * 3 * sizeof *a), *aq = malloc((size_t)nb * 4 * sizeof *aq);
    double *b = malloc((size_t)nb * 3 * sizeof *b), *bq = malloc((size_t)nb * 4 * sizeof *bq);
    double worst = 0;
    for (int f = 0; f < c->frame_count; f++) {
        fk_frame(c, f, a, aq);
        fk_frame(r.clip, f, b, bq);
        for (int j = 0; j < nb; j++) { /* the file orders joints depth first: match by name */
            const int k = rig_find_bone(r.rig, c->rig->names[j]);
            assert_true(k >= 0);
            for (int i = 0; i < 3; i++)
                worst = fmax(worst, fabs(a[j * 3 + i] - b[k * 3 + i]));
        }
    }
    if (!(worst < 1e-6 * unit))
        fail_msg("round trip moved a joint by %.3g m (unit %g, %d frames)", worst, unit, c->frame_count);
    free(a), free(aq), free(b), free(bq), free(text);
    bvh_result_free(&r);
}

static void test_export_round_trip(void **state)
{
    (void)state;
    const char *names[] = {"walk", "jump"}; /* jump: the root's scale goes into its children's channels */
    for (int i = 0; i < 2; i++) {
        char err[256];
        clip_source *s = clip_source_load(names[i], &CLIP_DEFAULTS, err, sizeof err);
        round_trip(s->clip, 1.0);
        round_trip(s->clip, 0.01);
        clip_source_free(s);
    }
    bvh_result r = load("tests/data/bvh_good/child_positions.bvh", 1.0);
    round_trip(r.clip, 1.0);
    bvh_result_free(&r);
}

static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void test_acl_sjson(void **state)
{
    (void)state;
    char err[256];
    clip_source *s = clip_source_load("walk", &CLIP_DEFAULTS, err, sizeof err);
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    assert_int_equal(export_acl_sjson(s->clip, "walk", mem), 0);
    fclose(mem);
    assert_non_null(strstr(text, "version = 5\n"));
    assert_non_null(strstr(text, "num_samples = 180\n"));
    assert_non_null(strstr(text, "sample_rate = 60\n"));
    assert_non_null(strstr(text, "bind_translation = [ 0, 95, 0 ]")); /* hips 0.95 m in cm */
    assert_int_equal(count(text, "parent = \"\""), 1);
    assert_int_equal(count(text, "rotations ="), 30);
    assert_int_equal(count(text, "\t\t\t[ "), 3 * 30 * 180); /* rotation, translation and scale rows */
    free(text);
    clip_source_free(s);
}

/* The study's container stores frame indices in 16 bits: 65,536 frames
 * fit, 65,537 get a clear error from the codec that names its -sc twin.
 * The twin writes the same records with 32-bit indices past 65,535 frames
 * (header flag 4) and its decoder gives back the encoder's reconstruction,
 * up to float32; at 65,535 frames the stream stays narrow. */
static void test_container_frame_limit(void **state)
{
    (void)state;
    anim_rig *rig = rig_create(1);
    strcpy(rig->names[0], "root");
    rig->parents[0] = -1;
    for (int frames = 65535; frames <= 65537; frames++) {
        anim_clip *c = clip_create_rest(rig, frames, 30);
        for (int f = 0; f < frames; f++)
            clip_pos_channel(c, 0, 0)[f] = sin(f * 0.01);
        channel_view *v = channels_create(c);
        const codec *cod = codec_find("linear");
        const codec_input in = {c, v, false};
        const codec_params p = codec_params_with(cod, 1, 0.35, 2);
        codec_output out;
        codec_output_init(&out);
        char err[256] = "";
        const int rc = cod->ops->encode(cod, &in, &p, &out, err, sizeof err);
        if (frames <= 65536)
            assert_int_equal(rc, 0);
        else {
            assert_int_not_equal(rc, 0);
            assert_non_null(strstr(err, "16-bit"));
            assert_non_null(strstr(err, "use linear-sc"));
        }
        codec_output_free(&out);
        const codec *wide = codec_find("linear-sc");
        codec_output_init(&out);
        assert_int_equal(wide->ops->encode(wide, &in, &p, &out, err, sizeof err), 0);
        assert_int_equal(out.bytes.data[3], frames > 65535 ? SC_FLAG_WIDE : 0); /* linear, float, wide or not */
        anim_clip *back = wide->ops->decode(wide, out.bytes.data, out.bytes.size, rig, err, sizeof err);
        assert_non_null(back);
        assert_int_equal(back->frame_count, frames);
        const double *x = clip_pos_channel(back, 0, 0), *want = clip_pos_channel(out.encoder_recon, 0, 0);
        for (int f = 0; f < frames; f++)
            assert_true(fabs(x[f] - want[f]) < 1e-6); /* keys stored as float32 */
        codec_sampler *s = wide->ops->sampler_create(wide, out.bytes.data, out.bytes.size, rig, err, sizeof err);
        assert_non_null(s);
        for (int f = frames - 3; f < frames; f++) { /* keys past 65,535 */
            double pose[10];
            wide->ops->sample(s, f, pose);
            assert_true(pose[0] == x[f]);
        }
        wide->ops->sampler_free(s);
        clip_free(back);
        if (frames == 65537) {
            /* A few bytes can describe a clip of any length (two keys a track):
             * the header says 4,194,304 frames and the last keys agree; the
             * decoder refuses by the joint-sample limit before allocating. */
            codec_output_free(&out);
            const codec_params loose = codec_params_with(cod, 1e6, 0.35, 2);
            codec_output_init(&out);
            assert_int_equal(wide->ops->encode(wide, &in, &loose, &out, err, sizeof err), 0);
            uint8_t *b = out.bytes.data;
            const uint32_t last = (uint32_t)frames - 1, huge = LIMIT_FRAMES_MAX;
            for (size_t at = 16; at + 4 <= out.bytes.size; at++)
                if (memcmp(b + at, &last, 4) == 0)
                    memcpy(b + at, &(uint32_t){huge - 1}, 4);
            memcpy(b + 4, &huge, 4);
            assert_null(wide->ops->decode(wide, b, out.bytes.size, rig, err, sizeof err));
            assert_non_null(strstr(err, "joint-samples, over the limit of 1048576"));
        }
        codec_output_free(&out);
        channels_free(v);
        clip_free(c);
    }
    rig_free(rig);
}

/* A 57-joint tree with motion on every joint, written as BVH text and read
 * back: every codec encodes and decodes it, every metric and the timer run. */
static void test_any_rig_size(void **state)
{
    (void)state;
    enum { JOINTS = 57, FRAMES = 40 };
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    int parent[JOINTS], depth[JOINTS];
    fprintf(mem, "HIERARCHY\n");
    for (int j = 0; j < JOINTS; j++) {
        parent[j] = j == 0 ? -1 : (j * 7) % j; /* a tree: every parent comes first */
        depth[j] = j == 0 ? 0 : depth[parent[j]] + 1;
    }
    /* write depth-first: children of j are the k > j with parent[k] == j */
    int stack[JOINTS], order[JOINTS], top = 0, n = 0;
    stack[top++] = 0;
    while (top) {
        const int j = stack[--top];
        order[n++] = j;
        for (int k = JOINTS - 1; k > j; k--)
            if (parent[k] == j)
                stack[top++] = k;
    }
    (void)order;
    for (int i = 0; i < n; i++) {
        const int j = order[i];
        fprintf(mem, "%s J%d { OFFSET %d 1 0.5 CHANNELS %s\n", j == 0 ? "ROOT" : "JOINT", j, j % 3,
                j == 0 ? "6 Xposition Yposition Zposition Zrotation Xrotation Yrotation" : "3 Yrotation Xrotation Zrotation");
        const int next_depth = i + 1 < n ? depth[order[i + 1]] : 0;
        for (int close = depth[j]; close >= next_depth; close--)
            fprintf(mem, "}\n");
    }
    fprintf(mem, "MOTION\nFrames: %d\nFrame Time: 0.04\n", FRAMES);
    for (int f = 0; f < FRAMES; f++) {
        for (int i = 0; i < n; i++)
            fprintf(mem, i == 0 ? "%g 10 %g %g %g %g" : " %g %g %g", f * 0.3, sin(f * 0.2 + i) * 20, f * 1.5 + i,
                    cos(f * 0.1 * (i % 4 + 1)) * 30, (double)(i % 5));
        fprintf(mem, "\n");
    }
    fclose(mem);
    /* the process id in the name: make check runs this binary and its sanitised build at once */
    char path[64];
    snprintf(path, sizeof path, "/tmp/animbench_rig57_%ld.bvh", (long)getpid());
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fwrite(text, 1, size, out);
    fclose(out);
    free(text);
    clip_params cp = CLIP_DEFAULTS;
    cp.unit_m = 0.1;
    char err[512];
    clip_source *s = clip_source_load(path, &cp, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_int_equal(s->rig->bone_count, JOINTS);
    measured_clip *mc = measured_clip_create(s, NULL, err, sizeof err);
    assert_non_null(mc);
    timer_config tc;
    timer_config_default(&tc);
    tc.runs = 1;
    tc.budget_ms = 0.2;
    for (int i = 0; i < codec_count(); i++) {
        const codec *c = codec_at(i);

        if (c->flags & CODEC_UNAVAILABLE) {

            print_message("  %s: skipped (not built here)\n", c->name);

            continue;

        }
        point_result r;
        const codec_params p = codec_params_with(c, 1, 0.35, 3);
        assert_int_equal(measure_point(mc, c, &p, true, &r, err, sizeof err), 0);
        if (!r.decoded_ok)
            fail_msg("%s: %s", c->name, r.decode_error);
        assert_true(r.has_metrics);
        assert_int_equal(r.metrics.joint_m.count, (long)JOINTS * FRAMES);
        if (!(c->flags & CODEC_NOT_SELF_CONTAINED) && r.has_encoder)
            NEAR(r.decoded.max_m, r.encoder.max_m, 1e-5);
        codec_timings t;
        if (time_codec(mc, c, &p, &tc, TIME_ALL, &t, err, sizeof err) != 0)
            fail_msg("%s", err);
        bytes_free(&t.stream);
        point_result_free(&r);
    }
    measured_clip_free(mc);
    remove(path);
}

/* A BVH of `joints` joints in one chain (depth = joints), no channels,
 * `frames` frames: tiny text whatever the counts. */
static char *chain_bvh(int joints, long frames, int channels_on_root)
{
    size_t cap = (size_t)joints * 64 + 256, n = 0;
    char *t = malloc(cap);
    n += (size_t)snprintf(t + n, cap - n, "HIERARCHY\nROOT j0\n{\nOFFSET 0 0 0\n%s",
                          channels_on_root ? "CHANNELS 1 Xposition\n" : "");
    for (int i = 1; i < joints; i++)
        n += (size_t)snprintf(t + n, cap - n, "JOINT j%d\n{\nOFFSET 0 0.001 0\n", i);
    for (int i = 1; i < joints; i++)
        n += (size_t)snprintf(t + n, cap - n, "}\n");
    n += (size_t)snprintf(t + n, cap - n, "}\nMOTION\nFrames: %ld\nFrame Time: 0.1\n", frames);
    return t;
}

static int parse_text(const char *text, char *err, size_t err_size)
{
    const bvh_options o = {1.0};
    bvh_result r;
    const int rc = bvh_parse(text, strlen(text), "limit", &o, &r, err, err_size);
    if (rc == 0)
        bvh_result_free(&r);
    return rc;
}

/* README's limits, each at the limit and one past it, through the importer:
 * frames 2..4,194,304, joints 4,096, depth 256, frame time 1e-4..10 s; the
 * joint-sample budget (1,048,576) by its one check.  A file that declares
 * more than it holds is refused before anything is allocated. */
static void test_limits_at_the_edge(void **state)
{
    (void)state;
    char err[512];
    /* frames: 4,194,304 pass the frame limit (the joint-sample limit of the
     * measuring commands stops one joint at 1,048,576; `encode`'s does not) */
    assert_int_equal(clip_limits_check(1048576, 1, 30, err, sizeof err), 0);
    assert_int_not_equal(clip_limits_check(1048577, 1, 30, err, sizeof err), 0);
    assert_non_null(strstr(err, "over the limit of 1048576"));
    clip_limits_set_joint_samples(LIMIT_JOINT_SAMPLES_ENCODE_MAX);
    assert_int_equal(clip_limits_check(4194304, 4, 30, err, sizeof err), 0); /* 16,777,216 exactly */
    assert_int_not_equal(clip_limits_check(4194304, 5, 30, err, sizeof err), 0);
    assert_int_not_equal(clip_limits_check(4194305, 1, 30, err, sizeof err), 0);
    assert_non_null(strstr(err, "4194305 frames: a clip has 2 to 4194304"));
    clip_limits_set_joint_samples(LIMIT_JOINT_SAMPLES_MAX);
    char *t = chain_bvh(1, 4194305, 0);
    assert_int_not_equal(parse_text(t, err, sizeof err), 0);
    assert_non_null(strstr(err, "expected a frame count from 2 to 4194304, found '4194305'"));
    free(t);
    t = chain_bvh(1, 2, 0);
    assert_int_equal(parse_text(t, err, sizeof err), 0);
    free(t);
    /* depth: a chain of 256 joints is 256 deep */
    t = chain_bvh(256, 2, 0);
    assert_int_equal(parse_text(t, err, sizeof err), 0);
    free(t);
    t = chain_bvh(257, 2, 0);
    assert_int_not_equal(parse_text(t, err, sizeof err), 0);
    assert_non_null(strstr(err, "hierarchy deeper than 256 joints"));
    free(t);
    /* joints: 4,096 siblings under one root */
    for (int joints = 4096; joints <= 4097; joints++) {
        size_t cap = (size_t)joints * 48 + 256, n = 0;
        char *w = malloc(cap);
        n += (size_t)snprintf(w + n, cap - n, "HIERARCHY\nROOT j0\n{\nOFFSET 0 0 0\n");
        for (int i = 1; i < joints; i++)
            n += (size_t)snprintf(w + n, cap - n, "JOINT j%d\n{\nOFFSET 0 0.001 0\n}\n", i);
        snprintf(w + n, cap - n, "}\nMOTION\nFrames: 2\nFrame Time: 0.1\n");
        const int rc = parse_text(w, err, sizeof err);
        if (joints == 4096)
            assert_int_equal(rc, 0);
        else
            assert_non_null(strstr(err, "more than 4096 joints"));
        free(w);
    }
    /* frame time: 1e-4 s and 10 s are in, just past them is out */
    const char *times[] = {"0.0001", "10", "0.0000999", "10.001"};
    for (int i = 0; i < 4; i++) {
        char text[256];
        snprintf(text, sizeof text, "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\n}\nMOTION\nFrames: 2\nFrame Time: %s\n", times[i]);
        const int rc = parse_text(text, err, sizeof err);
        if (i < 2)
            assert_int_equal(rc, 0);
        else
            assert_non_null(strstr(err, "expected a frame time from 0.0001 to 10 seconds"));
    }
    /* the joint-sample budget: 16 joints x 65,536 frames is exactly it */
    assert_int_equal(clip_limits_check(65536, 16, 30, err, sizeof err), 0);
    assert_int_not_equal(clip_limits_check(65537, 16, 30, err, sizeof err), 0);
    assert_int_equal(clip_limits_check(1024, 1024, 30, err, sizeof err), 0); /* 1,048,576 exactly */
    assert_int_not_equal(clip_limits_check(1025, 1024, 30, err, sizeof err), 0);
    assert_non_null(strstr(err, "1049600 joint-samples, over the limit of 1048576"));
    assert_int_not_equal(clip_limits_check(1, 64, 30, err, sizeof err), 0);
    assert_int_not_equal(clip_limits_check(2.5, 64, 30, err, sizeof err), 0);
    assert_int_equal(clip_limits_check(2, 1, 0.1, err, sizeof err), 0);
    assert_int_not_equal(clip_limits_check(2, 1, 0.0999, err, sizeof err), 0);
    assert_int_equal(clip_limits_check(2, 1, 10000, err, sizeof err), 0);
    assert_int_not_equal(clip_limits_check(2, 1, 10000.01, err, sizeof err), 0);
    /* through the importer, past the budget: 17 joints x 65,535 frames, no channels */
    t = chain_bvh(17, 65535, 0);
    assert_int_not_equal(parse_text(t, err, sizeof err), 0);
    assert_non_null(strstr(err, "over the limit of 1048576"));
    free(t);
    /* a declared count the file has no room for: one channel, 65,535 frames, no values */
    t = chain_bvh(1, 65535, 1);
    assert_int_not_equal(parse_text(t, err, sizeof err), 0);
    assert_non_null(strstr(err, "need more values than the file has room for"));
    free(t);
}

/* The importer reads a file in 64 KiB pieces: a file read that way gives
 * the same clip as its text parsed from memory, for a small file and for a
 * 3.3 MB capture whose tokens straddle 52 piece boundaries. */
static void test_streamed_file_equals_memory(void **state)
{
    (void)state;
    const char *path = "tests/data/bvh_good/cmu_like.bvh";
    char *text = read_text_file(path);
    assert_non_null(text);
    const bvh_options o = {0.056444};
    bvh_result a, b;
    char err[512];
    assert_int_equal(bvh_parse(text, strlen(text), path, &o, &a, err, sizeof err), 0);
    assert_int_equal(bvh_load(path, &o, &b, err, sizeof err), 0);
    assert_int_equal(a.clip->frame_count, b.clip->frame_count);
    assert_int_equal(clip_hash(a.clip), clip_hash(b.clip));
    bvh_result_free(&a);
    bvh_result_free(&b);
    free(text);
    /* a big one: the shared CMU capture when present (3.3 MB, 52 pieces) */
    char big[1024];
    clip_resolve("data:bvh/cmu_01_03_mb.bvh", big, sizeof big);
    text = read_text_file(big);
    if (!text) {
        print_message("  %s not here: the multi-piece case skipped\n", big);
        return;
    }
    assert_int_equal(bvh_parse(text, strlen(text), big, &o, &a, err, sizeof err), 0);
    assert_int_equal(bvh_load(big, &o, &b, err, sizeof err), 0);
    assert_int_equal(clip_hash(a.clip), clip_hash(b.clip));
    bvh_result_free(&a);
    bvh_result_free(&b);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_endings_and_whitespace),
        cmocka_unit_test(test_channels_anywhere),
        cmocka_unit_test(test_rotation_order),
        cmocka_unit_test(test_malformed_corpus),
        cmocka_unit_test(test_export_round_trip),
        cmocka_unit_test(test_acl_sjson),
        cmocka_unit_test(test_container_frame_limit),
        cmocka_unit_test(test_any_rig_size),
        cmocka_unit_test(test_limits_at_the_edge),
        cmocka_unit_test(test_streamed_file_equals_memory),
    };
    return cmocka_run_group_tests_name("bvh", tests, NULL, NULL);
}
