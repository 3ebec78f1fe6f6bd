/* The compensated loop's probe (codecs/shellpack/shellpack_comp.c, probe_step) against the full trial it
 * stands in front of.  probe_step is static, and the file is compiled into this test rather than changed
 * to export it: every shellpack row lists shellpack_comp.c among its sources, so any edit to it re-keys
 * their results (docs/results.md, "Stale results").  tests/test_shellpack_comp.c checks the closed loop's
 * probe (spe_probe_step); this checks the compensated one the same way, and what it must keep of the full
 * trial besides the answer: within's failed_at (where the joint's next trial looks first), which the
 * probe sets itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "codecs/shellpack/shellpack_comp.c" /* probe_step, within and comp_loop are static there */
#include "codecs/shellpack/shellpack_slack.h"
#include "row_encode.h"

/* twenty bones in one chain, 240 frames of random motion at every joint (test_shellpack.c's) */
#define CHAIN "random:bones=20,frames=240,branching=1,depth=24,seed=4"

/* Counts over one state's trials. */
typedef struct trial_counts {
    long rejected, missed, fits, failed_at_set;
} trial_counts;

/* Every animated rotation component of e's compensated plan offered steps `offsets` away, one at a time:
 * the probe's answer and failed_at beside the full trial's (try_step's spe_quantise_comp, the decode and
 * within, on the plan as it was).  The probe must never turn down a trial that fits, must leave the plan
 * and failed_at as they were when it lets a trial through, and must leave failed_at where the full trial
 * leaves it when it turns one down.  failed_at then keeps the full trial's value, as the loop's would. */
static trial_counts probe_against_full_trials(comp_loop *L, const char *clip, double target_mm)
{
    static const int OFFSETS[] = {-32, -8, -2, -1, 1, 4};
    sp_encoder *e = L->e;
    trial_counts n = {0, 0, 0, 0};
    int32_t *curve = malloc((size_t)e->n * sizeof *curve);
    assert_non_null(curve);
    for (int b = 0; b < e->nb; b++) {
        sp_track *t = sp_track_at(&e->plan, b, SP_ROT);
        if (t->mode != SP_ANIM)
            continue;
        for (int c = 0; c < 3; c++)
            for (size_t o = 0; o < sizeof OFFSETS / sizeof *OFFSETS; o++) {
                const int index = t->step_index[c] + OFFSETS[o];
                if (index < 0 || index > SP_STEP_INDEX_MAX)
                    continue;
                const sp_track saved = *t;
                int32_t *k_now = sp_curve(&e->plan, b, SP_ROT, c);
                memcpy(curve, k_now, (size_t)e->n * sizeof *curve);
                const int failed_before = L->failed_at[b];
                const bool probe = probe_step(L, b, SP_ROT, c, index);
                const int failed_probe = L->failed_at[b];
                assert_memory_equal(&saved, t, sizeof saved);
                assert_memory_equal(curve, k_now, (size_t)e->n * sizeof *curve);
                L->failed_at[b] = failed_before;
                t->step_index[c] = (uint16_t)index;
                bool full = false;
                if (spe_quantise_comp(e, b, SP_ROT, c)) {
                    for (int f = 0; f < e->n; f++)
                        memcpy(e->cand + (size_t)f * POSE_STRIDE, loc_at(e, f, b), POSE_STRIDE * sizeof(double));
                    sp_decode_track(&e->plan, e->rig, b, SP_ROT, 0, e->n - 1, e->cand);
                    full = within(L, b, e->cand);
                }
                t->step_index[c] = saved.step_index[c];
                spe_quantise_comp(e, b, SP_ROT, c);
                assert_memory_equal(curve, k_now, (size_t)e->n * sizeof *curve);
                if (!probe && full)
                    fail_msg("%s at %g mm: joint %d component %d at step index %d fits, the probe said no", clip, target_mm,
                             b, c, index);
                if (probe && failed_probe != failed_before)
                    fail_msg("%s at %g mm: joint %d component %d at step index %d: the probe let the trial through and "
                             "moved failed_at from %d to %d",
                             clip, target_mm, b, c, index, failed_before, failed_probe);
                if (!probe && failed_probe != L->failed_at[b])
                    fail_msg("%s at %g mm: joint %d component %d at step index %d: the probe left failed_at at %d, the "
                             "full trial at %d",
                             clip, target_mm, b, c, index, failed_probe, L->failed_at[b]);
                n.rejected += !probe;
                n.missed += probe && !full;
                n.fits += full;
                n.failed_at_set += !probe && failed_probe != failed_before;
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
    static const char *const CLIPS[] = {"walk", CHAIN, "random:bones=40,frames=120,seed=3"};
    static const double TARGETS[] = {0.1, 1};
    const codec *row = codec_find("shellpack-comp-allkeys");
    assert_non_null(row);
    const shellpack_slack_config *cfg = row->config;
    trial_counts total = {0, 0, 0, 0};
    for (size_t i = 0; i < sizeof CLIPS / sizeof *CLIPS; i++)
        for (size_t k = 0; k < sizeof TARGETS / sizeof *TARGETS; k++)
            for (int exchanged = 0; exchanged < 2; exchanged++) {
                clip_source *s = row_source(CLIPS[i], 1);
                sp_encoder e;
                char err[256];
                if (spe_init(&e, s->clip, &cfg->base, TARGETS[k], err, sizeof err) != 0 ||
                    spe_plan_closed_loop(&e, err, sizeof err) != 0 || spe_compensate(&e, err, sizeof err) != 0 ||
                    (exchanged && spe_compensated_exchange(&e, 32, err, sizeof err) != 0))
                    fail_msg("%s: %s", CLIPS[i], err);
                comp_loop L;
                assert_true(comp_loop_init(&L, &e));
                const trial_counts n = probe_against_full_trials(&L, CLIPS[i], TARGETS[k]);
                assert_true(spe_rebuild(&e));
                print_message("  %s at %g mm%s: %ld trials turned down by the probe (%ld moving failed_at), %ld more by "
                              "the full check, %ld fit\n",
                              CLIPS[i], TARGETS[k], exchanged ? ", exchanged" : "", n.rejected, n.failed_at_set, n.missed,
                              n.fits);
                total.rejected += n.rejected;
                total.missed += n.missed;
                total.fits += n.fits;
                total.failed_at_set += n.failed_at_set;
                comp_loop_free(&L);
                spe_free(&e);
                clip_source_free(s);
            }
    assert_true(total.rejected > 0);
    assert_true(total.failed_at_set > 0);
    assert_true(total.missed > 0);
    assert_true(total.fits > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compensated_probe_agrees_with_the_full_trial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
