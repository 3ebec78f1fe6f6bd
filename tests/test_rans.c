/* The rANS coder (codecs/entropy/rans.h) on adversarial symbol streams: random tables, a symbol of
 * almost all the probability, every symbol at the smallest frequency, a single symbol, several
 * tables interleaved symbol by symbol, empty, odd-length and long streams; the coded size against
 * the ideal (the sum of -log2 f / total over the symbols); the tables' normalisation and the
 * decoder's compact tables (running sums up to the last symbol used, a look-up by the slot's top
 * bits); every cut and flipped byte of a stream decoding to the end without a read out of bounds
 * or a hang.  And the tables named by three integers (geometric_table.h): their frequencies
 * against the distribution they stand for, computed here in floating point, and the fit against
 * an exhaustive search. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/entropy/geometric_table.h"
#include "codecs/entropy/rans.h"
#include "core/pcg32.h"

/* n symbols drawn from counts (as a distribution), each with table t[i % tables]. */
static void draw(pcg32 *rng, const uint32_t counts[][RANS_SYMBOLS], int tables, int symbols, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++) {
        const uint32_t *c = counts[i % (size_t)tables];
        uint64_t total = 0;
        for (int s = 0; s < symbols; s++)
            total += c[s];
        uint64_t r = ((uint64_t)pcg32_next(rng) << 32 | pcg32_next(rng)) % total;
        int s = 0;
        while (r >= c[s])
            r -= c[s++];
        out[i] = (uint8_t)s;
    }
}

/* The decoder's tables of encoder tables, in storage the caller frees. */
static void *decoder_tables(const rans_table *t, int n, const rans_dtable **d)
{
    uint16_t(*freqs)[RANS_SYMBOLS] = malloc((size_t)n * sizeof *freqs);
    for (int i = 0; i < n; i++)
        memcpy(freqs[i], t[i].freq, sizeof freqs[i]);
    const size_t bytes = rans_dtables_storage((const uint16_t(*)[RANS_SYMBOLS])freqs, n, RANS_SYMBOLS);
    void *storage = aligned_alloc(64, (bytes + 63) / 64 * 64);
    assert_int_equal(rans_dtables_build(d, (const uint16_t(*)[RANS_SYMBOLS])freqs, n, RANS_SYMBOLS, storage), 0);
    free(freqs);
    return storage;
}

static double round_trip(const rans_table *t, int tables, const uint8_t *symbols, size_t n, size_t *coded)
{
    rans_symbol *in = malloc((n ? n : 1) * sizeof *in);
    double ideal = 0;
    for (size_t i = 0; i < n; i++) {
        in[i] = (rans_symbol){&t[i % (size_t)tables], symbols[i]};
        ideal += -log2((double)t[i % (size_t)tables].freq[symbols[i]] / RANS_TOTAL);
    }
    byte_buffer b;
    bytes_init(&b);
    assert_true(rans_encode(in, n, &b));
    const rans_dtable *dt[4];
    void *storage = decoder_tables(t, tables, dt);
    rans_decoder d;
    rans_decoder_init(&d, b.data, b.size);
    for (size_t i = 0; i < n; i++) {
        const int s = rans_decode(&d, dt[i % (size_t)tables]);
        if (s != symbols[i])
            fail_msg("symbol %zu of %zu: %d, coded %d", i, n, s, symbols[i]);
    }
    assert_false(d.overrun);
    assert_true(d.p[0] == d.end[0] && d.p[1] == d.end[1]); /* every byte read, by the state that owns it */
    assert_true((d.end[0] > d.end[1] ? d.end[0] : d.end[1]) == b.data + b.size); /* the states swap at each symbol */
    *coded = b.size;
    bytes_free(&b);
    free(in);
    free(storage);
    return ideal / 8;
}

static void test_tables(void **state)
{
    (void)state;
    uint32_t counts[RANS_SYMBOLS] = {0};
    rans_table t;
    /* nothing counted: symbol 0 takes everything */
    rans_table_from_counts(&t, counts, RANS_SYMBOLS);
    assert_int_equal(t.freq[0], RANS_TOTAL);
    /* every symbol counted once, one a million times: each keeps at least 1, the sum is the total */
    for (int s = 0; s < RANS_SYMBOLS; s++)
        counts[s] = 1;
    counts[7] = 1000000;
    rans_table_from_counts(&t, counts, RANS_SYMBOLS);
    uint32_t sum = 0;
    for (int s = 0; s < RANS_SYMBOLS; s++) {
        assert_true(t.freq[s] >= 1);
        assert_int_equal(t.cum[s], sum);
        sum += t.freq[s];
    }
    assert_int_equal(sum, RANS_TOTAL);
    assert_int_equal(t.freq[7], RANS_TOTAL - (RANS_SYMBOLS - 1));
    /* in proportion: 3 to 1 */
    memset(counts, 0, sizeof counts);
    counts[2] = 300;
    counts[5] = 100;
    rans_table_from_counts(&t, counts, RANS_SYMBOLS);
    assert_int_equal(t.freq[2], RANS_TOTAL * 3 / 4);
    assert_int_equal(t.freq[5], RANS_TOTAL / 4);
    /* frequencies read back: refused unless they sum to the total */
    uint16_t freq[2][RANS_SYMBOLS] = {{0}};
    freq[0][0] = RANS_TOTAL - 1;
    freq[1][3] = RANS_TOTAL;
    const rans_dtable *d[2];
    _Alignas(64) static uint8_t storage[4096];
    assert_true(rans_dtables_storage((const uint16_t(*)[RANS_SYMBOLS])freq, 2, RANS_SYMBOLS) <= sizeof storage);
    assert_int_equal(rans_dtables_build(d, (const uint16_t(*)[RANS_SYMBOLS])freq, 2, RANS_SYMBOLS, storage), -1);
    freq[0][127] = 1;
    assert_int_equal(rans_dtables_build(d, (const uint16_t(*)[RANS_SYMBOLS])freq, 2, RANS_SYMBOLS, storage), 0);
    /* running sums up to the last symbol used: 0 holds all but the last slot, 1..126 none, 127 one */
    assert_int_equal(d[0]->cum[0], 0);
    assert_int_equal(d[0]->cum[1], RANS_TOTAL - 1);
    assert_int_equal(d[0]->cum[127], RANS_TOTAL - 1);
    assert_int_equal(d[0]->cum[128], RANS_TOTAL);
    assert_int_equal(d[1]->cum[3], 0);
    assert_int_equal(d[1]->cum[4], RANS_TOTAL);
    /* the look-up names the symbol holding each bucket's first slot; the zero-width ones never */
    for (unsigned j = 0; j < RANS_LUT; j++)
        assert_true(d[0]->lut[j] == 0 && d[1]->lut[j] == 3);
    /* each table on its own 64-byte line */
    assert_true((uintptr_t)d[0] % 64 == 0 && (uintptr_t)d[1] % 64 == 0 && d[1] != d[0]);
}

static void test_round_trips(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 7, 3);
    static uint32_t counts[4][RANS_SYMBOLS];
    rans_table t[4];
    const size_t n = 200000;
    uint8_t *symbols = malloc(n);
    /* random distributions, four tables interleaved */
    for (int round = 0; round < 20; round++) {
        for (int k = 0; k < 4; k++)
            for (int s = 0; s < RANS_SYMBOLS; s++)
                counts[k][s] = pcg32_next(&rng) % 3 == 0 ? 0 : 1 + pcg32_next(&rng) % (1u << (pcg32_next(&rng) % 20));
        for (int k = 0; k < 4; k++) {
            counts[k][pcg32_next(&rng) % RANS_SYMBOLS] += 1; /* never all zero */
            rans_table_from_counts(&t[k], counts[k], RANS_SYMBOLS);
        }
        const size_t m = 1 + pcg32_next(&rng) % n;
        draw(&rng, (const uint32_t(*)[RANS_SYMBOLS])counts, 4, RANS_SYMBOLS, m, symbols);
        size_t coded;
        const double ideal = round_trip(t, 4, symbols, m, &coded);
        /* at most 0.1 % and a few bytes above the ideal for these tables */
        if (!((double)coded <= ideal * 1.001 + 8))
            fail_msg("round %d: %zu symbols in %zu bytes, the ideal %.1f", round, m, coded, ideal);
    }
    /* one symbol with almost all the probability, the others at 1 / total */
    for (int s = 0; s < RANS_SYMBOLS; s++)
        counts[0][s] = 1;
    counts[0][3] = 1u << 30;
    rans_table_from_counts(&t[0], counts[0], RANS_SYMBOLS);
    for (size_t i = 0; i < n; i++)
        symbols[i] = i % 1000 == 0 ? (uint8_t)(i / 1000 % RANS_SYMBOLS) : 3;
    size_t coded;
    const double ideal = round_trip(t, 1, symbols, n, &coded);
    assert_true((double)coded <= ideal * 1.001 + 8);
    /* every symbol at the smallest frequency it can have: the rarest ones only */
    for (size_t i = 0; i < n; i++)
        symbols[i] = (uint8_t)(i % RANS_SYMBOLS == 3 ? 0 : i % RANS_SYMBOLS);
    round_trip(t, 1, symbols, n, &coded);
    assert_true(coded > n); /* 12 bits a symbol: more than a byte each */
    /* a single symbol: nothing but the state */
    memset(counts[0], 0, sizeof counts[0]);
    counts[0][9] = 5;
    rans_table_from_counts(&t[0], counts[0], RANS_SYMBOLS);
    memset(symbols, 9, n);
    round_trip(t, 1, symbols, n, &coded);
    assert_int_equal(coded, 9); /* two states and a zero count of words */
    /* no symbols at all, one, an odd count (the second state one short) */
    round_trip(t, 1, symbols, 0, &coded);
    assert_int_equal(coded, 9);
    round_trip(t, 1, symbols, 1, &coded);
    for (int s = 0; s < RANS_SYMBOLS; s++)
        counts[0][s] = 1 + (uint32_t)s * s;
    rans_table_from_counts(&t[0], counts[0], RANS_SYMBOLS);
    draw(&rng, (const uint32_t(*)[RANS_SYMBOLS])counts, 1, RANS_SYMBOLS, 1001, symbols);
    round_trip(t, 1, symbols, 1001, &coded);
    free(symbols);
}

/* Cut anywhere, or a byte flipped: decoding the same count of symbols runs to the end, within the
 * bytes given (ASan), and a cut stream says it ran out. */
static void test_cut_and_flipped(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 11, 5);
    static uint32_t counts[2][RANS_SYMBOLS];
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < RANS_SYMBOLS; s++)
            counts[k][s] = 1 + pcg32_next(&rng) % 500;
    rans_table t[2];
    rans_table_from_counts(&t[0], counts[0], RANS_SYMBOLS);
    rans_table_from_counts(&t[1], counts[1], RANS_SYMBOLS);
    const rans_dtable *dt[2];
    void *storage = decoder_tables(t, 2, dt);
    const size_t n = 3000;
    uint8_t symbols[3000];
    draw(&rng, (const uint32_t(*)[RANS_SYMBOLS])counts, 2, RANS_SYMBOLS, n, symbols);
    rans_symbol in[3000];
    for (size_t i = 0; i < n; i++)
        in[i] = (rans_symbol){&t[i % 2], symbols[i]};
    byte_buffer b;
    bytes_init(&b);
    assert_true(rans_encode(in, n, &b));
    for (size_t len = 0; len < b.size; len++) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, b.data, len);
        rans_decoder d;
        rans_decoder_init(&d, cut, len);
        for (size_t i = 0; i < n; i++)
            rans_decode(&d, dt[i % 2]);
        assert_true(d.overrun); /* every word is needed once: a cut one is missed */
        free(cut);
    }
    for (size_t at = 0; at < b.size; at++)
        for (int mask = 1; mask < 256; mask <<= 1) {
            uint8_t *bad = malloc(b.size);
            memcpy(bad, b.data, b.size);
            bad[at] ^= (uint8_t)mask;
            rans_decoder d;
            rans_decoder_init(&d, bad, b.size);
            for (size_t i = 0; i < n; i++)
                rans_decode(&d, dt[i % 2]);
            free(bad);
        }
    /* a state of 0 (all-zero bytes) decodes without hanging */
    uint8_t zeros[16] = {0};
    rans_decoder d;
    rans_decoder_init(&d, zeros, sizeof zeros);
    for (int i = 0; i < 1000; i++)
        rans_decode(&d, dt[0]);
    assert_true(d.overrun);
    /* a word count past the end: the first state gets what there is, and says so */
    uint8_t big[12] = {0, 0, 1, 0, 0, 0, 1, 0, 0xFF, 0x7F, 1, 2};
    rans_decoder_init(&d, big, sizeof big);
    assert_true(d.overrun && d.end[1] == big + sizeof big && d.end[0] <= d.end[1]);
    for (int i = 0; i < 100; i++)
        rans_decode(&d, dt[1]);
    bytes_free(&b);
    free(storage);
}

/* The symbol alphabet: every residual is its symbol and raw bits, and back. */
static void test_alphabet(void **state)
{
    (void)state;
    static const int32_t SOME[] = {0, 1, -1, 2, -2, 3, -3, 4, 5, 6, 7, 8, -8, 100, -100, 1 << 20, -(1 << 20),
                                   INT32_MAX, INT32_MIN, INT32_MIN + 1};
    for (size_t i = 0; i < sizeof SOME / sizeof *SOME; i++) {
        uint32_t raw;
        int bits;
        const int sym = gt_symbol(SOME[i], &raw, &bits);
        assert_true(sym >= 0 && sym < GT_SYMBOLS);
        assert_int_equal(bits, gt_raw_bits(sym));
        assert_int_equal(gt_residual(sym, raw), SOME[i]);
    }
    pcg32 rng;
    pcg32_seed(&rng, 3, 9);
    for (int i = 0; i < 100000; i++) {
        const int32_t r = (int32_t)pcg32_next(&rng) >> (pcg32_next(&rng) % 32);
        uint32_t raw;
        int bits;
        const int sym = gt_symbol(r, &raw, &bits);
        assert_int_equal(gt_residual(sym, raw), r);
        assert_true(raw < (1ull << bits));
    }
    /* the signs alternate within a class, the classes in order */
    uint32_t raw;
    int bits;
    assert_int_equal(gt_symbol(2, &raw, &bits), 3);
    assert_int_equal(gt_symbol(-2, &raw, &bits), 4);
    assert_int_equal(gt_symbol(3, &raw, &bits), 5);
    assert_int_equal(gt_symbol(4, &raw, &bits), 7);
    assert_int_equal(gt_symbol(INT32_MIN, &raw, &bits), 3 + 4 * 30 + 1);
}

/* A named table's frequencies: they sum to the total, every symbol up to `last` has at least one
 * slot and none after; and they follow the two-sided geometric distribution, worked out here in
 * floating point (P(0) = z / 63; a magnitude a: (1 - P(0)) (1 - t) t^(a - 1) / 2 a sign,
 * t = 1 - 2^(-j / 8)), within the rounding the integer construction allows. */
static void test_named_tables(void **state)
{
    (void)state;
    static const gt_params SOME[] = {{0, 0, 0}, {0, 63, 126}, {24, 10, 40}, {8, 32, 12}, {255, 0, 126}, {100, 5, 60},
                                     {3, 53, 28}, {54, 12, 42}, {200, 63, 20}};
    for (size_t i = 0; i < sizeof SOME / sizeof *SOME; i++) {
        const gt_params p = SOME[i];
        uint16_t freq[RANS_SYMBOLS];
        gt_frequencies(p, freq);
        uint32_t sum = 0;
        int big = 0;
        for (int s = 0; s < RANS_SYMBOLS; s++) {
            sum += freq[s];
            if (s <= p.last)
                assert_true(freq[s] >= 1);
            else
                assert_int_equal(freq[s], 0);
            if (freq[s] > freq[big])
                big = s;
        }
        assert_int_equal(sum, RANS_TOTAL);
        /* 1 - t is 2^(-j/8) to 32 fractional bits (truncated after rounding 2^(-(j mod 8)/8)) */
        const double one_minus_t = floor(round(ldexp(pow(2, -(p.slope % 8) / 8.0), 32)) / ldexp(1, p.slope / 8)) / ldexp(1, 32);
        const double t = 1 - one_minus_t, p0 = p.zero / 63.0;
        const double spare = RANS_TOTAL - (p.last + 1);
        for (int s = 0; s <= p.last; s++) {
            double mass;
            if (s == 0)
                mass = p0;
            else if (s <= 2)
                mass = (1 - p0) * (1 - t) / 2;
            else {
                const int k = s - 3, c = 1 + k / 4, h = (k / 2) % 2;
                const double lo = ldexp(1, c) + h * ldexp(1, c - 1), hi = lo + ldexp(1, c - 1);
                mass = (1 - p0) * (pow(t, lo - 1) - pow(t, hi - 1)) / 2;
            }
            double expect = 1 + mass * spare;
            if (s == big) { /* the largest symbol takes what the rounding and the tail past `last` leave */
                double kept = p0;
                for (int q = 1; q <= p.last; q++) {
                    if (q <= 2) {
                        kept += (1 - p0) * (1 - t) / 2;
                        continue;
                    }
                    const int k = q - 3, c = 1 + k / 4, h = (k / 2) % 2;
                    const double lo = ldexp(1, c) + h * ldexp(1, c - 1), hi = lo + ldexp(1, c - 1);
                    kept += (1 - p0) * (pow(t, lo - 1) - pow(t, hi - 1)) / 2;
                }
                expect += (1 - kept) * spare;
            }
            /* each share rounds down, and the largest takes those slots too: up to one a symbol */
            const double slack = s == big ? p.last + 2 : 2;
            if (!(fabs(freq[s] - expect) <= slack + expect * 1e-6))
                fail_msg("table (%d %d %d), symbol %d: %u slots, the distribution gives %.3f", p.slope, p.zero, p.last,
                         s, freq[s], expect);
        }
    }
}

/* The fit is within 0.5 % of the best of every table there is, on counts drawn from geometric
 * distributions and from others (a spike, a flat run, two humps). */
static void test_fit(void **state)
{
    (void)state;
    pcg32 rng;
    pcg32_seed(&rng, 5, 1);
    for (int round = 0; round < 6; round++) {
        uint32_t counts[GT_SYMBOLS] = {0};
        for (int i = 0; i < 3000; i++) {
            int32_t r;
            if (round < 3) { /* geometric of a random scale */
                const double u = (pcg32_next(&rng) + 0.5) / 4294967296.0, scale = 1 + round * 7;
                r = (int32_t)floor(-log(u) * scale) * (pcg32_next(&rng) & 1 ? 1 : -1);
            } else if (round == 3)
                r = pcg32_next(&rng) % 4 == 0 ? (int32_t)(pcg32_next(&rng) % 200) : 0;
            else if (round == 4)
                r = (int32_t)(pcg32_next(&rng) % 64) - 32;
            else
                r = pcg32_next(&rng) % 2 ? (int32_t)(pcg32_next(&rng) % 3) : 1000 + (int32_t)(pcg32_next(&rng) % 50);
            uint32_t raw;
            int bits;
            counts[gt_symbol(r, &raw, &bits)]++;
        }
        uint64_t cost;
        const gt_params fit = gt_fit(counts, &cost);
        uint64_t best = UINT64_MAX;
        for (int j = 0; j < GT_SLOPES; j++)
            for (int z = 0; z < GT_ZEROS; z++) {
                uint16_t freq[RANS_SYMBOLS];
                gt_frequencies((gt_params){(uint8_t)j, (uint8_t)z, fit.last}, freq);
                uint64_t c = 0;
                for (int s = 0; s <= fit.last; s++)
                    c += (uint64_t)counts[s] * rans_freq_cost(freq[s]);
                best = c < best ? c : best;
            }
        if (!((double)cost <= (double)best * 1.005))
            fail_msg("round %d: the fit costs %.1f bits, the best table %.1f", round, cost / 256.0, best / 256.0);
        for (int s = 0; s < GT_SYMBOLS; s++)
            if (counts[s])
                assert_true(s <= fit.last); /* every symbol counted can be coded */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_cut_and_flipped),
        cmocka_unit_test(test_alphabet),
        cmocka_unit_test(test_named_tables),
        cmocka_unit_test(test_fit),
    };
    return cmocka_run_group_tests_name("rans", tests, NULL, NULL);
}
