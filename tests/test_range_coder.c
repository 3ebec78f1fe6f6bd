/* The range coder and the residual coder (codecs/entropy/range_coder.h) on
 * adversarial symbol streams: all zeros, all extremes, random magnitudes in
 * random contexts, raw bits; streams cut and flipped decode without reading
 * out of bounds (the sanitizer build checks that). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/entropy/range_coder.h"
#include "core/pcg32.h"

static byte_buffer encode_all(const int32_t *v, const int *ctx, size_t n)
{
    byte_buffer out;
    bytes_init(&out);
    rc_encoder e;
    rc_encoder_init(&e, &out);
    residual_model m;
    residual_model_init(&m);
    for (size_t i = 0; i < n; i++)
        residual_encode(&e, NULL, &m, ctx ? ctx[i] : 0, v[i]);
    rc_encoder_finish(&e);
    assert_false(out.failed);
    return out;
}

static void assert_round_trip(const int32_t *v, const int *ctx, size_t n, size_t *bytes)
{
    byte_buffer b = encode_all(v, ctx, n);
    rc_decoder d;
    rc_decoder_init(&d, b.data, b.size);
    residual_model m;
    residual_model_init(&m);
    for (size_t i = 0; i < n; i++) {
        const int32_t got = residual_decode(&d, NULL, &m, ctx ? ctx[i] : 0);
        if (got != v[i])
            fail_msg("symbol %zu: %d decoded as %d", i, v[i], got);
    }
    assert_false(d.overrun);
    *bytes = b.size;
    bytes_free(&b);
}

/* A million zeros.  The zero flag's probability (15 bits) settles where an
 * update at the slowest rate, 1/32, no longer moves it: 32768 - p < 32,
 * p = 32737, so a zero costs -log2(32737 / 32768) = 0.001365 bits and a
 * million of them 171 bytes.  The coder splits range >> 15, not the range:
 * the zero's share loses (range mod 2^15) / range, at most 2^-9, on average
 * about 1.8e-4 for a range spread evenly in log over [2^24, 2^32): 2.5e-4
 * bits a zero, 32 bytes.  With the flushed tail (5): about 208 bytes. */
static void test_all_zeros(void **state)
{
    (void)state;
    const size_t n = 1000000;
    int32_t *v = calloc(n, sizeof *v);
    size_t bytes;
    assert_round_trip(v, NULL, n, &bytes);
    print_message("  %zu zeros: %zu bytes\n", n, bytes);
    assert_true(bytes >= 171 && bytes <= 215);
    free(v);
}

/* The extremes of int32 and their neighbours, in every context, in runs
 * and alternating. */
static void test_extremes(void **state)
{
    (void)state;
    static const int32_t pool[] = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, -1, 1, 0, 2, -2, 3, 1 << 30, -(1 << 30)};
    const size_t n = 120000, k = sizeof pool / sizeof *pool;
    int32_t *v = malloc(n * sizeof *v);
    int *ctx = malloc(n * sizeof *ctx);
    for (size_t i = 0; i < n; i++) {
        v[i] = i < n / 2 ? pool[(i / 1000) % k] : pool[i % k];
        ctx[i] = (int)(i % RESIDUAL_CONTEXTS);
    }
    size_t bytes;
    assert_round_trip(v, ctx, n, &bytes);
    free(v);
    free(ctx);
}

/* Random magnitudes of every bit length, random signs, contexts from the
 * previous magnitude as a codec would choose them. */
static void test_random(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 2026, 11);
    const size_t n = 300000;
    int32_t *v = malloc(n * sizeof *v);
    int *ctx = malloc(n * sizeof *ctx);
    uint32_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        const int bits = (int)(pcg32_next(&rng) % 33);
        uint32_t a = bits == 0 ? 0 : pcg32_next(&rng) >> (32 - bits);
        if (a > 0x7FFFFFFFu)
            a = 0x7FFFFFFFu;
        v[i] = (pcg32_next(&rng) & 1) ? -(int32_t)a : (int32_t)a;
        ctx[i] = residual_context(prev);
        prev = a;
    }
    size_t bytes;
    assert_round_trip(v, ctx, n, &bytes);
    print_message("  %zu random residuals: %zu bytes\n", n, bytes);
    free(v);
    free(ctx);
}

/* Small residuals cost what their entropy says: values -1, 0, 1 equally
 * likely have 1.585 bits each; the coder must come within 10 %. */
static void test_near_entropy(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 5, 6);
    const size_t n = 200000;
    int32_t *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (int32_t)(pcg32_next(&rng) % 3) - 1;
    size_t bytes;
    assert_round_trip(v, NULL, n, &bytes);
    const double bits_each = 8.0 * (double)bytes / (double)n, entropy = log2(3.0);
    print_message("  ternary: %.4f bits each, entropy %.4f\n", bits_each, entropy);
    assert_true(bits_each < entropy * 1.10);
    free(v);
}

/* The cost estimate an encoder chooses by (residual_cost) is what coding
 * costs: over 200,000 residuals of a Laplacian-like spread in contexts, its
 * sum is within 1 % of the bytes the coder writes. */
static void test_cost_estimate(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 77, 78);
    const size_t n = 200000;
    int32_t *v = malloc(n * sizeof *v);
    int *ctx = malloc(n * sizeof *ctx);
    uint32_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        const int bits = (int)(pcg32_next(&rng) % 12);
        const int32_t a = bits ? (int32_t)(pcg32_next(&rng) >> (32 - bits)) : 0;
        v[i] = (pcg32_next(&rng) & 1) ? -a : a;
        ctx[i] = residual_context(prev);
        prev = (uint32_t)a;
    }
    size_t bytes;
    assert_round_trip(v, ctx, n, &bytes);
    rc_cost_table t;
    rc_cost_table_init(&t);
    residual_model m;
    residual_model_init(&m);
    double cost = 0;
    for (size_t i = 0; i < n; i++)
        cost += residual_cost(&t, &m, ctx[i], v[i]);
    const double estimate = cost / RC_COST_SCALE / 8;
    print_message("  estimate %.0f bytes, coded %zu\n", estimate, bytes);
    assert_true(fabs(estimate - (double)bytes) <= 0.01 * (double)bytes);
    free(v);
    free(ctx);
}

/* The raw bits of residuals in a plain bit stream beside the range coder
 * (shellpack's layout): random residuals of every magnitude and the int32
 * extremes round-trip, and a bit stream cut by a byte overruns. */
static void test_raw_bits_beside(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 31, 32);
    const size_t n = 100000;
    int32_t *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        const int bits = (int)(pcg32_next(&rng) % 33);
        uint32_t a = bits == 0 ? 0 : pcg32_next(&rng) >> (32 - bits);
        v[i] = i % 1000 == 7 ? INT32_MIN : i % 1000 == 8 ? INT32_MAX : (int32_t)(a & 0x7FFFFFFFu) * ((i & 1) ? -1 : 1);
    }
    byte_buffer coded, raw;
    bytes_init(&coded);
    bytes_init(&raw);
    rc_encoder e;
    rc_encoder_init(&e, &coded);
    bit_writer w;
    bit_writer_init(&w, &raw);
    residual_model m;
    residual_model_init(&m);
    for (size_t i = 0; i < n; i++)
        residual_encode(&e, &w, &m, residual_context(i ? (uint32_t)abs(v[i - 1] / 2) : 0), v[i]);
    rc_encoder_finish(&e);
    bit_writer_finish(&w);
    assert_false(coded.failed || raw.failed);
    for (int cut = 0; cut < 2; cut++) {
        rc_decoder d;
        rc_decoder_init(&d, coded.data, coded.size);
        bit_reader r;
        bit_reader_init(&r, raw.data, raw.size - (size_t)cut);
        residual_model_init(&m);
        size_t wrong = 0;
        for (size_t i = 0; i < n; i++)
            wrong += residual_decode(&d, &r, &m, residual_context(i ? (uint32_t)abs(v[i - 1] / 2) : 0)) != v[i];
        assert_false(d.overrun);
        if (!cut) {
            assert_int_equal(wrong, 0);
            assert_false(r.overrun);
        } else
            assert_true(r.overrun);
    }
    print_message("  %zu residuals: %zu range-coded bytes, %zu raw\n", n, coded.size, raw.size);
    free(v);
    bytes_free(&coded);
    bytes_free(&raw);
}

static void test_raw_bits(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 9, 10);
    byte_buffer out;
    bytes_init(&out);
    rc_encoder e;
    rc_encoder_init(&e, &out);
    uint32_t vals[1000];
    int widths[1000];
    for (int i = 0; i < 1000; i++) {
        widths[i] = (int)(pcg32_next(&rng) % 33);
        vals[i] = widths[i] == 0 ? 0 : pcg32_next(&rng) >> (32 - widths[i]);
        rc_encode_raw(&e, vals[i], widths[i]);
    }
    rc_encoder_finish(&e);
    rc_decoder d;
    rc_decoder_init(&d, out.data, out.size);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(rc_decode_raw(&d, widths[i]), vals[i]);
    assert_false(d.overrun);
    bytes_free(&out);
}

/* Every cut of a stream and every byte flipped: decoding runs to the end
 * without reading past the bytes (ASan), and a cut stream either overruns
 * or decodes some symbol wrongly, unless only the flushed tail was cut. */
static void test_cut_and_flipped(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 1, 2);
    const size_t n = 400;
    int32_t v[400];
    for (size_t i = 0; i < n; i++)
        v[i] = (int32_t)(pcg32_next(&rng) % 2001) - 1000;
    byte_buffer b = encode_all(v, NULL, n);
    int caught = 0;
    for (size_t len = 0; len < b.size; len++) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, b.data, len);
        rc_decoder d;
        rc_decoder_init(&d, cut, len);
        residual_model m;
        residual_model_init(&m);
        bool wrong = false;
        for (size_t i = 0; i < n; i++)
            wrong |= residual_decode(&d, NULL, &m, 0) != v[i];
        caught += d.overrun || wrong;
        free(cut);
    }
    print_message("  %zu bytes: %d of %zu cuts overrun or decode wrongly\n", b.size, caught, b.size);
    assert_true(caught >= (int)b.size - 4);
    for (size_t at = 0; at < b.size; at++) {
        uint8_t *bad = malloc(b.size);
        memcpy(bad, b.data, b.size);
        bad[at] ^= 0x5A;
        rc_decoder d;
        rc_decoder_init(&d, bad, b.size);
        residual_model m;
        residual_model_init(&m);
        for (size_t i = 0; i < n; i++)
            (void)residual_decode(&d, NULL, &m, (int)(i % RESIDUAL_CONTEXTS));
        free(bad);
    }
    bytes_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_zeros),    cmocka_unit_test(test_extremes),  cmocka_unit_test(test_random),
        cmocka_unit_test(test_near_entropy), cmocka_unit_test(test_raw_bits),  cmocka_unit_test(test_cut_and_flipped),
        cmocka_unit_test(test_cost_estimate),  cmocka_unit_test(test_raw_bits_beside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
