/* Key selection strategies (codecs/keys/key_select.h) against enumeration: on
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

#include "codecs/codec.h"
#include "codecs/keys/hierarchy_tolerance.h"
#include "codecs/keys/key_select.h"
#include "codecs/keys/refine.h"
#include "core/curve.h"
#include "core/fk.h"
#include "core/pcg32.h"
#include "core/quat.h"
#include "generators/clip_library.h"
#include "harness/measure/measure.h"
#include "channel_oracle.h"
#include "row_encode.h"

/* Whether keys keep every non-key frame within eps (tests/channel_oracle.h). */
static bool valid(const double *v, int n, bool rotation, bool cubic, double eps, const int *keys, int count)
{
    double recon[64 * 4];
    int at;
    return channel_worst_error(v, n, rotation, cubic, keys, count, recon, &at) <= eps;
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


static measured_clip *load(const char *name, double unit_m)
{
    clip_params p = CLIP_DEFAULTS;
    if (unit_m > 0)
        p.unit_m = unit_m;
    char err[256];
    clip_source *s = clip_source_load(name, &p, err, sizeof err);
    if (!s)
        return NULL;
    measured_clip *m = measured_clip_create(s, NULL, err, sizeof err);
    assert_non_null(m);
    return m;
}

/* Key-time bytes worked out from the keys themselves: a u16 (u32 past
 * 65,535 frames) per key, or the delta's shortest form: 1 byte below 256,
 * 3 below 65,536, else 7.  key_frames lists every animated track's keys in
 * turn, each track starting at frame 0. */
static void expected_time_bytes(const codec_output *o, int frames, long *indices, long *deltas)
{
    *indices = *deltas = 0;
    long prev = -1;
    for (long k = 0; k < o->key_frame_count; k++) {
        const long f = o->key_frames[k];
        if (f == 0)
            prev = -1;
        const long d = f - prev;
        *indices += frames > 65535 ? 4 : 2;
        *deltas += d < 256 ? 1 : d < 65536 ? 3 : 7;
        prev = f;
    }
}

/* Delta key times decode to the same clip as 16-bit (or 32-bit) frame
 * indices, value for value; the streams differ by exactly the key-time
 * bytes, which match the count worked out from the keys: on the study's
 * walk (every delta a byte), on a clip whose tracks have gaps of hundreds of
 * frames (u16 escapes), and on a clip of 70,000 frames whose tracks keep
 * only their ends (u32 escapes, the wide layout). */
static void test_delta_times_decode_same_clip(void **state)
{
    (void)state;
    static const struct {
        const char *clip;
        double tol_mm;
    } cases[] = {{"walk", 1}, {"random:bones=3,frames=3000,seed=5", 30}, {"random:bones=2,frames=70000,seed=2", 1e6}};
    static const char *const pairs[][2] = {{"linear-sc", "linear-dt-sc"}, {"cubic-sc", "cubic-dt-sc"}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        measured_clip *m = load(cases[k].clip, 0);
        const anim_clip *clip = m->source->clip;
        for (int p = 0; p < 2; p++) {
            codec_output a = encode_row(m, pairs[p][0], cases[k].tol_mm), b = encode_row(m, pairs[p][1], cases[k].tol_mm);
            long indices, deltas;
            expected_time_bytes(&a, clip->frame_count, &indices, &deltas);
            assert_int_equal(a.key_time_bytes, indices);
            assert_int_equal(b.key_time_bytes, deltas);
            assert_int_equal((long)a.bytes.size - (long)b.bytes.size, indices - deltas);
            char err[256];
            const codec *ca = codec_find(pairs[p][0]), *cb = codec_find(pairs[p][1]);
            anim_clip *da = ca->ops->decode(ca, a.bytes.data, a.bytes.size, clip->rig, err, sizeof err);
            assert_non_null(da);
            anim_clip *db = cb->ops->decode(cb, b.bytes.data, b.bytes.size, clip->rig, err, sizeof err);
            if (!db)
                fail_msg("%s on %s: %s", pairs[p][1], cases[k].clip, err);
            const size_t n = (size_t)clip->frame_count * (size_t)clip->rig->bone_count;
            assert_memory_equal(da->pos, db->pos, n * 3 * sizeof *da->pos);
            assert_memory_equal(da->rot, db->rot, n * 4 * sizeof *da->rot);
            assert_memory_equal(da->scl, db->scl, n * 3 * sizeof *da->scl);
            print_message("  %s, %s: key times %ld bytes as indices, %ld as deltas (stream %zu -> %zu)\n",
                          cases[k].clip, pairs[p][0], indices, deltas, a.bytes.size, b.bytes.size);
            clip_free(da);
            clip_free(db);
            codec_output_free(&a);
            codec_output_free(&b);
        }
        measured_clip_free(m);
    }
}

/* A delta-time stream with u16 escapes, cut at every length and with every
 * byte flipped: an error or a clip, never a read out of bounds (ASan). */
static void test_delta_times_hostile(void **state)
{
    (void)state;
    measured_clip *m = load("random:bones=2,frames=900,seed=9", 0);
    const codec *c = codec_find("linear-dt-sc");
    codec_output o = encode_row(m, "linear-dt-sc", 1e6);
    const anim_rig *rig = m->source->clip->rig;
    const size_t n = o.bytes.size;
    char err[256];
    int rejected = 0;
    for (size_t len = 0; len < n; len++) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, o.bytes.data, len);
        anim_clip *d = c->ops->decode(c, cut, len, rig, err, sizeof err);
        assert_null(d);
        free(cut);
    }
    for (size_t at = 0; at < n; at++) {
        uint8_t *bad = malloc(n);
        memcpy(bad, o.bytes.data, n);
        bad[at] ^= 0xA5;
        anim_clip *d = c->ops->decode(c, bad, n, rig, err, sizeof err);
        rejected += d == NULL;
        clip_free(d);
        free(bad);
    }
    print_message("  %zu bytes: every truncation rejected, %d of %zu byte flips rejected\n", n, rejected, n);
    codec_output_free(&o);
    measured_clip_free(m);
}

/* A chain of three joints (rest offsets 0.5 m and 0.3 m up, unit scale),
 * 1 mm at distance 0.1 m.  Lengths: the tip 0.1; the middle 0.1 + 0.3 =
 * 0.4; the root 0.4 + 0.5 = 0.9.  Angles 2 asin(0.001 / (2 L)), with
 * asin x = x + x^3 / 6 to this precision: 2 (x + x^3 / 6) rad for x =
 * 1/1800, 1/800, 1/200 is 0.0636620, 0.1432395 and 0.5729602 degrees;
 * translations 1 mm (scale 1); scales 0.001 over the longest child offset
 * (or the 0.1 m distance at the tip): 0.5, 0.3, 0.1 give 0.002, 0.0033333, 0.01. */
static void test_hierarchy_tolerance_worked(void **state)
{
    (void)state;
    anim_rig *rig = rig_create(3);
    const double offsets[3][3] = {{0, 0, 0}, {0, 0.5, 0}, {0, 0.3, 0}};
    for (int b = 0; b < 3; b++) {
        rig->parents[b] = b - 1;
        memcpy(rig->rest_offsets + b * 3, offsets[b], sizeof offsets[b]);
    }
    anim_clip *clip = clip_create_rest(rig, 5, 30);
    channel_view *view = channels_create(clip);
    double eps_s[18], eps_r[3];
    assert_int_equal(hierarchy_tolerances(view, 0.001, 0.1, eps_s, eps_r), 0);
    const double angle[3] = {0.0636620, 0.1432395, 0.5729602}, scale[3] = {0.002, 0.0033333, 0.01};
    for (int b = 0; b < 3; b++) {
        assert_true(fabs(eps_r[b] - angle[b]) < 1e-6);
        for (int a = 0; a < 3; a++) {
            assert_true(fabs(eps_s[b * 6 + a] - 0.001) < 1e-12);
            assert_true(fabs(eps_s[b * 6 + 3 + a] - scale[b]) < 1e-6);
        }
    }
    channels_free(view);
    clip_free(clip);
    rig_free(rig);
}

/* World positions of a stream's decoded clip at time t (its sampler, FK). */
static void decoded_world(const codec *c, codec_sampler *smp, const anim_rig *rig, double t, double *wp)
{
    const int J = rig->bone_count;
    double *pose = malloc((size_t)J * 10 * sizeof *pose), *l = malloc((size_t)J * 10 * sizeof *l);
    double *wq = malloc((size_t)J * 4 * sizeof *wq);
    c->ops->sample(smp, t, pose);
    for (int b = 0; b < J; b++) {
        memcpy(l + b * 3, pose + b * 10, 3 * sizeof *l);
        memcpy(l + J * 3 + b * 4, pose + b * 10 + 3, 4 * sizeof *l);
        memcpy(l + J * 7 + b * 3, pose + b * 10 + 7, 3 * sizeof *l);
    }
    fk_pose(rig, l, l + J * 3, l + J * 7, wp, wq);
    free(pose);
    free(l);
    free(wq);
}

/* The largest world distance between two streams' decoded clips at every
 * frame and 3 sub-steps between frames. */
static double streams_apart(const measured_clip *m, const codec *c, const codec_output *a, const codec_output *b)
{
    const anim_rig *rig = m->source->clip->rig;
    char err[256];
    codec_sampler *sa = c->ops->sampler_create(c, a->bytes.data, a->bytes.size, rig, err, sizeof err);
    codec_sampler *sb = c->ops->sampler_create(c, b->bytes.data, b->bytes.size, rig, err, sizeof err);
    assert_non_null(sa);
    assert_non_null(sb);
    const int J = rig->bone_count, n = m->source->clip->frame_count;
    double *pa = malloc((size_t)J * 3 * sizeof *pa), *pb = malloc((size_t)J * 3 * sizeof *pb), worst = 0;
    for (int s = 0; s <= (n - 1) * 4; s++) {
        decoded_world(c, sa, rig, s / 4.0, pa);
        decoded_world(c, sb, rig, s / 4.0, pb);
        for (int j = 0; j < J; j++) {
            const double d = sqrt(pow(pa[j * 3] - pb[j * 3], 2) + pow(pa[j * 3 + 1] - pb[j * 3 + 1], 2) +
                                  pow(pa[j * 3 + 2] - pb[j * 3 + 2], 2));
            worst = d > worst ? d : worst;
        }
    }
    free(pa);
    free(pb);
    c->ops->sampler_free(sa);
    c->ops->sampler_free(sb);
    return worst;
}

/* The closed loop's contract, measured on the decoded clip by the harness
 * (measure_point: the bytes decoded by the row's decoder, every joint at
 * every frame and at 3 sub-steps between frames against the interpolation of
 * the input frames), not by the encoder's own check.  Linear keys: within
 * the target everywhere.  Cubic keys: within it at the frames; between them,
 * held to the input's lerp, within the larger of the target and what cubic
 * keys at every frame give; held to their own curve (the cubic row's
 * default), within the target of the stream with every frame a key (two
 * samplers compared here) and so within that floor plus the target of the
 * lerp. */
static void check_closed_loop(measured_clip *m, double tol_mm, bool imported)
{
    const double target = tol_mm / 1000;
    char err[256];
    const codec *cubic_sc = codec_find("cubic-sc"), *cubic_closed = codec_find("cubic-closed-sc");
    codec_params fp;
    codec_params_init(cubic_sc, &fp);
    fp.tol_mm = 0;
    point_result floor_r;
    assert_int_equal(measure_point(m, cubic_sc, &fp, false, &floor_r, err, sizeof err), 0);
    const double floor = floor_r.metrics.between_joint_m.max;
    static const struct {
        const char *row, *between;
    } cases[] = {{"linear-closed-sc", "linear"}, {"cubic-closed-sc", "linear"}, {"cubic-closed-sc", "own"}};
    for (int k = 0; k < 3; k++) {
        const codec *c = codec_find(cases[k].row);
        codec_params p;
        codec_params_init(c, &p);
        p.tol_mm = tol_mm;
        assert_int_equal(codec_param_set_text(c, &p, "between", cases[k].between, err, sizeof err), 0);
        point_result r;
        if (measure_point(m, c, &p, false, &r, err, sizeof err) != 0)
            fail_msg("%s on %s: %s", c->name, m->source->name, err);
        assert_true(r.decoded_ok && r.has_metrics);
        const double at_frames = r.metrics.joint_m.max, between = r.metrics.between_joint_m.max;
        print_message("  %-16s %-7s %-28s at %g mm: %6zu bytes, joint max %.4f mm, between %.4f mm\n", c->name,
                      cases[k].between, m->source->name, tol_mm, r.bytes, at_frames * 1000, between * 1000);
        if (!(at_frames <= target))
            fail_msg("%s on %s: %.6f mm at the frames, target %g", c->name, m->source->name, at_frames * 1000, tol_mm);
        const bool own = strcmp(cases[k].between, "own") == 0, cubic = c == cubic_closed;
        if (imported) {
            const double allowed = own ? floor * (1 + 1e-6) + target
                                   : cubic && floor > target ? floor * (1 + 1e-6)
                                                             : target;
            if (!(between <= allowed))
                fail_msg("%s on %s: %.6f mm between frames, allowed %.6f", c->name, m->source->name, between * 1000,
                         allowed * 1000);
        }
        if (own) {
            codec_output mine = encode_row(m, "cubic-closed-sc", tol_mm), every = encode_row(m, "cubic-sc", 0);
            const double apart = streams_apart(m, cubic_sc, &mine, &every);
            if (!(apart <= target))
                fail_msg("cubic-closed-sc on %s: %.6f mm from cubic keys at every frame, target %g", m->source->name,
                         apart * 1000, tol_mm);
            codec_output_free(&mine);
            codec_output_free(&every);
        }
        point_result_free(&r);
    }
    point_result_free(&floor_r);
}

static void test_closed_loop_contract(void **state)
{
    (void)state;
    measured_clip *chain = load("random:bones=20,frames=240,branching=1,depth=24,seed=4", 0);
    check_closed_loop(chain, 1, true);
    check_closed_loop(chain, 0.1, true);
    /* the per-channel tolerance it replaces, at the same millimetres, misses */
    point_result r;
    char err[256];
    const codec *lin = codec_find("linear-sc");
    codec_params p;
    codec_params_init(lin, &p);
    assert_int_equal(measure_point(chain, lin, &p, false, &r, err, sizeof err), 0);
    print_message("  linear-sc on the chain at 1 mm: joint max %.3f mm\n", r.metrics.joint_m.max * 1000);
    assert_true(r.metrics.joint_m.max > 0.001);
    point_result_free(&r);
    measured_clip_free(chain);
    measured_clip *walk = load("walk", 0);
    check_closed_loop(walk, 1, false);
    measured_clip_free(walk);
    static const char *const bandai[] = {"data:bandai_namco_1/dataset-1_walk_normal_001.bvh",
                                         "data:bandai_namco_1/dataset-1_kick_normal_001.bvh",
                                         "data:bandai_namco_1/dataset-1_dash_happy_001.bvh"};
    int found = 0;
    for (int i = 0; i < 3; i++) {
        measured_clip *m = load(bandai[i], 0.01);
        if (!m)
            continue;
        check_closed_loop(m, 1, true);
        check_closed_loop(m, 0.1, true);
        measured_clip_free(m);
        found++;
    }
    if (!found)
        print_message("  Bandai Namco captures not found in %s: checked on generated clips only\n", clip_data_folder());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_optimal_matches_enumeration),
        cmocka_unit_test(test_tent),
        cmocka_unit_test(test_greedy_worked),
        cmocka_unit_test(test_peucker_is_linear_refine),
        cmocka_unit_test(test_strategies_long_channels),
        cmocka_unit_test(test_delta_times_decode_same_clip),
        cmocka_unit_test(test_delta_times_hostile),
        cmocka_unit_test(test_hierarchy_tolerance_worked),
        cmocka_unit_test(test_closed_loop_contract),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
