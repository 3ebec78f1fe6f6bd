/* shellpack with error feedback down the hierarchy (issue 23, codecs/shellpack/shellpack_comp.c):
 * after the compensated closed loop every compensated joint's integers are its target against its
 * parent as decoded (recomputed here from a rebuild of the plan, with this file's own log map), the
 * state is what the plan decodes to, ancestors got coarser steps and the bytes went down.  The
 * contract on decoded clips (the long chain included), the streams read by shellpack's own decoder
 * and two encodes giving the same bytes: test_shellpack_slack.c, whose rows include these; truncated
 * and flipped streams: test_shellpack.c's test_hostile_streams.  The step exchange in compensated
 * terms leaves the same: every rotation its target's integers against its decoded parent, the state
 * the plan's, within the target, and fewer estimated bits.  The compensated loop's probe agrees with
 * the full trial it stands in front of.
 *
 * shellpack_comp.c is compiled into this file, not only linked, to reach its static probe_step, within
 * and comp_loop: exporting them would change the file, a source of every shellpack row, and re-key their
 * results (docs/results.md, "Stale results").  Its external functions are then this file's, so the
 * library's copy is never linked in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/shellpack/shellpack.h"
#include "codecs/shellpack/shellpack_comp.c" /* not the .h: see above */
#include "codecs/shellpack/shellpack_costs.h"
#include "codecs/shellpack/shellpack_encoder.h"
#include "codecs/shellpack/shellpack_slack.h"
#include "core/quat.h"
#include "harness/measure/measure.h"
#include "row_encode.h"

/* twenty bones in one chain, 240 frames of random motion at every joint (test_shellpack.c's) */
#define CHAIN "random:bones=20,frames=240,branching=1,depth=24,seed=4"

/* Every test's clips: the study's walk, the chain and a branching rig, at 0.1 and 1 mm. */
static const char *const CLIPS[] = {"walk", CHAIN, "random:bones=40,frames=120,seed=3"};
static const double TARGETS[] = {0.1, 1};

/* The slack encoder's configuration of the registry's row `name`. */
static const shellpack_slack_config *slack_config(const char *name)
{
    const codec *row = codec_find(name);
    assert_non_null(row);
    return row->config;
}

/* The original local rotation of joint b at frame f, unit, sign chosen next to frame f - 1's. */
static void original_local(const anim_clip *c, int b, int f, double prev[4], double q[4])
{
    const double *r = clip_rot_track(c, b) + f * 4;
    const double len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    for (int i = 0; i < 4; i++)
        q[i] = r[i] / len;
    if (q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0)
        for (int i = 0; i < 4; i++)
            q[i] = -q[i];
    memcpy(prev, q, 4 * sizeof *q);
}

/* e's closed-loop state is what its plan decodes to: world transforms and errors equal a rebuild
 * (and, when asked, every joint is within the target). */
static void assert_state_is_the_plans(sp_encoder *e, bool within)
{
    const size_t samples = (size_t)e->n * e->nb;
    double *world = malloc(samples * 7 * sizeof *world), *err_sub = malloc(samples * sizeof *err_sub);
    assert_non_null(world);
    assert_non_null(err_sub);
    memcpy(world, e->world, samples * 7 * sizeof *world);
    memcpy(err_sub, e->err_sub, samples * sizeof *err_sub);
    const bool ok = spe_rebuild(e);
    if (within)
        assert_true(ok);
    assert_memory_equal(world, e->world, samples * 7 * sizeof *world);
    assert_memory_equal(err_sub, e->err_sub, samples * sizeof *err_sub);
    free(world);
    free(err_sub);
}

/* Every animated rotation of a joint with a parent holds, at every frame, the integers of its
 * parent's decoded world rotation^-1 x the original world rotation rounded at its steps (this file's
 * own arithmetic, on e's state as rebuilt from the plan); returns how many values it checked. */
static long assert_compensated(const sp_encoder *e, const anim_clip *clip)
{
    long checked = 0;
    for (int b = 0; b < e->nb; b++) {
        const int p = clip->rig->parents[b];
        const sp_track *t = sp_track_at(&e->plan, b, SP_ROT);
        if (p < 0 || t->mode != SP_ANIM)
            continue;
        double prev[4] = {0, 0, 0, 1};
        for (int f = 0; f < e->n; f++) {
            double ref[4], wo[4], t4[4];
            original_local(clip, b, f, prev, ref);
            const double *pw = world_at(e, f, p) + 3, *ow = pose_set_rot(e->orig, f, b);
            memcpy(wo, ow, sizeof wo);
            const double inv[4] = {-pw[0], -pw[1], -pw[2], pw[3]};
            quat_mul(inv, wo, t4);
            if (t4[0] * ref[0] + t4[1] * ref[1] + t4[2] * ref[2] + t4[3] * ref[3] < 0)
                for (int c = 0; c < 4; c++)
                    t4[c] = -t4[c];
            const double sn = sqrt(t4[0] * t4[0] + t4[1] * t4[1] + t4[2] * t4[2]);
            for (int c = 0; c < 3; c++) {
                const double v = t4[c] * 2 * atan2(sn, t4[3]) / sn;
                assert_int_equal(sp_curve(&e->plan, b, SP_ROT, c)[f], (int32_t)nearbyint(v / sp_step(t->step_index[c])));
                checked++;
            }
        }
    }
    return checked;
}

/* e with shellpack's closed-loop plan of clip at target_mm under cfg; the clip's source, for the caller to free */
static clip_source *closed_loop_plan(sp_encoder *e, const shellpack_slack_config *cfg, const char *clip, double target_mm)
{
    clip_source *s = row_source(clip, 1);
    char err[256];
    if (spe_init(e, s->clip, &cfg->base, target_mm, err, sizeof err) != 0 || spe_plan_closed_loop(e, err, sizeof err) != 0)
        fail_msg("%s: %s", clip, err);
    return s;
}

/* After spe_compensate on the walk, the chain and a branching rig at 0.1 and 1 mm: the closed loop's
 * state is what the plan decodes to and within the target; every compensated rotation holds its
 * target's integers (assert_compensated); the first joint with an animated rotation (the ancestor of
 * the others) has a coarser rotation step than in shellpack's plan (the point of the feedback; the
 * sum of the compensated rotations' step indices is printed: smaller on the chain and the branching
 * rig, larger on the walk, whose fingers take finer steps where its root takes coarser ones); after
 * every step is refined by 4 grid points (the encoder's answer to a decoded stream that misses its
 * target), spe_compensated_requantise brings every compensated rotation to its target against the
 * refined parents again, within the target; and on the chain and the branching rig
 * shellpack-comp-allkeys takes fewer bytes than shellpack-allkeys.  Not on the study's walk (printed):
 * a smooth generated curve has no noise of its own, so the parent's rounding that a child's curve now
 * carries costs more than the coarser steps save (1 mm: 773 bytes against 709 when this was
 * written); capture data is the case it is for. */
static void test_feedback_down_the_hierarchy(void **state)
{
    (void)state;
    const shellpack_slack_config *cfg = slack_config("shellpack-comp-allkeys");
    for (size_t i = 0; i < sizeof CLIPS / sizeof *CLIPS; i++)
        for (size_t k = 0; k < sizeof TARGETS / sizeof *TARGETS; k++) {
            sp_encoder e;
            clip_source *s = closed_loop_plan(&e, cfg, CLIPS[i], TARGETS[k]);
            const anim_clip *clip = s->clip;
            char err[256];
            sp_track *plain = malloc((size_t)e.nb * SP_TYPES * sizeof *plain);
            assert_non_null(plain);
            memcpy(plain, e.plan.tracks, (size_t)e.nb * SP_TYPES * sizeof *plain);
            assert_int_equal(spe_compensate(&e, err, sizeof err), 0);
            assert_state_is_the_plans(&e, true);
            const long checked = assert_compensated(&e, clip);
            /* the first joint in rig order (an ancestor of the rest) with an animated rotation in both plans */
            int coarser = 0, first = -1;
            long sum_comp = 0, sum_plain = 0;
            for (int b = 0; b < e.nb; b++)
                if (sp_track_at(&e.plan, b, SP_ROT)->mode == SP_ANIM && plain[b * SP_TYPES + SP_ROT].mode == SP_ANIM) {
                    first = first < 0 ? b : first;
                    for (int c = 0; c < 3 && clip->rig->parents[b] >= 0; c++) {
                        sum_comp += sp_track_at(&e.plan, b, SP_ROT)->step_index[c];
                        sum_plain += plain[b * SP_TYPES + SP_ROT].step_index[c];
                    }
                }
            assert_true(first >= 0);
            for (int c = 0; c < 3; c++)
                coarser += sp_track_at(&e.plan, first, SP_ROT)->step_index[c] < plain[first * SP_TYPES + SP_ROT].step_index[c];
            print_message("  %s at %g mm: %ld compensated values checked; joint %d's rotation steps %d,%d,%d "
                          "(shellpack's %d,%d,%d); the compensated rotations' step indices sum to %ld (shellpack's %ld)\n",
                          CLIPS[i], TARGETS[k], checked, first, sp_track_at(&e.plan, first, SP_ROT)->step_index[0],
                          sp_track_at(&e.plan, first, SP_ROT)->step_index[1],
                          sp_track_at(&e.plan, first, SP_ROT)->step_index[2], plain[first * SP_TYPES + SP_ROT].step_index[0],
                          plain[first * SP_TYPES + SP_ROT].step_index[1], plain[first * SP_TYPES + SP_ROT].step_index[2],
                          sum_comp, sum_plain);
            assert_true(checked > 0);
            assert_true(coarser > 0);
            /* the encoder's refinement after a miss */
            for (int b = 0; b < e.nb; b++)
                for (int type = 0; type < SP_TYPES; type++)
                    if (sp_track_at(&e.plan, b, type)->mode == SP_ANIM) {
                        spe_refine_steps(sp_track_at(&e.plan, b, type), 4);
                        assert_true(spe_quantise(&e, b, type));
                    }
            assert_int_equal(spe_compensated_requantise(&e, err, sizeof err), 0);
            assert_state_is_the_plans(&e, false); /* finer steps round every value afresh: not always within */
            assert_true(assert_compensated(&e, clip) == checked);
            free(plain);
            spe_free(&e);
            measured_clip *m = row_measured_clip(s);
            codec_output a = encode_row(m, "shellpack-allkeys", TARGETS[k]),
                         b = encode_row(m, "shellpack-comp-allkeys", TARGETS[k]);
            print_message("    shellpack-allkeys %zu bytes, shellpack-comp-allkeys %zu\n", a.bytes.size, b.bytes.size);
            if (strcmp(CLIPS[i], "walk") != 0) /* see the comment above */
                assert_true(b.bytes.size < a.bytes.size);
            codec_output_free(&a);
            codec_output_free(&b);
            measured_clip_free(m);
        }
}

/* spe_compensated_exchange after spe_compensate on the walk, the chain and a branching rig at 0.1 and
 * 1 mm: the state is what the plan decodes to and within the target (an exchange it put back was
 * undone to the bit), every compensated rotation holds its target's integers against its parent as
 * decoded (a trial that changed a parent quantised its subtree again), some steps were exchanged
 * somewhere, and the plan's estimated bits, by the tables it started from, never went up (each
 * exchange is kept only when the curves it changed cost fewer). */
static void test_compensated_exchange(void **state)
{
    (void)state;
    const shellpack_slack_config *cfg = slack_config("shellpack-comp-exchange");
    assert_true(cfg->compensate && cfg->exchange > 0);
    int exchanged = 0;
    for (size_t i = 0; i < sizeof CLIPS / sizeof *CLIPS; i++)
        for (size_t k = 0; k < sizeof TARGETS / sizeof *TARGETS; k++) {
            sp_encoder e;
            clip_source *s = closed_loop_plan(&e, cfg, CLIPS[i], TARGETS[k]);
            char err[256];
            if (spe_compensate(&e, err, sizeof err) != 0)
                fail_msg("%s: %s", CLIPS[i], err);
            spe_choose_predictors(&e);
            sp_residual_costs *tables = malloc(SP_TYPES * sizeof *tables);
            sp_track *steps = malloc((size_t)e.nb * SP_TYPES * sizeof *steps);
            assert_non_null(tables);
            assert_non_null(steps);
            for (int type = 0; type < SP_TYPES; type++)
                if (sp_type_animated(&e.plan, type))
                    sp_tabulate_costs(&e, type, &tables[type]);
            const uint64_t before = plan_estimate(&e, tables);
            memcpy(steps, e.plan.tracks, (size_t)e.nb * SP_TYPES * sizeof *steps);
            assert_int_equal(spe_compensated_exchange(&e, cfg->exchange, err, sizeof err), 0);
            const uint64_t after = plan_estimate(&e, tables);
            int changed = 0;
            for (int t = 0; t < e.nb * SP_TYPES; t++)
                changed += memcmp(steps[t].step_index, e.plan.tracks[t].step_index, sizeof steps[t].step_index) != 0;
            assert_state_is_the_plans(&e, true);
            const long checked = assert_compensated(&e, s->clip);
            print_message("  %s at %g mm: %d sub-tracks' steps exchanged, estimated %.0f -> %.0f bytes, %ld compensated "
                          "values checked\n",
                          CLIPS[i], TARGETS[k], changed, before / 8.0 / RC_COST_SCALE, after / 8.0 / RC_COST_SCALE,
                          checked);
            assert_true(checked > 0);
            assert_true(after <= before);
            exchanged += changed > 0 && after < before;
            free(tables);
            free(steps);
            spe_free(&e);
            clip_source_free(s);
        }
    assert_true(exchanged > 0);
}

/* spe_probe_step, the closed loop's early rejection (shellpack_encoder.h), against the full trial it
 * stands in front of, on shellpack's plan of the walk, the chain and a branching rig at 0.1 and 1 mm:
 * for every animated component and steps 32, 8, 2 and 1 grid points coarser and 1 and 4 finer, the
 * full trial (the component quantised at every frame, the sub-track decoded, spe_within over every
 * frame) is never accepted where the probe said no; spe_candidate_at's pose equals the full decode's,
 * bit for bit, at every frame; and the probe leaves the plan as it was.  Both answers occur (counts
 * printed), so the test can fail either way. */
static void test_probe_never_turns_down_a_trial_that_fits(void **state)
{
    (void)state;
    static const int OFFSETS[] = {-32, -8, -2, -1, 1, 4};
    const shellpack_slack_config *cfg = slack_config("shellpack-allkeys");
    long rejected_total = 0, fits_total = 0;
    for (size_t i = 0; i < sizeof CLIPS / sizeof *CLIPS; i++)
        for (size_t k = 0; k < sizeof TARGETS / sizeof *TARGETS; k++) {
            sp_encoder e;
            clip_source *s = closed_loop_plan(&e, cfg, CLIPS[i], TARGETS[k]);
            int32_t *curve = malloc((size_t)e.n * sizeof *curve);
            double *lj = malloc(POSE_STRIDE * sizeof *lj);
            assert_non_null(curve);
            assert_non_null(lj);
            long rejected = 0, fits = 0, missed = 0, agreed = 0;
            for (int b = 0; b < e.nb; b++)
                for (int type = 0; type < SP_TYPES; type++) {
                    sp_track *t = sp_track_at(&e.plan, b, type);
                    if (t->mode != SP_ANIM)
                        continue;
                    for (int c = 0; c < sp_comps(&e.plan, type); c++)
                        for (size_t o = 0; o < sizeof OFFSETS / sizeof *OFFSETS; o++) {
                            const int index = t->step_index[c] + OFFSETS[o];
                            if (index < 0 || index > SP_STEP_INDEX_MAX)
                                continue;
                            const sp_track saved = *t;
                            int32_t *k_now = sp_curve(&e.plan, b, type, c);
                            memcpy(curve, k_now, (size_t)e.n * sizeof *curve);
                            const bool probe = spe_probe_step(&e, b, type, 1u << c, index);
                            assert_memory_equal(&saved, t, sizeof saved);
                            assert_memory_equal(curve, k_now, (size_t)e.n * sizeof *curve);
                            t->step_index[c] = (uint16_t)index;
                            const bool quantised = spe_quantise_comp(&e, b, type, c);
                            bool full = false;
                            if (quantised) {
                                for (int f = 0; f < e.n; f++)
                                    memcpy(e.cand + (size_t)f * POSE_STRIDE, loc_at(&e, f, b), POSE_STRIDE * sizeof(double));
                                sp_decode_track(&e.plan, e.rig, b, type, 0, e.n - 1, e.cand);
                                full = spe_within(&e, b, 0, e.n - 1, e.cand);
                            }
                            *t = saved;
                            memcpy(k_now, curve, (size_t)e.n * sizeof *curve);
                            if (!probe && full)
                                fail_msg("%s at %g mm: joint %d sub-track %d component %d at step index %d fits, the probe "
                                         "said no", CLIPS[i], TARGETS[k], b, type, c, index);
                            rejected += !probe;
                            fits += full;
                            missed += probe && !full;
                            for (int f = 0; quantised && f < e.n; f++) { /* the plan as it was, e.cand the full decode */
                                assert_true(spe_candidate_at(&e, b, type, 1u << c, index, f, lj));
                                assert_memory_equal(lj, e.cand + (size_t)f * POSE_STRIDE, POSE_STRIDE * sizeof *lj);
                                agreed++;
                            }
                        }
                }
            assert_state_is_the_plans(&e, true);
            print_message("  %s at %g mm: %ld trials turned down by the probe, %ld more by the full check, %ld fit; %ld "
                          "candidate poses equal\n",
                          CLIPS[i], TARGETS[k], rejected, missed, fits, agreed);
            rejected_total += rejected;
            fits_total += fits;
            free(curve);
            free(lj);
            spe_free(&e);
            clip_source_free(s);
        }
    assert_true(rejected_total > 0);
    assert_true(fits_total > 0);
}

/* Counts over one state's trials. */
typedef struct trial_counts {
    long rejected, missed, fits, failed_at_set, not_rotations;
} trial_counts;

/* Every animated component of e's compensated plan offered steps `offsets` away, one at a time: the
 * probe's answer and failed_at beside the full trial's (try_step's spe_quantise_comp, the decode and
 * try_change's check: within for a rotation, shellpack's spe_within for a translation or scale, whose
 * probe is spe_probe_step; on the plan as it was).  The probe must never turn down a trial that fits, must leave the plan
 * and failed_at as they were when it lets a trial through, and must leave failed_at where the full trial
 * leaves it when it turns one down.  failed_at then keeps the full trial's value, as the loop's would. */
static trial_counts probe_against_full_trials(comp_loop *L, const char *clip, double target_mm) {
    static const int OFFSETS[] = {-32, -8, -2, -1, 1, 4};
    sp_encoder *e = L->e;
    trial_counts n = {0, 0, 0, 0, 0};
    int32_t *curve = malloc((size_t)e->n * sizeof *curve);
    assert_non_null(curve);
    for (int b = 0; b < e->nb; b++)
        for (int type = 0; type < SP_TYPES; type++) {
            sp_track *t = sp_track_at(&e->plan, b, type);
            if (t->mode != SP_ANIM)
                continue;
            for (int c = 0; c < sp_comps(&e->plan, type); c++)
                for (size_t o = 0; o < sizeof OFFSETS / sizeof *OFFSETS; o++) {
                    const int index = t->step_index[c] + OFFSETS[o];
                    if (index < 0 || index > SP_STEP_INDEX_MAX)
                        continue;
                    const sp_track saved = *t;
                    int32_t *k_now = sp_curve(&e->plan, b, type, c);
                    memcpy(curve, k_now, (size_t)e->n * sizeof *curve);
                    const int failed_before = L->failed_at[b];
                    const bool probe = probe_step(L, b, type, c, index);
                    const int failed_probe = L->failed_at[b];
                    assert_memory_equal(&saved, t, sizeof saved);
                    assert_memory_equal(curve, k_now, (size_t)e->n * sizeof *curve);
                    L->failed_at[b] = failed_before;
                    t->step_index[c] = (uint16_t)index;
                    bool full = false;
                    if (spe_quantise_comp(e, b, type, c)) { /* try_change's check, without its commit */
                        for (int f = 0; f < e->n; f++)
                            memcpy(e->cand + (size_t)f * POSE_STRIDE, loc_at(e, f, b), POSE_STRIDE * sizeof(double));
                        sp_decode_track(&e->plan, e->rig, b, type, 0, e->n - 1, e->cand);
                        full = type == SP_ROT ? within(L, b, e->cand) : spe_within(e, b, 0, e->n - 1, e->cand);
                    }
                    t->step_index[c] = saved.step_index[c];
                    spe_quantise_comp(e, b, type, c);
                    assert_memory_equal(curve, k_now, (size_t)e->n * sizeof *curve);
                    if (!probe && full)
                        fail_msg("%s at %g mm: joint %d sub-track %d component %d at step index %d fits, the probe "
                                 "said no",
                                 clip, target_mm, b, type, c, index);
                    if (probe && failed_probe != failed_before)
                        fail_msg("%s at %g mm: joint %d sub-track %d component %d at step index %d: the probe let the "
                                 "trial through and moved failed_at from %d to %d",
                                 clip, target_mm, b, type, c, index, failed_before, failed_probe);
                    if (!probe && failed_probe != L->failed_at[b])
                        fail_msg("%s at %g mm: joint %d sub-track %d component %d at step index %d: the probe left "
                                 "failed_at at %d, the full trial at %d",
                                 clip, target_mm, b, type, c, index, failed_probe, L->failed_at[b]);
                    n.rejected += !probe;
                    n.missed += probe && !full;
                    n.fits += full;
                    n.failed_at_set += !probe && failed_probe != failed_before;
                    n.not_rotations += type != SP_ROT;
                }
        }
    free(curve);
    return n;
}

/* On the walk, the chain and a branching rig at 0.1 and 1 mm, after spe_compensate (the compensated
 * loop's plan) and again after spe_compensated_exchange (finer steps and other frames nearest the target):
 * probe_against_full_trials.  The state is then still what the plan decodes to, within the target.  Every
 * kind of answer occurs (counts printed): trials turned down by the probe with failed_at moved, trials
 * only the full check turns down, trials that fit. */
static void test_compensated_probe_agrees_with_the_full_trial(void **state)
{
    (void)state;
    const shellpack_slack_config *cfg = slack_config("shellpack-comp-allkeys");
    trial_counts total = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < sizeof CLIPS / sizeof *CLIPS; i++)
        for (size_t k = 0; k < sizeof TARGETS / sizeof *TARGETS; k++)
            for (int exchanged = 0; exchanged < 2; exchanged++) {
                sp_encoder e;
                clip_source *s = closed_loop_plan(&e, cfg, CLIPS[i], TARGETS[k]);
                char err[256];
                if (spe_compensate(&e, err, sizeof err) != 0 ||
                    (exchanged && spe_compensated_exchange(&e, 32, err, sizeof err) != 0))
                    fail_msg("%s: %s", CLIPS[i], err);
                comp_loop L;
                assert_true(comp_loop_init(&L, &e));
                const trial_counts n = probe_against_full_trials(&L, CLIPS[i], TARGETS[k]);
                assert_state_is_the_plans(&e, true);
                print_message("  %s at %g mm%s: %ld trials, %ld of translations or scales: %ld turned down by the probe "
                              "(%ld moving failed_at), %ld more by the full check, %ld fit\n",
                              CLIPS[i], TARGETS[k], exchanged ? ", exchanged" : "",
                              n.rejected + n.missed + n.fits, n.not_rotations, n.rejected, n.failed_at_set, n.missed, n.fits);
                total.rejected += n.rejected;
                total.missed += n.missed;
                total.fits += n.fits;
                total.failed_at_set += n.failed_at_set;
                total.not_rotations += n.not_rotations;
                comp_loop_free(&L);
                spe_free(&e);
                clip_source_free(s);
            }
    assert_true(total.rejected > 0);
    assert_true(total.failed_at_set > 0);
    assert_true(total.missed > 0);
    assert_true(total.fits > 0);
    assert_true(total.not_rotations > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_feedback_down_the_hierarchy),
        cmocka_unit_test(test_compensated_exchange),
        cmocka_unit_test(test_probe_never_turns_down_a_trial_that_fits),
        cmocka_unit_test(test_compensated_probe_agrees_with_the_full_trial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
