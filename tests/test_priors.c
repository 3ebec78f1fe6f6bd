/* Trained initial states (issue 23, "knowing the data before seeing it"): the fit of an adaptive
 * bit's initial state (harness/train/prob_fit.h) on sequences built to have a known answer, and the
 * trainer (harness/train/shellpack_train.h): the bits it traces off the residual coder are exactly
 * the bits the coder codes (their costs add up to the coder's own cost of the same residuals, counted
 * here by an independent walk over the plan), and the built-in table (shellpack_priors.c) is in the
 * form the program writes.  That the table is what training writes: tests/priors.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/train/prob_fit.h"
#include "codecs/shellpack/shellpack.h"
#include "harness/train/shellpack_train.h"
#include "harness/train/side_train.h"
#include "core/pcg32.h"
#include "core/text_file.h"
#include "row_encode.h"

/* clips runs of n bits each, a 1 with probability ones_per_1000 / 1000 */
static void fill(bit_trace *t, int clips, int n, uint32_t ones_per_1000, uint64_t seed)
{
    pcg32 rng;
    pcg32_seed(&rng, seed, 1);
    for (int c = 0; c < clips; c++)
        for (int i = 0; i < n; i++)
            bit_trace_add(t, (uint32_t)c, pcg32_next(&rng) % 1000 < ones_per_1000);
}

/* Runs are split where the clip changes; the cost of a trace is what rc_bit_cost charges bit by bit,
 * each run from the initial state. */
static void test_trace_runs_and_cost(void **state)
{
    (void)state;
    rc_cost_table costs;
    rc_cost_table_init(&costs);
    bit_trace t;
    bit_trace_init(&t);
    static const int BITS[][2] = {{0, 1}, {0, 0}, {3, 1}, {3, 1}, {3, 0}, {4, 0}};
    for (size_t i = 0; i < sizeof BITS / sizeof *BITS; i++)
        bit_trace_add(&t, (uint32_t)BITS[i][0], BITS[i][1]);
    assert_int_equal(t.runs, 3);
    assert_int_equal(t.count, 6);
    assert_int_equal(t.starts[1], 2);
    assert_int_equal(t.starts[2], 5);
    uint64_t expected = 0;
    for (size_t r = 0, i = 0; r < 3; r++) {
        rc_prob p = RC_PROB_INIT;
        for (; i < (r + 1 < 3 ? t.starts[r + 1] : t.count); i++)
            expected += rc_bit_cost(&costs, &p, t.bits[i]);
    }
    assert_int_equal(bit_trace_cost(&t, &costs, RC_PROB_INIT), expected);
    /* fewer runs than PROB_FIT_MIN_RUNS: nothing is fitted */
    rc_prob fit = bit_trace_fit(&t, &costs);
    assert_int_equal(fit.p, RC_PROB_INIT.p);
    assert_int_equal(fit.seen, 0);
    bit_trace_free(&t);
}

/* A bit that is almost always 0 in every clip starts near 1 (probability of a 0) and saves bits
 * against 1/2; a fair bit keeps 1/2 or close, and the fit is never worse than 1/2 on its own data;
 * a bit that is 1 in some clips and 0 in others (each clip constant) starts near 1/2 with little
 * confidence, so that each clip can learn its own. */
static void test_fit_knows_the_answer(void **state)
{
    (void)state;
    rc_cost_table costs;
    rc_cost_table_init(&costs);
    bit_trace rare, fair, split;
    bit_trace_init(&rare);
    bit_trace_init(&fair);
    bit_trace_init(&split);
    fill(&rare, 40, 50, 20, 1);
    fill(&fair, 40, 50, 500, 2);
    for (int c = 0; c < 40; c++)
        for (int i = 0; i < 50; i++)
            bit_trace_add(&split, (uint32_t)c, c % 2);
    const rc_prob r = bit_trace_fit(&rare, &costs), f = bit_trace_fit(&fair, &costs), s = bit_trace_fit(&split, &costs);
    print_message("  rare ones: {%u, %u}; fair: {%u, %u}; clip by clip: {%u, %u}\n", r.p, r.seen, f.p, f.seen, s.p,
                  s.seen);
    assert_true(r.p > 29000); /* 98 % zeros */
    const uint64_t rare_fit = bit_trace_cost(&rare, &costs, r), rare_half = bit_trace_cost(&rare, &costs, RC_PROB_INIT);
    assert_true(rare_fit < rare_half - 40 * RC_COST_SCALE); /* at least a bit per clip */
    assert_true(f.p > 14000 && f.p < 19000);
    assert_true(bit_trace_cost(&fair, &costs, f) <= bit_trace_cost(&fair, &costs, RC_PROB_INIT));
    assert_true(s.p > 14000 && s.p < 19000);
    assert_true(s.seen <= 2);
    bit_trace_free(&rare);
    bit_trace_free(&fair);
    bit_trace_free(&split);
}

/* The trainer reads which bits a residual meets off the coder (a probe model).  Check it against the
 * coder: the traced bits of a plan, each bit's run costed from 1/2, plus the raw bits below each
 * magnitude's two leading bits (a bit each, not adaptive, so not traced), add up to what
 * residual_cost charges for the same residuals in the same contexts with one fresh model per type,
 * walked here over the plan independently of the trainer's walk; and with the sign traces in place
 * of the residual models' sign bits, to what residual_cost_signs charges with the sign contexts
 * (residual_signs.h: the previous residual and the curve's last move, as the match stream takes them);
 * and each sign context's trace, bit by bit, the signs of the nonzero residuals the test itself
 * finds in that context, in order (a cost alone could not tell a bit inverted or a context
 * relabelled). */
static void test_trainer_traces_what_the_coder_codes(void **state)
{
    (void)state;
    measured_clip *m = row_measured_clip(row_source("walk", 1));
    codec_output out = encode_row(m, "shellpack-exchange", 0.1);
    sp_plan plan;
    sp_header h;
    char err[256];
    assert_int_equal(sp_read(out.bytes.data, out.bytes.size, m->source->clip->rig, &plan, &h, err, sizeof err), 0);
    sp_trainer *t = sp_trainer_create();
    assert_non_null(t);
    assert_int_equal(sp_trainer_add_plan(t, &plan), 0);
    rc_cost_table costs;
    rc_cost_table_init(&costs);
    uint64_t residuals = 0;
    for (int type = 0; type < SP_TYPES; type++) {
        residual_model model, signed_model;
        residual_model_init(&model);
        residual_model_init(&signed_model);
        sign_model signs;
        sign_model_init(&signs);
        uint64_t coder = 0, traced = 0, raw = 0, coder_signs = 0, traced_signs = 0;
        static uint8_t expected[SP_SIGN_SLOTS][1u << 16];
        size_t expected_count[SP_SIGN_SLOTS] = {0};
        for (int b = 0; b < plan.bones; b++) {
            const sp_track *tr = sp_track_at(&plan, b, type);
            for (int c = 0; tr->mode == SP_ANIM && c < sp_comps(&plan, type); c++) {
                sp_predictor_state s;
                sp_predictor_reset(&s);
                int32_t last[2] = {0, 0};
                for (int f = 0; f < plan.frames; f++) {
                    const int32_t k = sp_curve(&plan, b, type, c)[f];
                    const int32_t r = sp_wrap32((int64_t)k - sp_predict(tr->predictor[c], &s));
                    const int ctx = sp_curve_context(sp_magnitude(last[0]), sp_magnitude(last[1]));
                    coder += residual_cost(&costs, &model, ctx, r);
                    const int64_t move = f >= 2 ? (int64_t)sp_curve(&plan, b, type, c)[f - 1] - sp_curve(&plan, b, type, c)[f - 2] : 0;
                    const int sctx = sign_context(last[0], move);
                    coder_signs += residual_cost_signs(&costs, &signed_model, &signs, ctx, sctx, r);
                    if (r != 0) {
                        const size_t cell = (size_t)ctx * SIGN_CONTEXTS + (size_t)sctx;
                        assert_true(expected_count[cell] < sizeof expected[cell]);
                        expected[cell][expected_count[cell]++] = r < 0;
                    }
                    const uint32_t a = sp_magnitude(r);
                    const int leading = a ? 31 - __builtin_clz(a) : 0; /* a in [2^leading, 2^(leading + 1)) */
                    raw += leading > 1 ? (uint64_t)(leading - 1) * RC_COST_SCALE : 0;
                    sp_predictor_update(tr->predictor[c], &s, k, r);
                    last[1] = last[0];
                    last[0] = r;
                    residuals++;
                }
            }
        }
        for (size_t i = 0; i < SP_PRIOR_SLOTS; i++) {
            const uint64_t bits = bit_trace_cost(&t->trace[type][i], &costs, RC_PROB_INIT);
            const rc_prob *slot = (const rc_prob *)&model + i;
            traced += bits;
            traced_signs += slot >= model.negative && slot < model.negative + RESIDUAL_CONTEXTS ? 0 : bits;
        }
        for (size_t i = 0; i < SP_SIGN_SLOTS; i++)
            traced_signs += bit_trace_cost(&t->sign_trace[type][i], &costs, RC_PROB_INIT);
        print_message("  type %d: %llu in the coder's cost, %llu traced + %llu raw (1/256 bit); with sign contexts "
                      "%llu, %llu traced + raw\n", type, (unsigned long long)coder, (unsigned long long)traced,
                      (unsigned long long)raw, (unsigned long long)coder_signs, (unsigned long long)(traced_signs + raw));
        assert_int_equal(traced + raw, coder);
        assert_int_equal(traced_signs + raw, coder_signs);
        for (size_t cell = 0; cell < SP_SIGN_SLOTS; cell++) {
            const bit_trace *bt = &t->sign_trace[type][cell];
            assert_int_equal(bt->count, expected_count[cell]);
            if (bt->count)
                assert_memory_equal(bt->bits, expected[cell], bt->count);
        }
    }
    assert_true(residuals > 1000);
    assert_int_equal(t->residuals[SP_ROT] + t->residuals[SP_POS] + t->residuals[SP_SCL], residuals);
    /* a plan with a frame left out is not one the trainer reads */
    plan.kept[1] = 0;
    assert_int_equal(sp_trainer_add_plan(t, &plan), -1);
    sp_trainer_free(t);
    sp_plan_free(&plan);
    codec_output_free(&out);
    measured_clip_free(m);
}

/* A committed file is, byte for byte, the text the program writes (then freed). */
static void assert_file_is(const char *path, byte_buffer *text)
{
    size_t size = 0;
    int error_number = 0;
    char err[256];
    char *file = read_whole_file(path, 1u << 24, &size, &error_number, err, sizeof err);
    if (!file)
        fail_msg("%s", err);
    assert_int_equal(size, text->size);
    assert_memory_equal(file, text->data, size);
    free(file);
    bytes_free(text);
}

/* The committed table is in the form the program writes: its text, written again from the states
 * compiled into the codec, is the file byte for byte (so nobody edited its layout by hand; that
 * the states are what training finds is tests/priors.sh's check, which needs the data). */
static void test_table_is_in_the_programs_form(void **state)
{
    (void)state;
    byte_buffer text;
    bytes_init(&text);
    assert_int_equal(sp_priors_source(SP_PRIORS, SP_SIGN_PRIORS, SP_PRIORS_ABOUT, &text), 0);
    assert_file_is("codecs/shellpack/shellpack_priors.c", &text);
}

/* The same for shellpack-side's table (codecs/shellpack/shellpack_side_priors.c, `train-priors --side`). */
static void test_side_table_is_in_the_programs_form(void **state)
{
    (void)state;
    byte_buffer text;
    bytes_init(&text);
    assert_int_equal(sp_side_priors_source(SP_SIDE_PRIORS, SP_SIDE_PRIORS_ABOUT, &text), 0);
    assert_file_is("codecs/shellpack/shellpack_side_priors.c", &text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_runs_and_cost),
        cmocka_unit_test(test_fit_knows_the_answer),
        cmocka_unit_test(test_trainer_traces_what_the_coder_codes),
        cmocka_unit_test(test_table_is_in_the_programs_form),
        cmocka_unit_test(test_side_table_is_in_the_programs_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
