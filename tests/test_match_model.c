/* The long-range match model (codecs/entropy/match_model.h) in front of the residual coder, on
 * adversarial sequences: periodic, periodic with glitches, extremes, no repeats at all, shorter than
 * its context, past its capacity; what a repeat costs against the plain coder; a stream no encoder
 * writes is flagged; streams cut and flipped decode without reading out of bounds (the sanitizer
 * build checks that: the flipped streams' loop asserts nothing else). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/entropy/match_model.h"
#include "core/pcg32.h"

static int context_of(size_t i)
{
    return (int)((i * 7) % RESIDUAL_CONTEXTS);
}

/* n values through the match model (or, with_match false, the residual coder alone); raw bits into
 * *raw_out when given, else through the range coder. */
static byte_buffer encode_values(const int32_t *v, size_t n, bool with_match, byte_buffer *raw_out)
{
    byte_buffer out;
    bytes_init(&out);
    rc_encoder e;
    rc_encoder_init(&e, &out);
    bit_writer w;
    if (raw_out)
        bit_writer_init(&w, raw_out);
    residual_model rm;
    residual_model_init(&rm);
    match_model mm;
    assert_int_equal(match_model_init(&mm, n), 0);
    for (size_t i = 0; i < n; i++)
        if (with_match)
            match_encode(&e, raw_out ? &w : NULL, &rm, &mm, context_of(i), v[i]);
        else
            residual_encode(&e, raw_out ? &w : NULL, &rm, context_of(i), v[i]);
    rc_encoder_finish(&e);
    if (raw_out)
        bit_writer_finish(&w);
    match_model_free(&mm);
    assert_false(out.failed);
    return out;
}

/* Decodes n values from data (and raw bits from raw); true when nothing past the end was read.
 * *contradicted, when given: whether the model saw a miss flag followed by the expected value. */
static bool decode_values_flagged(const uint8_t *data, size_t size, const uint8_t *raw, size_t raw_size, int32_t *v,
                                  size_t n, bool *contradicted)
{
    rc_decoder d;
    rc_decoder_init(&d, data, size);
    bit_reader r;
    if (raw)
        bit_reader_init(&r, raw, raw_size);
    residual_model rm;
    residual_model_init(&rm);
    match_model mm;
    assert_int_equal(match_model_init(&mm, n), 0);
    for (size_t i = 0; i < n; i++)
        v[i] = match_decode(&d, raw ? &r : NULL, &rm, &mm, context_of(i));
    if (contradicted)
        *contradicted = mm.contradicted;
    match_model_free(&mm);
    return !d.overrun && !(raw && r.overrun);
}

static bool decode_values(const uint8_t *data, size_t size, const uint8_t *raw, size_t raw_size, int32_t *v, size_t n)
{
    return decode_values_flagged(data, size, raw, raw_size, v, n, NULL);
}

/* Round trip through the model, with raw bits in the range coder and beside it; the coded size. */
static size_t assert_round_trip(const int32_t *v, size_t n)
{
    int32_t *got = malloc((n ? n : 1) * sizeof *got);
    byte_buffer b = encode_values(v, n, true, NULL);
    assert_true(decode_values(b.data, b.size, NULL, 0, got, n));
    for (size_t i = 0; i < n; i++)
        if (got[i] != v[i])
            fail_msg("value %zu of %zu: %d decoded as %d", i, n, v[i], got[i]);
    const size_t size = b.size;
    bytes_free(&b);
    byte_buffer raw;
    bytes_init(&raw);
    b = encode_values(v, n, true, &raw);
    assert_true(decode_values(b.data, b.size, raw.data, raw.size, got, n));
    for (size_t i = 0; i < n; i++)
        if (got[i] != v[i])
            fail_msg("value %zu of %zu (raw bits beside): %d decoded as %d", i, n, v[i], got[i]);
    bytes_free(&b);
    bytes_free(&raw);
    free(got);
    return size;
}

static int32_t *periodic(size_t n, size_t period, int32_t spread, uint64_t seed)
{
    pcg32 rng;
    pcg32_seed(&rng, seed, 5);
    int32_t *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = i < period ? (int32_t)(pcg32_next(&rng) % (2 * (uint32_t)spread + 1)) - spread : v[i - period];
    return v;
}

/* Ten periods of 60 random values in -1000..1000.  Without the model each period costs about the
 * same; with it only the first period and the MATCH_ORDER values of the second before the repeat
 * is recognised are coded as values (what the plain coder spends on those 66 alone), the other 534
 * as one adaptive bit each: for each of its 8 contexts of match length some 7 bits while the
 * probability learns (about log2 of the 30 bits it takes to reach the slowest rate, then 1.5 bits
 * while it settles), and 0.0014 bits a hit after.  At most 16 bytes above those 66 values, and
 * under a sixth of the plain stream. */
static void test_repeats_cost_little(void **state)
{
    (void)state;
    const size_t period = 60, n = 600;
    int32_t *v = periodic(n, period, 1000, 1);
    const size_t with = assert_round_trip(v, n);
    byte_buffer plain = encode_values(v, n, false, NULL), head = encode_values(v, period + MATCH_ORDER, false, NULL);
    print_message("  10 periods of 60 values: %zu bytes plain, %zu with the match model; the first 66 values alone "
                  "%zu\n",
                  plain.size, with, head.size);
    assert_true(with <= head.size + 16);
    assert_true(with * 6 < plain.size);
    bytes_free(&plain);
    bytes_free(&head);
    free(v);
}

/* No six values ever repeat (a strictly increasing sequence; random values over 2^21): the model
 * never expects anything, so its stream is the plain coder's, byte for byte. */
static void test_no_repeats_cost_nothing(void **state)
{
    (void)state;
    const size_t n = 5000;
    int32_t *v = malloc(n * sizeof *v);
    pcg32 rng;
    pcg32_seed(&rng, 3, 9);
    for (int kind = 0; kind < 2; kind++) {
        for (size_t i = 0; i < n; i++)
            v[i] = kind == 0 ? (int32_t)(i * 3) - 7000 : (int32_t)(pcg32_next(&rng) & 0x1FFFFF) - 0x100000;
        byte_buffer a = encode_values(v, n, true, NULL), b = encode_values(v, n, false, NULL);
        assert_int_equal(a.size, b.size);
        assert_memory_equal(a.data, b.data, a.size);
        assert_round_trip(v, n);
        bytes_free(&a);
        bytes_free(&b);
    }
    free(v);
}

/* Repeats broken every so often (a value changed at random places), runs of zeros, the extremes of
 * int32 in a cycle, cycles of every length from 1 to 40, and sequences shorter than the context. */
static void test_adversarial_round_trips(void **state)
{
    (void)state;
    const size_t n = 3000;
    pcg32 rng;
    pcg32_seed(&rng, 11, 2);
    int32_t *v = periodic(n, 97, 50, 4);
    for (size_t i = 0; i < n; i++)
        if (pcg32_next(&rng) % 37 == 0)
            v[i] = (int32_t)(pcg32_next(&rng) % 101) - 50;
    byte_buffer plain = encode_values(v, n, false, NULL);
    assert_true(assert_round_trip(v, n) < plain.size); /* repeats still pay with a glitch every 37 values */
    bytes_free(&plain);
    for (size_t i = 0; i < n; i++)
        v[i] = (i / 50) % 3 == 0 ? 0 : (int32_t)(pcg32_next(&rng) % 5) - 2;
    assert_round_trip(v, n);
    static const int32_t EXTREMES[] = {INT32_MIN, INT32_MAX, 0, -1, 1, INT32_MIN + 1, INT32_MAX - 1};
    for (size_t i = 0; i < n; i++)
        v[i] = EXTREMES[(i * i + i / 7) % 7];
    assert_round_trip(v, n);
    for (size_t p = 1; p <= 40; p++) {
        int32_t *c = periodic(400, p, 3, p);
        assert_round_trip(c, 400);
        free(c);
    }
    for (size_t len = 0; len <= MATCH_ORDER + 1; len++)
        assert_round_trip(v, len);
    free(v);
}

/* Past its capacity the model ignores what is pushed (and still expects only what it holds); a
 * capacity over MATCH_CAPACITY_MAX is refused. */
static void test_capacity(void **state)
{
    (void)state;
    match_model m;
    assert_int_equal(match_model_init(&m, 8), 0);
    for (int i = 0; i < 100; i++) {
        match_model_push(&m, i % 2);
        int32_t expected = 0;
        int ctx = -1;
        if (match_model_expect(&m, &expected, &ctx)) {
            assert_true(m.next < m.count);
            assert_true(ctx >= 0 && ctx < MATCH_CONTEXTS);
        }
    }
    assert_int_equal(m.count, 8);
    match_model_free(&m);
    assert_int_equal(match_model_init(&m, (size_t)MATCH_CAPACITY_MAX + 1), -1);
    assert_int_equal(match_model_init(&m, 0), 0);
    match_model_push(&m, 5);
    match_model_free(&m);
}

/* Every truncation and every byte flipped (three masks) of a periodic stream decodes without
 * reading past it; a cut one says it ran out. */
static void test_cut_and_flipped(void **state)
{
    (void)state;
    const size_t n = 700;
    int32_t *v = periodic(n, 70, 300, 8), *got = malloc(n * sizeof *got);
    byte_buffer b = encode_values(v, n, true, NULL);
    for (size_t len = 0; len + 4 < b.size; len++) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, b.data, len);
        const bool whole = decode_values(cut, len, NULL, 0, got, n);
        if (whole && memcmp(got, v, n * sizeof *v) == 0)
            fail_msg("cut to %zu of %zu bytes, it decoded every value and said nothing", len, b.size);
        free(cut);
    }
    static const uint8_t MASKS[] = {0x01, 0x80, 0xFF};
    for (size_t at = 0; at < b.size; at++)
        for (size_t k = 0; k < sizeof MASKS; k++) {
            uint8_t *bad = malloc(b.size);
            memcpy(bad, b.data, b.size);
            bad[at] ^= MASKS[k];
            (void)decode_values(bad, b.size, NULL, 0, got, n);
            free(bad);
        }
    bytes_free(&b);
    free(v);
    free(got);
}

/* A stream no encoder writes: a value flagged "not as expected" that is the expected one.  It
 * decodes to the values (the coder cannot tell), and the decoder says it is contradicted. */
static void test_contradiction_flagged(void **state)
{
    (void)state;
    const size_t n = 200;
    int32_t *v = periodic(n, 20, 9, 6), *got = malloc(n * sizeof *got);
    byte_buffer out;
    bytes_init(&out);
    rc_encoder e;
    rc_encoder_init(&e, &out);
    residual_model rm;
    residual_model_init(&rm);
    match_model mm;
    assert_int_equal(match_model_init(&mm, n), 0);
    bool forced = false;
    for (size_t i = 0; i < n; i++) {
        int32_t expected;
        int mctx;
        if (!forced && i > 100 && match_model_expect(&mm, &expected, &mctx) && expected == v[i]) {
            rc_encode_bit(&e, &mm.hit[mctx], 0); /* "a miss", then the expected value itself */
            residual_encode(&e, NULL, &rm, context_of(i), v[i]);
            match_model_push(&mm, v[i]);
            forced = true;
        } else
            match_encode(&e, NULL, &rm, &mm, context_of(i), v[i]);
    }
    rc_encoder_finish(&e);
    match_model_free(&mm);
    assert_true(forced);
    bool contradicted = false;
    assert_true(decode_values_flagged(out.data, out.size, NULL, 0, got, n, &contradicted));
    assert_true(contradicted);
    assert_memory_equal(got, v, n * sizeof *v);
    byte_buffer plain = encode_values(v, n, true, NULL);
    assert_true(decode_values_flagged(plain.data, plain.size, NULL, 0, got, n, &contradicted));
    assert_false(contradicted); /* the encoder's own stream */
    bytes_free(&plain);
    bytes_free(&out);
    free(v);
    free(got);
}

/* The model as first written (a table store at every value, match_model.c before its stores were
 * made to wait while a match is held): the table every look-up sees must be the same, so the same
 * expectations at every value.  Its hash is the model's, written out again here. */
typedef struct eager_model {
    int32_t *values;
    size_t count;
    uint32_t *table, bits;
    bool active;
    size_t next;
} eager_model;

static uint32_t eager_hash(const eager_model *m, size_t end)
{
    uint32_t h = 0x811C9DC5u;
    for (size_t i = end - MATCH_ORDER; i < end; i++)
        h = (h ^ (uint32_t)m->values[i]) * 0x9E3779B1u;
    return h >> (32 - m->bits);
}

static void eager_push(eager_model *m, int32_t value)
{
    m->values[m->count++] = value;
    if (m->active) {
        if (m->values[m->next] == value)
            m->next++;
        else
            m->active = false;
    }
    if (m->count < MATCH_ORDER)
        return;
    uint32_t *slot = &m->table[eager_hash(m, m->count)];
    if (!m->active && *slot && *slot >= MATCH_ORDER &&
        memcmp(m->values + *slot - MATCH_ORDER, m->values + m->count - MATCH_ORDER, MATCH_ORDER * sizeof *m->values) == 0) {
        m->active = true;
        m->next = *slot;
    }
    *slot = (uint32_t)m->count;
}

/* Sequences that repeat with edits (a value changed, dropped or inserted now and then), from a
 * small alphabet so that contexts recur across the edits, and a tiny table (many collisions). */
static void test_same_as_storing_every_value(void **state)
{
    (void)state;
    long expected_steps = 0, steps = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        pcg32 rng;
        pcg32_seed(&rng, seed, 11);
        const size_t n = 3000, period = 20 + pcg32_next(&rng) % 200;
        const uint32_t alphabet = seed % 4 == 0 ? 3 : seed % 4 == 1 ? 20 : 2000;
        int32_t *v = malloc(n * sizeof *v);
        for (size_t i = 0; i < n; i++) {
            const uint32_t r = pcg32_next(&rng) % 100;
            v[i] = i < period || r < 3 ? (int32_t)(pcg32_next(&rng) % alphabet) : r < 5 && i > period ? v[i - period + 1]
                                                                                    : v[i - period];
        }
        match_model mm;
        assert_int_equal(match_model_init(&mm, n), 0);
        /* a table of 64 to 2,048 slots for 3,000 values, fewer than the model's own 8,192: slots
         * overwritten by other contexts and candidates whose six values differ, at every size */
        mm.table_bits = 6 + (uint32_t)(seed % 6);
        eager_model em = {.values = malloc(n * sizeof(int32_t)), .bits = mm.table_bits};
        em.table = calloc((size_t)1 << em.bits, sizeof *em.table);
        for (size_t i = 0; i < n; i++) {
            int32_t got = 0;
            int ctx;
            const bool expects = match_model_expect(&mm, &got, &ctx);
            if (expects != em.active || (expects && got != em.values[em.next]))
                fail_msg("seed %llu, value %zu: the model expects %s%d, storing every value %s%d",
                         (unsigned long long)seed, i, expects ? "" : "nothing, not ", got, em.active ? "" : "nothing, not ",
                         em.active ? em.values[em.next] : 0);
            expected_steps += expects;
            steps++;
            match_model_push(&mm, v[i]);
            eager_push(&em, v[i]);
        }
        match_model_free(&mm);
        free(em.values);
        free(em.table);
        free(v);
    }
    print_message("  %ld of %ld values expected, the same at every one\n", expected_steps, steps);
    assert_true(expected_steps > steps / 2); /* the matches were exercised */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repeats_cost_little),    cmocka_unit_test(test_no_repeats_cost_nothing),
        cmocka_unit_test(test_adversarial_round_trips), cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_cut_and_flipped),       cmocka_unit_test(test_contradiction_flagged),
        cmocka_unit_test(test_same_as_storing_every_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
