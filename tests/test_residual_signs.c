/* Signs in their own contexts (codecs/entropy/residual_signs.h) on adversarial residuals: every
 * value round-trips, with the raw bits beside and through the match model; in one sign context it is
 * range_coder.h's coder byte for byte (so every bit but the sign is that coder's); the residual
 * model's own sign bits are never touched; signs that follow their context cost less than one bit;
 * the cost estimate is what coding costs; cut and flipped streams (a hundred of each) decode
 * without reading out of bounds (the sanitizer build checks that); through the match model's own sign
 * entries, on repeats, a sign context moves only where a residual is coded on a miss. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/entropy/residual_signs.h"
#include "core/pcg32.h"

#define N 60000

typedef struct sequence {
    int32_t v[N];
    int ctx[N], sctx[N];
} sequence;

/* Random magnitudes of every bit length and the int32 extremes, random signs and contexts. */
static void adversarial(sequence *s, uint64_t seed)
{
    pcg32 rng;
    pcg32_seed(&rng, seed, 5);
    static const int32_t EXTREMES[] = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, -1, 0, 1};
    for (size_t i = 0; i < N; i++) {
        const uint32_t kind = pcg32_next(&rng) % 8;
        int32_t v;
        if (kind == 0)
            v = EXTREMES[pcg32_next(&rng) % 7];
        else if (kind < 3)
            v = 0;
        else {
            const uint32_t bits = pcg32_next(&rng) % 31;
            v = (int32_t)(pcg32_next(&rng) & ((1u << bits) - 1)) * (pcg32_next(&rng) & 1 ? -1 : 1);
        }
        s->v[i] = v;
        s->ctx[i] = (int)(pcg32_next(&rng) % RESIDUAL_CONTEXTS);
        s->sctx[i] = (int)(pcg32_next(&rng) % SIGN_CONTEXTS);
    }
}

/* The sequence coded with sign contexts (sctx NULL: all in context 0), raw bits beside when asked,
 * through a match model when asked; the residual model's state afterwards into `after`. */
static byte_buffer encode_signs(const sequence *s, const int *sctx, bool raw, bool match, byte_buffer *raw_bits,
                                residual_model *after)
{
    byte_buffer out;
    bytes_init(&out);
    bytes_init(raw_bits);
    rc_encoder e;
    bit_writer w;
    rc_encoder_init(&e, &out);
    bit_writer_init(&w, raw_bits);
    residual_model m;
    residual_model_init(&m);
    sign_model sm;
    sign_model_init(&sm);
    match_model mm;
    assert_int_equal(match_model_init(&mm, N), 0);
    for (size_t i = 0; i < N; i++) {
        const int sc = sctx ? sctx[i] : 0;
        if (match)
            match_encode_signs(&e, raw ? &w : NULL, &m, &sm, &mm, s->ctx[i], sc, s->v[i]);
        else
            residual_encode_signs(&e, raw ? &w : NULL, &m, &sm, s->ctx[i], sc, s->v[i]);
    }
    rc_encoder_finish(&e);
    bit_writer_finish(&w);
    match_model_free(&mm);
    assert_false(out.failed);
    *after = m;
    return out;
}

/* Decodes n values (all of them from a whole stream); how many differ from s, and whether it overran. */
static size_t decode_signs(const sequence *s, const int *sctx, const uint8_t *data, size_t size, const uint8_t *raw,
                           size_t raw_size, bool match, bool *overrun)
{
    rc_decoder d;
    bit_reader r;
    rc_decoder_init(&d, data, size);
    bit_reader_init(&r, raw, raw_size);
    residual_model m;
    residual_model_init(&m);
    sign_model sm;
    sign_model_init(&sm);
    match_model mm;
    assert_int_equal(match_model_init(&mm, N), 0);
    size_t wrong = 0;
    for (size_t i = 0; i < N; i++) {
        const int sc = sctx ? sctx[i] : 0;
        const int32_t got = match ? match_decode_signs(&d, raw ? &r : NULL, &m, &sm, &mm, s->ctx[i], sc)
                                  : residual_decode_signs(&d, raw ? &r : NULL, &m, &sm, s->ctx[i], sc);
        wrong += got != s->v[i];
    }
    match_model_free(&mm);
    *overrun = d.overrun || r.overrun;
    return wrong;
}

/* Every value back, in the range coder alone and with raw bits beside, with and without the match
 * model; the residual model's sign bits still at 1/2 with nothing seen (only the sign model's moved). */
static void test_round_trips(void **state)
{
    (void)state;
    sequence *s = malloc(sizeof *s);
    assert_non_null(s);
    adversarial(s, 11);
    for (int raw = 0; raw < 2; raw++)
        for (int match = 0; match < 2; match++) {
            byte_buffer raw_bits;
            residual_model after;
            byte_buffer b = encode_signs(s, s->sctx, raw, match, &raw_bits, &after);
            bool overrun = false;
            const size_t wrong = decode_signs(s, s->sctx, b.data, b.size, raw ? raw_bits.data : NULL,
                                              raw ? raw_bits.size : 0, match, &overrun);
            print_message("  raw bits %s, match model %s: %zu + %zu bytes, %zu wrong\n", raw ? "beside" : "inside",
                          match ? "on" : "off", b.size, raw_bits.size, wrong);
            assert_int_equal(wrong, 0);
            assert_false(overrun);
            for (int c = 0; c < RESIDUAL_CONTEXTS; c++) {
                assert_int_equal(after.negative[c].p, RC_PROB_INIT.p);
                assert_int_equal(after.negative[c].seen, 0);
            }
            bytes_free(&b);
            bytes_free(&raw_bits);
        }
    free(s);
}

/* With every sign in sign context 0, the sign of residual context c has a probability of its own
 * that it alone moves: range_coder.h's coder exactly, so the two streams are the same bytes. */
static void test_one_sign_context_is_the_plain_coder(void **state)
{
    (void)state;
    sequence *s = malloc(sizeof *s);
    assert_non_null(s);
    adversarial(s, 12);
    byte_buffer raw_bits, plain, plain_raw;
    residual_model after;
    byte_buffer b = encode_signs(s, NULL, true, false, &raw_bits, &after);
    bytes_init(&plain);
    bytes_init(&plain_raw);
    rc_encoder e;
    bit_writer w;
    rc_encoder_init(&e, &plain);
    bit_writer_init(&w, &plain_raw);
    residual_model m;
    residual_model_init(&m);
    for (size_t i = 0; i < N; i++)
        residual_encode(&e, &w, &m, s->ctx[i], s->v[i]);
    rc_encoder_finish(&e);
    bit_writer_finish(&w);
    assert_int_equal(b.size, plain.size);
    assert_memory_equal(b.data, plain.data, b.size);
    assert_int_equal(raw_bits.size, plain_raw.size);
    assert_memory_equal(raw_bits.data, plain_raw.data, raw_bits.size);
    bytes_free(&b);
    bytes_free(&raw_bits);
    bytes_free(&plain);
    bytes_free(&plain_raw);
    free(s);
}

/* Residuals whose sign is the opposite of the one before (a predictor overshooting), magnitudes
 * 1 to 64, the sign context taken from the previous value as shellpack's streams take it: the signs
 * cost almost nothing in their contexts, so the stream is smaller than the plain coder's by most of
 * a bit a value (at least 0.9 bit here), and the estimate says the same within 1 %. */
static void test_signs_that_follow_their_context(void **state)
{
    (void)state;
    sequence *s = malloc(sizeof *s);
    assert_non_null(s);
    pcg32 rng;
    pcg32_seed(&rng, 13, 5);
    for (size_t i = 0; i < N; i++) {
        const int32_t a = (int32_t)(pcg32_next(&rng) % 64) + 1;
        s->v[i] = i % 2 ? -a : a;
        s->ctx[i] = residual_context((uint32_t)a);
        s->sctx[i] = sign_context(i ? s->v[i - 1] : 0, 0);
    }
    byte_buffer raw_bits, raw_plain;
    residual_model after;
    byte_buffer with = encode_signs(s, s->sctx, true, false, &raw_bits, &after);
    byte_buffer plain = encode_signs(s, NULL, true, false, &raw_plain, &after);
    bool overrun = false;
    assert_int_equal(decode_signs(s, s->sctx, with.data, with.size, raw_bits.data, raw_bits.size, false, &overrun), 0);
    assert_false(overrun);
    rc_cost_table t;
    rc_cost_table_init(&t);
    residual_model m;
    residual_model_init(&m);
    sign_model sm;
    sign_model_init(&sm);
    uint64_t cost = 0;
    for (size_t i = 0; i < N; i++)
        cost += residual_cost_signs(&t, &m, &sm, s->ctx[i], s->sctx[i], s->v[i]);
    const double estimated = (double)cost / RC_COST_SCALE / 8, coded = (double)(with.size + raw_bits.size);
    print_message("  alternating signs: %zu bytes in sign contexts (estimated %.0f), %zu without\n",
                  with.size + raw_bits.size, estimated, plain.size + raw_plain.size);
    assert_true((double)(plain.size + raw_plain.size) - coded >= 0.9 * N / 8);
    assert_true(fabs(estimated - coded) <= 0.01 * coded);
    bytes_free(&with);
    bytes_free(&raw_bits);
    bytes_free(&plain);
    bytes_free(&raw_plain);
    free(s);
}

/* A hundred cuts of a stream and a byte flipped at a hundred places, spread over it: decoding runs
 * to the end without reading past the bytes (the sanitizer build checks that), and a cut stream
 * overruns or decodes wrongly unless only the flushed tail was cut. */
static void test_cut_and_flipped(void **state)
{
    (void)state;
    sequence *s = malloc(sizeof *s);
    assert_non_null(s);
    adversarial(s, 14);
    byte_buffer raw_bits;
    residual_model after;
    byte_buffer b = encode_signs(s, s->sctx, false, true, &raw_bits, &after);
    const size_t step = b.size / 100 + 1;
    int cuts = 0, caught = 0;
    for (size_t len = 0; len < b.size; len += step) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, b.data, len);
        bool overrun = false;
        const size_t wrong = decode_signs(s, s->sctx, cut, len, NULL, 0, true, &overrun);
        cuts++;
        caught += overrun || wrong > 0;
        free(cut);
    }
    for (size_t at = 0; at < b.size; at += step) {
        uint8_t *bad = malloc(b.size);
        memcpy(bad, b.data, b.size);
        bad[at] ^= 0x5A;
        bool overrun = false;
        (void)decode_signs(s, s->sctx, bad, b.size, NULL, 0, true, &overrun);
        free(bad);
    }
    print_message("  %zu bytes: %d of %d cuts overrun or decode wrongly\n", b.size, caught, cuts);
    assert_true(caught >= cuts - 1); /* a cut of the flushed tail alone may decode right */
    bytes_free(&b);
    bytes_free(&raw_bits);
    free(s);
}

/* One side of a match-coded stream with sign contexts: its coders (or decoders) and models. */
typedef struct match_side {
    byte_buffer out, raw_out;
    rc_encoder e;
    bit_writer w;
    rc_decoder d;
    bit_reader r;
    residual_model m;
    sign_model sm;
    match_model mm;
} match_side;

/* An encoding side (from == NULL) or one decoding from's stream (raw bits beside when raw). */
static void side_start(match_side *c, const match_side *from, bool raw)
{
    residual_model_init(&c->m);
    sign_model_init(&c->sm);
    assert_int_equal(match_model_init(&c->mm, N), 0);
    if (from) {
        rc_decoder_init(&c->d, from->out.data, from->out.size);
        bit_reader_init(&c->r, raw ? from->raw_out.data : NULL, raw ? from->raw_out.size : 0);
        return;
    }
    bytes_init(&c->out);
    bytes_init(&c->raw_out);
    rc_encoder_init(&c->e, &c->out);
    bit_writer_init(&c->w, &c->raw_out);
}

static void side_end(match_side *c, bool encoding)
{
    if (encoding) {
        rc_encoder_finish(&c->e);
        bit_writer_finish(&c->w);
    }
    match_model_free(&c->mm);
}

static void side_free(match_side *c)
{
    bytes_free(&c->out);
    bytes_free(&c->raw_out);
}

/* Repeats for the match model, through the entries shellpack_match.c calls (match_encode_with_sign,
 * match_decode_with_sign: the sign's probability lent only around a residual coded on a miss): a
 * cycle of 60 non-zero values of both signs, one value in 20 changed, so that most values are hits and
 * many hits and misses are non-zero.  (a) With every sign in sign context 0 the bytes are the plain
 * match coder's; (b) with random sign contexts every value comes back, the residual model's own sign
 * bits never move and the decoder's models end as the encoder's; (c) a sign context moves exactly at
 * the non-zero values coded on a miss, never at a hit; (d) a miss flagged and then the expected value
 * coded (no encoder writes that) sets `contradicted` through the same entry. */
static void test_signs_through_repeats(void **state)
{
    (void)state;
    sequence *s = malloc(sizeof *s);
    assert_non_null(s);
    pcg32 rng;
    pcg32_seed(&rng, 15, 5);
    int32_t cycle[60];
    for (int i = 0; i < 60; i++)
        cycle[i] = (int32_t)(pcg32_next(&rng) % 1000 + 1) * (pcg32_next(&rng) & 1 ? -1 : 1);
    for (size_t i = 0; i < N; i++) {
        s->v[i] = pcg32_next(&rng) % 20 ? cycle[i % 60] : (int32_t)(pcg32_next(&rng) % 2001) - 1000;
        s->ctx[i] = residual_context(i ? (uint32_t)abs(s->v[i - 1]) : 0);
        s->sctx[i] = (int)(pcg32_next(&rng) % SIGN_CONTEXTS);
    }
    for (int raw = 0; raw < 2; raw++) {
        /* (a) one sign context: the plain match coder, byte for byte */
        match_side plain, one;
        side_start(&plain, NULL, raw);
        side_start(&one, NULL, raw);
        for (size_t i = 0; i < N; i++) {
            match_encode(&plain.e, raw ? &plain.w : NULL, &plain.m, &plain.mm, s->ctx[i], s->v[i]);
            match_encode_with_sign(&one.e, raw ? &one.w : NULL, &one.m, &one.mm, s->ctx[i],
                                   &one.sm.negative[s->ctx[i]][0], s->v[i]);
        }
        side_end(&plain, true);
        side_end(&one, true);
        assert_int_equal(one.out.size, plain.out.size);
        assert_memory_equal(one.out.data, plain.out.data, one.out.size);
        assert_int_equal(one.raw_out.size, plain.raw_out.size);
        assert_memory_equal(one.raw_out.data, plain.raw_out.data, one.raw_out.size);
        side_free(&plain);
        side_free(&one);

        /* (b) and (c): random sign contexts, beside a sign model built from the misses alone */
        match_side enc, dec;
        side_start(&enc, NULL, raw);
        sign_model expected;
        sign_model_init(&expected);
        size_t hits = 0, nonzero_hits = 0, signed_misses = 0;
        for (size_t i = 0; i < N; i++) {
            int32_t want;
            int mctx;
            const bool hit = match_model_expect(&enc.mm, &want, &mctx) && want == s->v[i];
            hits += hit;
            nonzero_hits += hit && s->v[i] != 0;
            if (!hit && s->v[i] != 0) {
                rc_prob_update(&expected.negative[s->ctx[i]][s->sctx[i]], s->v[i] < 0);
                signed_misses++;
            }
            match_encode_with_sign(&enc.e, raw ? &enc.w : NULL, &enc.m, &enc.mm, s->ctx[i],
                                   &enc.sm.negative[s->ctx[i]][s->sctx[i]], s->v[i]);
        }
        side_end(&enc, true);
        print_message("  raw bits %s: %zu hits (%zu non-zero), %zu signs coded on misses, %zu + %zu bytes\n",
                      raw ? "beside" : "inside", hits, nonzero_hits, signed_misses, enc.out.size, enc.raw_out.size);
        assert_true(nonzero_hits > N / 2 && signed_misses > N / 40);
        assert_memory_equal(&enc.sm, &expected, sizeof expected);
        for (int c = 0; c < RESIDUAL_CONTEXTS; c++) {
            assert_int_equal(enc.m.negative[c].p, RC_PROB_INIT.p);
            assert_int_equal(enc.m.negative[c].seen, 0);
        }
        side_start(&dec, &enc, raw);
        size_t wrong = 0;
        for (size_t i = 0; i < N; i++)
            wrong += match_decode_with_sign(&dec.d, raw ? &dec.r : NULL, &dec.m, &dec.mm, s->ctx[i],
                                            &dec.sm.negative[s->ctx[i]][s->sctx[i]]) != s->v[i];
        assert_int_equal(wrong, 0);
        assert_false(dec.d.overrun || dec.r.overrun || dec.mm.contradicted);
        assert_memory_equal(&dec.sm, &enc.sm, sizeof enc.sm);
        assert_memory_equal(&dec.m, &enc.m, sizeof enc.m);
        side_end(&dec, false);
        side_free(&enc);
    }

    /* (d) a forged stream: at the first hit with a non-zero value, "not as expected" and then the
     * expected value coded; the decoder sees the contradiction through match_decode_with_sign */
    match_side enc, dec;
    side_start(&enc, NULL, true);
    size_t forged = N;
    for (size_t i = 0; i < N; i++) {
        int32_t want;
        int mctx;
        if (forged == N && match_model_expect(&enc.mm, &want, &mctx) && want == s->v[i] && want != 0) {
            rc_encode_bit(&enc.e, &enc.mm.hit[mctx], 0);
            residual_encode_signs(&enc.e, &enc.w, &enc.m, &enc.sm, s->ctx[i], s->sctx[i], want);
            match_model_push(&enc.mm, want);
            forged = i;
        } else
            match_encode_with_sign(&enc.e, &enc.w, &enc.m, &enc.mm, s->ctx[i],
                                   &enc.sm.negative[s->ctx[i]][s->sctx[i]], s->v[i]);
    }
    side_end(&enc, true);
    assert_true(forged < N);
    side_start(&dec, &enc, true);
    bool contradicted_before = false;
    for (size_t i = 0; i < N; i++) {
        (void)match_decode_with_sign(&dec.d, &dec.r, &dec.m, &dec.mm, s->ctx[i],
                                     &dec.sm.negative[s->ctx[i]][s->sctx[i]]);
        if (i + 1 == forged)
            contradicted_before = dec.mm.contradicted;
    }
    assert_false(contradicted_before);
    assert_true(dec.mm.contradicted);
    side_end(&dec, false);
    side_free(&enc);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_one_sign_context_is_the_plain_coder),
        cmocka_unit_test(test_signs_that_follow_their_context),
        cmocka_unit_test(test_cut_and_flipped),
        cmocka_unit_test(test_signs_through_repeats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
